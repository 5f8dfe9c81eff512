package config

import (
	"fmt"
	"strings"
	"testing"
)

func items(where string, vals ...string) []Item {
	var out []Item
	for _, v := range vals {
		out = append(out, Item{Value: v, Where: where})
	}
	return out
}

func TestSelection(t *testing.T) {
	file := func(sel []string, selSet bool, extend, ignore []string) Layer {
		return Layer{Select: items("mcplint.toml:1:1", sel...), SelectSet: selSet, ExtendSelect: items("mcplint.toml:2:1", extend...), Ignore: items("mcplint.toml:3:1", ignore...)}
	}
	flags := func(sel []string, extend, ignore []string) Layer {
		return Layer{Select: items("--select", sel...), SelectSet: sel != nil, ExtendSelect: items("--extend-select", extend...), Ignore: items("--ignore", ignore...)}
	}
	cases := []struct {
		name   string
		layers []Layer
		on     map[string]bool
		why    map[string]string
	}{
		{"defaults", nil,
			map[string]bool{"MCP000": true, "MCP001": true, "MCP101": true, "MCP900": false, "MCP901": true},
			map[string]string{"MCP101": "on by default", "MCP900": "off by default"}},
		{"file select", []Layer{file([]string{"MCP1"}, true, nil, nil)},
			map[string]bool{"MCP000": true, "MCP001": false, "MCP101": true, "MCP901": false},
			map[string]string{"MCP001": "not in select (mcplint.toml:1)", "MCP101": `selected by "MCP1" (mcplint.toml:1:1)`}},
		{"file extend-select turns on a default-off rule", []Layer{file(nil, false, []string{"MCP900"}, nil)},
			map[string]bool{"MCP900": true, "MCP101": true}, nil},
		{"ALL leaves default-off rules off", []Layer{file([]string{"ALL"}, true, nil, nil)},
			map[string]bool{"MCP900": false, "MCP101": true}, nil},
		{"specific select beats a prefix ignore", []Layer{file([]string{"MCP101"}, true, nil, []string{"MCP1"})},
			map[string]bool{"MCP101": true, "MCP102": false}, nil},
		{"specific ignore beats a prefix select", []Layer{file([]string{"MCP1"}, true, nil, []string{"MCP101"})},
			map[string]bool{"MCP101": false, "MCP102": true},
			map[string]string{"MCP101": `ignored by "MCP101" (mcplint.toml:3:1)`}},
		{"names select", []Layer{file([]string{"uncancellable-thread-await"}, true, nil, nil)},
			map[string]bool{"MCP101": true, "MCP102": false}, nil},
		{"flag select overrides file select", []Layer{file([]string{"MCP1"}, true, nil, nil), flags([]string{"MCP001"}, nil, nil)},
			map[string]bool{"MCP001": true, "MCP101": false},
			map[string]string{"MCP001": `selected by "MCP001" (--select)`, "MCP101": "not in select (--select)"}},
		{"flag ignore over file select", []Layer{file([]string{"MCP1"}, true, nil, nil), flags(nil, nil, []string{"MCP101"})},
			map[string]bool{"MCP101": false, "MCP102": true, "MCP001": false}, nil},
		{"flag extend-select over file ignore", []Layer{file(nil, false, nil, []string{"MCP101"}), flags(nil, []string{"MCP101"}, nil)},
			map[string]bool{"MCP101": true}, nil},
		{"file ignore kept without flags", []Layer{file(nil, false, nil, []string{"MCP101"}), flags(nil, nil, nil)},
			map[string]bool{"MCP101": false, "MCP102": true}, nil},
		{"MCP000 cannot be ignored", []Layer{flags(nil, nil, []string{"ALL"})},
			map[string]bool{"MCP000": true, "MCP101": false}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Selection(c.layers...)
			if err != nil {
				t.Fatal(err)
			}
			for code, want := range c.on {
				if got[code].On != want {
					t.Errorf("%s on = %v, want %v (%s)", code, got[code].On, want, got[code].Why)
				}
			}
			for code, want := range c.why {
				if !strings.HasPrefix(got[code].Why, want) {
					t.Errorf("%s why = %q, want %q", code, got[code].Why, want)
				}
			}
		})
	}
	if _, err := Selection(flags([]string{"NOPE"}, nil, nil)); err == nil || !strings.Contains(err.Error(), `--select: unknown rule selector "NOPE"`) {
		t.Errorf("unknown selector: %v", err)
	}
}

// A configuration that leaves no rule on but MCP000 is a Warning; one that
// leaves some rule on, or a command line that turns everything off itself,
// is not.
func TestSilenced(t *testing.T) {
	flags := Layer{}
	cases := []struct {
		name, src string
		flags     Layer
		want      []string
	}{
		{"empty select", "select = []\n", flags, []string{"f.toml:1:1: this configuration turns off every rule but MCP000"}},
		{"select MCP000", "select = [\"MCP000\"]\n", flags, []string{"f.toml:1:1: this configuration turns off every rule"}},
		{"ignore ALL", "\nignore = [\"ALL\"]\n", flags, []string{"f.toml:2:11: this configuration turns off every rule"}},
		{"extend-select beats ignore ALL", "extend-select = [\"MCP900\"]\nignore = [\"ALL\"]\n", flags, nil},
		{"ignore by prefixes", "ignore = [\"MCP0\", \"MCP1\", \"MCP9\"]\n", flags, []string{"f.toml:1:11: this configuration turns off every rule"}},
		{"ignore leaves one", "ignore = [\"MCP0\", \"MCP1\", \"MCP900\"]\n", flags, nil},
		{"the command line turns everything off", "ignore = [\"MCP1\"]\n", Layer{Select: items("--select", "MCP000"), SelectSet: true}, nil},
		{"a flag turns a rule back on", "select = []\n", Layer{ExtendSelect: items("--extend-select", "MCP101")}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse("f.toml", []byte(c.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			final, err := Selection(cfg.Layer(), c.flags)
			if err != nil {
				t.Fatal(err)
			}
			without, _ := Selection(c.flags)
			checkWarnings(t, cfg.Silenced(final, without), c.want)
		})
	}
}

func checkWarnings(t *testing.T, got []Warning, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("warnings %v, want %q", got, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i].String(), w) || !got[i].Silences {
			t.Errorf("warning %s\nwant prefix %s", got[i], w)
		}
	}
}

// per-file-ignores entries that, alone or together, turn off every rule
// that is on for some scanned files are a Warning at the first entry, with
// the files; entries that leave a rule on, or match no file, are not.
func TestSilencedFiles(t *testing.T) {
	paths := []string{"requirements.txt", "src/app.py", "tests/a.py", "tests/b.py", "tests/c.py", "tests/d.py", "tests/data/x.py"}
	cases := []struct {
		name, src string
		flags     Layer
		want      []string
	}{
		{"one entry, ALL", "[per-file-ignores]\n\"tests/**\" = [\"ALL\"]\n\"src/*.py\" = [\"MCP101\"]\n", Layer{},
			[]string{`f.toml:2:1: per-file-ignores "tests/**" (f.toml:2:1) turns off every rule that is on but MCP000 (files that cannot be read) for 5 scanned files ("tests/a.py", "tests/b.py", "tests/c.py", and 2 more): nothing else is checked in them`}},
		{"entries together", "[per-file-ignores]\n\"*.py\" = [\"MCP0\", \"MCP9\"]\n\"tests/*.py\" = [\"MCP1\"]\n\"data\" = [\"MCP1\"]\n", Layer{},
			[]string{`f.toml:2:1: per-file-ignores "*.py" (f.toml:2:1), "tests/*.py" (f.toml:3:1) turn off every rule that is on but MCP000 (files that cannot be read) for 4 scanned files`,
				`f.toml:2:1: per-file-ignores "*.py" (f.toml:2:1), "data" (f.toml:4:1) turn off every rule that is on but MCP000 (files that cannot be read) for 1 scanned file ("tests/data/x.py"): nothing else is checked in it`}},
		{"covers the selection", "select = [\"MCP101\"]\n[per-file-ignores]\n\"src/*.py\" = [\"uncancellable-thread-await\"]\n", Layer{},
			[]string{`f.toml:3:1: per-file-ignores "src/*.py" (f.toml:3:1) turns off every rule that is on but MCP000 (files that cannot be read) for 1 scanned file ("src/app.py")`}},
		{"a flag's rule stays on", "select = [\"MCP101\"]\n[per-file-ignores]\n\"src/*.py\" = [\"MCP101\"]\n", Layer{ExtendSelect: items("--extend-select", "MCP104")}, nil},
		{"leaves a rule on", "[per-file-ignores]\n\"**\" = [\"MCP0\", \"MCP1\"]\n", Layer{}, nil},
		{"matches no file", "[per-file-ignores]\n\"gen/**\" = [\"ALL\"]\n", Layer{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse("f.toml", []byte(c.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			final, err := Selection(cfg.Layer(), c.flags)
			if err != nil {
				t.Fatal(err)
			}
			checkWarnings(t, cfg.SilencedFiles(final, paths), c.want)
		})
	}
	// Past MaxSilencedChecks, the rest of the files are not checked, and a
	// warning says so.
	var b strings.Builder
	b.WriteString("[per-file-ignores]\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "\"gen%d/**\" = [\"ALL\"]\n", i)
	}
	cfg, err := Parse("f.toml", []byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	final, _ := Selection(cfg.Layer())
	many := make([]string, MaxSilencedChecks/1000+10)
	for i := range many {
		many[i] = fmt.Sprintf("src/m%d.py", i)
	}
	checkWarnings(t, cfg.SilencedFiles(final, many), []string{fmt.Sprintf("f.toml:2:1: per-file-ignores: 1000 entries are too many to check whether they turn every rule off for the last 10 of %d scanned files", len(many))})
}
