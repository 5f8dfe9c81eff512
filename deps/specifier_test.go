package deps

import "testing"

// The cases issue 3 names, as admitted ranges.
func TestRequirementCases(t *testing.T) {
	type q struct {
		lo, hi string
		want   bool
	}
	for _, c := range []struct {
		req  string
		name string
		qs   []q
	}{
		{"mcp[cli] (>=1.29,<1.30)", "mcp", []q{{"1.29.0", "1.30.0", true}, {"1.30.0", "", false}, {"", "1.29.0", false}}},
		{"mcp~=1.26.0", "mcp", []q{{"1.26.0", "1.27.0", true}, {"1.27.0", "", false}}},
		{"mcp>=1.2,<2", "mcp", []q{{"1.0.0", "2.0.0", true}, {"2.0.0.dev0", "", false}, {"", "1.2", false}}},
		{"mcp!=1.5.*", "mcp", []q{{"1.5.0", "1.6.0", false}, {"1.6", "", true}, {"2.0", "", true}}},
		{"mcp==1.*", "mcp", []q{{"1.0", "2.0", true}, {"2.0.0.dev0", "", false}}},
		{"fastmcp>=3,<4", "fastmcp", []q{{"3.0.0", "4.0.0", true}, {"4.0.0.dev0", "", false}}},
		{"fastmcp>=3.0.0b1", "fastmcp", []q{{"4.0.0.dev0", "", true}}},
		{"fastmcp>=3.0.0b1,<4.0.0", "fastmcp", []q{{"4.0.0.dev0", "", false}, {"3.0.0b1", "3.0.0rc1", true}}},
		{"mcp>=1.2,<2", "mcp", []q{{"2.0.0a1", "2.0.0", false}}}, // <2 excludes 2.0 pre-releases
		{`mcp>=1.20; python_version >= "3.10" and sys_platform != 'win32'`, "mcp", []q{{"1.20", "", true}}},
		{"mcp @ git+https://github.com/modelcontextprotocol/python-sdk@v1.25.0", "mcp", []q{{"", "", true}}},
	} {
		r, err := newRequirement("f", c.req, func(i int) int { return i })
		if err != nil {
			t.Errorf("%s: %v", c.req, err)
			continue
		}
		if r.Name != c.name {
			t.Errorf("%s: name %q", c.req, r.Name)
		}
		for _, q := range c.qs {
			if got := r.Set.AdmitsRange(q.lo, q.hi); got != q.want {
				t.Errorf("%s admits [%s, %s) = %v, want %v (set %s)", c.req, q.lo, q.hi, got, q.want, r.Set)
			}
		}
	}
}

func TestPEP508Parts(t *testing.T) {
	s := `mcp[cli, ws] (>=1.29,<1.30) ; python_version >= "3.10"`
	r, err := newRequirement("f", s, func(i int) int { return i })
	if err != nil {
		t.Fatal(err)
	}
	if r.RawName != "mcp" || len(r.Extras) != 2 || r.Extras[1] != "ws" || r.Specifier != ">=1.29,<1.30" ||
		r.Marker != `python_version >= "3.10"` || s[r.VersionStart:r.VersionEnd] != ">=1.29,<1.30" || r.End != len(s) {
		t.Errorf("got %+v", r)
	}
	r, err = newRequirement("f", "Foo_Bar.baz[X]", func(i int) int { return i })
	if err != nil || r.Name != "foo-bar-baz" || r.VersionStart != len("Foo_Bar.baz[X]") || r.Extras[0] != "x" {
		t.Errorf("got %+v, %v", r, err)
	}
	for _, bad := range []string{"", ">=1", "mcp>=", "mcp[cli", "mcp (>=1", "mcp>=1;", "mcp @", "mcp~=1", "mcp>=1.0.*", "mcp ; (a", "-mcp"} {
		if _, err := newRequirement("f", bad, func(i int) int { return i }); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestPoetryConstraints(t *testing.T) {
	for _, c := range []struct {
		spec, in, out string
	}{
		{"^1.23.3", "1.23.3 1.99", "1.23.2 2.0.0 2.0.0a1"},
		{"^0.2.3", "0.2.3 0.2.9", "0.3.0 0.2.2"},
		{"^0.0.3", "0.0.3", "0.0.4"},
		{"^0", "0.0.1 0.9", "1.0"},
		{"~1.2.3", "1.2.3 1.2.9", "1.3.0"},
		{"~1.2", "1.2.0 1.2.9", "1.3.0"},
		{"~1", "1.0 1.9", "2.0"},
		{"*", "0.1 9.9", ""},
		{"1.2.3", "1.2.3", "1.2.4"},
		{"1.2.*", "1.2.0 1.2.9", "1.3"},
		{">= 1.2, < 1.5", "1.2 1.4.9", "1.5 1.1"},
		{">=1.2 <1.5", "1.2", "1.5"},
		{"^1.2 || ^2.1", "1.5 2.5", "2.0 3.0"},
		{"~=1.26", "1.26 1.30", "2.0"},
	} {
		_, set, err := ParsePoetryConstraint(c.spec)
		if err != nil {
			t.Errorf("%s: %v", c.spec, err)
			continue
		}
		for _, v := range splitFields(c.in) {
			if !set.Contains(MustVersion(v)) {
				t.Errorf("%s should admit %s (set %s)", c.spec, v, set)
			}
		}
		for _, v := range splitFields(c.out) {
			if set.Contains(MustVersion(v)) {
				t.Errorf("%s should not admit %s (set %s)", c.spec, v, set)
			}
		}
	}
	for _, bad := range []string{">=", "^x", "1.2.3.*.4", ">= 1, <"} {
		if _, _, err := ParsePoetryConstraint(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, c := range s + " " {
		if c == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(c)
	}
	return out
}

func TestSetAlgebra(t *testing.T) {
	_, a, _ := ParseSpecifier(">=1.20,<2")
	_, b, _ := ParseSpecifier(">=1.25,<3")
	i := a.Intersect(b)
	if !i.AdmitsRange("1.25", "2") || i.AdmitsRange("", "1.25") || i.AdmitsRange("2", "") {
		t.Errorf("intersection %s", i)
	}
	u := a.Union(b)
	if !u.AdmitsRange("1.20", "1.25") || !u.AdmitsRange("2.5", "3") || u.AdmitsRange("3", "") {
		t.Errorf("union %s", u)
	}
	if !None().Empty() || All().Empty() || !a.Intersect(a.Complement()).Empty() {
		t.Error("empty sets")
	}
	// Only pre-releases between bounds, with pre-releases off: empty.
	_, pre, _ := ParseSpecifier(">1.0,<1.0.post0")
	if !pre.Empty() {
		t.Errorf("%s should be empty", pre)
	}
	_, open, _ := ParseSpecifier(">=1.20")
	if got := ResolveOpen("mcp", open); got.AdmitsRange("", "2.3.0") || !got.AdmitsRange("2.3.0", "") {
		t.Errorf("open range should resolve to the newest release: %s", got)
	}
	if got := ResolveOpen("mcp", a); !got.AdmitsRange("1.20", "1.21") {
		t.Errorf("a bounded range stays whole: %s", got)
	}
}
