package rules_test

// The fixes must produce Python that CPython accepts, not only what
// tree-sitter parses: this test applies every fix alternative, --fix and
// --fix --unsafe-fixes to every fixture project under testdata/rules and
// compiles each changed Python file with CPython's own compiler (python3 on
// PATH; skipped with a message otherwise). Where isort is installed (see
// findIsort; .ci/run installs it) it also checks that a file isort found
// sorted before the fix is still sorted after it, with the project's own
// settings (skipped with a message otherwise).
// Every line a fix adds must also fit the project's line length.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/rules/rulestest"
)

// fixtureCodes are the rules each fixture folder is run with (as the
// fixture tests do).
var fixtureCodes = map[string][]string{
	"MCP001": {"MCP001"}, "MCP002": {"MCP002", "MCP001"}, "MCP101": {"MCP101"}, "MCP102": {"MCP102"},
	"MCP103": {"MCP103"}, "MCP104": {"MCP104"}, "MCP105": {"MCP105"},
	"MCP106": {"MCP101", "MCP102", "MCP103", "MCP104", "MCP106"}, "MCP107": {"MCP101", "MCP106", "MCP107"},
}

// fixedFile is one changed file of one fixture project under one mode.
type fixedFile struct {
	project, mode, path string
	old, new            []byte
	width               int
	created             bool // the fix creates the file (old is empty)
}

var (
	allFixesOnce sync.Once
	allFixesOut  []fixedFile
)

// allFixes runs the fixes once for the tests of this file.
func allFixes(t *testing.T) []fixedFile {
	t.Helper()
	allFixesOnce.Do(func() { allFixesOut = computeFixes(t) })
	if allFixesOut == nil {
		t.Fatal("computing the fixes failed in an earlier test")
	}
	return allFixesOut
}

func computeFixes(t *testing.T) []fixedFile {
	t.Helper()
	var out []fixedFile
	groups, _ := filepath.Glob("../testdata/rules/MCP*")
	for _, g := range groups {
		codes := fixtureCodes[filepath.Base(g)]
		if codes == nil {
			t.Fatalf("%s: no rule codes for this fixture folder", g)
		}
		projects, _ := os.ReadDir(g)
		for _, pe := range projects {
			if !pe.IsDir() {
				continue
			}
			dir := filepath.ToSlash(filepath.Join(g, pe.Name()))
			opts := rulestest.Options(t, codes...)
			res, err := engine.Run([]string{dir}, opts)
			if err != nil {
				t.Fatal(err)
			}
			width := map[string]int{}
			for _, p := range res.Projects {
				if p.Deps() != nil {
					width[p.Dir] = p.Deps().Style.Width()
				}
			}
			modes := map[string]fix.Mode{"--fix": {}, "--unsafe-fixes": {Unsafe: true}}
			n := 0
			for i := range res.Diagnostics {
				for k := 1; fix.Alternative(&res.Diagnostics[i], k) != nil; k++ {
					n = max(n, k)
				}
			}
			for k := 1; k <= n; k++ {
				k := k
				modes[fmt.Sprintf("alternative %d", k)] = fix.Mode{Rounds: 1, Pick: func(d *rules.Diagnostic) *rules.Fix { return fix.Alternative(d, k) }}
			}
			for name, mode := range modes {
				o, err := fix.Run([]string{dir}, opts, mode)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range o.Files {
					w := 88
					for pd, pw := range width {
						if pd == "." || strings.HasPrefix(f.Path, pd+"/") || f.Path == pd {
							w = pw
						}
					}
					out = append(out, fixedFile{project: dir, mode: name, path: f.Path, old: f.Old, new: f.New, width: w, created: f.Created})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].path != out[j].path {
			return out[i].path < out[j].path
		}
		return out[i].mode < out[j].mode
	})
	return out
}

// compileScript compiles each file named on stdin (one JSON array of
// paths) and prints a JSON object of path -> error for those that fail.
const compileScript = `
import json, sys
errors = {}
for path in json.load(sys.stdin):
    try:
        with open(path, "rb") as f:
            compile(f.read(), path, "exec", dont_inherit=True)
    except SyntaxError as e:
        errors[path] = "%s (line %s)" % (e.msg, e.lineno)
json.dump(errors, sys.stdout)
`

func TestFixesCompileWithCPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: the fixed files are not compiled with CPython")
	}
	files := allFixes(t)
	tmp := t.TempDir()
	var paths []string
	where := map[string]fixedFile{}
	projects := map[string]bool{}
	for i, f := range files {
		if !strings.HasSuffix(f.path, ".py") {
			continue
		}
		projects[f.project] = true
		p := filepath.Join(tmp, fmt.Sprintf("%04d_%s", i, filepath.Base(f.path)))
		if err := os.WriteFile(p, f.new, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		where[p] = f
		if !f.created {
			// The file before the fix: one this Python refuses already
			// (3.14 syntax in a fixture) is not the fix's doing.
			if err := os.WriteFile(p+".old", f.old, 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p+".old")
		}
	}
	if len(paths) < 20 {
		t.Fatalf("only %d fixed Python files: the fixtures should produce many", len(paths))
	}
	in, _ := json.Marshal(paths)
	cmd := exec.Command(python, "-I", "-c", compileScript)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.String())
	}
	var errors map[string]string
	if err := json.Unmarshal(outb, &errors); err != nil {
		t.Fatalf("python3 output %q: %v", outb, err)
	}
	rejected := 0
	for p, msg := range errors {
		f, ok := where[p]
		if !ok {
			continue // a file before its fix
		}
		if _, before := errors[p+".old"]; before {
			t.Logf("%s (%s): this CPython rejects the file before the fix too (%s): not checked", f.path, f.mode, msg)
			continue
		}
		rejected++
		t.Errorf("%s (%s): CPython rejects the fixed file: %s\n%s", f.path, f.mode, msg, fix.UnifiedDiff(f.path, f.old, f.new))
	}
	t.Logf("compiled %d fixed Python files (%d fixture projects, every alternative, --fix and --unsafe-fixes) with %s: %d rejected", len(where), len(projects), python, rejected)
}

// TestFixedLinesFitTheLineLength: every line a fix adds to a Python file
// fits the project's line length (lines with a fixture's "# want:" marker
// excepted: the marker is not the project's code).
func TestFixedLinesFitTheLineLength(t *testing.T) {
	checked := 0
	for _, f := range allFixes(t) {
		if !strings.HasSuffix(f.path, ".py") {
			continue
		}
		old := map[string]bool{}
		for _, l := range strings.Split(string(f.old), "\n") {
			old[strings.TrimRight(l, "\r")] = true
		}
		for _, l := range strings.Split(string(f.new), "\n") {
			l = strings.TrimRight(l, "\r")
			if old[l] {
				continue
			}
			checked++
			if n := len([]rune(l)); n > f.width && !strings.Contains(l, "# want:") {
				t.Errorf("%s (%s): added line of %d characters, over the project's %d:\n%s", f.path, f.mode, n, f.width, l)
			}
		}
	}
	t.Logf("checked %d added lines", checked)
}

func TestFixesKeepIsortOrder(t *testing.T) {
	isort := findIsort()
	if isort == nil && os.Getenv("MCPLINT_NO_SKIP") != "" {
		t.Fatal("no isort (an isort executable, or the isort module of python3 on PATH or of /usr/bin/python3), and MCPLINT_NO_SKIP is set: .ci/run installs python3-isort so that the fixes' import order is checked")
	}
	if isort == nil {
		t.Skip("no isort (an isort executable, or the isort module of python3 on PATH or of /usr/bin/python3): import order not checked with isort (the placement is checked by the goldens and pystyle's tests)")
	}
	byProject := map[string][]fixedFile{}
	var projects []string
	for _, f := range allFixes(t) {
		if !strings.HasSuffix(f.path, ".py") {
			continue
		}
		if byProject[f.project] == nil {
			projects = append(projects, f.project)
		}
		byProject[f.project] = append(byProject[f.project], f)
	}
	sort.Strings(projects)
	checked, unsortedBefore := 0, 0
	for _, project := range projects {
		files := byProject[project]
		unsorted := isortUnsorted(t, isort, project, files)
		for i, f := range files {
			if f.created || unsorted[isortOld(i)] {
				unsortedBefore++
				continue // created, or already unsorted before the fix
			}
			checked++
			if unsorted[isortNew(i)] {
				t.Errorf("%s (%s): isort finds the imports unsorted after the fix:\n%s", f.path, f.mode, fix.UnifiedDiff(f.path, f.old, f.new))
			}
		}
	}
	if checked == 0 {
		t.Fatalf("isort found none of the fixed files sorted before the fix: nothing checked")
	}
	t.Logf("checked %d fixed Python files that isort (%s) found sorted before the fix, in %d fixture projects; %d were created or unsorted before", checked, strings.Join(isort, " "), len(projects), unsortedBefore)
}

// findIsort returns the command that runs isort: an isort executable, else
// the isort module of python3 on PATH, else that of /usr/bin/python3
// (where Debian's python3-isort installs it); nil if there is none.
func findIsort() []string {
	var candidates [][]string
	if p, err := exec.LookPath("isort"); err == nil {
		candidates = append(candidates, []string{p})
	}
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append(candidates, []string{p, "-m", "isort"})
	}
	candidates = append(candidates, []string{"/usr/bin/python3", "-m", "isort"})
	for _, c := range candidates {
		if exec.Command(c[0], append(c[1:], "--version")...).Run() == nil {
			return c
		}
	}
	return nil
}

// isortOld and isortNew name the copies of files[i] isortUnsorted checks.
func isortOld(i int) string { return fmt.Sprintf("old/%d", i) }
func isortNew(i int) string { return fmt.Sprintf("new/%d", i) }

// isortIncorrect is the line isort --check-only prints for an unsorted file.
var isortIncorrect = regexp.MustCompile(`^ERROR: (.+) Imports are incorrectly sorted and/or formatted\.$`)

// isortUnsorted runs isort --check-only once over the old and the new
// content of every file of one fixture project (written to a temporary
// folder, as isortOld(i)/PATH and isortNew(i)/PATH) with the project's
// settings, and returns the copies isort finds unsorted. The settings path
// is a copy of the project with the files the fixes create, so isort counts
// them as first party as it would in the fixed project. Exit 1 with only
// "incorrectly sorted" lines means unsorted files; anything else fails.
func isortUnsorted(t *testing.T, isort []string, project string, files []fixedFile) map[string]bool {
	t.Helper()
	tmp := t.TempDir()
	settings := filepath.Join(tmp, "project")
	if err := os.CopyFS(settings, os.DirFS(project)); err != nil {
		t.Fatal(err)
	}
	// isort looks for settings from there up to a folder with .git.
	if err := os.Mkdir(filepath.Join(settings, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyName := map[string]string{}
	args := append(slices.Clip(isort[1:]), "--check-only", "--profile", "black", "--settings-path", settings)
	for i, f := range files {
		rel, err := filepath.Rel(project, f.path)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("%s is not in its fixture project %s", f.path, project)
		}
		if f.created {
			write(filepath.Join(settings, rel), f.new)
		} else {
			p := filepath.Join(tmp, isortOld(i), rel)
			write(p, f.old)
			copyName[p] = isortOld(i)
			args = append(args, p)
		}
		p := filepath.Join(tmp, isortNew(i), rel)
		write(p, f.new)
		copyName[p] = isortNew(i)
		args = append(args, p)
	}
	cmd := exec.Command(isort[0], args...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("%s: isort failed (%v):\n%s", project, err, out)
	}
	unsorted := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		m := isortIncorrect.FindStringSubmatch(line)
		if m == nil || copyName[m[1]] == "" {
			t.Fatalf("%s: unexpected isort output (exit %v):\n%s", project, err, out)
		}
		unsorted[copyName[m[1]]] = true
	}
	if (err != nil) != (len(unsorted) > 0) {
		t.Fatalf("%s: isort exit status (%v) does not match its report of %d unsorted files:\n%s", project, err, len(unsorted), out)
	}
	return unsorted
}
