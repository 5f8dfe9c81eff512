package handlers

import (
	"sort"
	"strings"
	"testing"
)

// build parses files (path -> source; module name from the path) and builds
// the index.
func build(t *testing.T, files map[string]string, cfg Config) *Index {
	t.Helper()
	return Build(parseProject(t, files), cfg)
}

func handlerSet(ix *Index) []string {
	var out []string
	for _, h := range ix.Handlers {
		out = append(out, h.Func.Qual+":"+h.Kind+":"+h.Framework.String())
	}
	sort.Strings(out)
	return out
}

func TestRegistrationForms(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		cfg   Config
		want  []string
	}{
		{"official decorators", map[string]string{"s.py": `
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
@mcp.tool()
async def a(): pass
@mcp.resource("res://{id}")
def b(id): pass
@mcp.prompt(name="p")
def c(): pass
def not_registered(): pass
`}, Config{}, []string{"s.a:tool:mcp FastMCP", "s.b:resource template:mcp FastMCP", "s.c:prompt:mcp FastMCP"}},
		{"fastmcp forms", map[string]string{"s.py": `
import fastmcp
from fastmcp.tools import tool
from fastmcp.tools import Tool
mcp = fastmcp.FastMCP("x")
@mcp.tool
def a(): pass
@mcp.tool("named")
def b(): pass
def c(): pass
mcp.tool(c, name="c")
def d(): pass
mcp.tool(name="d")(d)
def e(): pass
mcp.add_tool(Tool.from_function(e))
@tool
def f(): pass
def g(): pass
srv = fastmcp.FastMCP("y", tools=[g])
`}, Config{}, []string{"s.a:tool:fastmcp", "s.b:tool:fastmcp", "s.c:tool:fastmcp", "s.d:tool:fastmcp", "s.e:tool:fastmcp", "s.f:tool:fastmcp", "s.g:tool:fastmcp"}},
		{"low-level and 2.x", map[string]string{"s.py": `
from mcp.server.lowlevel import Server
from mcp import types
server = Server("x")
@server.call_tool()
async def call(name, args): pass
@server.list_tools()
async def lt(): pass
@server.tool()
async def not_lowlevel(): pass
async def ping(req): pass
server.request_handlers[types.PingRequest] = ping
async def on_call(ctx, params): pass
s2 = Server("y", on_call_tool=on_call)
`}, Config{}, []string{"s.call:call_tool:mcp low-level Server", "s.lt:list_tools:mcp low-level Server", "s.on_call:call_tool:mcp low-level Server", "s.ping:request:mcp low-level Server"}},
		{"server imported, factory, attribute, param", map[string]string{
			"pkg/__init__.py": "from .server import mcp\nfrom . import tools\n",
			"pkg/server.py": `
from mcp.server.fastmcp import FastMCP
def make():
    return FastMCP("x")
mcp = make()
`,
			"pkg/tools.py": `
from pkg import mcp
@mcp.tool()
async def t1(): pass
`,
			"pkg/cls.py": `
from fastmcp import FastMCP
class App:
    def __init__(self):
        self.mcp = FastMCP("c")
        @self.mcp.tool()
        async def inner(): pass
app = App()
`,
			"pkg/reg.py": `
from pkg.server import mcp
def register(server):
    @server.tool()
    async def t2(): pass
register(mcp)
def unrelated(server):
    @server.tool()
    async def t3(): pass
`,
		}, Config{}, []string{"pkg.cls.App.__init__.inner:tool:fastmcp", "pkg.reg.register.t2:tool:mcp FastMCP", "pkg.tools.t1:tool:mcp FastMCP"}},
		{"wrapper at a call-form registration", map[string]string{"s.py": `
import fastmcp
from util import async_background
mcp = fastmcp.FastMCP("x")
def slow(): pass
mcp.tool(name="slow")(async_background(slow))
`, "util.py": `
def async_background(fn):
    async def wrapper(*a, **k): pass
    return wrapper
`}, Config{}, []string{"s.slow:tool:fastmcp"}},
		{"tool functions replaced after registration", map[string]string{"s.py": `
import anyio
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
@mcp.tool()
def blocking(): pass

def make_async():
    for tool in mcp._tool_manager.list_tools():
        orig = tool.fn
        async def wrapped(*args, **kwargs):
            return await anyio.to_thread.run_sync(orig, *args)
        tool.fn = wrapped
make_async()
`}, Config{}, []string{"s.blocking:tool:mcp FastMCP", "s.make_async.wrapped:tool:mcp FastMCP"}},
		{"registration through a helper and in a loop", map[string]string{"s.py": `
from fastmcp import FastMCP
from util import async_background
mcp = FastMCP("x")
def _register(m: FastMCP, name, fn):
    m.tool(name=name)(async_background(fn))
def get_me(): pass
def get_you(): pass
_register(mcp, "get_me", get_me)
_register(mcp, name="get_you", fn=get_you)
async def a(): pass
async def b(): pass
for f in [a, b]:
    mcp.add_tool(f)
`, "util.py": `
def async_background(fn):
    async def wrapper(*a, **k): pass
    return wrapper
`}, Config{}, []string{"s.a:tool:fastmcp", "s.b:tool:fastmcp", "s.get_me:tool:fastmcp", "s.get_you:tool:fastmcp"}},
		{"server in a class body", map[string]string{"s.py": `
from mcp.server.fastmcp import FastMCP
class S:
    server = FastMCP("x")
    @server.tool()
    async def m(self): pass
`}, Config{}, []string{"s.S.m:tool:mcp FastMCP"}},
		{"spelling alone is not a server", map[string]string{"s.py": `
class FastMCP:
    def tool(self): return lambda f: f
mcp = FastMCP()
@mcp.tool()
async def a(): pass
`}, Config{}, nil},
		{"custom decorator re-exported", map[string]string{
			"ourlib/__init__.py": "from ourlib.registry import tool\n",
			"ourlib/registry.py": "def tool(**kw):\n    return lambda f: f\n",
			"app.py": `
from ourlib import tool
@tool(name="x")
async def a(): pass
`}, Config{ExtraDecorators: []string{"ourlib.registry.tool"}}, []string{"app.a:handler:custom"}},
		{"custom decorator", map[string]string{"s.py": `
from ourlib.mcp import register_tool
@register_tool(name="x")
async def a(): pass
`}, Config{ExtraDecorators: []string{"ourlib.mcp.register_tool"}}, []string{"s.a:handler:custom"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := handlerSet(build(t, c.files, c.cfg))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("handlers:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestReachability(t *testing.T) {
	ix := build(t, map[string]string{
		"srv.py": `
from mcp.server.fastmcp import FastMCP
from helpers import work, background
import helpers
mcp = FastMCP("x")

@mcp.tool()
@background
async def t(): 
    await work()
    await helpers.other()

class C:
    async def m(self):
        await self.n()
    async def n(self): pass

c = C()

@mcp.tool()
async def u():
    await c.m()

async def unreached(): pass
`,
		"helpers.py": `
import asyncer
def background(fn):
    async def wrapper(*a, **k):
        return await asyncer.asyncify(fn)(*a, **k)
    return wrapper
async def work():
    await deep()
async def deep(): pass
async def other(): pass
async def never(): pass
`}, Config{})
	reached := map[string]bool{}
	for _, r := range ix.ReachableFuncs() {
		reached[r.Func.Qual] = true
	}
	for _, q := range []string{"srv.t", "srv.u", "helpers.background", "helpers.background.wrapper", "helpers.work", "helpers.deep", "helpers.other", "srv.C.m", "srv.C.n"} {
		if !reached[q] {
			t.Errorf("%s not reachable", q)
		}
	}
	for _, q := range []string{"srv.unreached", "helpers.never"} {
		if reached[q] {
			t.Errorf("%s reachable", q)
		}
	}
	deep, _ := ix.Function("helpers.deep")
	if hs := ix.ReachedFrom(deep.Func); len(hs) != 1 || hs[0].Func.Name != "t" {
		t.Errorf("deep reached from %v", hs)
	}
	if cs := ix.Callers(deep.Func); len(cs) != 1 || cs[0].Caller.Func.Qual != "helpers.work" {
		t.Errorf("callers of deep: %v", cs)
	}
	// Methods through a factory's result and an instance imported from
	// another module.
	svc := build(t, map[string]string{
		"svc.py": `
class Svc:
    async def encode(self, q): pass
    async def decode(self, q): pass
async def get_svc() -> Svc:
    return Svc()
_SVC = Svc()
`,
		"srv.py": `
from mcp.server.fastmcp import FastMCP
from svc import get_svc, _SVC
mcp = FastMCP("x")
@mcp.tool()
async def t(q):
    s = await get_svc()
    await s.encode(q)
    await _SVC.decode(q)
`}, Config{})
	reachedSvc := map[string]bool{}
	for _, r := range svc.ReachableFuncs() {
		reachedSvc[r.Func.Qual] = true
	}
	for _, q := range []string{"svc.Svc.encode", "svc.Svc.decode", "svc.get_svc"} {
		if !reachedSvc[q] {
			t.Errorf("%s not reachable through the factory / imported instance", q)
		}
	}
	// Recursion terminates and keeps both functions reachable.
	cyc := build(t, map[string]string{"c.py": `
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
@mcp.tool()
async def h(): await ping(3)
async def ping(n):
    if n: await pong(n - 1)
async def pong(n):
    await ping(n)
`}, Config{})
	if got := len(cyc.ReachableFuncs()); got != 3 {
		t.Errorf("cycle: %d reachable functions, want 3", got)
	}
	tf, _ := ix.Function("srv.t")
	if hs := ix.ReachedFrom(tf.Func); len(hs) != 1 || len(hs[0].Wrappers) != 1 || hs[0].Wrappers[0].Qual != "helpers.background" {
		t.Errorf("wrapper of t: %+v", hs)
	}
}

func TestResourceTemplateKinds(t *testing.T) {
	got := handlerSet(build(t, map[string]string{"s.py": `
from fastmcp import FastMCP
from fastmcp.resources import Resource, ResourceTemplate
mcp = FastMCP("x")
@mcp.resource(uri="a://{x}")
def kw(x): pass
@mcp.resource("a://static")
def static(): pass
def called(x): pass
mcp.resource("c://{x}")(called)
def tmpl(x): pass
mcp.add_template(ResourceTemplate.from_function(tmpl, uri_template="t://{x}"))
def res(x): pass
mcp.add_resource(Resource.from_function(res, "r://{x}"))
def res_static(): pass
mcp.add_resource(Resource.from_function(res_static, uri="r://static"))
`}, Config{}))
	want := []string{"s.called:resource template:fastmcp", "s.kw:resource template:fastmcp", "s.res:resource template:fastmcp",
		"s.res_static:resource:fastmcp", "s.static:resource:fastmcp", "s.tmpl:resource template:fastmcp"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("kinds:\n got %q\nwant %q", got, want)
	}
}

func TestDisabledTools(t *testing.T) {
	got := handlerSet(build(t, map[string]string{"s.py": `
import gc
from fastmcp import FastMCP
from mcp.server.fastmcp import FastMCP as Official
mcp = FastMCP("x")
off = Official("y")
@mcp.tool(enabled=False)
def never(): pass
@mcp.tool(enabled=False, name="by_name")
def named(): pass
@mcp.tool(enabled=False, tags={"admin"})
def tagged(): pass
@mcp.tool(enabled=False)
def itself(): pass
@mcp.tool(enabled=True)
def on(): pass
@off.tool(enabled=False)
def official(): pass
gc.enable()
mcp.enable(names={"by_name"})
mcp.enable(tags={"admin"})
itself.enable()
`}, Config{}))
	want := []string{"s.itself:tool:fastmcp", "s.named:tool:fastmcp", "s.official:tool:mcp FastMCP", "s.on:tool:fastmcp", "s.tagged:tool:fastmcp"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("handlers:\n got %q\nwant %q", got, want)
	}
	// An enable call that cannot be read keeps every disabled tool.
	got = handlerSet(build(t, map[string]string{"s.py": `
from fastmcp import FastMCP
mcp = FastMCP("x")
@mcp.tool(enabled=False)
def later(): pass
def turn_on(names):
    mcp.enable(names=names)
`}, Config{}))
	if strings.Join(got, ",") != "s.later:tool:fastmcp" {
		t.Errorf("opaque enable: %q", got)
	}
}

func TestRegistrationsThatRun(t *testing.T) {
	files := map[string]string{
		"pkg/__init__.py": "",
		"pkg/server.py": `
from fastmcp import FastMCP
from pkg import mods
from pkg.mods import register_a, register_b, register_c
from pkg.looped import REGISTRARS
mcp = FastMCP("x")
register_a(mcp)
# register_b(mcp)
def setup():
    for reg in REGISTRARS:
        reg(mcp)
    mods.register_d(mcp)
def never_called():
    register_c(mcp)
def main():
    setup()
    mcp.run()
`,
		"pkg/mods.py": `
def register_a(mcp):
    @mcp.tool()
    def a(): pass
def register_b(mcp):
    @mcp.tool()
    def b(): pass
def register_c(mcp):
    @mcp.tool()
    def c(): pass
def register_d(mcp):
    @mcp.tool()
    def d(): pass
`,
		"pkg/looped.py": `
def register_e(mcp):
    @mcp.tool()
    def e(): pass
REGISTRARS = [register_e]
`,
		"pkg/factory.py": `
from fastmcp import FastMCP
from pkg.mods2 import register_f
def create_server() -> FastMCP:
    srv = FastMCP("y")
    register_f(srv)
    return srv
`,
		"pkg/mods2.py": `
def register_f(mcp):
    @mcp.tool()
    def f(): pass
def register_g(mcp):
    @mcp.tool()
    def g(): pass
def register_h(mcp):
    @mcp.tool()
    def h(): pass
`,
		"pkg/cli.py": `
import click
from pkg.server import mcp
from pkg.mods2 import register_g
@click.command()
def serve():
    register_g(mcp)
`,
		"pkg/klass.py": `
from fastmcp import FastMCP
class Unused:
    def __init__(self):
        self.mcp = FastMCP("z")
    def register(self):
        @self.mcp.tool()
        def i(): pass
class Used:
    def __init__(self):
        self.mcp = FastMCP("w")
        self.setup()
    def setup(self):
        @self.mcp.tool()
        def j(): pass
class Plugin(SomeFrameworkBase):
    def on_load(self, mcp: FastMCP):
        @mcp.tool()
        def k(): pass
`,
		"pkg/uses.py": "from pkg.klass import Used\nU = Used()\n",
		"tests/test_server.py": `
from pkg.server import mcp
from pkg.mods2 import register_h
from fastmcp import FastMCP
register_h(mcp)
def register_t(m):
    @m.tool()
    def t(): pass
register_t(FastMCP("test"))
`,
	}
	got := handlerSet(build(t, files, Config{}))
	want := []string{
		"pkg.klass.Plugin.on_load.k:tool:fastmcp", "pkg.klass.Used.setup.j:tool:fastmcp",
		"pkg.looped.register_e.e:tool:fastmcp",
		"pkg.mods.register_a.a:tool:fastmcp", "pkg.mods.register_d.d:tool:fastmcp",
		"pkg.mods2.register_f.f:tool:fastmcp", "pkg.mods2.register_g.g:tool:fastmcp",
		"tests.test_server.register_t.t:tool:fastmcp",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("handlers:\n got %q\nwant %q", got, want)
	}
	// Modules registered in a loop or through importlib: their register
	// functions run, though the receiver cannot be followed.
	plugin := map[string]string{
		"plug/__init__.py": "",
		"plug/server.py": `
import importlib
from fastmcp import FastMCP
from plug import one
mcp = FastMCP("p")
for mod in [one]:
    mod.register(mcp)
for name in ["two"]:
    importlib.import_module("plug." + name).setup(mcp)
`,
		"plug/one.py": `
def register(mcp):
    @mcp.tool()
    def t1(): pass
`,
		"plug/two.py": `
from fastmcp import FastMCP
def setup(mcp: FastMCP):
    @mcp.tool()
    def t2(): pass
def unused(mcp: FastMCP):
    @mcp.tool()
    def t3(): pass
`,
	}
	if got := strings.Join(handlerSet(build(t, plugin, Config{})), ","); got != "plug.one.register.t1:tool:fastmcp,plug.two.setup.t2:tool:fastmcp" {
		t.Errorf("plugin registrations: %q", got)
	}
	// A module that registers on an imported server runs only when live
	// code imports it (or it runs as a script).
	plugins := map[string]string{
		"app/__init__.py": "",
		"app/server.py": `
from fastmcp import FastMCP
mcp = FastMCP("x")
`,
		"app/main.py": `
from app.server import mcp
import app.used
`,
		"app/used.py": `
from app.server import mcp
@mcp.tool
def used(): pass
`,
		"app/legacy.py": `
from app.server import mcp
@mcp.tool
def legacy(): pass
`,
		"app/script.py": `
from app.server import mcp
@mcp.tool
def scripted(): pass
if __name__ == "__main__":
    mcp.run()
`,
		"tests/test_legacy.py": "import app.legacy\n",
	}
	if got := strings.Join(handlerSet(build(t, plugins, Config{})), ","); got != "app.script.scripted:tool:fastmcp,app.used.used:tool:fastmcp" {
		t.Errorf("plugin modules: %q", got)
	}
	plugins["app/loader.py"] = "import importlib\nfor n in ['legacy']:\n    importlib.import_module('app.' + n)\n"
	if got := strings.Join(handlerSet(build(t, plugins, Config{})), ","); !strings.Contains(got, "app.legacy.legacy") {
		t.Errorf("a dynamic import can load any module: %q", got)
	}
	// An entry point from [project.scripts] runs its function.
	files["pkg/server.py"] = strings.Replace(files["pkg/server.py"], "def main():", "def cli():", 1)
	got = handlerSet(build(t, files, Config{}))
	if strings.Contains(strings.Join(got, ","), "register_d") {
		t.Errorf("register_d runs only from cli(), which nothing runs: %q", got)
	}
	got = handlerSet(build(t, files, Config{EntryPoints: []string{"pkg.server.cli"}}))
	if !strings.Contains(strings.Join(got, ","), "register_d") {
		t.Errorf("cli() is an entry point: %q", got)
	}
}

// A test that registers a served tool again on a server of its own, only to
// list it, sorts first (tests/ before weather/): the production
// registration is the one kept, and a tool that only such a test registers
// is no handler.
func TestTestRegistersServedToolAgain(t *testing.T) {
	files := map[string]string{
		"weather/__init__.py": "",
		"weather/server.py": `
from mcp.server.fastmcp import FastMCP
from weather.tools import slow
mcp = FastMCP("weather")
mcp.tool()(slow)
def main():
    mcp.run()
`,
		"weather/tools.py": `
import asyncio, time
async def slow(x: int) -> int:
    await asyncio.to_thread(time.sleep, x)
    return x
async def only_tested(x: int) -> int:
    return x
`,
		"tests/test_tools.py": `
from mcp.server.fastmcp import FastMCP
from weather.tools import slow, only_tested
async def test_listed():
    server = FastMCP("t")
    server.add_tool(slow)
    server.add_tool(only_tested)
    tools = await server.list_tools()
    assert len(tools) == 2
`,
	}
	ix := build(t, files, Config{EntryPoints: []string{"weather.server.main"}})
	if got := strings.Join(handlerSet(ix), ","); got != "weather.tools.slow:tool:mcp FastMCP" {
		t.Fatalf("handlers: %q", got)
	}
	if h := ix.Handlers[0]; h.SiteModule == nil || h.SiteModule.Path != "weather/server.py" {
		t.Errorf("the registration kept is the test's, not weather/server.py's: %+v", h.SiteModule)
	}
}

func TestCollectedHandlers(t *testing.T) {
	got := handlerSet(build(t, map[string]string{
		"app/__init__.py": "from app.catalog import TOOLS\n",
		"app/catalog.py": `
from app.docs import get_doc, upsert_doc
TOOLS = [get_doc, upsert_doc]
`,
		"app/docs.py": `
def get_doc(id): pass
def upsert_doc(id, body): pass
def not_listed(): pass
`,
		"app/registry.py": `
REGISTRY = []
PROMPTS = {}
def logged_tool(**kw):
    def deco(fn):
        REGISTRY.append(fn)
        return fn
    return deco
def unrelated(**kw):
    def deco(fn):
        return fn
    return deco
`,
		"app/more.py": `
from app.registry import logged_tool, unrelated, PROMPTS
@logged_tool(name="search")
def search(q): pass
@unrelated()
def plain(): pass
def greet(): pass
PROMPTS["greet"] = greet
`,
		"app/server.py": `
from fastmcp import FastMCP
from fastmcp.tools import FunctionTool
from fastmcp.prompts import Prompt
from app import TOOLS
from app.registry import REGISTRY, PROMPTS
import app.more
mcp = FastMCP("x")
for t in TOOLS:
    mcp.add_tool(FunctionTool.from_function(t))
for fn in REGISTRY:
    mcp.tool(name=fn.__name__)(fn)
for name, p in PROMPTS.items():
    mcp.add_prompt(Prompt.from_function(p, name=name))
`,
	}, Config{}))
	want := []string{"app.docs.get_doc:tool:fastmcp", "app.docs.upsert_doc:tool:fastmcp", "app.more.greet:prompt:fastmcp", "app.more.search:tool:fastmcp"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("handlers:\n got %q\nwant %q", got, want)
	}
}

func TestMethodDispatchReachesOverrides(t *testing.T) {
	ix := build(t, map[string]string{
		"server.py": `
from mcp.server.fastmcp import FastMCP
from procs import Base
mcp = FastMCP("x")
@mcp.tool()
async def typed(p: Base, x: int) -> int:
    return await p.run(x)
`,
		"procs.py": `
class Base:
    async def run(self, x):
        return await self.process(x)
    async def process(self, x):
        return x
class Impl(Base):
    async def process(self, x):
        return x
class Deeper(Impl):
    async def process(self, x):
        return x
class Other:
    async def process(self, x):
        return x
`}, Config{})
	reached := map[string]bool{}
	for _, r := range ix.ReachableFuncs() {
		reached[r.Func.Qual] = true
	}
	for _, q := range []string{"procs.Base.run", "procs.Base.process", "procs.Impl.process", "procs.Deeper.process"} {
		if !reached[q] {
			t.Errorf("%s not reachable", q)
		}
	}
	if reached["procs.Other.process"] {
		t.Error("procs.Other.process is no override of Base.process")
	}
}

func TestProvidersAndMountedServers(t *testing.T) {
	got := handlerSet(build(t, map[string]string{
		"apps.py": `
from fastmcp import FastMCPApp
from fastmcp.server.providers import LocalProvider
app = FastMCPApp("Dashboard")
@app.ui()
def show(): pass
@app.tool()
def save(name: str): pass
provider = LocalProvider()
@provider.tool
def listed(): pass
def via_call(): pass
provider.tool(via_call)
`,
		"sub.py": `
from fastmcp import FastMCP
weather = FastMCP("weather")
@weather.tool
def forecast(city: str): pass
`,
		"server.py": `
from fastmcp import FastMCP
from apps import app, provider
from sub import weather
mcp = FastMCP("main")
mcp.add_provider(app)
mcp.add_provider(provider)
mcp.mount(weather, prefix="w")
`}, Config{}))
	want := []string{"apps.listed:tool:fastmcp", "apps.save:tool:fastmcp", "apps.show:tool:fastmcp", "apps.via_call:tool:fastmcp", "sub.forecast:tool:fastmcp"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("handlers:\n got %q\nwant %q", got, want)
	}
}

func TestMethodOnConstructedInstance(t *testing.T) {
	ix := build(t, map[string]string{"s.py": `
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
class Tool:
    async def execute(self): pass
@mcp.tool()
async def h():
    return await run(lambda: Tool().execute())
async def run(op):
    return await op()
`}, Config{})
	tool, _ := ix.Function("s.Tool.execute")
	if !ix.Reachable(tool.Func) {
		t.Error("Tool().execute() in a lambda the handler passes on is reachable")
	}
}

// A decorator that wraps each function in a local wrapper, keeps
// (name, wrapper) tuples in a module list, and a register function that
// takes the server as an untyped parameter and registers every wrapper in
// a tuple-unpacking loop, called from a function with function-scope
// imports. The handler is the decorated function; the wrapper that runs it
// (through local aliases and typing.cast) is its wrapper.
func TestWrappedRegistry(t *testing.T) {
	files := func(server string) map[string]string {
		return map[string]string{
			"srv/__init__.py":       "",
			"srv/tools/__init__.py": "from . import notes, search\n",
			"srv/tools/_registry.py": `
import functools, inspect
from typing import Any, cast
_collected: list[tuple] = []
def traced_tool():
    def decorator(func):
        if inspect.iscoroutinefunction(func):
            async_func = cast(Any, func)
            @functools.wraps(async_func)
            async def async_wrapper(*args, **kwargs):
                return await async_func(*args, **kwargs)
            wrapper = cast(Any, async_wrapper)
        else:
            sync_func = func
            @functools.wraps(sync_func)
            def sync_wrapper(*args, **kwargs):
                return sync_func(*args, **kwargs)
            wrapper = sync_wrapper
        _collected.append((func.__name__, cast(Any, wrapper)))
        return wrapper
    return decorator
def not_a_wrapper_factory():
    def decorator(func):
        def other(*args):
            return args
        _collected.append(("x", other))
        return func
    return decorator
def register_all(server: Any) -> None:
    for _, wrapper in _collected:
        server.tool()(wrapper)
`,
			"srv/tools/notes.py": `
from ._registry import traced_tool, not_a_wrapper_factory
@traced_tool()
def add_note(text): pass
@not_a_wrapper_factory()
def kept(): pass
def helper(): pass
`,
			"srv/tools/search.py": `
from ._registry import traced_tool
@traced_tool()
async def search(q): pass
`,
			"srv/server.py": server,
		}
	}
	ix := build(t, files(`
from fastmcp import FastMCP
mcp = FastMCP("x")
def _register_tools():
    from .tools import notes, search
    from .tools._registry import register_all
    register_all(mcp)
_register_tools()
`), Config{})
	got := handlerSet(ix)
	want := []string{
		"srv.tools._registry.not_a_wrapper_factory.decorator.other:tool:fastmcp",
		"srv.tools.notes.add_note:tool:fastmcp",
		"srv.tools.search.search:tool:fastmcp",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("handlers:\n got %q\nwant %q", got, want)
	}
	for _, h := range ix.Handlers {
		var ws []string
		for _, w := range h.Wrappers {
			ws = append(ws, w.Name)
		}
		wantWs := map[string]string{"add_note": "sync_wrapper", "search": "async_wrapper", "other": ""}[h.Func.Name]
		if strings.Join(ws, ",") != wantWs {
			t.Errorf("%s: wrappers %q, want %q", h.Func.Name, ws, wantWs)
		}
	}
	// The same registry whose register function nothing calls registers nothing.
	if got := handlerSet(build(t, files(`
from fastmcp import FastMCP
mcp = FastMCP("x")
def _register_tools():
    from .tools import notes, search
    from .tools._registry import register_all
    register_all(mcp)
`), Config{})); len(got) != 0 {
		t.Errorf("register_all never called: got handlers %q", got)
	}
}
