package handlers

import (
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// importsDynamically skips the modules that mention none of dynamicHeads:
// every name of dynamicImports must start with one of them.
func TestDynamicHeadsCoverDynamicImports(t *testing.T) {
	for q := range dynamicImports {
		head, _, _ := strings.Cut(q, ".")
		found := false
		for _, h := range dynamicHeads {
			found = found || h == head
		}
		if !found {
			t.Errorf("dynamicImports has %s, whose first name %s is not in dynamicHeads", q, head)
		}
	}
}

func TestImportsDynamically(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"app.loader", "from importlib import import_module as load\ndef f(n):\n    return load(n)\n", true},
		{"app.loader", "import importlib.util as u\nu.spec_from_file_location('m', 'p')\n", true},
		{"app.loader", "mod = __import__('json')\n", true},
		{"app.loader", "import pkgutil\nfor m in pkgutil.iter_modules(): pass\n", true},
		{"app.loader", "import importlib\nprint(importlib.__name__)\n", false},
		{"app.loader", "from app.util import load\nload('x')\n", false},
		// A name relative to the module's own package: the head is in the
		// module's name, not in its source.
		{"runpy.sub", "from . import run_module\nrun_module('x')\n", true},
	} {
		m, err := pyast.Parse(strings.ReplaceAll(c.name, ".", "/")+".py", c.name, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := importsDynamically(m); got != c.want {
			t.Errorf("%s %q: importsDynamically %v, want %v", c.name, c.src, got, c.want)
		}
	}
}

func TestIsTestModule(t *testing.T) {
	for _, c := range []struct {
		name, path string
		want       bool
	}{
		{"pkg.tests.helpers", "", true},
		{"test", "", true},
		{"pkg.test_server", "", true},
		{"pkg.server_test", "", true},
		{"pkg.conftest", "", true},
		{"conftest.pkg", "", false}, // conftest counts as the file only
		{"pkg.test_utils.server", "", false},
		{"pkg.server", "", false},
		{"pkg.testing", "", false},
		{"", "/x/tests/test_a.py", true},
		{"", `C:\x\y_test.py`, true},
		{"", "/x/tests/server.py", false}, // no dotted name: the file name only
	} {
		m := &pyast.Module{Name: c.name, Path: c.path}
		if got := isTestModule(m); got != c.want {
			t.Errorf("isTestModule(%q, %q) = %v, want %v", c.name, c.path, got, c.want)
		}
	}
}
