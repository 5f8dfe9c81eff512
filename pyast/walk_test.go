package pyast

import "testing"

// Unparen strips parentheses, comments inside them included, and keeps
// those of a tuple or of nothing.
func TestUnparen(t *testing.T) {
	src := "a = (f)\nb = ((\n    g  # why\n))\nc = (\n    # lead\n    h.x\n)\nd = (i, j)\ne = ()\n"
	m, err := Parse("u.py", "u", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "f", "b": "g", "c": "h.x", "d": "(i, j)", "e": "()"}
	for n := range m.Nodes("assignment") {
		name := m.Text(n.ChildByFieldName("left"))
		if got := m.Text(Unparen(n.ChildByFieldName("right"))); got != want[name] {
			t.Errorf("%s: Unparen gives %q, want %q", name, got, want[name])
		}
	}
}
