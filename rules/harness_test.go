package rules

// The in-package test harness of the rules: run a rule on a project given as
// a map, or a check function on every function of one module, and compare
// the findings with the `# want: CODE` comments; apply a fix's edits.

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
)

// projectRun parses files (slash path -> source) as one project, builds its
// handler index and runs rule r on it with no dependency information. The
// fixture tests under testdata/rules cover dependency files.
func projectRun(t *testing.T, r *Rule, files map[string]string) []Diagnostic {
	t.Helper()
	var mods []*pyast.Module
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		name := strings.TrimSuffix(strings.TrimSuffix(path, ".py"), "/__init__")
		m, err := pyast.Parse(path, strings.ReplaceAll(name, "/", "."), []byte(files[path]))
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, m)
	}
	var out []Diagnostic
	p := NewPass(r, ".", nil, mods, handlers.Build(mods, handlers.Config{}), func(d Diagnostic) { out = append(out, d) })
	r.Run(p)
	return out
}

// checkProjectWants compares findings with the want comments of every file.
func checkProjectWants(t *testing.T, code string, files map[string]string, diags []Diagnostic) {
	t.Helper()
	for path, src := range files {
		var mine []Diagnostic
		for _, d := range diags {
			if d.Path == path {
				mine = append(mine, d)
			}
		}
		t.Run(path, func(t *testing.T) { checkWants(t, src, code, mine) })
	}
}

// unitRun parses src as module app.py and runs check on every function of
// it, as if each were handler-reachable. The fixture tests
// (testdata/rules/MCP10x) cover reachability.
func unitRun(t *testing.T, r *Rule, src string, check func(*Pass, *pyast.Module, *pyast.Function)) (*pyast.Module, []Diagnostic) {
	t.Helper()
	m, err := pyast.Parse("app.py", "app", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var out []Diagnostic
	p := NewPass(r, ".", nil, []*pyast.Module{m}, nil, func(d Diagnostic) { out = append(out, d) })
	for _, f := range m.Funcs {
		check(p, m, f)
	}
	return m, out
}

var wantRE = regexp.MustCompile(`#\s*want:\s*([A-Z0-9, ]+)`)

// wantLines returns the 1-based lines of src whose want comment names code.
func wantLines(src, code string) []int {
	var out []int
	for i, line := range strings.Split(src, "\n") {
		if mm := wantRE.FindStringSubmatch(line); mm != nil && slices.Contains(strings.Fields(strings.ReplaceAll(mm[1], ",", " ")), code) {
			out = append(out, i+1)
		}
	}
	return out
}

// checkWants compares the start lines of diags with the want comments of src.
func checkWants(t *testing.T, src, code string, diags []Diagnostic) {
	t.Helper()
	var got []int
	for _, d := range diags {
		got = append(got, d.Start.Line)
	}
	sort.Ints(got)
	if want := wantLines(src, code); !slices.Equal(got, want) {
		var msgs []string
		for _, d := range diags {
			msgs = append(msgs, strconv.Itoa(d.Start.Line)+": "+d.Message)
		}
		t.Errorf("%s at lines %v, want %v\n%s", code, got, want, strings.Join(msgs, "\n"))
	}
}

// applyFix applies the edits of one fix (they must not overlap) to src.
func applyFix(t *testing.T, src string, fix Fix) string {
	t.Helper()
	edits := slices.Clone(fix.Edits)
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	for i, e := range edits {
		if i > 0 && e.End > edits[i-1].Start {
			t.Fatalf("overlapping edits %+v", edits)
		}
		src = src[:e.Start] + e.New + src[e.End:]
	}
	return src
}
