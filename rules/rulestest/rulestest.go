// Package rulestest runs rule fixtures in the style of
// golang.org/x/tools/go/analysis/analysistest.
//
// A fixture is a small project: a folder with Python files and, optionally,
// dependency files. A line that must be reported carries a trailing comment
// naming the codes:
//
//	await anyio.to_thread.run_sync(work)  # want: MCP101
//
// Every reported finding of the selected rules must be wanted and every want
// must be reported. A finding the project's versions or shape make harmless
// (reported only as a note with --show-safe) is wanted with "# note: CODE";
// a fixture with such a comment is also run with --show-safe and its notes
// must match exactly. For fixes, <file>.fix1.golden holds the file after
// applying the first applicable fix alternative of every finding that has
// one, .fix2.golden the second, and so on. For each alternative the harness
// also checks that the result re-parses, that the fixed findings are gone
// (or, for a partial fix, changed), and that fixing again with the same
// fix changes nothing. go test -update rewrites goldens.
package rulestest

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

var update = flag.Bool("update", false, "rewrite fix golden files")

// wantRE matches "# want: MCP101" or "# want: MCP101, MCP104" in a comment.
var wantRE = regexp.MustCompile(`#\s*want:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)`)

// possiblyRE matches "# possibly: MCP101": a finding reached only through
// a call the analysis could not resolve (rules.PossiblyLabel), which
// must be a warning whose message says "possibly reached"; a "# want:"
// finding must not be one.
var possiblyRE = regexp.MustCompile(`#\s*possibly:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)`)

// RunDir runs every fixture project below dir (each subfolder is one) as a
// subtest.
func RunDir(t *testing.T, dir string, codes ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("read fixtures: %v", err)
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() {
			n++
			sub := filepath.Join(dir, e.Name())
			t.Run(e.Name(), func(t *testing.T) { Run(t, sub, codes...) })
		}
	}
	if n == 0 {
		t.Fatalf("no fixture projects in %s", dir)
	}
}

// Options returns the engine options the harness uses for codes.
func Options(t *testing.T, codes ...string) engine.Options {
	t.Helper()
	var sel []*rules.Rule
	for _, c := range codes {
		r := rules.Lookup(c)
		if r == nil {
			t.Fatalf("unknown rule %s", c)
		}
		sel = append(sel, r)
	}
	return engine.Options{Rules: sel, Jobs: 2}
}

// Run checks one fixture project.
func Run(t *testing.T, dir string, codes ...string) {
	t.Helper()
	dir = filepath.ToSlash(filepath.Clean(dir))
	opts := Options(t, codes...)
	res, err := engine.Run([]string{dir}, opts)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	checkWants(t, dir, res, codes)
	checkNotes(t, dir, opts)
	checkFixes(t, dir, opts, res)
	for _, unsafe := range []bool{false, true} {
		checkMode(t, dir, opts, unsafe)
	}
}

// checkMode applies the fixes as --fix (unsafe false) or --fix
// --unsafe-fixes choose them, in as many rounds as the command runs, and
// checks that a second run changes nothing (the command run twice: the
// choice between alternatives included, such as the guard a project that
// a bump moves to mcp 2 does not get). With unsafe, a fixture that has
// <file>.unsafe.golden files must change exactly those files to them
// (go test -update rewrites the goldens of a fixture that has one).
func checkMode(t *testing.T, dir string, opts engine.Options, unsafe bool) {
	t.Helper()
	name := "--fix"
	if unsafe {
		name += " --unsafe-fixes"
	}
	out, err := fix.Run([]string{dir}, opts, fix.Mode{Unsafe: unsafe})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	changed := map[string][]byte{}
	for _, f := range out.Files {
		changed[f.Path] = f.New
	}
	if goldens := goldensUnder(t, dir, "*.unsafe.golden"); unsafe && len(goldens) > 0 {
		for _, f := range out.Files {
			compareGolden(t, f.Path+".unsafe.golden", f.New)
		}
		for _, g := range goldens {
			if _, ok := changed[strings.TrimSuffix(filepath.ToSlash(g), ".unsafe.golden")]; ok {
				continue
			}
			if *update {
				os.Remove(g)
				continue
			}
			t.Errorf("%s: golden exists but %s does not change the file", g, name)
		}
	}
	again := opts
	again.Overlay = changed
	out2, err := fix.Run([]string{dir}, again, fix.Mode{Unsafe: unsafe})
	if err != nil {
		t.Fatalf("%s again: %v", name, err)
	}
	for _, f := range out2.Files {
		t.Errorf("%s run twice: the second run changes %s:\n%s", name, f.Path, fix.UnifiedDiff(f.Path, f.Old, f.New))
	}
}

// noteRE matches "# note: MCP001" in a comment.
var noteRE = regexp.MustCompile(`#\s*note:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)`)

// checkNotes runs a fixture that has "# note:" comments with --show-safe
// and compares its notes with them.
func checkNotes(t *testing.T, dir string, opts engine.Options) {
	t.Helper()
	want := commentKeys(t, dir, noteRE)
	if len(want) == 0 {
		return
	}
	opts.ShowSafe = true
	res, err := engine.Run([]string{dir}, opts)
	if err != nil {
		t.Fatalf("run --show-safe: %v", err)
	}
	var problems []string
	got := map[key]bool{}
	for _, d := range res.Diagnostics {
		if d.Severity != rules.SeverityNote {
			continue
		}
		k := key{d.Path, d.Start.Line, d.Code}
		got[k] = true
		if !want[k] {
			problems = append(problems, fmt.Sprintf("%s:%d: unexpected note %s: %s", k.file, k.line, k.code, d.Message))
		}
	}
	for k := range want {
		if !got[k] {
			problems = append(problems, fmt.Sprintf("%s:%d: want note %s, not reported", k.file, k.line, k.code))
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// commentKeys returns the (file, line, code) of every comment re matches in
// the fixture's files (goldens excluded).
func commentKeys(t *testing.T, dir string, re *regexp.Regexp) map[key]bool {
	t.Helper()
	out := map[key]bool{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".golden") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Lines end as CPython reads them: "\r\n", "\n" or a lone "\r".
		src = bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
		sc := bufio.NewScanner(bytes.NewReader(src))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for line := 1; sc.Scan(); line++ {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				for _, c := range strings.Split(m[1], ",") {
					out[key{filepath.ToSlash(p), line, strings.TrimSpace(c)}] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("read fixtures: %v", err)
	}
	return out
}

type key struct {
	file string
	line int
	code string
}

func checkWants(t *testing.T, dir string, res *engine.Result, codes []string) {
	t.Helper()
	want := commentKeys(t, dir, wantRE)
	possibly := commentKeys(t, dir, possiblyRE)
	for k := range possibly {
		want[k] = true
	}
	got := map[key]rules.Diagnostic{}
	for _, d := range res.Diagnostics {
		got[key{d.Path, d.Start.Line, d.Code}] = d
	}
	var problems []string
	for k, d := range got {
		if !want[k] {
			problems = append(problems, fmt.Sprintf("%s:%d: unexpected %s: %s", k.file, k.line, k.code, d.Message))
			continue
		}
		isPossible := strings.HasPrefix(d.Message, rules.PossiblyLabel)
		switch {
		case possibly[k] && (!isPossible || d.Severity != rules.SeverityWarning):
			problems = append(problems, fmt.Sprintf("%s:%d: want a possibly reached %s warning, got a %s: %s", k.file, k.line, k.code, d.Severity, d.Message))
		case !possibly[k] && isPossible:
			problems = append(problems, fmt.Sprintf("%s:%d: want %s reached by a resolved call, got a possibly reached one: %s", k.file, k.line, k.code, d.Message))
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			problems = append(problems, fmt.Sprintf("%s:%d: want %s, not reported", k.file, k.line, k.code))
		}
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// alternatives returns the largest number of applicable fix alternatives on
// any finding.
func alternatives(res *engine.Result) int {
	n := 0
	for i := range res.Diagnostics {
		for k := 1; fix.Alternative(&res.Diagnostics[i], k) != nil; k++ {
			if k > n {
				n = k
			}
		}
	}
	return n
}

// goldensUnder returns the files in dir and its subfolders whose names
// match pattern (a fixture's package folders hold goldens too).
func goldensUnder(t *testing.T, dir, pattern string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ok, _ := filepath.Match(pattern, d.Name()); ok && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func checkFixes(t *testing.T, dir string, opts engine.Options, res *engine.Result) {
	t.Helper()
	n := alternatives(res)
	// Goldens for alternatives that no longer exist are stale.
	for _, g := range goldensUnder(t, dir, "*.fix*.golden") {
		var k int
		if _, err := fmt.Sscanf(g[strings.LastIndex(g, ".fix")+4:], "%d.golden", &k); err == nil && k > n {
			if *update {
				os.Remove(g)
			} else {
				t.Errorf("%s: stale golden: no finding has fix alternative %d", g, k)
			}
		}
	}
	for k := 1; k <= n; k++ {
		k := k
		pick := func(d *rules.Diagnostic) *rules.Fix { return fix.Alternative(d, k) }
		out, err := fix.Run([]string{dir}, opts, fix.Mode{Pick: pick, Rounds: 1})
		if err != nil {
			t.Fatalf("fix alternative %d: %v", k, err)
		}
		for _, f := range out.Failures {
			t.Errorf("fix alternative %d: %s: %s", k, f.Path, f.Reason)
		}
		changed := map[string][]byte{}
		for _, f := range out.Files {
			changed[f.Path] = f.New
			if strings.HasSuffix(f.Path, ".py") {
				m, err := pyast.Parse(f.Path, "", f.New)
				if err != nil || m.HasErrors() {
					t.Errorf("fix alternative %d: %s does not parse after the fix", k, f.Path)
				}
			}
			golden := fmt.Sprintf("%s.fix%d.golden", f.Path, k)
			compareGolden(t, golden, f.New)
		}
		// A golden for a file the fix did not change must equal the file.
		for _, g := range goldensUnder(t, dir, fmt.Sprintf("*.fix%d.golden", k)) {
			src := strings.TrimSuffix(filepath.ToSlash(g), fmt.Sprintf(".fix%d.golden", k))
			if _, ok := changed[src]; ok {
				continue
			}
			if *update {
				os.Remove(g)
				continue
			}
			t.Errorf("%s: golden exists but fix alternative %d does not change %s", g, k, src)
		}
		// Idempotence: fixing the fixed files again with the same fix
		// changes nothing. After a partial fix the finding stays with
		// other alternatives (MCP001's guard alone leaves the floor to
		// raise): its k-th alternative is then another fix, not this one
		// applied twice, and is not picked.
		applied := map[string]string{}
		for i := range res.Diagnostics {
			if f := pick(&res.Diagnostics[i]); f != nil {
				applied[fixKey(&res.Diagnostics[i])] = editsKey(f)
			}
		}
		same := func(d *rules.Diagnostic) *rules.Fix {
			f := pick(d)
			if was, ok := applied[fixKey(d)]; ok && f != nil && editsKey(f) != was {
				return nil
			}
			return f
		}
		again := opts
		again.Overlay = changed
		out2, err := fix.Run([]string{dir}, again, fix.Mode{Pick: same, Rounds: 1})
		if err != nil {
			t.Fatalf("fix alternative %d again: %v", k, err)
		}
		for _, f := range out2.Files {
			t.Errorf("fix alternative %d is not idempotent: fixing %s again changes it:\n%s", k, f.Path, fix.UnifiedDiff(f.Path, f.Old, f.New))
		}
	}
}

// fixKey names a finding across a fix of its project: its rule, file and
// anchor (lines move).
func fixKey(d *rules.Diagnostic) string { return d.Code + "\x00" + d.Path + "\x00" + d.Anchor }

// editsKey names what a fix writes: each edit's file and new text
// (offsets move).
func editsKey(f *rules.Fix) string {
	var b strings.Builder
	for _, e := range f.Edits {
		b.WriteString(e.Path + "\x00" + e.New + "\x00")
	}
	return b.String()
}

func compareGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Errorf("missing golden %s (run go test -update):\n%s", golden, got)
		return
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs:\n%s", golden, fix.UnifiedDiff(golden, want, got))
	}
}
