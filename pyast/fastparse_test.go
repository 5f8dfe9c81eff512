package pyast

import (
	"bytes"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// preprocessed returns src as ParseLimits hands it to parseTree (BOM
// blanked, lone CRs read as line ends).
func preprocessed(src []byte) []byte {
	body := append([]byte(nil), src...)
	if bytes.HasPrefix(body, utf8BOM) {
		copy(body, "   ")
	}
	if hasLoneCR(body) {
		for j := range body {
			if body[j] == '\r' && (j+1 == len(body) || body[j+1] != '\n') {
				body[j] = '\n'
			}
		}
	}
	return body
}

// fastDiff parses src both ways. It reports whether the fast path accepted
// it and, if so, how its tree differs from tree-sitter's after
// dropPunctuation ("" when it does not), and tree-sitter's steps and node
// count (of its whole tree).
func fastDiff(src []byte) (accepted bool, diff string, steps int64, nodes int) {
	body := preprocessed(src)
	fast, _, ok := fastParse(body, Limits{})
	if !ok {
		return false, "", 0, 0
	}
	defer putRaw(fast)
	ts, steps, err := parseTreeSitter(body, Limits{})
	if err != nil {
		return true, fmt.Sprintf("tree-sitter failed (%v) on a file the fast path accepted", err), 0, 0
	}
	// The fast path drops the punctuation as it parses: compare with
	// tree-sitter's tree after the same drop.
	count := len(ts)
	return true, compareTrees(body, dropPunctuation(ts), fast), steps, count
}

func compareTrees(src []byte, want, got []rawNode) string {
	for i := 0; i < len(want) && i < len(got); i++ {
		w, g := &want[i], &got[i]
		if w.start != g.start || w.end != g.end || w.up != g.up || w.symbol != g.symbol || w.field != g.field || w.flags != g.flags {
			return fmt.Sprintf("node %d differs:\n  tree-sitter %s\n  fast path   %s\ncontext (tree-sitter):\n%s", i, describe(src, want, i), describe(src, got, i), dumpAround(src, want, i))
		}
	}
	for i := 0; i < len(want) && i < len(got); i++ {
		w, g := &want[i], &got[i]
		if w.size != g.size {
			return fmt.Sprintf("node %d differs:\n  tree-sitter %s\n  fast path   %s\ncontext (tree-sitter):\n%s", i, describe(src, want, i), describe(src, got, i), dumpAround(src, want, i))
		}
	}
	if len(want) != len(got) {
		return fmt.Sprintf("tree-sitter has %d nodes, the fast path %d", len(want), len(got))
	}
	return ""
}

func describe(src []byte, t []rawNode, i int) string {
	n := &t[i]
	text := ""
	if n.end <= uint32(len(src)) && n.start <= n.end {
		text = string(src[n.start:min(n.end, n.start+40)])
	}
	return fmt.Sprintf("%s [%d,%d] size %d up %d field %d flags %d %q", kindName(n.symbol), n.start, n.end, n.size, n.up, n.field, n.flags, text)
}

// dumpAround dumps the parent of node i (at most 60 lines).
func dumpAround(src []byte, t []rawNode, i int) string {
	p := i - int(t[i].up)
	if t[i].up == 0 {
		p = i
	}
	lines := strings.Split(dumpNodes(src, t[p:p+int(t[p].size)]), "\n")
	if len(lines) > 60 {
		lines = lines[:60]
	}
	return strings.Join(lines, "\n")
}

// pyFiles returns the .py files under root.
func pyFiles(root string) []string {
	var out []string
	filepath.WalkDir(root, func(p string, d iofs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "site-packages" || d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func stdlibDir() string {
	out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

type diffStats struct {
	files, accepted, bytes, acceptedBytes int
	mismatches                            int
	maxStepsPerNode                       float64
	maxStepsFile                          string
}

func runDiff(t *testing.T, name string, files []string) diffStats {
	var st diffStats
	if os.Getenv("MCPLINT_FASTDIFF_BAILS") != "" {
		fastBailSites = map[string]int{}
		defer func() {
			type site struct {
				at string
				n  int
			}
			var sites []site
			for k, v := range fastBailSites {
				sites = append(sites, site{k, v})
			}
			sort.Slice(sites, func(i, j int) bool { return sites[i].n > sites[j].n })
			for i := 0; i < len(sites) && i < 25; i++ {
				t.Logf("%s: fell back on %d bytes at %s", name, sites[i].n, sites[i].at)
			}
			fastBailSites = nil
		}()
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil || len(src) > 8<<20 {
			continue
		}
		st.files++
		st.bytes += len(src)
		fastLastBail = ""
		ok, diff, steps, nodes := fastDiff(src)
		body := preprocessed(src)
		if !ok {
			if fastBailSites != nil {
				fastBailSites[fastLastBail] += len(src)
				if os.Getenv("MCPLINT_FASTDIFF_BAILS") == "files" {
					t.Logf("fell back: %s (%d bytes) at %s", f, len(src), fastLastBail)
				}
			}
			continue
		}
		st.accepted++
		st.acceptedBytes += len(src)
		if nodes > 0 {
			if r := (float64(steps) - fastStepsPerByte*float64(len(body))) / float64(nodes); r > st.maxStepsPerNode {
				st.maxStepsPerNode = r
				st.maxStepsFile = f
			}
		}
		if diff != "" {
			st.mismatches++
			if st.mismatches <= 5 {
				t.Errorf("%s: the fast path's tree differs from tree-sitter's: %s", f, diff)
			}
		}
	}
	pct := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	t.Logf("%s: %d of %d files (%.1f%%), %d of %d bytes (%.1f%%) took the fast path; %d mismatches; tree-sitter took at most %.2f steps a node (beyond fastStepsPerByte)",
		name, st.accepted, st.files, pct(st.accepted, st.files), st.acceptedBytes, st.bytes, pct(st.acceptedBytes, st.bytes), st.mismatches, st.maxStepsPerNode)
	if st.maxStepsPerNode > fastStepsPerNode {
		t.Errorf("%s: tree-sitter took %.2f steps a node (beyond %g a byte) on %s, which the fast path accepts, more than the bound fastStepsPerNode = %d", name, st.maxStepsPerNode, fastStepsPerByte, st.maxStepsFile, fastStepsPerNode)
	}
	return st
}

// The differential test: every .py of the repository's testdata and of the
// Python standard library, parsed by the fast path and by tree-sitter; every
// file the fast path accepts must give the identical node array.
func TestFastParseDifferential(t *testing.T) {
	st := runDiff(t, "testdata", pyFiles("../testdata"))
	if st.files == 0 {
		t.Fatal("no .py files under ../testdata")
	}
	if st.accepted == 0 {
		t.Error("the fast path accepted no fixture")
	}
	if dir := stdlibDir(); dir != "" && !testing.Short() {
		runDiff(t, "stdlib", pyFiles(dir))
	}
	// More trees (real repositories), behind an environment variable:
	// MCPLINT_FASTDIFF_DIRS=dir1:dir2 go test ./pyast -run Differential
	for _, dir := range filepath.SplitList(os.Getenv("MCPLINT_FASTDIFF_DIRS")) {
		if dir == "" {
			continue
		}
		// WalkDir does not enter a symlinked root: resolve it, and refuse
		// a folder with no Python file rather than test nothing.
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			dir = r
		}
		files := pyFiles(dir)
		if len(files) == 0 {
			t.Errorf("MCPLINT_FASTDIFF_DIRS: no Python file under %s", dir)
			continue
		}
		runDiff(t, dir, files)
	}
}

// FuzzFastParse checks the fast path's invariant on mutated input: a file
// it accepts has tree-sitter's tree.
func FuzzFastParse(f *testing.F) {
	for _, p := range pyFiles("../testdata") {
		if src, err := os.ReadFile(p); err == nil && len(src) < 16<<10 {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 64<<10 {
			return
		}
		if ok, diff, _, _ := fastDiff(src); ok && diff != "" {
			t.Fatalf("the fast path's tree differs from tree-sitter's: %s", diff)
		}
	})
}

// BenchmarkParseTree measures the parse alone (no packing, no index): the
// fast path, and tree-sitter with its copy and the drop of punctuation
// (MCPLINT_FASTPARSE=0 for the latter).
func BenchmarkParseTree(b *testing.B) {
	srcs := benchSources(b)
	for i := 0; i < b.N; i++ {
		for _, s := range srcs {
			t, _, err := parseTree(s, DefaultLimits)
			if err != nil {
				b.Fatal(err)
			}
			putRaw(t) // as Parse does, once it has packed the tree
		}
	}
}

func TestTreeDepth(t *testing.T) {
	for _, src := range []string{"", "x\n", "f(a.b[c])\n", "def f():\n    if x:\n        return [[1]]\n"} {
		nodes, _, err := parseTreeSitter([]byte(src), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		d := make([]int, len(nodes))
		for i := 1; i < len(nodes); i++ {
			d[i] = d[i-int(nodes[i].up)] + 1
			want = max(want, d[i])
		}
		if got := treeDepth(nodes); got != want {
			t.Errorf("%q: depth %d, want %d", src, got, want)
		}
	}
}

// Constructs the fast path must accept (so that acceptance does not
// silently shrink), each with tree-sitter's very tree.
func TestFastParseAccepts(t *testing.T) {
	for _, src := range []string{
		"import os\r\n# comment\r\ndef f(a, b=1, *args, c: int = 2, **kw) -> None:  # trailing\r\n    return a\r\n",
		"if x:\n\tif y:\n\t\tpass\n\t# c\nelse:\n\tpass\n",
		"@app.tool()  # c\n# between\n@other\nasync def handler(ctx: Context, name: str | None = None) -> dict[str, Any]:\n    async with lock:\n        await asyncio.sleep(1)\n    return {\"a\": [x for x in range(3) if x], **kw}\n",
		"x = f\"{a!r:>{width}} {b=} {{c}} \\n\" rb'\\d' '''a\n''b'''\n",
		"match cmd.split():\n    case [name, *rest] if name:\n        pass\n    case Point(x=0) | None:\n        pass\n    case _:\n        pass\n",
		"try:\n    pass\nexcept (A, B) as e:\n    raise X from e\nelse:\n    pass\nfinally:\n    pass\n",
		"with (open(a) as f, open(b) as g):\n    x = lambda y, *z: y if z else not y\n",
		"y = a + \\\n    b\nz = 'a' \\\n    'b'\nq = (\n    1,\n)\n",
		"class A(B, metaclass=M):\n    x: ClassVar[int] = 0\n    def f(self, /, a, *, b): ...\n",
		"\ufeffimport os\nif os:\n    pass\n",     // a BOM (blanked before parsing)
		"a = 1\rif a:\r    b = 2\r",               // lone CRs (read as line ends)
		"def f():\n x = ('a'\nb'c', [a,\n'd'])\n", // no dedent before a string inside brackets
	} {
		ok, diff, _, _ := fastDiff([]byte(src))
		if !ok {
			t.Errorf("the fast path fell back on\n%s", src)
		} else if diff != "" {
			t.Errorf("%s\n%s", src, diff)
		}
	}
}

// Input the fast path must leave to tree-sitter: syntax errors (tree-sitter's
// ERROR nodes stay its own) and constructs it does not reproduce.
func TestFastParseFallsBack(t *testing.T) {
	for _, src := range []string{
		"def f(:\n    pass\n",         // syntax error
		"x = (1,\n",                   // unclosed bracket
		"if x:\ny = 1\n",              // missing indented block
		"print 'hello'\n",             // print statement
		"type X = int\n",              // type alias
		"def f[T](x: T) -> T: ...\n",  // type parameters
		"x = [*a.b]\n",                // ambiguous starred name
		"s = 'caf\xc3\n",              // invalid UTF-8
		"a = 1\x00\n",                 // NUL byte
		"def f() -> X: y[0]\n",        // a constrained_type to tree-sitter
		"A,\nA = 0\n",                 // one assignment to tree-sitter
		"def f():\n x = (a %\nb'')\n", // a dedent to tree-sitter before a prefixed string
		"x = 1, *b''\n",               // no string after "*" outside brackets to tree-sitter
	} {
		if _, _, ok := fastParse(preprocessed([]byte(src)), DefaultLimits); ok {
			t.Errorf("the fast path accepted %q", src)
		}
	}
	m, err := Parse("bad.py", "", []byte("def f(:\n    pass\n"))
	if err != nil || !m.HasErrors() {
		t.Errorf("a syntax error after the fallback: err %v, errors %v", err, err == nil && m.HasErrors())
	}
}

// A file the fast path parses but that passes a limit goes to tree-sitter,
// which reports it as before.
func TestFastParseLeavesLimitsToTreeSitter(t *testing.T) {
	src := []byte(strings.Repeat("def f(a):\n    return [a.b(c) for c in a]\n", 20))
	if _, _, ok := fastParse(src, DefaultLimits); !ok {
		t.Fatal("the fast path fell back on plain code")
	}
	for _, c := range []struct {
		lim  Limits
		what string
	}{
		{Limits{Nodes: 10}, "syntax tree"},
		{Limits{Depth: 3}, "depth"},
		{Limits{Steps: 200}, "parsing"},
	} {
		if _, _, ok := fastParse(src, c.lim); ok {
			t.Errorf("%+v: the fast path accepted", c.lim)
		}
		var tc *TooComplexError
		if _, err := ParseLimits("f.py", "", src, c.lim); !errors.As(err, &tc) || tc.What != c.what {
			t.Errorf("%+v: got %v, want a %q TooComplexError", c.lim, err, c.what)
		}
	}
}
