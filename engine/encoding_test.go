package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

// utf16LE encodes s as UTF-16 little-endian with its byte order mark, as
// PowerShell's `pip freeze > requirements.txt` writes it.
func utf16LE(s string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

// A requirements file that pip reads by its byte order mark (UTF-16, or
// UTF-8 with a BOM) is read as pip reads it: its pin is found, on its line,
// with a code frame of its text; a fix that would edit a UTF-16 file is
// advice only, so --fix leaves its bytes alone. Before, the UTF-16 file was
// one MCP000 per line and its pin was never seen, and the first line of a
// UTF-8 file with a BOM was "invalid requirement".
func TestRequirementsByteOrderMark(t *testing.T) {
	for _, c := range []struct {
		name      string
		src       []byte
		fixWrites bool
	}{
		{"UTF-16", utf16LE("httpx==0.27\r\nmcp==1.20.0\r\n"), false},
		{"UTF-8 BOM", []byte("\ufeffhttpx==0.27\nmcp==1.20.0\n"), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := testfs.Write(t, map[string]string{"server.py": offloadServer, "helpers.py": "def work(): return 1\n"})
			reqs := filepath.Join(root, "requirements.txt")
			if err := os.WriteFile(reqs, c.src, 0o644); err != nil {
				t.Fatal(err)
			}
			res := run(t, []string{root}, Options{})
			got := codes(root, res)
			if !slices.Contains(got, "requirements.txt:2:MCP001:error") || slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "MCP000") }) {
				t.Fatalf("findings %v, want MCP001 on line 2 and no MCP000", got)
			}
			for _, d := range res.Diagnostics {
				if d.Code != "MCP001" {
					continue
				}
				if src := res.Source(d.Path); !bytes.Contains(src, []byte("mcp==1.20.0\r\n")) && !bytes.Contains(src, []byte("mcp==1.20.0\n")) {
					t.Errorf("the code frame's source is %q, want the file's text", src)
				}
				writes := false
				for _, f := range d.Fixes {
					for _, e := range f.Edits {
						writes = writes || strings.HasSuffix(e.Path, "requirements.txt") && f.Applicability != rules.DisplayOnly
					}
					if !c.fixWrites && strings.Contains(f.Message, "pin mcp==1.27.0") && !strings.Contains(f.Message, "is UTF-16") {
						t.Errorf("fix %q does not say why it is not applied", f.Message)
					}
				}
				if writes != c.fixWrites {
					t.Errorf("a fix edits requirements.txt: %v, want %v", writes, c.fixWrites)
				}
			}
		})
	}
}
