package lsp

import (
	"path/filepath"
	"testing"

	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/rules"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// applyEdits applies text edits given in document order, as a client does.
func applyEdits(src []byte, edits []protocol.TextEdit) []byte {
	for i := len(edits) - 1; i >= 0; i-- {
		src = applyChange(src, edits[i].Range, edits[i].NewText)
	}
	return src
}

// TestWorkspaceEditPositions: a fix's byte offsets become UTF-16 positions
// (a character outside the BMP counts two) and its inserted lines take the
// file's newline style, so that the client's result is fix.Apply's.
func TestWorkspaceEditPositions(t *testing.T) {
	for _, src := range []string{
		"x = '\U0001F600é'; y = 1\nz = 2\n",
		"x = '\U0001F600é'; y = 1\r\nz = 2\r\n",
	} {
		b := []byte(src)
		at := len("x = '\U0001F600é'; ")
		f := &rules.Fix{Edits: []rules.Edit{
			{Path: "m.py", Start: at, End: at + len("y = 1"), New: "y = 2\nw = 3"},
			{Path: "m.py", Start: len(b), End: len(b), New: "v = 4\n"},
		}}
		read := func(string) ([]byte, error) { return b, nil }
		w, err := workspaceEdit(f, read, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		edits := w.Changes[pathURI(absPath("m.py"))]
		if len(edits) != 2 {
			t.Fatalf("edits = %+v", w)
		}
		// "x = '" is 5 code units, the emoji 2, "é'; " 4.
		if got := edits[0].Range.Start; got.Line != 0 || got.Character != 11 {
			t.Errorf("start = %+v, want line 0 character 11", got)
		}
		if got, want := string(applyEdits(b, edits)), string(fix.Apply(b, f.Edits)); got != want {
			t.Errorf("client result %q, fix.Apply %q", got, want)
		}
	}
}

// TestApplyChange: incremental changes use UTF-16 positions.
func TestApplyChange(t *testing.T) {
	src := []byte("a\U0001F600b\nc\n")
	got := applyChange(src, protocol.Range{Start: protocol.Position{Line: 0, Character: 3}, End: protocol.Position{Line: 1, Character: 0}}, "X")
	if string(got) != "a\U0001F600Xc\n" {
		t.Errorf("got %q", got)
	}
}

func TestURIRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a dir#1", "m é.py")
	u := pathURI(p)
	back, err := uriPath(u)
	if err != nil || back != p {
		t.Errorf("%s -> %s -> %s, %v", p, u, back, err)
	}
	if _, err := uriPath("untitled:Untitled-1"); err == nil {
		t.Error("an untitled: URI is no file")
	}
}
