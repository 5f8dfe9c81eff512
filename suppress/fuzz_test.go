package suppress

import (
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// FuzzDirectives checks that comment lexing and directive parsing never
// panic and keep every range inside the file.
func FuzzDirectives(f *testing.F) {
	f.Add("x = 1  # mcplint: ignore[MCP101, MCP104] reason  # noqa: E501, MCP101\n", "a.py")
	f.Add("mcp==1.2 # noqa: MCP001 x\n# mcplint: ignore-file[\n", "requirements.txt")
	f.Add("a = [\n # mcplint: ignore[MCP001]\n \"x\", # noqa:MCP1\n]\n", "pyproject.toml")
	f.Add("; mcplint: ignore\n# mcplint: ignore[]\n", "setup.cfg")
	f.Fuzz(func(t *testing.T, src, name string) {
		for _, c := range comments(name, []byte(src), pyast.DefaultLimits) {
			if c.start < 0 || c.end > len(src) || c.start > c.end {
				t.Fatalf("comment %v outside the file", c)
			}
			for _, d := range parseDirectives([]byte(src), c) {
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
