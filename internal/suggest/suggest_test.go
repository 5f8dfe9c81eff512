package suggest

import "testing"

func TestClosest(t *testing.T) {
	names := []string{"check", "rules", "explain", "version", "audit", "hook"}
	for _, tc := range []struct{ in, want string }{
		{"chek", "check"}, {"rule", "rules"}, {"adit", "audit"}, {"frobnicate", ""}, {"hook", "hook"},
	} {
		if got := Closest(tc.in, names, 3); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Closest("ab", []string{"ac", "aa"}, 3); got != "aa" {
		t.Errorf("a tie goes to the smaller name: %q", got)
	}
	if d := Distance("kitten", "sitting"); d != 3 {
		t.Errorf("Distance(kitten, sitting) = %d", d)
	}
}
