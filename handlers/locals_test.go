package handlers

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// localsEdges are projects where a function's local value shares its
// qualified name, or a prefix of it, with something lookup finds: the
// names in want must look up something, so localOnly must not answer them.
var localsEdges = []struct {
	files map[string]string
	want  []string // names that lookup finds
}{
	{ // a package module under the function's qualified name
		map[string]string{
			"pkg/__init__.py":  "def tool():\n    data = load()\n    data.process()\n",
			"pkg/tool/data.py": "process = make()\n",
		},
		[]string{"pkg.tool.data", "pkg.tool.data.process"},
	},
	{ // a class and a function of the same name: class.x is a method
		map[string]string{
			"app/jobs.py": "class job:\n    def step(self):\n        pass\n\ndef job():\n    step = compute()\n    step()\n",
		},
		[]string{"app.jobs.job.step"},
	},
	{ // the function's name also imported: the import is looked up
		map[string]string{
			"app/util.py":  "class helper:\n    def out(self):\n        pass\n",
			"app/tools.py": "try:\n    from app.util import helper\nexcept ImportError:\n    def helper():\n        out = make()\n        out.update()\n",
		},
		[]string{"app.tools.helper.out"},
	},
	{ // a redefinition whose first body nests a def named like a local
		map[string]string{
			"app/mod.py": "def f():\n    def g():\n        pass\n    return g\n\ndef f():\n    g = make()\n    g()\n    g.run()\n",
		},
		[]string{"app.mod.f.g"},
	},
	{ // a submodule of the package named like its function
		map[string]string{
			"pkg/__init__.py": "def sub():\n    v = make()\n    v.run()\n",
			"pkg/sub.py":      "def v():\n    pass\n",
		},
		[]string{"pkg.sub.v"},
	},
	{ // a local named as a server function of the libraries
		map[string]string{
			"fastmcp/__init__.py": "def server():\n    create_proxy = make()\n    create_proxy()\n",
			"fastmcp/tools.py":    "def Tool():\n    from_function = make()\n    from_function(print)\n",
		},
		nil,
	},
	{ // plain locals, which localOnly answers
		map[string]string{
			"app/server.py": "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n\n@mcp.tool()\nasync def tool(data):\n    out = {}\n    out.update(data)\n    res = helper(out)\n    res.items.append(1)\n    with open('f') as fh:\n        fh.read()\n    return res\n\ndef helper(d):\n    return d\n",
		},
		nil,
	},
}

// TestLocalOnlyLooksUpNothing checks what locals.go claims: every name
// expression localOnly answers resolves only to names that lookup, the server
// classes and the server factories know nothing of, on every fixture project
// and on projects built to defeat it; and it answers some.
func TestLocalOnlyLooksUpNothing(t *testing.T) {
	var projects []map[string]string
	for _, e := range localsEdges {
		projects = append(projects, e.files)
	}
	for _, pat := range []string{"../testdata/rules/*/*", "../testdata/examples/*"} {
		dirs, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			files, err := pyFilesUnder(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) > 0 {
				projects = append(projects, files)
			}
		}
	}
	answered := 0
	for i, files := range projects {
		mods := parseProject(t, files)
		for _, cfg := range []Config{{}, suffixNames(mods)} {
			ix := Build(mods, cfg)
			b := ix.builder
			if b.locals == nil {
				t.Fatalf("project %d: no locals table", i)
			}
			if i < len(localsEdges) {
				for _, q := range localsEdges[i].want {
					if b.lookup(q).isZero() {
						t.Fatalf("edge project %d: %s looks up nothing: the project lost its point", i, q)
					}
				}
			}
			for _, m := range mods {
				pyast.Walk(m.Root, func(n *pyast.Node) bool {
					if k := n.Kind(); k == "identifier" || k == "attribute" {
						// quals is Resolve but for the locals localOnly answers.
						got, want := b.quals(m, n), m.Resolve(n)
						if b.localOnly(m, m.ScopeAt(n), n) {
							want = nil
						}
						if !reflect.DeepEqual(got, want) {
							t.Errorf("%s: quals(%s) = %q, want %q", m.Path, m.Text(n), got, want)
						}
					}
					if k := n.Kind(); (k == "identifier" || k == "attribute") && b.localOnly(m, m.ScopeAt(n), n) {
						answered++
						for _, q := range m.Resolve(n) {
							if sym := b.lookup(q); !sym.isZero() {
								t.Errorf("%s: %s (%s) is answered as a local but looks up %+v", m.Path, m.Text(n), q, sym)
							}
							if _, ok := fromFunction(q); ok {
								t.Errorf("%s: %s (%s) is answered as a local but names a component constructor", m.Path, m.Text(n), q)
							}
							if extServer(q) != FrameworkUnknown {
								t.Errorf("%s: %s (%s) is answered as a local but names a server", m.Path, m.Text(n), q)
							}
						}
					}
					return true
				})
			}
		}
	}
	if answered < 100 {
		t.Fatalf("localOnly answered %d name expressions: the test lost its point", answered)
	}
}

// suffixNames names modules as the engine does: every dotted suffix of
// their path.
func suffixNames(mods []*pyast.Module) Config {
	byName := map[string][]string{}
	for _, m := range mods {
		segs := strings.Split(strings.TrimSuffix(strings.TrimSuffix(m.Path, ".py"), "/__init__"), "/")
		for i := range segs {
			name := strings.Join(segs[i:], ".")
			byName[name] = append(byName[name], m.Path)
		}
	}
	cfg := Config{ModuleFiles: func(name string) []string { return byName[name] }}
	for name := range byName {
		cfg.ModuleNames = append(cfg.ModuleNames, name)
	}
	return cfg
}

// Without the module names, ModuleFiles may name any module: no local is
// answered without a lookup.
func TestLocalOnlyNeedsModuleNames(t *testing.T) {
	mods := parseProject(t, localsEdges[len(localsEdges)-1].files)
	cfg := suffixNames(mods)
	cfg.ModuleNames = nil
	if ix := Build(mods, cfg); ix.builder.locals != nil {
		t.Fatal("locals table built without the module names")
	}
}
