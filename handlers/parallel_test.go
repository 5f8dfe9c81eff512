package handlers

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcplint/mcplint/pyast"
)

// dumpIndex writes out what Build found, in the Index's own orders: the
// handlers with every field, the call sites in index order, each function's
// successors, the reachable functions, their callers and the handlers that
// reach them, and the guard.
func dumpIndex(ix *Index) string {
	var sb strings.Builder
	at := func(m *pyast.Module, n *pyast.Node) string {
		if n == nil {
			return "-"
		}
		return fmt.Sprintf("%s@%d", m.Path, n.StartByte())
	}
	qual := func(f *pyast.Function) string {
		if f == nil {
			return "<module>"
		}
		return f.Qual
	}
	for _, h := range ix.Handlers {
		fmt.Fprintf(&sb, "handler %s %s %s %q %s site=%s", qual(h.Func), h.Module.Path, h.Kind, h.Server, h.Framework, at(h.SiteModule, h.Site))
		var keys []string
		for k := range h.Options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&sb, " %s=%s", k, at(h.SiteModule, h.Options[k]))
		}
		for _, w := range h.Wrappers {
			fmt.Fprintf(&sb, " wraps:%s", w.Qual)
		}
		sb.WriteByte('\n')
	}
	b := ix.builder
	for _, s := range b.sites {
		fmt.Fprintf(&sb, "site %s %s -> %s\n", at(s.module, s.call), qual(s.caller), s.callee.Func.Qual)
	}
	for _, m := range b.mods {
		for _, f := range m.Funcs {
			fmt.Fprintf(&sb, "succ %s:", f.Qual)
			for _, g := range b.successors(f) {
				fmt.Fprintf(&sb, " %s", g.Qual)
			}
			sb.WriteByte('\n')
		}
	}
	for _, r := range ix.ReachableFuncs() {
		fmt.Fprintf(&sb, "reachable %s %s unreached=%v:", r.Module.Path, r.Func.Qual, ix.Unreached(r.Func.Qual))
		for _, h := range ix.ReachedFrom(r.Func) {
			fmt.Fprintf(&sb, " %s/%s", h.Func.Qual, h.Kind)
		}
		for _, c := range ix.Callers(r.Func) {
			fmt.Fprintf(&sb, " caller:%s:%s", c.Caller.Func.Qual, at(c.Caller.Module, c.Call))
		}
		sb.WriteByte('\n')
	}
	if g := ix.ActiveGuard(); g != nil {
		fmt.Fprintf(&sb, "guard %s\n", at(g.Module, g.Stmt()))
	}
	return sb.String()
}

// parseProject parses files (path -> source; module names from the paths)
// in path order.
func parseProject(t *testing.T, files map[string]string) []*pyast.Module {
	t.Helper()
	var mods []*pyast.Module
	for p, src := range files {
		name := strings.TrimSuffix(strings.ReplaceAll(strings.TrimSuffix(p, ".py"), "/", "."), ".__init__")
		m, err := pyast.Parse(p, name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return mods
}

// sameWithJobs builds mods with one worker and with four (a worker per
// module at least) and fails when the two Indexes differ in anything.
func sameWithJobs(t *testing.T, name string, mods []*pyast.Module, cfg Config) {
	t.Helper()
	defer func(n int) { minModulesPerWorker = n }(minModulesPerWorker)
	minModulesPerWorker = 1
	cfg.Jobs = 1
	one := dumpIndex(Build(mods, cfg))
	cfg.Jobs = 4
	for run := 0; run < 3; run++ { // the workers' timing differs from run to run
		if four := dumpIndex(Build(mods, cfg)); four != one {
			a, b := strings.Split(one, "\n"), strings.Split(four, "\n")
			for i := 0; i < len(a) && i < len(b); i++ {
				if a[i] != b[i] {
					t.Fatalf("%s: Jobs 4 differs from Jobs 1 at line %d:\n 1: %s\n 4: %s", name, i+1, a[i], b[i])
				}
			}
			t.Fatalf("%s: Jobs 4 gives %d lines, Jobs 1 %d", name, len(b), len(a))
		}
	}
}

// genProject writes a project of n modules whose handlers are found through
// every table built on first use (a registry filled by a decorator and by
// append, a loop over it, subclasses overriding a method called on the
// base, a registration helper's parameter, a decorator's wrapper), with
// helpers registered twice from different modules (the first module's
// registration is kept).
func genProject(n int) map[string]string {
	files := map[string]string{
		"pkg/__init__.py": "",
		"pkg/server.py":   "from fastmcp import FastMCP\nmcp = FastMCP(\"x\")\n",
		"pkg/registry.py": `
import functools
REGISTRY = []
TOOLS = []
WRAPPED = []
class Base:
    def run(self, x):
        return x
def logged_tool(**kw):
    def deco(fn):
        REGISTRY.append(fn)
        return fn
    return deco
def traced(func):
    @functools.wraps(func)
    async def wrapper(*a, **k):
        return await func(*a, **k)
    WRAPPED.append(wrapper)
    return wrapper
def register(m, fn):
    m.tool()(fn)
`,
	}
	var imports []string
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		imports = append(imports, fmt.Sprintf("import pkg.mod%d", i))
		files[fmt.Sprintf("pkg/mod%d.py", i)] = fmt.Sprintf(`
import anyio
from pkg.server import mcp
from pkg.registry import TOOLS, Base, logged_tool, traced, register
from pkg import mod%[2]d as nxt

class Proc%[1]d(Base):
    def run(self, x):
        return nxt.helper%[2]d(x)

@logged_tool(name="t%[1]d")
def listed%[1]d(q):
    return helper%[1]d(q)

def extra%[1]d():
    return Proc%[1]d().run(1)

TOOLS.append(extra%[1]d)
TOOLS.extend([listed%[1]d])

def helper%[1]d(x):
    anyio.to_thread.run_sync(nxt.helper%[2]d, x)
    return nxt.Proc%[2]d().run(x)

@traced
async def traced%[1]d(x):
    return helper%[1]d(x)

@mcp.tool()
async def tool%[1]d(p: Base, x: int):
    p.run(x)
    return await anyio.to_thread.run_sync(helper%[1]d, x)

mcp.tool(name="own")(helper%[1]d)
mcp.tool(name="next")(nxt.helper%[2]d)
register(mcp, nxt.extra%[2]d)
`, i, j)
	}
	files["pkg/main.py"] = strings.Join(imports, "\n") + `
from pkg.server import mcp
from pkg.registry import TOOLS, REGISTRY, WRAPPED
for t in TOOLS:
    mcp.add_tool(t)
for fn in REGISTRY:
    mcp.tool()(fn)
for w in WRAPPED:
    mcp.tool()(w)
if __name__ == "__main__":
    mcp.run()
`
	return files
}

func TestBuildSameWithJobs(t *testing.T) {
	mods := parseProject(t, genProject(40))
	for _, all := range []bool{false, true} {
		ix := Build(mods, Config{AllFunctions: all})
		if len(ix.Handlers) < 4*40 || len(ix.builder.sites) == 0 {
			t.Fatalf("generated project: %d handlers, %d call sites: the test project lost its point", len(ix.Handlers), len(ix.builder.sites))
		}
		sameWithJobs(t, fmt.Sprintf("generated, AllFunctions=%v", all), mods, Config{AllFunctions: all, EntryPoints: []string{"pkg.main"}})
	}
}

// TestBuildSameWithJobsOnFixtures builds every fixture project of the rules
// and the examples with one and with four workers.
func TestBuildSameWithJobsOnFixtures(t *testing.T) {
	var dirs []string
	for _, pat := range []string{"../testdata/rules/*/*", "../testdata/examples/*"} {
		ds, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, ds...)
	}
	built := 0
	for _, dir := range dirs {
		files := map[string]string{}
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			files[filepath.ToSlash(rel)] = string(src)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			continue
		}
		mods := parseProject(t, files)
		sameWithJobs(t, dir, mods, Config{})
		sameWithJobs(t, dir+" (all functions)", mods, Config{AllFunctions: true})
		built++
	}
	if built < 50 {
		t.Fatalf("only %d fixture projects found", built)
	}
}

// BenchmarkBuild builds a generated project of 400 modules, or the Python
// files under $MCPLINT_BENCH_BUILD (module names from their paths below
// it), with one worker and with two.
func BenchmarkBuild(b *testing.B) {
	t := &testing.T{}
	var mods []*pyast.Module
	if dir := os.Getenv("MCPLINT_BENCH_BUILD"); dir != "" {
		files, err := pyFilesUnder(dir)
		if err != nil {
			b.Fatal(err)
		}
		mods = parseProject(t, files)
	} else {
		mods = parseProject(t, genProject(400))
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				Build(mods, Config{Jobs: jobs})
			}
			b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// pyFilesUnder reads the Python files under dir, by slash path relative to
// it (parseProject's input).
func pyFilesUnder(dir string) (map[string]string, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		src, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(src)
		return err
	})
	return files, err
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestWorkerPanic checks that a panic in a worker of a parallel pass is
// raised again by the goroutine that runs Build, as with one worker.
func TestWorkerPanic(t *testing.T) {
	defer func(n int) { minModulesPerWorker = n }(minModulesPerWorker)
	minModulesPerWorker = 1
	b := &builder{mods: parseProject(t, genProject(8)), cfg: Config{Jobs: 4}, lazy: &lazyTables{}, looked: newLookupMemo()}
	defer func() {
		p, ok := recover().(workerPanic)
		if !ok || p.value != "boom" || !strings.Contains(p.String(), "in a worker of handlers.Build") {
			t.Errorf("recovered %#v, want the worker's panic", p)
		}
	}()
	b.forEachModule(func(w *builder, i int) {
		if i == 3 {
			panic("boom")
		}
	})
	t.Error("forEachModule returned")
}
