package deps

import (
	"path/filepath"
	"slices"
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
}
