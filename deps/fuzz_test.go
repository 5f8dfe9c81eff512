package deps

import (
	"os"
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
	l := newLoader(".", Options{})
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
