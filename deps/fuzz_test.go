package deps

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"testing"
)

// Fuzz targets: no panic on any input, and spans that stay inside the file.
// Run one at a time, e.g. go test -fuzz=FuzzRequirementsFile -fuzztime=60s ./deps/

func checkSpans(t *testing.T, src []byte, reqs []*Requirement) {
	for _, r := range reqs {
		if r.Start < 0 || r.End > len(src) || r.Start > r.End {
			t.Fatalf("span %d-%d outside the file (%d bytes)", r.Start, r.End, len(src))
		}
		if r.VersionStart >= 0 && (r.VersionEnd > len(src) || r.VersionStart > r.VersionEnd) {
			t.Fatalf("version span %d-%d outside the file", r.VersionStart, r.VersionEnd)
		}
	}
}

func FuzzRequirementsFile(f *testing.F) {
	for _, s := range []string{
		"mcp>=1.20,<2\n", "mcp[cli] (>=1.29,<1.30) ; python_version >= \"3.10\"\n", "mcp==1.25.0 \\\n  --hash=sha256:abc\n",
		"-r other.txt\n-c c.txt\n", "-e git+https://x/y.git#egg=mcp\n", "mcp @ git+https://x/y\n", "httpx==${V}\n",
		"# comment\n\n  mcp!=1.5.*  # x\n", "./a/b-1.0-py3-none-any.whl\n", "mcp~=1.26.0\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		reqs, _ := parseRequirementsText("requirements.txt", src)
		checkSpans(t, src, reqs)
	})
}

func FuzzVersion(f *testing.F) {
	for _, s := range []string{"1.0", "1!2.0a1.post3.dev4+local.1", "v1.0-r4", "1.0.*", "^1.2", ">=1,<2", "~=1.26.0", "===foo", "1.2.3 || 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseVersion(s); err == nil {
			w, err := ParseVersion(v.String())
			if err != nil || w.Compare(v) != 0 {
				t.Fatalf("%q normalises to %q, which does not read back (%v)", s, v.String(), err)
			}
			if !Point(v).Contains(v) {
				t.Fatalf("{%s} does not contain it", v)
			}
		}
		if _, set, err := ParseSpecifier(s); err == nil {
			_ = set.AdmitsRange("1.0", "2.0")
			_ = set.Complement().Union(set).Empty()
		}
		if _, set, err := ParsePoetryConstraint(s); err == nil {
			_ = set.UnboundedAbove()
			_ = ResolveOpen("mcp", set)
		}
	})
}

// fuzzTOML runs a TOML-based reader on src.
func fuzzTOML(t *testing.T, name string, rd reader, src []byte) {
	l := newLoader(".", Options{AllRequirements: true})
	file := &File{Path: name, Src: src}
	reqs := rd(l, file)
	checkSpans(t, src, reqs)
}

func tomlSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

func FuzzPyproject(f *testing.F) {
	tomlSeeds(f, "[project]\ndependencies = [\"mcp>=1.2,<2\"]\n",
		"[tool.poetry.dependencies]\nmcp = {version = \"^1.2\", extras=[\"cli\"]}\nx = [{version=\"1\"},{version=\"2\"}]\n",
		"[tool.uv.sources]\nmcp = { git = \"x\", tag = \"v1\" }\n[project]\ndependencies=['mcp']\n",
		"[dependency-groups]\ndev = [\"a\", {include-group = \"b\"}]\n[[a.b]]\n[a.b.c]\n")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzTOML(t, "pyproject.toml", readPyproject, src) })
}

func FuzzPipfile(f *testing.F) {
	tomlSeeds(f, "[packages]\nmcp = \"==1.2\"\nx = {version=\">=1\", git=\"y\"}\n")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzTOML(t, "Pipfile", readPipfile, src) })
}

func FuzzTOMLLocks(f *testing.F) {
	tomlSeeds(f, "[[package]]\nname = \"mcp\"\nversion = \"1.25.0\"\nsource = { editable = \".\" }\n",
		"[[packages]]\nname = \"mcp\"\nversion = \"2.1.0\"\n[packages.directory]\neditable = true\n",
		// sub-tables per element (D1), and a real duplicate in one element
		"[[package]]\nname = \"a\"\n[package.optional-dependencies]\nx = []\n[[package]]\nname = \"b\"\n[package.optional-dependencies]\ny = []\n",
		"[[package]]\nname = \"mcp\"\nversion = \"1.9.4\"\n[package.dependencies]\nanyio = \">=4.5\"\n[package.source]\ntype = \"git\"\n[[package.files]]\nfile = \"x\"\n[[package]]\nname = \"b\"\n[package.dependencies]\n[package.dependencies]\n",
		"[[packages]]\nname = 'mcp'\nversion = '1.26.0'\n    [packages.sdist]\n    name = 'mcp.tar.gz'\n    [[packages.wheels]]\n    upload-time = 2025-03-17T00:02:52.713000+00:00\n    hashes = {sha256 = 'ab'}\n    [packages.tool.pdm]\n    groups = ['default']\n")
	for _, name := range []string{"uvlock-subtables/uv.lock", "poetrylock-subtables/poetry.lock", "pdmlock-subtables/pdm.lock", "pylock-subtables/pylock.toml", "malformed/duptable/uv.lock",
		"malformed/lockentry-poetry/poetry.lock", "malformed/lockentry-pylock/pylock.toml", "malformed/lockentry-uv/uv.lock", "malformed/lockentry-pdm/pdm.lock"} {
		src, err := os.ReadFile("../testdata/deps/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzTOML(t, "uv.lock", readUVLock, src)
		fuzzTOML(t, "poetry.lock", readPoetryLock, src)
		fuzzTOML(t, "pdm.lock", readPDMLock, src)
		fuzzTOML(t, "pylock.toml", readPylock, src)
	})
}

func FuzzScript(f *testing.F) {
	tomlSeeds(f, "# /// script\n# dependencies = [\n#   \"mcp>=1,<2\",\n# ]\n# ///\n")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzTOML(t, "x.py", readScript, src) })
}

func FuzzPipfileLock(f *testing.F) {
	tomlSeeds(f, `{"default": {"mcp": {"version": "==1.26.0"}}, "develop": {"x": {}}}`,
		`{"default": {"mcp": {"hashes": []}, "fastmcp": {"version": 3}, "anyio": "==4.9.0", "x": {"git": "y"}}}`)
	f.Fuzz(func(t *testing.T, src []byte) { fuzzTOML(t, "Pipfile.lock", readPipfileLock, src) })
}

// pep508Name is a PEP 508 project name.
var pep508Name = regexp.MustCompile(`(?i)^([a-z0-9]|[a-z0-9][a-z0-9._-]*[a-z0-9])$`)

// checkWellFormed checks the requirements a reader returned: spans inside
// the file, a valid name normalised as PEP 503 says, and, where the
// requirement can be edited in place, the name at its start and a version
// span whose text admits exactly the versions the requirement does.
func checkWellFormed(t *testing.T, src []byte, reqs []*Requirement) {
	t.Helper()
	checkSpans(t, src, reqs)
	for _, r := range reqs {
		if !pep508Name.MatchString(r.RawName) || r.Name != NormalizeName(r.RawName) {
			t.Fatalf("name %q (normalised %q) is not a project name", r.RawName, r.Name)
		}
		if r.VersionStart < 0 {
			continue
		}
		if r.Start+len(r.RawName) > r.End || string(src[r.Start:r.Start+len(r.RawName)]) != r.RawName {
			t.Fatalf("%s: the span %d-%d does not start with the name: %q", r.RawName, r.Start, r.End, src[r.Start:r.End])
		}
		if r.VersionStart < r.Start || r.VersionEnd > r.End {
			t.Fatalf("%s: version span %d-%d outside the requirement %d-%d", r.RawName, r.VersionStart, r.VersionEnd, r.Start, r.End)
		}
		if r.Unknown || r.URL != "" || r.Poetry {
			continue
		}
		spec := string(src[r.VersionStart:r.VersionEnd])
		if _, set, err := ParseSpecifier(spec); err != nil || set.String() != r.Set.String() {
			t.Fatalf("%s: the version span reads %q (%v, %v), the requirement admits %v", r.RawName, spec, set, err, r.Set)
		}
	}
}

// fuzzSeedFiles adds the files under testdata/deps whose name is name.
func fuzzSeedFiles(f *testing.F, name string) {
	paths, _ := filepath.Glob("../testdata/deps/*/" + name)
	more, _ := filepath.Glob("../testdata/deps/*/*/" + name)
	for _, p := range append(paths, more...) {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	if len(paths)+len(more) == 0 {
		f.Fatalf("no %s under testdata/deps to seed from", name)
	}
}

// FuzzSetupPy reads setup.py from its syntax tree, never running it: no
// input makes it panic, and every requirement it returns is well formed.
func FuzzSetupPy(f *testing.F) {
	fuzzSeedFiles(f, "setup.py")
	tomlSeeds(f, "from setuptools import setup\nDEPS = ['mcp>=1.2,<2', r'anyio (>=4)']\nsetup(install_requires=DEPS, extras_require={'cli': ('typer==0.9',), 1: ['x']})\n",
		"import setuptools as s\ns.setup(install_requires=[f'mcp=={V}', 'mcp\\x3d=1', u'mcp ; python_version<\"3\"', 'mcp @ git+https://x/y@v1.2.0'])\n",
		"setup(install_requires=open('r.txt').read().splitlines(), extras_require=EXTRAS)\nsetup(install_requires=(\n 'a'\n 'b>=1',\n))\r\n")
	f.Fuzz(func(t *testing.T, src []byte) {
		l := newLoader(".", Options{AllRequirements: true})
		file := &File{Path: "setup.py", Src: src}
		checkWellFormed(t, src, readSetupPy(l, file))
	})
}

// FuzzSetupCfg: as FuzzSetupPy for setup.cfg, whose "file:" entries read
// requirements.txt (an in-memory file) and nothing else.
func FuzzSetupCfg(f *testing.F) {
	fuzzSeedFiles(f, "setup.cfg")
	tomlSeeds(f, "[options]\ninstall_requires =\n    mcp>=1.2,<2  # pinned\n\tanyio\n[options.extras_require]\ncli = typer==0.9\n    rich\n",
		"[options]\ninstall_requires = file: requirements.txt, ../../etc/passwd\n[options.extras_require\nx = y\n",
		"[options]\r\ninstall_requires=mcp (>=1.20) ; python_version >= \"3.10\"\r\n; comment\r\n  mcp[cli]@ https://x\r\nnokey\n")
	f.Fuzz(func(t *testing.T, src []byte) {
		included := []byte("mcp>=1.2,<2\n-r requirements.txt\n")
		read := func(p string) ([]byte, error) {
			if path.Clean(p) == "requirements.txt" {
				return included, nil
			}
			return nil, fs.ErrNotExist
		}
		l := newLoader(".", Options{AllRequirements: true, Root: ".", ReadFile: read})
		file := &File{Path: "setup.cfg", Src: src}
		for _, r := range readSetupCfg(l, file) {
			if r.Path == "setup.cfg" {
				checkWellFormed(t, src, []*Requirement{r})
			} else {
				checkWellFormed(t, included, []*Requirement{r})
			}
		}
	})
}

// A value led by a form feed or a no-break space: TrimSpace removed it, but
// the offset counted only spaces and tabs, so the requirement's span (and a
// fix's edit of its version) started that many bytes early (FuzzSetupCfg).
func TestSetupCfgSpanAfterOtherWhiteSpace(t *testing.T) {
	for _, lead := range []string{" \f", "\u00a0", " \v\t"} {
		src := []byte("[options]\ninstall_requires =" + lead + "mcp>=1.2,<2\n")
		reqs := readSetupCfg(newLoader(".", Options{}), &File{Path: "setup.cfg", Src: src})
		if len(reqs) != 1 {
			t.Fatalf("%q: %d requirements", lead, len(reqs))
		}
		r := reqs[0]
		if got := string(src[r.Start:r.End]); got != "mcp>=1.2,<2" {
			t.Errorf("%q: the requirement's span reads %q", lead, got)
		}
		if got := string(src[r.VersionStart:r.VersionEnd]); got != ">=1.2,<2" {
			t.Errorf("%q: the version span reads %q", lead, got)
		}
	}
}
