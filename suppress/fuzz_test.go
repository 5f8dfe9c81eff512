package suppress

import (
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/pyast"
)

// FuzzDirectives checks that comment lexing and directive parsing never
// panic and keep every range inside the file, and that a file the engine's
// prefilter passes over (engine.MayHaveDirective false: it is neither read
// nor lexed for suppressions) holds no directive that could act: none names
// a code, none is a blanket noqa (noted on a finding's line), none is an
// mcplint comment.
func FuzzDirectives(f *testing.F) {
	f.Add("x = 1  # mcplint: ignore[MCP101, MCP104] reason  # noqa: E501, MCP101\n", "a.py")
	f.Add("mcp==1.2 # noqa: MCP001 x\n# mcplint: ignore-file[\n", "requirements.txt")
	f.Add("a = [\n # mcplint: ignore[MCP001]\n \"x\", # noqa:MCP1\n]\n", "pyproject.toml")
	f.Add("; mcplint: ignore\n# mcplint: ignore[]\n", "setup.cfg")
	f.Add("import os  # noqa: F401\nx = 1  # NOQA:E501,W291 long\n", "a.py")
	f.Add("x = 1  # noqa: F401, mcp101\ny = 2  # noqa : E501\tMCP104\n", "a.py")
	f.Add("x = 1  # noqa\ny = 2  # noqa:F401MCP101\n", "a.py")
	f.Fuzz(func(t *testing.T, src, name string) {
		for _, c := range comments(name, []byte(src), pyast.DefaultLimits) {
			if c.start < 0 || c.end > len(src) || c.start > c.end {
				t.Fatalf("comment %v outside the file", c)
			}
			for _, d := range parseDirectives([]byte(src), c) {
				if !engine.MayHaveDirective([]byte(src)) && (len(d.Codes) > 0 || d.Blanket || !d.Noqa) {
					t.Fatalf("directive %q (codes %v, blanket %v) in a file the prefilter passes over", src[d.Start:d.End], d.Codes, d.Blanket)
				}
				if d.Start < c.start || d.End > c.end {
					t.Fatalf("directive %d-%d outside its comment %v", d.Start, d.End, c)
				}
				for _, code := range d.Codes {
					if src[code.Start:code.End] != code.Text {
						t.Fatalf("code %q at %d-%d reads %q", code.Text, code.Start, code.End, src[code.Start:code.End])
					}
				}
			}
		}
	})
}
