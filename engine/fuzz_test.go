package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzPythonPipeline runs the whole Python pipeline (parse, index, handler
// discovery and reach, the checkpoint analysis, every rule, the fixes'
// re-analysis inputs) on mutated Python next to an mcp 1.x pin, seeded from
// the rule fixtures. It must never panic (the engine turns a panic into an
// "internal error" MCP000, which this target reports as a failure) nor hang.
func FuzzPythonPipeline(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/rules/*/*/*.py")
	for _, p := range seeds {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("import mcp\r@mcp.tool()\rasync def f():\r    return 1\r"))
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte("mcp==1.20.0\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	server := filepath.Join(dir, "server.py")
	if err := os.WriteFile(server, []byte("import mcp\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		res, err := Run([]string{dir}, Options{Jobs: 1, Overlay: map[string][]byte{server: src}, ReportUnreachable: true, ShowSafe: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Diagnostics {
			if d.Code == "MCP000" && strings.Contains(d.Message, "internal error") {
				t.Fatalf("%s", d.Message)
			}
		}
	})
}
