package suppress

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

// applyFirst applies the first fix of every MCP901 finding in file name.
func applyFirst(t *testing.T, src []byte, diags []rules.Diagnostic, name string) string {
	t.Helper()
	var edits []rules.Edit
	for _, d := range diags {
		if d.Code != rules.UnusedSuppressionCode || filepath.Base(d.Path) != name {
			continue
		}
		if len(d.Fixes) == 0 || d.Fixes[0].Applicability != rules.Safe {
			t.Fatalf("MCP901 without a safe fix: %+v", d)
		}
		edits = append(edits, d.Fixes[0].Edits...)
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.Start:e.Start], append([]byte(e.New), out[e.End:]...)...)
	}
	return string(out)
}

func TestUnusedFix(t *testing.T) {
	cases := []struct{ name, file, before, after string }{
		{"trailing", "requirements.txt",
			"mcp==1.20.0  # mcplint: ignore[MCP001] pin\nanyio==4.0  # mcplint: ignore[MCP001] stale\n",
			"mcp==1.20.0  # mcplint: ignore[MCP001] pin\nanyio==4.0\n"},
		{"own line", "requirements.txt",
			"# mcplint: ignore[MCP001] stale\nanyio==4.0\nmcp==1.20.0  # noqa: MCP001\n",
			"anyio==4.0\nmcp==1.20.0  # noqa: MCP001\n"},
		{"own line, last line without newline", "requirements.txt",
			"mcp==1.20.0  # noqa: MCP001\n# mcplint: ignore-file[MCP002] stale",
			"mcp==1.20.0  # noqa: MCP001"},
		{"crlf", "requirements.txt",
			"# mcplint: ignore[MCP001] stale\r\nanyio==4.0\r\nmcp==1.20.0  # noqa: MCP001\r\n",
			"anyio==4.0\r\nmcp==1.20.0  # noqa: MCP001\r\n"},
		{"one of two codes", "requirements.txt",
			"mcp==1.20.0  # mcplint: ignore[MCP002, MCP001] pin\n",
			"mcp==1.20.0  # mcplint: ignore[MCP001] pin\n"},
		{"unknown code", "requirements.txt",
			"mcp==1.20.0  # mcplint: ignore[MCP001,MCP999] pin\n",
			"mcp==1.20.0  # mcplint: ignore[MCP001] pin\n"},
		{"noqa keeps other tools' codes", "requirements.txt",
			"anyio==4.0  # noqa: E501, MCP001\nmcp==1.20.0  # noqa: MCP001\n",
			"anyio==4.0  # noqa: E501\nmcp==1.20.0  # noqa: MCP001\n"},
		{"before another comment", "requirements.txt",
			"anyio==4.0  # mcplint: ignore[MCP001] stale  # pinned for py3.9\nmcp==1.20.0  # noqa: MCP001\n",
			"anyio==4.0  # pinned for py3.9\nmcp==1.20.0  # noqa: MCP001\n"},
		{"after another comment", "requirements.txt",
			"anyio==4.0  # pinned  # mcplint: ignore[MCP001] stale\nmcp==1.20.0  # noqa: MCP001\n",
			"anyio==4.0  # pinned\nmcp==1.20.0  # noqa: MCP001\n"},
		{"no codes", "requirements.txt",
			"anyio==4.0  # mcplint: ignore\nmcp==1.20.0  # noqa: MCP001\n",
			"anyio==4.0\nmcp==1.20.0  # noqa: MCP001\n"},
		{"toml", "pyproject.toml",
			"[project]\nname = \"x\"\ndependencies = [\n    # mcplint: ignore[MCP001] stale\n    \"anyio\",\n    \"mcp==1.20.0\",  # mcplint: ignore[MCP001] pin\n]\n",
			"[project]\nname = \"x\"\ndependencies = [\n    \"anyio\",\n    \"mcp==1.20.0\",  # mcplint: ignore[MCP001] pin\n]\n"},
		{"python", "server.py",
			"import os  # mcplint: ignore[MCP104] stale\n\n\ndef f():\n    # mcplint: ignore[MCP101, MCP104] stale\n    return os.sep  # type: ignore\n",
			"import os\n\n\ndef f():\n    return os.sep  # type: ignore\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := testfs.Write(t, map[string]string{c.file: c.before})
			res, _ := run(t, dir, &Processor{})
			got := applyFirst(t, []byte(c.before), res.Diagnostics, c.file)
			if got != c.after {
				t.Fatalf("after fix:\n%q\nwant:\n%q", got, c.after)
			}
			// Idempotent: the fixed file has no unused suppression left.
			if err := os.WriteFile(filepath.Join(dir, c.file), []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			res, _ = run(t, dir, &Processor{})
			for _, d := range res.Diagnostics {
				if d.Code == rules.UnusedSuppressionCode {
					t.Errorf("still reported after the fix: %s:%d %s", d.Path, d.Start.Line, d.Message)
				}
			}
		})
	}
}
