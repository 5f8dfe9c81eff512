package deps

import "testing"

// PEP 440's ordering example (summary of permitted suffixes and relative
// ordering), each strictly greater than the previous one.
func TestVersionOrderPEP440(t *testing.T) {
	order := []string{
		"1.dev0", "1.0.dev456", "1.0a1", "1.0a2.dev456", "1.0a12.dev456", "1.0a12",
		"1.0b1.dev456", "1.0b2", "1.0b2.post345.dev456", "1.0b2.post345", "1.0rc1.dev456", "1.0rc1",
		"1.0", "1.0.post456.dev34", "1.0.post456", "1.0.15", "1.1.dev1", "1!0.1",
	}
	for i := 1; i < len(order); i++ {
		a, b := MustVersion(order[i-1]), MustVersion(order[i])
		if a.Compare(b) >= 0 || b.Compare(a) <= 0 {
			t.Errorf("want %s < %s", order[i-1], order[i])
		}
	}
}

// PEP 440's normalisation rules.
func TestVersionNormalisation(t *testing.T) {
	for in, want := range map[string]string{
		"1.0":          "1.0",
		"v1.0":         "1.0",
		"1.0-alpha1":   "1.0a1",
		"1.0.ALPHA.1":  "1.0a1",
		"1.0c1":        "1.0rc1",
		"1.0pre2":      "1.0rc2",
		"1.0preview2":  "1.0rc2",
		"1.0b":         "1.0b0",
		"1.0-1":        "1.0.post1",
		"1.0-r4":       "1.0.post4",
		"1.0rev4":      "1.0.post4",
		"1.0.post":     "1.0.post0",
		"1.0-dev":      "1.0.dev0",
		"1.0_dev2":     "1.0.dev2",
		"1.0+Ubuntu-1": "1.0+ubuntu.1",
		"2!1.0":        "2!1.0",
		" 1.2.3 ":      "1.2.3",
	} {
		v, err := ParseVersion(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if v.String() != want {
			t.Errorf("%q normalises to %q, want %q", in, v.String(), want)
		}
	}
	if MustVersion("1.0").Compare(MustVersion("1.0.0.0")) != 0 {
		t.Error("1.0 and 1.0.0.0 must be equal")
	}
	for _, bad := range []string{"", "1.", "a1", "1.0+", "1.0+a..b", "1.0.x", "1!", "99999999999999999999", "1.0 dev"} {
		if _, err := ParseVersion(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestPrerelease(t *testing.T) {
	for s, want := range map[string]bool{"1.0": false, "1.0a1": true, "1.0.dev0": true, "1.0.post1": false, "1.0.post1.dev0": true} {
		if got := MustVersion(s).IsPrerelease(); got != want {
			t.Errorf("%s pre-release = %v", s, got)
		}
	}
}
