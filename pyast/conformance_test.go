package pyast

// The syntax conformance test: every Python 3 that pyenv installed on the
// machine compiles its own standard library and test suite (test_grammar.py,
// test_syntax.py, test_fstring.py, test_patma.py, lib2to3's test data with
// its deliberately broken files, the badsyntax_*.py files ...), and mcplint
// must find a syntax error (SyntaxErrors, what MCP000 reports) in exactly
// the files that fail, on the line CPython names.
//
// mcplint reads code written for any Python 3, so the grammar it accepts is
// the union of them all: a file is valid when any of the interpreters
// compiles it (`async = 1` is valid, for 3.6 compiles it, though 3.7 made
// async a keyword), and a syntax error when none does (`print x` in
// lib2to3's Python 2 test data). Each distinct content is compiled first by
// the newest interpreter whose tree holds it; only the files it refuses are
// compiled by the others. A file every interpreter refuses must have its
// first syntax error on the line one of them names (their parsers differ:
// 3.8's LL(1) parser and 3.9's PEG parser name different lines for the
// same error). Python 2 is not a Python mcplint reads: its trees are not
// part of the corpus.
//
// The files are compiled, never run: compile(source, path, "exec") in one
// interpreter process per version, reading the list of files on stdin.
// Identical files (most of the standard library is the same across
// versions) are parsed and compiled once.

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// conformanceDriver compiles each file named on stdin and prints "ok" or
// "err LINE MESSAGE" for it, one line a file, in order. It runs on every
// Python from 3.6 on (no newer syntax).
const conformanceDriver = `import sys, warnings
warnings.simplefilter("ignore")
out = sys.stdout
for line in sys.stdin:
    p = line.rstrip("\n")
    try:
        with open(p, "rb") as f:
            src = f.read()
        compile(src, p, "exec", dont_inherit=True)
        out.write("ok\n")
    except SyntaxError as e:
        out.write("err %d %s\n" % (e.lineno or 0, str(e.msg).replace("\n", " ")))
    except (ValueError, UnicodeError, MemoryError, RecursionError, OverflowError) as e:
        out.write("err 0 %s: %s\n" % (type(e).__name__, str(e).replace("\n", " ")))
    out.flush()
`

// pyenvPython is one interpreter of the corpus.
type pyenvPython struct {
	version string // "3.12.1"
	exe     string
	lib     string // its standard library, test suite included
	rank    int    // order by version: newer is greater
}

// pyenvPythons returns the Python 3 interpreters pyenv installed, newest
// first, and the Python 2 ones it left out.
func pyenvPythons() (pys []pyenvPython, skipped []string) {
	root := os.Getenv("PYENV_ROOT")
	if root == "" {
		if out, err := exec.Command("pyenv", "root").Output(); err == nil {
			root = strings.TrimSpace(string(out))
		}
	}
	if root == "" {
		if home, err := os.UserHomeDir(); err == nil {
			root = filepath.Join(home, ".pyenv")
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "versions", "*"))
	for _, d := range dirs {
		v := filepath.Base(d)
		var major, minor, patch int
		if n, _ := fmt.Sscanf(v, "%d.%d.%d", &major, &minor, &patch); n < 2 {
			continue // a virtualenv or another implementation
		}
		exe := filepath.Join(d, "bin", "python"+strconv.Itoa(major))
		lib := filepath.Join(d, "lib", fmt.Sprintf("python%d.%d", major, minor))
		if _, err := os.Stat(exe); err != nil {
			continue
		}
		if _, err := os.Stat(lib); err != nil {
			continue
		}
		if major != 3 {
			skipped = append(skipped, v)
			continue
		}
		pys = append(pys, pyenvPython{v, exe, lib, major*1_000_000 + minor*1000 + patch})
	}
	sort.Slice(pys, func(i, j int) bool { return pys[i].rank > pys[j].rank })
	return pys, skipped
}

// compileResult is what one interpreter said of one file.
type compileResult struct {
	ok   bool
	line int
	msg  string
}

// compileFiles compiles files with py (never running them).
func compileFiles(t *testing.T, py pyenvPython, driver string, files []string) []compileResult {
	out := make([]compileResult, 0, len(files))
	deaths := 0
	for len(out) < len(files) {
		rest := files[len(out):]
		cmd := exec.Command(py.exe, "-S", "-E", "-I", driver)
		cmd.Stdin = strings.NewReader(strings.Join(rest, "\n") + "\n")
		cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatalf("python %s: %v", py.version, err)
		}
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() && len(out) < len(files) {
			l := sc.Text()
			if l == "ok" {
				out = append(out, compileResult{ok: true})
				continue
			}
			f := strings.SplitN(l, " ", 3)
			if len(f) < 2 || f[0] != "err" {
				t.Fatalf("python %s: unexpected output %q", py.version, l)
			}
			n, _ := strconv.Atoi(f[1])
			r := compileResult{line: n}
			if len(f) == 3 {
				r.msg = f[2]
			}
			out = append(out, r)
		}
		err = cmd.Wait()
		if len(out) < len(files) {
			// The interpreter died compiling the next file (a crash on a
			// pathological input): it is not compilable; go on after it.
			out = append(out, compileResult{msg: fmt.Sprintf("interpreter died: %v", err)})
			if deaths++; deaths > 3 {
				t.Fatalf("python %s died compiling %d files, the last %s: %v\n%s", py.version, deaths, files[len(out)-1], err, stderr.String())
			}
		}
	}
	return out
}

// corpusFile is one distinct content of the corpus.
type corpusFile struct {
	paths   []string // where it is, newest interpreter's tree first
	holders []int    // the interpreters (indexes) whose tree holds it
	src     []byte
	results map[int]compileResult // by interpreter
}

func (f *corpusFile) valid() bool {
	for _, r := range f.results {
		if r.ok {
			return true
		}
	}
	return false
}

func TestSyntaxConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the conformance corpus takes a while")
	}
	pys, py2 := pyenvPythons()
	if len(pys) == 0 {
		msg := "no pyenv Python 3 found (PYENV_ROOT, `pyenv root`, ~/.pyenv): nothing to check the parser against"
		if os.Getenv("MCPLINT_NO_SKIP") != "" {
			t.Fatalf("%s (MCPLINT_NO_SKIP is set)", msg)
		}
		t.Skip(msg)
	}
	var names []string
	for _, py := range pys {
		names = append(names, py.version)
	}
	t.Logf("Pythons: %s (left out, not Python 3: %v)", strings.Join(names, ", "), py2)

	// The corpus: every .py of each tree, one entry per distinct content.
	byHash := map[[32]byte]*corpusFile{}
	var corpus []*corpusFile
	perPython := make([]int, len(pys))
	for i, py := range pys {
		for _, p := range pyFiles(py.lib) {
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			perPython[i]++
			h := sha256.Sum256(src)
			f := byHash[h]
			if f == nil {
				f = &corpusFile{src: src, results: map[int]compileResult{}}
				byHash[h] = f
				corpus = append(corpus, f)
			}
			f.paths = append(f.paths, p)
			f.holders = append(f.holders, i)
		}
	}
	driver := filepath.Join(t.TempDir(), "compile_each.py")
	if err := os.WriteFile(driver, []byte(conformanceDriver), 0o644); err != nil {
		t.Fatal(err)
	}

	// mcplint's verdict on every file, in parallel with the interpreters.
	type verdict struct {
		errs []SyntaxError
		line int // of the first error
		err  error
	}
	verdicts := make([]verdict, len(corpus))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f := corpus[i]
				m, err := Parse(f.paths[0], "", f.src)
				if err != nil {
					verdicts[i] = verdict{err: err}
					continue
				}
				v := verdict{errs: m.SyntaxErrors()}
				if len(v.errs) > 0 {
					v.line = m.Pos(v.errs[0].Offset).Line
				}
				verdicts[i] = v
			}
		}()
	}
	go func() {
		for i := range corpus {
			next <- i
		}
		close(next)
	}()

	// Round 1: each content by the newest interpreter holding it; round 2:
	// the files it refused, by every other one.
	compileRound := func(assign func(f *corpusFile) []int) {
		jobs := make([][]*corpusFile, len(pys))
		for _, f := range corpus {
			for _, i := range assign(f) {
				jobs[i] = append(jobs[i], f)
			}
		}
		var mu sync.Mutex
		var cw sync.WaitGroup
		for i := range pys {
			if len(jobs[i]) == 0 {
				continue
			}
			cw.Add(1)
			go func(i int) {
				defer cw.Done()
				paths := make([]string, len(jobs[i]))
				for k, f := range jobs[i] {
					paths[k] = f.paths[0]
				}
				res := compileFiles(t, pys[i], driver, paths)
				mu.Lock()
				for k, f := range jobs[i] {
					f.results[i] = res[k]
				}
				mu.Unlock()
			}(i)
		}
		cw.Wait()
	}
	compileRound(func(f *corpusFile) []int { return f.holders[:1] })
	compileRound(func(f *corpusFile) []int {
		if f.valid() {
			return nil
		}
		var others []int
		for i := range pys {
			if _, done := f.results[i]; !done {
				others = append(others, i)
			}
		}
		return others
	})
	wg.Wait()

	var falseErr, missed, wrongLine, invalid, parseFail []string
	for i, f := range corpus {
		v := verdicts[i]
		if v.err != nil {
			parseFail = append(parseFail, fmt.Sprintf("%s: %v", f.paths[0], v.err))
			continue
		}
		if f.valid() {
			if len(v.errs) > 0 {
				var by []string
				for k, r := range f.results {
					if r.ok {
						by = append(by, pys[k].version)
					}
				}
				sort.Strings(by)
				falseErr = append(falseErr, fmt.Sprintf("%s:%d: %s (compiled by %s)", f.paths[0], v.line, v.errs[0].Msg, strings.Join(by, ", ")))
			}
			continue
		}
		invalid = append(invalid, f.paths[0])
		first := f.results[f.holders[0]]
		if len(v.errs) == 0 {
			missed = append(missed, fmt.Sprintf("%s:%d: no syntax error found; python %s: %s", f.paths[0], first.line, pys[f.holders[0]].version, first.msg))
			continue
		}
		match := false
		var lines []string
		for k, r := range f.results {
			// CPython names no line (0) for an encoding it does not know.
			match = match || r.line == v.line || r.line == 0 && !r.ok
			lines = append(lines, fmt.Sprintf("%s line %d %q", pys[k].version, r.line, r.msg))
		}
		if !match {
			sort.Strings(lines)
			wrongLine = append(wrongLine, fmt.Sprintf("%s:%d: the first syntax error here; CPython: %s", f.paths[0], v.line, strings.Join(lines, "; ")))
		}
	}
	for i, py := range pys {
		t.Logf("python %s: %d files", py.version, perPython[i])
	}
	t.Logf("%d distinct files, %d of them refused by every Python; %d false syntax errors, %d missed, %d on another line, %d parse failures",
		len(corpus), len(invalid), len(falseErr), len(missed), len(wrongLine), len(parseFail))
	if len(invalid) == 0 {
		t.Error("no file of the corpus is refused by every Python: it checks no syntax error (a test suite missing?)")
	}
	report := func(what string, list []string) {
		sort.Strings(list)
		for _, s := range list {
			t.Errorf("%s: %s", what, s)
		}
	}
	report("false syntax error on a file CPython compiles", falseErr)
	report("missed syntax error", missed)
	report("syntax error on another line than CPython's", wrongLine)
	report("parse failed", parseFail)
}
