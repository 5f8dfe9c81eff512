package config

import (
	"strings"
	"testing"
	"time"
)

func TestLimits(t *testing.T) {
	forms := map[string]struct {
		src    string
		prefix []string
	}{
		"pyproject sub-table": {"[tool.mcplint]\nselect = []\n[tool.mcplint.limits]\nparse-steps = 400_000\nparse-steps-per-byte = 0.5\nsyntax-nodes = 1000\nsyntax-depth = 500\nparse-cpu = \"1.5s\"\nfunction-steps = 20000\n", []string{"tool", "mcplint"}},
		"mcplint.toml table":  {"[limits]\nparse-steps = 400_000\nparse-steps-per-byte = 0.5\nsyntax-nodes = 1000\nsyntax-depth = 500\nparse-cpu = \"1.5s\"\nfunction-steps = 20000\n", nil},
		"inline":              {"limits = { parse-steps = 400000, parse-steps-per-byte = 0.5, syntax-nodes = 1000, syntax-depth = 500, parse-cpu = \"1500ms\", function-steps = 0x4e20 }\n", nil},
		"dotted":              {"limits.parse-steps = 400000\nlimits.parse-steps-per-byte = 0.5\nlimits.syntax-nodes = 1000\nlimits.syntax-depth = 500\nlimits.parse-cpu = \"1.5s\"\nlimits.function-steps = 20000\n", nil},
	}
	for name, f := range forms {
		t.Run(name, func(t *testing.T) {
			c, err := Parse("f.toml", []byte(f.src), f.prefix)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]float64{"parse-steps": 400_000, "parse-steps-per-byte": 0.5, "syntax-nodes": 1000, "syntax-depth": 500, "parse-cpu": float64(1500 * time.Millisecond), "function-steps": 20000}
			if len(c.Limits) != len(want) || len(c.Warnings) != 0 {
				t.Fatalf("limits %v, want %v", c.Limits, want)
			}
			for k, v := range want {
				if c.Limits[k].Value != v {
					t.Errorf("%s = %g, want %g", k, c.Limits[k].Value, v)
				}
			}
		})
	}
	c, err := Parse("f.toml", []byte("[limits]\n\nparse-steps = 0x10\n"), nil)
	if err != nil || c.Limits["parse-steps"].Where != "f.toml:3:15" || c.Limits["parse-steps"].Value != 16 {
		t.Errorf("where: %v %+v", err, c)
	}
	if c, err := Parse("f.toml", []byte("select = []\n"), nil); err != nil || c.Limits != nil {
		t.Errorf("no limits table: %v %v", err, c.Limits)
	}
}

func TestLimitErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"negative", "[limits]\nparse-steps = -1\n", `f.toml:2:15: limits.parse-steps must be a non-negative integer (0: no step limit), got "-1"`},
		{"string count", "[limits]\nsyntax-nodes = \"100\"\n", `f.toml:2:16: limits.syntax-nodes must be an integer from 0 (no limit) to 2000000000, got a string`},
		{"float count", "[limits]\nparse-steps = 1.5\n", `f.toml:2:15: limits.parse-steps must be a non-negative integer (0: no step limit), got a float`},
		{"too large", "[limits]\nparse-steps-per-byte = 2000000\n", `f.toml:2:24: limits.parse-steps-per-byte must be a number from 0 to 1000000, got "2000000"`},
		{"nan", "[limits]\nparse-steps-per-byte = nan\n", `f.toml:2:24: limits.parse-steps-per-byte must be a number from 0 to 1000000, got "nan"`},
		{"negative per byte", "[limits]\nparse-steps-per-byte = -0.5\n", `f.toml:2:24: limits.parse-steps-per-byte must be a number from 0 to 1000000, got "-0.5"`},
		{"nodes past int32", "[limits]\nsyntax-nodes = 3_000_000_000\n", `f.toml:2:16: limits.syntax-nodes must be an integer from 0 (no limit) to 2000000000`},
		{"cpu number", "[limits]\nparse-cpu = 3\n", `f.toml:2:13: limits.parse-cpu must be a non-negative duration such as "3s" or "500ms" (0: no limit), got an integer`},
		{"cpu nonsense", "[limits]\nparse-cpu = \"fast\"\n", `f.toml:2:13: limits.parse-cpu must be a non-negative duration such as "3s" or "500ms" (0: no limit), got "fast"`},
		{"cpu negative", "[limits]\nparse-cpu = \"-1s\"\n", `f.toml:2:13: limits.parse-cpu must be a non-negative duration`},
		{"unknown", "[limits]\nparse_steps = 1\n", `f.toml:2:1: unknown key "parse_steps" in limits; known keys: function-steps, parse-cpu, parse-steps, parse-steps-per-byte, syntax-depth, syntax-nodes`},
		{"twice", "[limits]\nparse-steps = 1\n[limits]\nparse-steps = 2\n", `f.toml:3:2: limits is set twice`},
		{"not a table", "limits = 5\n", `f.toml:1:10: limits must be a table of limits such as parse-steps = 1000000, got an integer`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("f.toml", []byte(c.src), nil)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error = %v\nwant prefix %s", err, c.want)
			}
		})
	}
	// "0" (turning the CPU backstop off) is read written as a number too;
	// a file may not turn it off (TestLimitsLoosen).
	if c, err := Parse("f.toml", []byte("limits.parse-cpu = 0\n"), nil); err != nil || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0].Msg, "limits.parse-cpu = 0s ignored") {
		t.Errorf("parse-cpu = 0: %v %+v", err, c)
	}
	for _, bad := range []string{"x", "", "1e9", "-5", "1.5", "inf"} {
		for _, name := range []string{"parse-steps", "function-steps", "syntax-depth"} {
			if _, err := ParseLimit(name, bad); err == nil {
				t.Errorf("ParseLimit(%s, %q) accepted", name, bad)
			}
		}
	}
	if _, err := ParseLimit("steps", "1"); err == nil || !strings.Contains(err.Error(), "known limits: function-steps") {
		t.Errorf("unknown limit: %v", err)
	}
	if v, err := ParseLimit("parse-steps", "2_000_000"); err != nil || v != 2_000_000 {
		t.Errorf("ParseLimit with underscores: %g %v", v, err)
	}
	if v, err := ParseLimit("parse-steps-per-byte", "0.75"); err != nil || v != 0.75 {
		t.Errorf("ParseLimit(parse-steps-per-byte, 0.75): %g %v", v, err)
	}
	if v, err := ParseLimit("parse-cpu", "250ms"); err != nil || v != float64(250*time.Millisecond) {
		t.Errorf("ParseLimit(parse-cpu, 250ms): %g %v", v, err)
	}
}

// A configuration file may lower a limit, never raise it past the default
// or turn it off: such a key is a Warning at its value, and the default
// stays (only --limit loosens).
func TestLimitsLoosen(t *testing.T) {
	src := "[tool.mcplint.limits]\nparse-steps = 0\nparse-steps-per-byte = 2\nsyntax-nodes = 4_000_001\nsyntax-depth = 0\nparse-cpu = \"1h\"\nfunction-steps = 0\n"
	c, err := Parse("pyproject.toml", []byte(src), []string{"tool", "mcplint"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Limits) != 0 {
		t.Errorf("loosening limits kept: %v", c.Limits)
	}
	want := []string{
		"pyproject.toml:2:15: limits.parse-steps = 0 ignored: a configuration file may lower a limit but not turn it off (the limits guard against hostile input, and the file is part of the repository); the default 500000 stays (pass --limit parse-steps=0 on the command line to change it)",
		"pyproject.toml:3:24: limits.parse-steps-per-byte = 2 ignored: a configuration file may lower a limit but not raise it above the default 1.5",
		"pyproject.toml:4:16: limits.syntax-nodes = 4000001 ignored",
		"pyproject.toml:5:16: limits.syntax-depth = 0 ignored: a configuration file may lower a limit but not turn it off",
		"pyproject.toml:6:13: limits.parse-cpu = 1h0m0s ignored: a configuration file may lower a limit but not raise it above the default 3s",
		"pyproject.toml:7:18: limits.function-steps = 0 ignored",
	}
	if len(c.Warnings) != len(want) {
		t.Fatalf("warnings %v, want %d", c.Warnings, len(want))
	}
	for i, w := range want {
		if got := c.Warnings[i].String(); !strings.HasPrefix(got, w) {
			t.Errorf("warning %d = %s\nwant prefix %s", i, got, w)
		}
	}
	// The defaults themselves, and anything below, are kept; 0 steps a
	// byte is the fixed budget alone, the tightest.
	c, err = Parse("f.toml", []byte("[limits]\nparse-steps = 500_000\nparse-steps-per-byte = 0\nparse-cpu = \"3s\"\nfunction-steps = 1\n"), nil)
	if err != nil || len(c.Warnings) != 0 || len(c.Limits) != 4 {
		t.Errorf("tightening limits: %v %v %v", err, c.Warnings, c.Limits)
	}
	for name, def := range LimitDefaults {
		if !Tightens(name, def) || Tightens(name, def*2) || Tightens(name, 0) != (name == "parse-steps-per-byte") {
			t.Errorf("Tightens(%s) around the default %g", name, def)
		}
	}
}
