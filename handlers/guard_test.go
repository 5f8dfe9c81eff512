package handlers

import (
	"fmt"
	"strings"
	"testing"
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

func TestGuardSpellings(t *testing.T) {
	server := func(before, after string) string { return fmt.Sprintf(guardServer, before, after) }
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
