package workspace

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// These tests compare the ignorer with git itself: `git check-ignore -v -n
// --no-index` on the same tree says, for every path, which pattern (file
// and line) decides it, counting a path under an ignored folder as decided
// by the folder's pattern, which is what the walk does by not entering it.

// requireGit returns git's path; without git the test is skipped, or fails
// when MCPLINT_NO_SKIP is set (CI sets it: there git must be there).
func requireGit(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("MCPLINT_NO_SKIP") != "" {
			t.Fatal("git is needed to check .gitignore matching against git check-ignore (MCPLINT_NO_SKIP is set)")
		}
		t.Skip("git is not installed: the differential .gitignore test needs it")
	}
	return git
}

// isolateGit points git's (and the ignorer's) global config at home and
// xdg and turns the system config off, so both read the same files.
func isolateGit(t *testing.T, home, xdg string) {
	t.Helper()
	for _, k := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_DIR", "GIT_WORK_TREE", "GIT_CONFIG_COUNT", "GIT_CEILING_DIRECTORIES"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
}

// decision is the pattern deciding a path: its file (absolute, cleaned; ""
// for none), line and whether it re-includes.
type decision struct {
	src    string
	line   int
	negate bool
}

func (d decision) String() string {
	if d.src == "" {
		return "none"
	}
	neg := ""
	if d.negate {
		neg = " (negated)"
	}
	return fmt.Sprintf("%s:%d%s", d.src, d.line, neg)
}

// gitDecisions asks git check-ignore about paths (relative to top). Git
// 2.39's check-ignore --stdin can crash (SIGSEGV), or print more fields
// than paths, on some runs of deep paths, each of which it answers alone
// (its exclude stack, reused from one path to the next, seems to be at
// fault); then the paths are asked in halves, down to one at a time.
func gitDecisions(t *testing.T, git, top string, paths []string) []decision {
	t.Helper()
	cmd := exec.Command(git, "-C", top, "check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	fields := strings.Split(string(out), "\x00")
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == -1 || err == nil && len(fields) != 4*len(paths)+1 {
		if len(paths) == 1 {
			// Git 2.39 also crashes on some long patterns with many
			// "**" (a path 50 folders deep under
			// "a/b/.../**/a/**/a/b/d/**/d/a/build/**/*b/b/.../src/**/b/**/b/d/build/a"):
			// no answer to compare with.
			return []decision{{src: gitCrashed}}
		}
		h := len(paths) / 2
		return append(gitDecisions(t, git, top, paths[:h]), gitDecisions(t, git, top, paths[h:])...)
	}
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("git check-ignore %.300q: %v\n%s", paths, err, stderr.String())
	}
	if len(fields) != 4*len(paths)+1 {
		t.Fatalf("git check-ignore: %d fields for %d paths", len(fields), len(paths))
	}
	ds := make([]decision, len(paths))
	for i := range paths {
		src, line, pat, p := fields[4*i], fields[4*i+1], fields[4*i+2], fields[4*i+3]
		if p != paths[i] {
			t.Fatalf("git check-ignore answered %q for %q", p, paths[i])
		}
		if src == "" {
			continue
		}
		if !filepath.IsAbs(src) {
			src = filepath.Join(top, src)
		}
		if _, err := os.Stat(src); err != nil {
			// Seen with the crashes above: "(null)" or bytes of
			// freed memory as the pattern's file; not git's answer.
			ds[i] = decision{src: gitCrashed}
			continue
		}
		n, _ := strconv.Atoi(line)
		ds[i] = decision{src: filepath.Clean(src), line: n, negate: strings.HasPrefix(pat, "!")}
	}
	return ds
}

// ourDecisions walks top as Walk does (entries in name order, an ignored
// folder not entered) and returns the decision for every path under it;
// paths under an ignored folder get the folder's.
func ourDecisions(t *testing.T, top string) map[string]decision {
	t.Helper()
	abs := filepath.ToSlash(top)
	ig := newIgnorer(abs)
	ig.load(abs)
	out := map[string]decision{}
	var visit func(dir, rel string, inherited *decision)
	visit = func(dir, rel string, inherited *decision) {
		entries, err := os.ReadDir(filepath.FromSlash(dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if rel == "" && e.Name() == ".git" {
				continue
			}
			p, r := dir+"/"+e.Name(), path.Join(rel, e.Name())
			isDir := e.IsDir()
			var d decision
			if inherited != nil {
				d = *inherited
			} else if f, idx := ig.decide(p, isDir); f != nil {
				d = decision{src: filepath.Clean(f.src), line: f.pats[idx].line, negate: f.pats[idx].negate}
			}
			out[r] = d
			if !isDir {
				continue
			}
			if inherited != nil {
				visit(p, r, inherited)
			} else if d.src != "" && !d.negate {
				visit(p, r, &d)
			} else {
				ig.load(p)
				visit(p, r, nil)
			}
		}
	}
	visit(abs, "", nil)
	for _, err := range ig.errs {
		t.Errorf("ignorer error: %v", err)
	}
	return out
}

// compareWithGit checks every path under top; it returns the number of
// paths compared and reports up to limit mismatches with describe's help.
func compareWithGit(t *testing.T, git, top string, describe func() string) int {
	t.Helper()
	ours := ourDecisions(t, top)
	paths := make([]string, 0, len(ours))
	for p := range ours {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	theirs := gitDecisions(t, git, top, paths)
	bad := 0
	for i, p := range paths {
		switch d := theirs[i]; {
		case d.src == "":
			gitStats[0]++
		case d.negate:
			gitStats[2]++
		default:
			gitStats[1]++
		}
		if theirs[i].src == gitCrashed {
			gitCrashes++
			continue
		}
		if ours[p] != theirs[i] {
			// Asked alone, git answers without the state its
			// --stdin mode carries from path to path, which goes
			// wrong on some runs of deep paths (see gitDecisions).
			if alone := gitDecisions(t, git, top, []string{p})[0]; alone != theirs[i] && alone.src != gitCrashed {
				gitBatchWrong++
				if ours[p] == alone {
					continue
				}
				theirs[i] = alone
			}
			bad++
			if bad <= 5 {
				t.Errorf("%q: ours %v, git %v\n%s", p, ours[p], theirs[i], describe())
			}
		}
	}
	return len(paths)
}

// gitStats counts git's answers: no pattern, ignored, re-included;
// gitBatchWrong the answers of check-ignore --stdin that it gave otherwise
// when asked about the path alone.
// gitCrashes the paths git crashed on, asked alone.
var (
	gitStats      [3]int
	gitBatchWrong int
	gitCrashes    int
)

const gitCrashed = "(git crashed)"

func gitInit(t *testing.T, git, dir string) {
	t.Helper()
	if out, err := exec.Command(git, "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Names the generated trees use: plain ones, ones with the bytes patterns
// treat specially, a trailing space, upper case, UTF-8.
var genNames = []string{
	"a", "b", "ab", "ba", "abc", "a.py", "b.py", "ab.py", "c.txt", "a.b.c", "build", "dist", "src",
	"x y", "a ", "#h", "!n", "[a]", "a*", "q?", `b\s`, "a-b", "A", "B.PY", "é", "a]b", "-",
	".hid", "__pycache__", "lib64", "Abc", "a..b",
}

// genTree makes a random tree of folders and files under dir; it returns
// the paths made (relative, slash), folders first.
func genTree(r *rand.Rand, t *testing.T, dir string) (dirs, files []string) {
	var mk func(rel string, depth int)
	mk = func(rel string, depth int) {
		n := 1 + r.Intn(5)
		used := map[string]bool{}
		for i := 0; i < n; i++ {
			name := genNames[r.Intn(len(genNames))]
			if used[name] || (rel == "" && name == ".git") {
				continue
			}
			used[name] = true
			p := path.Join(rel, name)
			if depth < 4 && r.Intn(3) > 0 {
				if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(p)), 0o755); err != nil {
					t.Fatal(err)
				}
				dirs = append(dirs, p)
				mk(p, depth+1)
			} else {
				writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), "")
				files = append(files, p)
			}
		}
	}
	mk("", 0)
	return dirs, files
}

// escapeName writes a name as a pattern that matches it literally (most of
// the time; sometimes raw, so the specials' own meaning is tried too).
func escapeName(r *rand.Rand, name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		special := strings.IndexByte(`*?[\`, c) >= 0 || (i == 0 && (c == '!' || c == '#')) || (c == ' ' && i == len(name)-1)
		if special && r.Intn(5) > 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// genAtom is a random piece of a pattern segment.
func genAtom(r *rand.Rand) string {
	atoms := []string{
		"a", "b", "ab", ".py", ".", "c", "x", "A", "-", " ", "é",
		"*", "*", "?", "**", "[ab]", "[a-c]", "[!a]", "[^.]", "[]a]", "[[:alpha:]]", "[[:digit:][:punct:]]",
		"[[:upper:]]", "[[:space:]]", "[a-]", `[\]]`, "[[:x]", "[!]]", "[é]",
		`\*`, `\?`, `\[`, `\ `, `\!`, `\#`, `\\`, `\a`,
	}
	if r.Intn(60) == 0 {
		return []string{"[ab", "[[:bogus:]]", `\`}[r.Intn(3)]
	}
	return atoms[r.Intn(len(atoms))]
}

// mutate turns a name into a pattern that may still match it.
func mutate(r *rand.Rand, name string) string {
	if r.Intn(3) == 0 {
		return escapeName(r, name)
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch r.Intn(12) {
		case 0:
			b.WriteByte('?')
			continue
		case 1:
			b.WriteString("*")
			continue
		case 2:
			fmt.Fprintf(&b, "[%c%c]", c, 'z')
			continue
		case 3:
			b.WriteString("*")
		case 4:
			b.WriteString(genAtom(r))
		}
		b.WriteString(escapeName(r, string(c)))
	}
	return b.String()
}

// genPattern is one random line of an ignore file; paths are the tree's,
// relative to the file's folder, to aim at.
func genPattern(r *rand.Rand, paths []string) string {
	var body string
	if len(paths) > 0 && r.Intn(3) > 0 {
		comps := strings.Split(paths[r.Intn(len(paths))], "/")
		if r.Intn(2) == 0 {
			comps = comps[r.Intn(len(comps)):]
		}
		for i, c := range comps {
			switch r.Intn(8) {
			case 0:
				comps[i] = "**"
			case 1, 2:
				comps[i] = mutate(r, c)
			default:
				comps[i] = escapeName(r, c)
			}
		}
		body = strings.Join(comps, "/")
	} else {
		n := 1 + r.Intn(3)
		var segs []string
		for i := 0; i < n; i++ {
			if r.Intn(6) == 0 {
				segs = append(segs, "**")
				continue
			}
			var s string
			for k := 1 + r.Intn(3); k > 0; k-- {
				s += genAtom(r)
			}
			segs = append(segs, s)
		}
		body = strings.Join(segs, "/")
	}
	switch r.Intn(10) {
	case 0:
		body = "/" + body
	case 1:
		body = "**/" + body
	case 2:
		body += "/**"
	case 3:
		body += "/"
	}
	if r.Intn(4) == 0 {
		body = "!" + body
	}
	switch r.Intn(40) {
	case 0:
		body = "# " + body
	case 1:
		body += "  "
	case 2:
		body += `\ `
	case 3:
		body += "\r"
	case 4:
		body = ""
	case 5:
		body = []string{"!", "/", "//a", "a//", " ", `\#h`, `\!n`, "a\\\\ ", "\t", "a\t"}[r.Intn(10)]
	}
	return body
}

func genIgnoreFile(r *rand.Rand, paths []string) string {
	var lines []string
	for n := 1 + r.Intn(8); n > 0; n-- {
		lines = append(lines, genPattern(r, paths))
	}
	s := strings.Join(lines, "\n")
	if r.Intn(3) > 0 {
		s += "\n"
	}
	if r.Intn(20) == 0 {
		s = "\xef\xbb\xbf" + s
	}
	return s
}

// under is the paths under folder dir ("" for all), relative to it.
func under(paths []string, dir string) []string {
	if dir == "" {
		return paths
	}
	var out []string
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, dir+"/"); ok {
			out = append(out, rest)
		}
	}
	return out
}

// TestGitignoreMatchesGit compares the ignorer with git check-ignore on
// random trees with random ignore files at random folders (the root, some
// sub-folders, .git/info/exclude and core.excludesFile set in every way git
// reads it), patterns drawn from a grammar of every gitignore feature:
// negation, folder-only, anchoring, the three forms of "**", escapes,
// trailing spaces, character classes, comments, CRLF.
func TestGitignoreMatchesGit(t *testing.T) {
	git := requireGit(t)
	rounds := 250
	if testing.Short() {
		rounds = 40
	}
	total := 0
	for round := 0; round < rounds && !t.Failed(); round++ {
		r := rand.New(rand.NewSource(int64(round)))
		tmp := t.TempDir()
		home, xdg, top := filepath.Join(tmp, "home"), filepath.Join(tmp, "xdg"), filepath.Join(tmp, "repo")
		isolateGit(t, home, xdg)
		gitInit(t, git, top)
		dirs, files := genTree(r, t, top)
		all := append(append([]string(nil), dirs...), files...)
		written := map[string]string{}
		put := func(name, content string) {
			writeFile(t, name, content)
			written[name] = content
		}
		put(filepath.Join(top, ".gitignore"), genIgnoreFile(r, all))
		for _, d := range dirs {
			if r.Intn(3) == 0 {
				put(filepath.Join(top, filepath.FromSlash(d), ".gitignore"), genIgnoreFile(r, under(all, d)))
			}
		}
		if r.Intn(2) == 0 {
			put(filepath.Join(top, ".git", "info", "exclude"), genIgnoreFile(r, all))
		}
		cfg := ""
		switch r.Intn(6) {
		case 0:
			cfg = "[core]\n\texcludesFile = " + filepath.Join(tmp, "excl") + "\n"
		case 1:
			cfg = "[Core]\n  ExcludesFile = \"../excl\" ; relative to the top\n"
		case 2:
			put(filepath.Join(home, ".gitconfig"), "[core]\n\texcludesfile = ~/excl-home\n")
			put(filepath.Join(home, "excl-home"), genIgnoreFile(r, all))
		}
		if cfg != "" {
			f, err := os.OpenFile(filepath.Join(top, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(cfg)
			f.Close()
			put(filepath.Join(tmp, "excl"), genIgnoreFile(r, all))
		}
		if r.Intn(3) == 0 {
			put(filepath.Join(xdg, "git", "ignore"), genIgnoreFile(r, all))
		}
		describe := func() string {
			var b strings.Builder
			fmt.Fprintf(&b, "round %d; ignore files:\n", round)
			names := make([]string, 0, len(written))
			for n := range written {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				rel, _ := filepath.Rel(tmp, n)
				fmt.Fprintf(&b, "  %s: %q\n", rel, written[n])
			}
			return b.String()
		}
		total += compareWithGit(t, git, top, describe)
	}
	t.Logf("%d paths compared with git check-ignore in %d trees (git: %d decided by no pattern, %d ignored, %d re-included; %d answers of --stdin differed from git's on the path alone, git crashed on %d)",
		total, rounds, gitStats[0], gitStats[1], gitStats[2], gitBatchWrong, gitCrashes)
}

// TestGitignoreMatchesGitRealTree does the same on the shape of a real
// tree: the folders and file names of Go's own source tree (GOROOT/src,
// always there), with ignore files of the patterns real Python and Go
// projects use, plus patterns made from the tree's own names, at several
// folders.
func TestGitignoreMatchesGitRealTree(t *testing.T) {
	git := requireGit(t)
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("GOROOT/src: %v", err)
	}
	tmp := t.TempDir()
	top := filepath.Join(tmp, "repo")
	isolateGit(t, filepath.Join(tmp, "home"), filepath.Join(tmp, "xdg"))
	gitInit(t, git, top)
	var dirs, all []string
	max := 6000
	if testing.Short() {
		max = 1500
	}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || len(all) >= max {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.Name() == ".git" || d.Name() == ".gitignore" {
			return nil
		}
		all = append(all, rel)
		if d.IsDir() {
			dirs = append(dirs, rel)
			return os.MkdirAll(filepath.Join(top, filepath.FromSlash(rel)), 0o755)
		}
		return os.WriteFile(filepath.Join(top, filepath.FromSlash(rel)), nil, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	written := map[string]string{}
	put := func(name, content string) {
		writeFile(t, name, content)
		written[name] = content
	}
	put(filepath.Join(top, ".gitignore"), realisticIgnore+genIgnoreFile(r, all))
	for _, d := range dirs {
		if r.Intn(8) == 0 {
			put(filepath.Join(top, filepath.FromSlash(d), ".gitignore"), genIgnoreFile(r, under(all, d)))
		}
	}
	put(filepath.Join(top, ".git", "info", "exclude"), "*_test.go\n!/net/**/*_test.go\n")
	n := compareWithGit(t, git, top, func() string { return fmt.Sprintf("%d ignore files (GOROOT/src shape)", len(written)) })
	t.Logf("%d paths of GOROOT/src's shape compared with git check-ignore, %d ignore files", n, len(written))
}

// debris is what builds, tests, tools and editors leave in a Python
// project's folders.
var debris = []string{
	"__pycache__/m.cpython-312.pyc", "m.pyc", "build/lib/m.py", "dist/p-0.1.tar.gz", "p.egg-info/PKG-INFO",
	".venv/lib/python3.12/site-packages/x.py", ".pytest_cache/v/cache/nodeids", ".mypy_cache/3.12/m.json",
	".ruff_cache/x", ".env", ".env.local", ".coverage", "coverage.xml", "htmlcov/index.html",
	"node_modules/x/index.js", "cdk.out/manifest.json", ".aws-sam/build/x", ".DS_Store", ".idea/workspace.xml",
	".vscode/settings.json", "m.py~", ".m.py.swp", "notes.log", "tmp/x.py", "local_settings.py", ".python-version",
	"uv.lock", "poetry.lock", "Pipfile.lock", "docs/_build/html/index.html", "site/index.html", "target/x",
}

// realisticIgnore is the kind of .gitignore Python and Go projects commit
// (after GitHub's Python and Go templates).
const realisticIgnore = `# Byte-compiled / optimized / DLL files
__pycache__/
*.py[cod]
*$py.class
*.so
.Python
build/
develop-eggs/
dist/
downloads/
eggs/
.eggs/
lib/
lib64/
parts/
sdist/
var/
wheels/
*.egg-info/
.installed.cfg
*.egg
MANIFEST
*.manifest
*.spec
pip-log.txt
htmlcov/
.tox/
.coverage
.coverage.*
.cache
nosetests.xml
coverage.xml
*.cover
*.py,cover
.hypothesis/
.pytest_cache/
*.mo
*.pot
*.log
local_settings.py
db.sqlite3
instance/
.webassets-cache
.scrapy
docs/_build/
target/
.ipynb_checkpoints
profile_default/
ipython_config.py
.pdm.toml
__pypackages__/
celerybeat-schedule
*.sage.py
.env
.venv
env/
venv/
ENV/
env.bak/
.spyderproject
.ropeproject
/site
.mypy_cache/
.dmypy.json
dmypy.json
.pyre/
.pytype/
cython_debug/
*.exe
*.exe~
*.dll
*.dylib
*.test
*.out
go.work
testdata/**/*.golden
!cmd/
/internal/**/testdata/
**/vendor/**
crypto/**/*_asm.go
[Tt]mp/
`

// TestGitignoreMatchesGitTree runs the comparison on an existing tree given
// in MCPLINT_GITIGNORE_TREE (a checkout with its own .gitignore files: the
// tree is copied as empty files into a fresh repository with its ignore
// files, so nothing in it is run or changed, and the untracked files of a
// working Python project are added beside its modules).
func TestGitignoreMatchesGitTree(t *testing.T) {
	src := os.Getenv("MCPLINT_GITIGNORE_TREE")
	if src == "" {
		t.Skip("set MCPLINT_GITIGNORE_TREE to a checkout to compare on it")
	}
	git := requireGit(t)
	tmp := t.TempDir()
	top := filepath.Join(tmp, "repo")
	isolateGit(t, filepath.Join(tmp, "home"), filepath.Join(tmp, "xdg"))
	gitInit(t, git, top)
	files := 0
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		dst := filepath.Join(top, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Name() == ".gitignore" && d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files++
			return os.WriteFile(dst, b, 0o644)
		case d.Type().IsRegular():
			return os.WriteFile(dst, nil, 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A checkout holds what git tracks, which its .gitignore files mostly
	// leave alone; add what builds, tests and editors leave beside Python
	// code, untracked, in every folder with Python files.
	var pyDirs []string
	err = filepath.WalkDir(top, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() != ".git" {
			if m, _ := filepath.Glob(filepath.Join(p, "*.py")); len(m) > 0 {
				pyDirs = append(pyDirs, p)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	added := 0
	for _, p := range pyDirs {
		for _, f := range debris {
			name := filepath.Join(p, filepath.FromSlash(f))
			if _, err := os.Lstat(name); err == nil {
				continue
			}
			writeFile(t, name, "")
			added++
		}
	}
	n := compareWithGit(t, git, top, func() string { return src })
	t.Logf("%d paths of %s compared with git check-ignore (%d untracked ones added), %d .gitignore files; git: %d decided by no pattern, %d ignored, %d re-included",
		n, src, added, files, gitStats[0], gitStats[1], gitStats[2])
}

// trickyPatterns are single lines whose reading in git is easy to get
// wrong; each is compared alone, and negated under a catch-all, on a tree
// of names made for them.
var trickyPatterns = []string{
	"foo**/bar", "foo*/bar", "a/**", "**/a", "a/**/b", "**", "/**", "**/", "*", "a/*", "a/*/b", "**/**/b",
	`a\ `, `a\\ `, `a\\`, `a\`, `a  `, "a \t", `\#h`, `\!n`, "!n", `\a`, `**\/b`, `a/**\/b`,
	"[!a]*", "[^a]", "[[:alpha:]]", "[[:upper:]]*", "*.py[cod]", "[]a]", "[!]]", "[a-]", "[-a]", "[z-a]", "[a-c-e]",
	"[[:x]", "[[:bogus:]]", "[ab", "[\\]]", "[[]", "a//", "//a", "/a/", "a/", "/a", "a/b/", "*/", "?", "??", "a?",
	"a*b*c", "*a*", "**a", "a**", "a/**b", "a**/b", "*$py.class", "x y", "x\\ y", "é", "[é]", "*.PY", "\r",
}

var trickyTree = []string{
	"a/b/c", "a/x/b", "a/b.py", "a/foo/bar", "foobar", "foo/bar", "foox/y/bar", "foo/x/bar/z",
	"a ", "a \t", `a\`, "#h", "!n", "ab", "ba", "xa", "c.pyc", "d.pyo", "e.py", "abc", "axbxc",
	"x y", "é", "A", "Ab", "]", "-", "z", "[", "\\/b", "q$py.class", "E.PY", "b/a/b", "b/a/c/b", "c/a",
}

func TestGitignoreTrickyPatternsMatchGit(t *testing.T) {
	git := requireGit(t)
	tmp := t.TempDir()
	isolateGit(t, filepath.Join(tmp, "home"), filepath.Join(tmp, "xdg"))
	top := filepath.Join(tmp, "repo")
	gitInit(t, git, top)
	var files []string
	for i, pat := range trickyPatterns {
		for j, content := range []string{pat + "\n", "*\n!" + pat + "\n", "a\n" + pat + "/\n"} {
			// Each case in a folder of its own, with its own .gitignore.
			dir := filepath.Join(top, fmt.Sprintf("r%d-%d", i, j))
			for _, p := range trickyTree {
				writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), "")
			}
			writeFile(t, filepath.Join(dir, ".gitignore"), content)
			files = append(files, fmt.Sprintf("%s: %q", filepath.Base(dir), content))
		}
	}
	// A .gitignore that is a symlink is not read (git opens it with
	// O_NOFOLLOW).
	link := filepath.Join(top, "symlinked")
	for _, p := range trickyTree {
		writeFile(t, filepath.Join(link, filepath.FromSlash(p)), "")
	}
	writeFile(t, filepath.Join(tmp, "patterns"), "*\n")
	if err := os.Symlink(filepath.Join(tmp, "patterns"), filepath.Join(link, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	compareWithGit(t, git, top, func() string { return "one folder per case:\n" + strings.Join(files, "\n") })
	if d := ourDecisions(t, top)["symlinked/a"]; d.src != "" {
		t.Errorf("a symlinked .gitignore was read: %v", d)
	}
}

// A worktree's .git is a file naming its git folder; info/exclude and the
// config (core.excludesFile) are the main repository's.
func TestGitignoreWorktreeMatchesGit(t *testing.T) {
	git := requireGit(t)
	tmp := t.TempDir()
	isolateGit(t, filepath.Join(tmp, "home"), filepath.Join(tmp, "xdg"))
	main, wt := filepath.Join(tmp, "main"), filepath.Join(tmp, "wt")
	gitInit(t, git, main)
	run := func(args ...string) {
		cmd := exec.Command(git, append([]string{"-C", main, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("commit", "-q", "--allow-empty", "-m", "x")
	run("worktree", "add", "-q", wt)
	run("config", "core.excludesFile", filepath.Join(tmp, "excl"))
	writeFile(t, filepath.Join(main, ".git", "info", "exclude"), "from_exclude.py\n")
	writeFile(t, filepath.Join(tmp, "excl"), "from_excludesfile.py\n")
	for _, p := range []string{"from_exclude.py", "from_excludesfile.py", "kept.py", "sub/from_exclude.py"} {
		writeFile(t, filepath.Join(wt, p), "")
	}
	if n := compareWithGit(t, git, wt, func() string { return "worktree" }); n != 5 {
		t.Errorf("%d paths compared, want 5", n)
	}
	ours := ourDecisions(t, wt)
	if ours["from_exclude.py"].src == "" || ours["from_excludesfile.py"].src == "" || ours["kept.py"].src != "" {
		t.Errorf("worktree decisions: %v", ours)
	}
}
