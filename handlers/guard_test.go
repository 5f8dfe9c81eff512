package handlers

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

const guardServer = `
from mcp.server.fastmcp import FastMCP
%s
mcp = FastMCP("x")

@mcp.tool()
async def t():
    return 1
%s
`

// guardCase describes a project and what the recogniser must say of it.
type guardCase struct {
	name   string
	files  map[string]string
	active bool   // a complete guard runs before the server starts
	state  string // "path:respond+cancel:active" for every guard found, joined by " "
	why    string // a part of the first guard's Why, when set
}

func guardState(ix *Index) string {
	var parts []string
	for _, g := range ix.Guards() {
		var ms []string
		for _, m := range GuardedMethods {
			if g.Patch(m) != nil {
				ms = append(ms, m)
			}
		}
		parts = append(parts, fmt.Sprintf("%s:%s:%v", g.Module.Path, strings.Join(ms, "+"), g.Active))
	}
	return strings.Join(parts, " ")
}

const attrGuard = `
from mcp.shared.session import RequestResponder

_respond, _cancel = RequestResponder.respond, RequestResponder.cancel

async def _guarded_respond(self, response):
    if self._completed:
        return
    await _respond(self, response)

async def _guarded_cancel(self):
    """Skip a second terminal response."""
    if getattr(self, "_completed", False):
        return None
    await _cancel(self)

RequestResponder.respond = _guarded_respond
RequestResponder.cancel = _guarded_cancel
`

func server(before, after string) string { return fmt.Sprintf(guardServer, before, after) }

func TestGuardSpellings(t *testing.T) {
	// Cases without a Why to check leave it empty.
	cases := []guardCase{
		{"attribute assignment imported first", map[string]string{"server.py": server("import guard", ""), "guard.py": attrGuard},
			true, "guard.py:respond+cancel:true", ""},
		{"inline before the server", map[string]string{"server.py": server(attrGuard, "")}, true, "server.py:respond+cancel:true", ""},
		{"tuple assignment and setattr, aliased imports", map[string]string{"server.py": server("import app.patch", ""), "app/__init__.py": "", "app/patch.py": `
import functools
import mcp.shared.session as s
from mcp.shared.session import RequestResponder as RR

def _guard(orig):
    @functools.wraps(orig)
    async def wrapper(self, *args, **kwargs):
        if getattr(self, '_completed', False):
            return
        return await orig(self, *args, **kwargs)
    return wrapper

s.RequestResponder.respond, RR.cancel = _guard(RR.respond), _guard(RR.cancel)
`}, true, "app/patch.py:respond+cancel:true", ""},
		{"setattr in an install function called at import", map[string]string{"server.py": server("from guard import *", ""), "guard.py": `
from mcp.shared import session

def install():
    async def respond(self, response):
        if self._completed:
            return
        await orig_respond(self, response)
    async def cancel(self):
        if self._completed:
            return
        await orig_cancel(self)
    orig_respond, orig_cancel = session.RequestResponder.respond, session.RequestResponder.cancel
    setattr(session.RequestResponder, "respond", respond)
    setattr(session.RequestResponder, "cancel", cancel)

install()
`}, true, "guard.py:respond+cancel:true", ""},
		{"subclass swapped in, transitively imported", map[string]string{
			"server.py": server("import boot", ""), "boot.py": "import guard\n", "guard.py": `
import mcp.shared.session
from mcp.shared.session import RequestResponder

class Guarded(RequestResponder):
    async def respond(self, response):
        if self._completed:
            return
        await super().respond(response)

    async def cancel(self):
        if self._completed:
            return
        await super().cancel()

mcp.shared.session.RequestResponder = Guarded
`}, true, "guard.py:respond+cancel:true", ""},
		{"respond only", map[string]string{"server.py": server("import guard", ""), "guard.py": `
from mcp.shared.session import RequestResponder
_respond = RequestResponder.respond
async def respond(self, response):
    if self._completed:
        return
    await _respond(self, response)
RequestResponder.respond = respond
`}, false, "guard.py:respond:true", ""},
		{"no _completed check before the await", map[string]string{"server.py": server("import guard", ""), "guard.py": `
from mcp.shared.session import RequestResponder
_respond, _cancel = RequestResponder.respond, RequestResponder.cancel
async def respond(self, response):
    await _respond(self, response)
async def cancel(self):
    await _cancel(self)
    if self._completed:
        return
RequestResponder.respond, RequestResponder.cancel = respond, cancel
`}, false, "guard.py::true", ""},
		{"never imported", map[string]string{"server.py": server("", ""), "guard.py": attrGuard}, false, "guard.py:respond+cancel:false",
			"no module that creates or runs the server imports it"},
		{"imported after run()", map[string]string{"server.py": server("", "\nif __name__ == \"__main__\":\n    mcp.run()\n\nimport guard\n"), "guard.py": attrGuard},
			false, "guard.py:respond+cancel:false", "server.py imports it only after line 11, where it runs the server"},
		{"imported in the entry point before run()", map[string]string{"server.py": server("", ""), "guard.py": attrGuard,
			"main.py": "import guard\nfrom server import mcp\n\ndef main():\n    mcp.run()\n\nif __name__ == '__main__':\n    main()\n"},
			true, "guard.py:respond+cancel:true", ""},
		{"imported in the entry point after run()", map[string]string{"server.py": server("", ""), "guard.py": attrGuard,
			"main.py": "from server import mcp\n\nasync def main():\n    await mcp.run_stdio_async()\n\nanyio.run(main)\nimport guard\n"},
			false, "guard.py:respond+cancel:false", ""},
		{"imported inside a function only", map[string]string{"server.py": server("def later():\n    import guard\n", ""), "guard.py": attrGuard},
			false, "guard.py:respond+cancel:false", ""},
		{"a project subclass of the server", map[string]string{"guard.py": attrGuard,
			"base.py":   "from mcp.server.fastmcp import FastMCP\n\nclass AppServer(FastMCP):\n    pass\n",
			"server.py": "import guard\nfrom base import AppServer\n\nmcp = AppServer('x')\n\n@mcp.tool()\nasync def t():\n    return 1\n"},
			true, "guard.py:respond+cancel:true", ""},
		{"functools.wraps(orig)(f) and update_wrapper", map[string]string{"server.py": server("import guard", ""), "guard.py": strings.NewReplacer(
			"RequestResponder.respond = _guarded_respond", "RequestResponder.respond = functools.wraps(_respond)(_guarded_respond)",
			"RequestResponder.cancel = _guarded_cancel", "RequestResponder.cancel = update_wrapper(_guarded_cancel, _cancel)",
			"from mcp.shared.session import RequestResponder", "import functools\nfrom functools import update_wrapper\nfrom mcp.shared.session import RequestResponder",
		).Replace(attrGuard)}, true, "guard.py:respond+cancel:true", ""},
		{"a loop over the method names", map[string]string{"server.py": server("import guard", ""), "guard.py": `
import functools
from mcp.shared.session import RequestResponder


def _once(method):
    @functools.wraps(method)
    async def wrapper(self, *args, **kwargs):
        if self._completed:
            return None
        return await method(self, *args, **kwargs)
    return wrapper


for _name in ("respond", "cancel"):
    setattr(RequestResponder, _name, _once(getattr(RequestResponder, _name)))
`}, true, "guard.py:respond+cancel:true", ""},
		{"a loop over respond only", map[string]string{"server.py": server("import guard", ""), "guard.py": `
from mcp.shared.session import RequestResponder

async def _respond(self, response):
    if self._completed:
        return
for _name in ["respond"]:
    setattr(RequestResponder, _name, _respond)
`}, false, "guard.py:respond:true", ""},
		{"a checked cancel replaced by an unchecked one", map[string]string{"server.py": server("import guard", ""),
			"guard.py": attrGuard + "\nasync def _plain_cancel(self):\n    await _cancel(self)\n\nRequestResponder.cancel = _plain_cancel\n"},
			false, "guard.py:respond:true", ""},
		{"a different class of the same name", map[string]string{"server.py": server("import guard", ""), "guard.py": strings.ReplaceAll(attrGuard,
			"from mcp.shared.session import RequestResponder", "from mylib import RequestResponder")}, false, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ix := build(t, c.files, Config{})
			if got := guardState(ix); got != c.state {
				t.Errorf("guards: %q, want %q", got, c.state)
			}
			if c.why != "" && !strings.Contains(ix.Guards()[0].Why, c.why) {
				t.Errorf("why: %q, want it to say %q", ix.Guards()[0].Why, c.why)
			}
			if got := ix.ActiveGuard() != nil; got != c.active {
				t.Errorf("active: %v, want %v", got, c.active)
			}
		})
	}
}

// A guard imported or installed inside the function that runs the server
// counts when it runs before the serving call on every path that serves
// (SPEC section 1: imported before the server starts).
func TestGuardInstalledOnTheServingPath(t *testing.T) {
	srv := server("", "")
	main := func(body string) map[string]string {
		return map[string]string{"server.py": srv, "guard.py": attrGuard, "main.py": "import os\nimport anyio\nfrom server import mcp\n\n" + body}
	}
	installGuard := strings.Replace(attrGuard, "RequestResponder.respond = _guarded_respond\nRequestResponder.cancel = _guarded_cancel\n",
		"def install():\n    RequestResponder.respond = _guarded_respond\n    RequestResponder.cancel = _guarded_cancel\n", 1)
	cases := []struct {
		name   string
		files  map[string]string
		cfg    Config
		active bool
		why    string
	}{
		{"imported in main() before run()", main("def main():\n    import guard  # noqa: F401\n    mcp.run()\n\nif __name__ == '__main__':\n    main()\n"),
			Config{}, true, ""},
		{"imported in an async main before run_stdio_async, anyio.run(main)",
			main("async def main():\n    from guard import _guarded_respond  # noqa: F401\n    await mcp.run_stdio_async()\n\nanyio.run(main)\n"),
			Config{}, true, ""},
		{"asyncio.run(main()) through a helper", main("import asyncio\n\ndef setup():\n    import guard\n\nasync def main():\n    setup()\n    await mcp.run_stdio_async()\n\nif __name__ == '__main__':\n    asyncio.run(main())\n"),
			Config{}, true, ""},
		{"an install function called in main() before run()", map[string]string{"server.py": srv, "guard.py": installGuard,
			"main.py": "from server import mcp\nfrom guard import install\n\ndef main():\n    install()\n    mcp.run()\n\nif __name__ == '__main__':\n    main()\n"},
			Config{}, true, ""},
		{"imported in a try body, except ImportError", main("def main():\n    try:\n        import guard\n    except ImportError:\n        pass\n    mcp.run()\n\nmain()\n"),
			Config{}, true, ""},
		{"a path that returns before serving", main("def main():\n    if os.environ.get('VERSION'):\n        print('1.0')\n        return\n    import guard\n    mcp.run()\n\nmain()\n"),
			Config{}, true, ""},
		{"imported on both branches", main("def main():\n    if os.environ.get('SSE'):\n        import guard\n        mcp.run('sse')\n    else:\n        import guard\n        mcp.run()\n\nmain()\n"),
			Config{}, true, ""},
		{"imported by a function called at module level before run()", map[string]string{"server.py": srv, "guard.py": attrGuard,
			"setup.py": "def configure():\n    import guard  # noqa: F401\n",
			"main.py":  "from server import mcp\nfrom setup import configure\n\nconfigure()\nmcp.run()\n"},
			Config{}, true, ""},
		{"imported by a function the creating module calls at its top level", map[string]string{"guard.py": attrGuard,
			"server.py": server("def _install_guard():\n    import guard  # noqa: F401\n\n_install_guard()\n", "")},
			Config{}, true, ""},
		{"imported by a function called at module level after run()", map[string]string{"server.py": srv, "guard.py": attrGuard,
			"setup.py": "def configure():\n    import guard  # noqa: F401\n",
			"main.py":  "from server import mcp\nfrom setup import configure\n\nmcp.run()\nconfigure()\n"},
			Config{}, false, "main.py imports it only after line 4, where it runs the server"},
		{"a [project.scripts] entry point nothing in the project calls", main("def main():\n    import guard\n    mcp.run()\n"),
			Config{EntryPoints: []string{"main.main"}}, true, ""},

		{"imported in main() after run()", main("def main():\n    mcp.run()\n    import guard\n\nif __name__ == '__main__':\n    main()\n"),
			Config{}, false, "main.py imports it only after line 6, where it runs the server"},
		{"installed in main() after run()", map[string]string{"server.py": srv, "guard.py": installGuard,
			"main.py": "from server import mcp\nfrom guard import install\n\ndef main():\n    mcp.run()\n    install()\n\nmain()\n"},
			Config{}, false, "main.py installs it only after line 5, where it runs the server"},
		{"imported under a condition", main("def main():\n    if os.environ.get('GUARD'):\n        import guard\n    mcp.run()\n\nmain()\n"),
			Config{}, false, "main.py runs the server at line 8 on a path that does not install it"},
		{"imported on one serving branch only", main("def main():\n    if os.environ.get('SSE'):\n        mcp.run('sse')\n    else:\n        import guard\n        mcp.run()\n\nmain()\n"),
			Config{}, false, "main.py runs the server at line 7 on a path that does not install it"},
		{"imported in a loop body", main("def main():\n    for _ in range(int(os.environ.get('N', '0'))):\n        import guard\n    mcp.run()\n\nmain()\n"),
			Config{}, false, "on a path that does not install it"},
		{"imported in an except handler", main("def main():\n    try:\n        import json\n    except ImportError:\n        import guard\n    mcp.run()\n\nmain()\n"),
			Config{}, false, "on a path that does not install it"},
		{"imported in a main() nothing calls", main("def main():\n    import guard\n    mcp.run()\n"),
			Config{}, false, "no module that creates or runs the server imports it"},
		{"an install function called only in a function nothing calls", map[string]string{"server.py": srv, "guard.py": installGuard,
			"main.py": "from server import mcp\nfrom guard import install\n\ndef main():\n    install()\n    mcp.run()\n"},
			Config{}, false, "never called at import time or before the server runs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ix := build(t, c.files, c.cfg)
			if len(ix.Guards()) != 1 {
				t.Fatalf("guards: %q, want one", guardState(ix))
			}
			if got := ix.ActiveGuard() != nil; got != c.active {
				t.Errorf("active: %v, want %v (%s)", got, c.active, ix.Guards()[0].Why)
			}
			if c.why != "" && !strings.Contains(ix.Guards()[0].Why, c.why) {
				t.Errorf("why: %q, want it to say %q", ix.Guards()[0].Why, c.why)
			}
		})
	}
}

// In the function that installs the guard, a return where the guard decides
// that the SDK needs no patch (already patched, already answering once, mcp
// missing) is not a path that serves unguarded; any other early return is.
func TestGuardInstallerReturnsEarly(t *testing.T) {
	install := func(pre string) map[string]string {
		g := strings.Replace(attrGuard, "RequestResponder.respond = _guarded_respond\nRequestResponder.cancel = _guarded_cancel\n",
			"def install():\n"+pre+"    RequestResponder.respond = _guarded_respond\n    RequestResponder.cancel = _guarded_cancel\n", 1)
		return map[string]string{"server.py": server("", ""), "guard.py": "import inspect\nimport os\n" + g,
			"main.py": "from server import mcp\nfrom guard import install\n\ndef main():\n    install()\n    mcp.run()\n\nmain()\n"}
	}
	for _, c := range []struct {
		name   string
		pre    string
		active bool
	}{
		{"already patched", "    if getattr(RequestResponder, '_guarded', False):\n        return\n", true},
		{"already answering once, through a local", "    src = inspect.getsource(RequestResponder.respond)\n    if 'assert not self._completed' not in src:\n        return\n", true},
		{"in an elif on the class", "    if os.environ.get('X'):\n        pass\n    elif RequestResponder.respond is None:\n        return\n", true},
		{"mcp missing", "    try:\n        from mcp.shared import session  # noqa: F401\n    except ImportError:\n        return\n", true},
		{"a switch that is not about the SDK", "    if os.environ.get('NO_GUARD'):\n        return\n", false},
		{"in the else of a condition on the class", "    if getattr(RequestResponder, '_guarded', False):\n        pass\n    else:\n        return\n", false},
		{"an except handler of a try that imports something else", "    try:\n        import json  # noqa: F401\n    except ImportError:\n        return\n", false},
		{"a local that is not the class", "    flag = os.environ.get('NO_GUARD')\n    if flag:\n        return\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ix := build(t, install(c.pre), Config{})
			if len(ix.Guards()) != 1 {
				t.Fatalf("guards: %q, want one", guardState(ix))
			}
			if got := ix.ActiveGuard() != nil; got != c.active {
				t.Errorf("active: %v, want %v (%s)", got, c.active, ix.Guards()[0].Why)
			}
			if !c.active && !strings.Contains(ix.Guards()[0].Why, "on a path that does not install it") {
				t.Errorf("why: %q", ix.Guards()[0].Why)
			}
		})
	}
}

// A wide call tree on the serving path (3,660 calls, more than
// maxServeCalls): past the bound calls are not followed, and the guard
// imported before them and the run() call after them are still seen.
func TestGuardServingPathIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("from server import mcp\n\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "def leaf%d():\n    return %d\n\n", i, i)
	}
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "def mid%d():\n", i)
		for j := 0; j < 60; j++ {
			fmt.Fprintf(&b, "    leaf%d()\n", j)
		}
		b.WriteString("\n")
	}
	b.WriteString("def main():\n    import guard\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "    mid%d()\n", i)
	}
	b.WriteString("    mcp.run()\n\nmain()\n")
	ix := build(t, map[string]string{"server.py": server("", ""), "guard.py": attrGuard, "main.py": b.String()}, Config{})
	if ix.ActiveGuard() == nil {
		t.Errorf("guard not active: %s", ix.Guards()[0].Why)
	}
}

// A guard protects only the servers whose process installs it before
// serving, and only when it runs unconditionally (issue 29 item 5): each
// handler's guard (GuardOf) is decided by the starts that load its module.
// want lists the handlers (qualified names) the guard covers; project says
// whether every server of the project is covered (ActiveGuard).
func TestGuardPerServer(t *testing.T) {
	srv := func(name, before, after string) string {
		return "from mcp.server.fastmcp import FastMCP\n" + before + "\n" + name + " = FastMCP('" + name + "')\n\n\n@" + name +
			".tool()\nasync def t_" + name + "():\n    return 1\n" + after
	}
	run := func(name string) string { return "\n\nif __name__ == '__main__':\n    " + name + ".run()\n" }
	cases := []struct {
		name    string
		files   map[string]string
		cfg     Config
		want    string // the covered handlers, sorted, joined by " "
		project bool
	}{
		{"two servers, one imports the guard", map[string]string{"guard.py": attrGuard,
			"a/server.py": srv("a", "import guard", run("a")), "b/server.py": srv("b", "", run("b"))},
			Config{}, "a.server.t_a", false},
		{"two servers, both import it", map[string]string{"guard.py": attrGuard,
			"a/server.py": srv("a", "import guard", run("a")), "b/server.py": srv("b", "import guard", run("b"))},
			Config{}, "a.server.t_a b.server.t_b", true},
		{"imported under if False", map[string]string{"guard.py": attrGuard, "server.py": srv("mcp", "if False:\n    import guard", run("mcp"))},
			Config{}, "", false},
		{"imported under if TYPE_CHECKING", map[string]string{"guard.py": attrGuard,
			"server.py": srv("mcp", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import guard", run("mcp"))},
			Config{}, "", false},
		{"imported under an environment switch", map[string]string{"guard.py": attrGuard,
			"server.py": srv("mcp", "import os\nif os.environ.get('GUARD'):\n    import guard", run("mcp"))},
			Config{}, "", false},
		{"imported in an except handler", map[string]string{"guard.py": attrGuard,
			"server.py": srv("mcp", "try:\n    import json\nexcept ImportError:\n    import guard", run("mcp"))},
			Config{}, "", false},
		{"a module it imports imports it conditionally", map[string]string{"guard.py": attrGuard,
			"boot.py": "import os\nif os.environ.get('GUARD'):\n    import guard\n", "server.py": srv("mcp", "import boot", run("mcp"))},
			Config{}, "", false},
		{"patched under if False in the guard module", map[string]string{"server.py": srv("mcp", "import guard", run("mcp")),
			"guard.py": strings.Replace(attrGuard, "RequestResponder.respond = _guarded_respond\nRequestResponder.cancel = _guarded_cancel\n",
				"if False:\n    RequestResponder.respond = _guarded_respond\n    RequestResponder.cancel = _guarded_cancel\n", 1)},
			Config{}, "", false},
		{"installed by a call under if 0", map[string]string{"server.py": srv("mcp", "import guard", run("mcp")),
			"guard.py": strings.Replace(attrGuard, "RequestResponder.respond = _guarded_respond\nRequestResponder.cancel = _guarded_cancel\n",
				"def install():\n    RequestResponder.respond = _guarded_respond\n    RequestResponder.cancel = _guarded_cancel\n\nif 0:\n    install()\n", 1)},
			Config{}, "", false},
		{"imported inside a function nothing calls", map[string]string{"guard.py": attrGuard,
			"server.py": srv("mcp", "def later():\n    import guard", run("mcp"))},
			Config{}, "", false},
		{"the entry module imports it, but the server module also runs itself", map[string]string{"guard.py": attrGuard,
			"server.py": srv("mcp", "", run("mcp")), "main.py": "import guard\nfrom server import mcp\n\nmcp.run()\n"},
			Config{}, "", false},

		// Real guarded shapes.
		{"imported at module level by the server module", map[string]string{"guard.py": attrGuard, "server.py": srv("mcp", "import guard", run("mcp"))},
			Config{}, "server.t_mcp", true},
		{"imported by the package __init__ the server module's package runs first", map[string]string{"app/guard.py": attrGuard,
			"app/__init__.py": "from app import guard  # noqa: F401\n", "app/server.py": srv("mcp", "", run("mcp"))},
			Config{}, "app.server.t_mcp", true},
		{"imported by the entry module before it imports the server module", map[string]string{"guard.py": attrGuard,
			"server.py": srv("mcp", "", ""), "main.py": "import guard\nfrom server import mcp\n\nif __name__ == '__main__':\n    mcp.run()\n"},
			Config{}, "server.t_mcp", true},
		{"imported under if __name__ == '__main__' before run()", map[string]string{"guard.py": attrGuard,
			"server.py": srv("mcp", "", "\n\nif __name__ == '__main__':\n    import guard\n    mcp.run()\n")},
			Config{}, "server.t_mcp", true},
		{"try: import guard except ImportError: pass", map[string]string{"guard.py": attrGuard,
			"server.py": srv("mcp", "try:\n    import guard\nexcept ImportError:\n    pass", run("mcp"))},
			Config{}, "server.t_mcp", true},
		{"if True, and the else of if TYPE_CHECKING", map[string]string{"guard.py": attrGuard, "boot.py": "if True:\n    import guard\n",
			"server.py": srv("mcp", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    pass\nelse:\n    import boot", run("mcp"))},
			Config{}, "server.t_mcp", true},
		{"a script builds a server only to list its tools", map[string]string{"guard.py": attrGuard,
			"tools.py": "from mcp.server.fastmcp import FastMCP\n\n\ndef register_tools(m: FastMCP) -> None:\n" +
				"    @m.tool()\n    async def t():\n        return 1\n",
			"server.py": "import guard\nfrom mcp.server.fastmcp import FastMCP\n\nfrom tools import register_tools\n\n\n" +
				"def create_server() -> FastMCP:\n    mcp = FastMCP('x')\n" +
				"    register_tools(mcp)\n    return mcp\n\n\nif __name__ == '__main__':\n    create_server().run()\n",
			"scripts/list_tools.py": "from mcp.server.fastmcp import FastMCP\n\nfrom tools import register_tools\n\nmcp = FastMCP('list')\n" +
				"register_tools(mcp)\nprint(mcp._tool_manager.list_tools())\n"},
			Config{}, "tools.register_tools.t", true},
		{"a test builds the server without the guard", map[string]string{"guard.py": attrGuard,
			"server.py":       srv("mcp", "import guard", run("mcp")),
			"tests/test_x.py": "from mcp.server.fastmcp import FastMCP\nfrom server import t_mcp\n\ns = FastMCP('t')\ns.add_tool(t_mcp)\n"},
			Config{}, "server.t_mcp", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ix := build(t, c.files, c.cfg)
			var got []string
			for _, h := range ix.Handlers {
				if ix.GuardOf(h.Func) != nil {
					got = append(got, h.Func.Qual)
				}
			}
			sort.Strings(got)
			if strings.Join(got, " ") != c.want {
				t.Errorf("covered: %q, want %q (guards %s)", strings.Join(got, " "), c.want, guardState(ix))
			}
			if p := ix.ActiveGuard() != nil; p != c.project {
				t.Errorf("project guarded: %v, want %v", p, c.project)
			}
		})
	}
}

// TestRunsServerAsksEachFunctionOnce: whether a statement runs a server
// follows the functions it calls to depth 3; a function called from ten
// places is answered once per depth, not once per call.
func TestRunsServerAsksEachFunctionOnce(t *testing.T) {
	var src strings.Builder
	src.WriteString("from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n")
	for _, f := range []string{"c", "b", "a"} {
		next := map[string]string{"a": "b", "b": "c", "c": "print"}[f]
		fmt.Fprintf(&src, "def %s():\n", f)
		for i := 0; i < 10; i++ {
			fmt.Fprintf(&src, "    %s()\n", next)
		}
	}
	src.WriteString("def main():\n")
	for i := 0; i < 10; i++ {
		src.WriteString("    a()\n")
	}
	src.WriteString("    mcp.run()\n")
	ix := build(t, map[string]string{"srv.py": src.String()}, Config{})
	var m *pyast.Module
	for _, mod := range ix.builder.mods {
		m = mod
	}
	if !ix.RunsServer(m) {
		t.Fatal("srv.py runs its server in main()")
	}
	// a, b and c at the depths they are asked at: a handful, where one
	// answer per call made 10 + 100 + 1,000 walks.
	if n := ix.builder.lazy.funcRunsComputed.Load(); n == 0 || n > 12 {
		t.Fatalf("%d answers computed, want 1 to 12", n)
	}
}
