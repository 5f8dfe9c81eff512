package engine

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
)

// A lock entry for mcp with no version, or a version that is not a string,
// once resolved mcp to the newest release (2.x): every code finding became
// "not reported" and the run passed with exit 0 although the manifest
// declares mcp>=1.10,<2. Now the entry is MCP000 and the declared range
// decides, so the offload is an error again (issue 14, item 6).
func TestMalformedLockEntryDoesNotHideFindings(t *testing.T) {
	const manifest = "[project]\nname = 'demo'\ndependencies = ['mcp>=1.10,<2']\n"
	for _, c := range []struct {
		name, file, src string
		line            int // of the MCP000
	}{
		{"poetry no version", "poetry.lock", "[[package]]\nname = \"mcp\"\ndescription = \"x\"\n", 2},
		{"poetry integer version", "poetry.lock", "[[package]]\nname = \"mcp\"\nversion = 1\n", 3},
		{"pylock no version", "pylock.toml", "lock-version = \"1.0\"\n\n[[packages]]\nname = \"mcp\"\n", 4},
		{"pylock array version", "pylock.toml", "lock-version = \"1.0\"\n\n[[packages]]\nname = \"mcp\"\nversion = [\"1.26.0\"]\n", 5},
		{"uv no version", "uv.lock", "version = 1\n\n[[package]]\nname = \"mcp\"\nsource = { registry = \"https://pypi.org/simple\" }\n", 4},
		{"pdm table version", "pdm.lock", "[[package]]\nname = \"mcp\"\nversion = { v = \"1.26.0\" }\n", 3},
		{"Pipfile.lock no version", "Pipfile.lock", "{\"default\": {\n\"mcp\": {\"hashes\": []}\n}}\n", 2},
		{"Pipfile.lock number version", "Pipfile.lock", "{\"default\": {\n\"mcp\": {\"version\": 1.26}\n}}\n", 2},
		{"Pipfile.lock range version", "Pipfile.lock", "{\"default\": {\n\"mcp\": {\"version\": \">=1\"}\n}}\n", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{c.file: c.src, "server.py": offloadServer, "helpers.py": "def work(): return 1\n"}
			if c.file == "Pipfile.lock" {
				files["Pipfile"] = "[packages]\nmcp = \">=1.10,<2\"\n"
			} else {
				files["pyproject.toml"] = manifest
			}
			root := testfs.Write(t, files)
			got := codes(root, run(t, []string{root}, Options{}))
			joined := strings.Join(got, " ")
			for _, want := range []string{c.file + ":" + strconv.Itoa(c.line) + ":MCP000:error", "server.py:8:MCP101:error"} {
				if !strings.Contains(joined, want) {
					t.Errorf("missing %s in %q", want, got)
				}
			}
		})
	}
}
