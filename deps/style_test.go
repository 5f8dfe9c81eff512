package deps

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
)

func TestStyleFromPyprojectAndRuffTOML(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"a/pyproject.toml": `[project]
dependencies = ["mcp>=1.20"]

[tool.black]
line-length = 100

[tool.ruff.lint.isort]
known-first-party = ["corp"]
force-sort-within-sections = true

[tool.isort]
profile = "black"
known_third_party = ["vendored"]
lines_between_types = 1
`,
		"b/pyproject.toml":   "[project]\ndependencies = [\"mcp\"]\n[tool.ruff]\nline-length = 120\n",
		"b/ruff.toml":        "line-length = 79\n[lint.isort]\ncase-sensitive = true\n",
		"c/requirements.txt": "mcp\n",
	})
	load := func(dir, file string) *Project {
		p, errs := Load(filepath.ToSlash(filepath.Join(root, dir)), []string{filepath.ToSlash(filepath.Join(root, dir, file))}, Options{})
		if len(errs) != 0 {
			t.Fatal(errs)
		}
		return p
	}
	a := load("a", "pyproject.toml").Style
	if a.LineLength != 100 || !slices.Equal(a.Isort.KnownFirstParty, []string{"corp"}) || !slices.Equal(a.Isort.KnownThirdParty, []string{"vendored"}) ||
		!a.Isort.ForceSortWithinSections || a.Isort.LinesBetweenTypes != 1 {
		t.Errorf("a: %+v", a)
	}
	b := load("b", "pyproject.toml").Style
	if b.LineLength != 79 || !b.Isort.CaseSensitive {
		t.Errorf("b: ruff.toml must win: %+v", b)
	}
	if c := load("c", "requirements.txt").Style; c.Width() != 88 {
		t.Errorf("c: default width %d, want 88", c.Width())
	}
	// NoStyle reads the versions only: the same requirements, no style.
	full := load("b", "pyproject.toml")
	bare, errs := Load(filepath.ToSlash(filepath.Join(root, "b")), []string{filepath.ToSlash(filepath.Join(root, "b", "pyproject.toml"))}, Options{NoStyle: true})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if bare.Style.LineLength != 0 || bare.Style.Isort.CaseSensitive {
		t.Errorf("NoStyle: style read: %+v", bare.Style)
	}
	if got, want := bare.Describe("mcp"), full.Describe("mcp"); got != want {
		t.Errorf("NoStyle: versions %q, want %q", got, want)
	}
}

// styleCase is a tree of files, the project folder in it, the scan root
// the search must stay in, and the style expected.
type styleCase struct {
	name      string
	files     map[string]string
	dir, root string // slash paths under the temporary folder
	length    int    // Style.LineLength
	first     []string
	caseSens  bool
	note      string // a part of a note, when one is expected
}

func runStyleCases(t *testing.T, cases []styleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := testfs.Write(t, c.files)
			dir := filepath.ToSlash(filepath.Join(tmp, c.dir))
			var dep string
			for _, n := range []string{"pyproject.toml", "requirements.txt", "setup.cfg"} {
				if _, ok := c.files[path.Join(c.dir, n)]; ok {
					dep = path.Join(dir, n)
					break
				}
			}
			p, errs := Load(dir, []string{dep}, Options{Root: filepath.Join(tmp, c.root)})
			if len(errs) != 0 {
				t.Fatal(errs)
			}
			st := p.Style
			if st.LineLength != c.length || !slices.Equal(st.Isort.KnownFirstParty, c.first) || st.Isort.CaseSensitive != c.caseSens {
				t.Errorf("style: line length %d, known first party %q, case sensitive %v; want %d, %q, %v",
					st.LineLength, st.Isort.KnownFirstParty, st.Isort.CaseSensitive, c.length, c.first, c.caseSens)
			}
			notes := strings.Join(p.Notes, "\n")
			if c.note == "" && notes != "" || !strings.Contains(notes, c.note) {
				t.Errorf("notes %q, want %q", notes, c.note)
			}
		})
	}
}

const req = "mcp>=1.20\n"

// ruff uses the closest configuration file, .ruff.toml before ruff.toml
// before a pyproject.toml that has [tool.ruff], and ignores those of
// parent folders, except through `extend`, whose keys the extending file
// overrides one by one.
func TestStyleRuffDiscoveryAndExtend(t *testing.T) {
	runStyleCases(t, []styleCase{
		{name: "a parent folder's ruff.toml", files: map[string]string{
			"ruff.toml": "line-length = 100\n[lint.isort]\nknown-first-party = [\"corp\"]\n", "svc/requirements.txt": req},
			dir: "svc", length: 100, first: []string{"corp"}},
		{name: "a parent folder's pyproject.toml with [tool.ruff]", files: map[string]string{
			"pyproject.toml": "[tool.ruff]\nline-length = 101\n", "svc/requirements.txt": req},
			dir: "svc", length: 101},
		{name: "a parent pyproject.toml without [tool.ruff] is passed over", files: map[string]string{
			"ruff.toml": "line-length = 102\n", "app/pyproject.toml": "[tool.black]\nskip-string-normalization = true\n",
			"app/svc/requirements.txt": req},
			dir: "app/svc", length: 102},
		{name: "the closest file wins whole: a parent's settings are ignored", files: map[string]string{
			"ruff.toml":          "line-length = 100\n[lint.isort]\nknown-first-party = [\"corp\"]\n",
			"svc/pyproject.toml": "[project]\ndependencies = [\"mcp\"]\n[tool.ruff.lint.isort]\ncase-sensitive = true\n"},
			dir: "svc", caseSens: true},
		{name: ".ruff.toml before ruff.toml before pyproject.toml", files: map[string]string{
			"svc/.ruff.toml": "line-length = 70\n", "svc/ruff.toml": "line-length = 71\n",
			"svc/pyproject.toml": "[project]\ndependencies = [\"mcp\"]\n[tool.ruff]\nline-length = 72\n"},
			dir: "svc", length: 70},
		{name: "extend: inherited keys, overridden key by key", files: map[string]string{
			"base.toml":     "line-length = 99\n[lint.isort]\nknown-first-party = [\"base\"]\ncase-sensitive = true\n",
			"svc/ruff.toml": "extend = \"../base.toml\"\n[lint.isort]\nknown-first-party = [\"child\"]\n", "svc/requirements.txt": req},
			dir: "svc", length: 99, first: []string{"child"}, caseSens: true},
		{name: "extend a pyproject.toml, through two files", files: map[string]string{
			"pyproject.toml":      "[tool.ruff]\nline-length = 98\n",
			"common/ruff.toml":    "extend = \"../pyproject.toml\"\n[lint.isort]\nknown-first-party = [\"corp\"]\n",
			"svc/pyproject.toml":  "[project]\ndependencies = [\"mcp\"]\n[tool.ruff]\nextend = \"../common/ruff.toml\"\n",
			"svc/app/__init__.py": ""},
			dir: "svc", length: 98, first: []string{"corp"}},
		{name: "extend outside the scan root is refused with a note", files: map[string]string{
			"outside.toml":        "line-length = 42\n",
			"repo/ruff.toml":      "extend = \"../outside.toml\"\n[lint.isort]\ncase-sensitive = true\n",
			"repo/pyproject.toml": "[project]\ndependencies = [\"mcp\"]\n"},
			dir: "repo", root: "repo", caseSens: true, note: "ruff extend \"../outside.toml\" leads outside the scanned tree: not read"},
		{name: "extend into .git is refused with a note", files: map[string]string{
			"repo/.git/config": "[http]\n\textraheader = AUTHORIZATION: basic eC1h\n", "repo/ruff.toml": "extend = \".git/config\"\nline-length = 93\n", "repo/requirements.txt": req},
			dir: "repo", root: "repo", length: 93, note: "ruff extend \".git/config\" is inside version-control internals: not read"},
		{name: "extend by an absolute path outside the scan root", files: map[string]string{
			"repo/ruff.toml": "extend = \"/etc/hostname\"\n", "repo/requirements.txt": req},
			dir: "repo", root: "repo", note: "leads outside the scanned tree"},
		{name: "extend to the home folder is not followed", files: map[string]string{
			"ruff.toml": "extend = \"~/ruff.toml\"\nline-length = 90\n", "requirements.txt": req},
			length: 90, note: "names the home folder or an environment variable: not followed"},
		{name: "an extend cycle ends", files: map[string]string{
			"a.toml": "extend = \"b.toml\"\nline-length = 91\n", "b.toml": "extend = \"a.toml\"\n[lint.isort]\ncase-sensitive = true\n",
			"ruff.toml": "extend = \"a.toml\"\n", "requirements.txt": req},
			length: 91, caseSens: true, note: "makes a cycle"},
		{name: "a missing extended file", files: map[string]string{
			"ruff.toml": "extend = \"nope.toml\"\nline-length = 92\n", "requirements.txt": req},
			length: 92, note: "ruff extend \"nope.toml\": no such file"},
		{name: "no search above the scan root", files: map[string]string{
			"ruff.toml": "line-length = 100\n", "repo/svc/requirements.txt": req},
			dir: "repo/svc", root: "repo"},
	})
}

// isort uses the closest folder with a file that holds isort settings,
// .isort.cfg, pyproject.toml, setup.cfg, tox.ini, .editorconfig in that
// order, never merges files, and stops at a .git or .hg folder.
func TestStyleIsortDiscovery(t *testing.T) {
	runStyleCases(t, []styleCase{
		{name: "setup.cfg [isort], a list over several lines", files: map[string]string{
			"setup.cfg": "[options]\ninstall_requires =\n    mcp\n[isort]\nline_length = 100\nknown_first_party =\n    corp,\n    tools\n"},
			length: 100, first: []string{"corp", "tools"}},
		{name: "setup.cfg [tool:isort], profile black", files: map[string]string{
			"setup.cfg": "[tool:isort]\nprofile = black\nknown_first_party = corp, tools\n", "requirements.txt": req},
			length: 88, first: []string{"corp", "tools"}},
		{name: ".isort.cfg before pyproject.toml, no merge", files: map[string]string{
			".isort.cfg":     "[settings]\nknown_first_party = mine\ncase_sensitive = True\n",
			"pyproject.toml": "[project]\ndependencies = [\"mcp\"]\n[tool.isort]\nknown_first_party = [\"theirs\"]\nline_length = 77\n"},
			first: []string{"mine"}, caseSens: true},
		{name: "pyproject.toml before setup.cfg", files: map[string]string{
			"pyproject.toml": "[project]\ndependencies = [\"mcp\"]\n[tool.isort]\nline_length = 77\n",
			"setup.cfg":      "[isort]\nline_length = 66\n"},
			length: 77},
		{name: "tox.ini [isort]", files: map[string]string{"tox.ini": "[tox]\nenvlist = py312\n[isort]\nline_length = 95\n", "requirements.txt": req},
			length: 95},
		{name: ".editorconfig max_line_length for Python files", files: map[string]string{
			".editorconfig": "root = true\n\n[*.md]\nmax_line_length = 200\n\n[*.py]\nmax_line_length = 110\n", "requirements.txt": req},
			length: 110},
		{name: ".editorconfig max_line_length = off", files: map[string]string{
			".editorconfig": "[*]\nmax_line_length = off\n", "requirements.txt": req}},
		{name: "a parent folder's .isort.cfg", files: map[string]string{
			".isort.cfg": "[isort]\nline_length = 70\n", "svc/requirements.txt": req},
			dir: "svc", length: 70},
		{name: "a .git folder ends the search", files: map[string]string{
			".isort.cfg": "[isort]\nline_length = 70\n", "repo/.git/HEAD": "ref: refs/heads/main\n", "repo/svc/requirements.txt": req},
			dir: "repo/svc"},
		{name: "a folder whose files hold no isort settings is passed over", files: map[string]string{
			".isort.cfg": "[isort]\nline_length = 70\n", "svc/setup.cfg": "[flake8]\nmax-line-length = 120\n", "svc/requirements.txt": req},
			dir: "svc", length: 70},
	})
}

// The line length is ruff's, else black's, else isort's.
func TestStyleLineLengthPrecedence(t *testing.T) {
	pyproject := "[project]\ndependencies = [\"mcp\"]\n[tool.black]\nline-length = 100\n[tool.isort]\nline_length = 80\n"
	runStyleCases(t, []styleCase{
		{name: "ruff over black and isort", files: map[string]string{"ruff.toml": "line-length = 120\n", "svc/pyproject.toml": pyproject},
			dir: "svc", length: 120},
		{name: "black over isort", files: map[string]string{"svc/pyproject.toml": pyproject}, dir: "svc", length: 100},
		{name: "isort", files: map[string]string{"svc/pyproject.toml": strings.Replace(pyproject, "line-length = 100", "", 1)},
			dir: "svc", length: 80},
		{name: "black from a parent pyproject.toml", files: map[string]string{
			"pyproject.toml": "[tool.black]\nline-length = 105\n", "svc/requirements.txt": req}, dir: "svc", length: 105},
		// flake8 counts only where no formatter (nor isort) sets one.
		{name: "flake8 in setup.cfg", files: map[string]string{"svc/setup.cfg": "[flake8]\nmax-line-length = 79\n", "svc/requirements.txt": req},
			dir: "svc", length: 79},
		{name: "flake8 in .flake8 of a parent", files: map[string]string{".flake8": "[flake8]\nmax_line_length = 100\n", "svc/requirements.txt": req},
			dir: "svc", length: 100},
		{name: "flake8 in tox.ini", files: map[string]string{"tox.ini": "[tox]\nenvlist = py\n[flake8]\nmax-line-length = 110\n", "requirements.txt": req},
			dir: ".", length: 110},
		{name: "black over flake8", files: map[string]string{"svc/setup.cfg": "[flake8]\nmax-line-length = 120\n", "svc/pyproject.toml": pyproject},
			dir: "svc", length: 100},
	})
}

// A style file that is a symlink to a file outside the scan root is not
// read.
func TestStyleSymlinkOutsideTheRoot(t *testing.T) {
	tmp := testfs.Write(t, map[string]string{"outside/ruff.toml": "line-length = 42\n", "repo/requirements.txt": req})
	if err := os.Symlink(filepath.Join(tmp, "outside", "ruff.toml"), filepath.Join(tmp, "repo", "ruff.toml")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(filepath.Join(tmp, "outside", "ruff.toml"), filepath.Join(tmp, "repo", ".isort.cfg")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.ToSlash(filepath.Join(tmp, "repo"))
	p, _ := Load(dir, []string{dir + "/requirements.txt"}, Options{Root: filepath.Join(tmp, "repo")})
	if p.Style.LineLength != 0 {
		t.Errorf("line length %d read through a symlink out of the scan root", p.Style.LineLength)
	}
}

// A PEP 723 script is a project of one file: its style is found from its
// folder, as a project folder's is.
func TestStyleOfAScript(t *testing.T) {
	tmp := testfs.Write(t, map[string]string{"ruff.toml": "line-length = 100\n", "tools/run.py": "# /// script\n# dependencies = ['mcp']\n# ///\n"})
	file := filepath.ToSlash(filepath.Join(tmp, "tools", "run.py"))
	p, errs := LoadScript(file, []byte(testfs.Read(t, filepath.Join(tmp, "tools", "run.py"))), Options{Root: tmp})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if p.Style.LineLength != 100 {
		t.Errorf("line length %d, want 100 from the parent folder's ruff.toml", p.Style.LineLength)
	}
	if p, _ = LoadScript(file, []byte("import os\n"), Options{}); p.Style.LineLength != 0 {
		t.Errorf("with no scan root the search left the script's folder: %d", p.Style.LineLength)
	}
}
