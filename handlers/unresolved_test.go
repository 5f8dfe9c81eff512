package handlers

import (
	"slices"
	"testing"
)

// TestUnresolvedCalls checks which calls in handler reach are unresolved,
// which defs the fallback matches them to by name and arity, and the chain
// PossibleChain gives.
func TestUnresolvedCalls(t *testing.T) {
	ix := build(t, map[string]string{
		"impl.py": `
class Store:
    async def put(self, key, value=None, *, ttl=0): pass
    async def fetch(self, key): pass
    async def each(self, *keys): pass
    async def opts(self, **kw): pass
    @staticmethod
    def make(spec): pass
    def get(self, key): pass
def cb(a, b): pass
class W1:
    def work(self): pass
class W2:
    def work(self): pass
class W3:
    def work(self): pass
class W4:
    def work(self): pass
`,
		"server.py": `
import importlib, os
import httpx
from mcp.server.fastmcp import FastMCP
import impl
mcp = FastMCP("x")
S = getattr(importlib.import_module(os.environ["M"]), "S")()
def helper(cb):
    cb(1, 2)
@mcp.tool()
async def tool(k: str):
    await S.put(k)
    await S.put(k, 1, ttl=3)
    await S.put(k, nope=1)
    await S.fetch()
    await S.fetch(k, k)
    await S.each(k, k, k)
    await S.opts(a=1)
    S.make("x")
    S.get(k)
    S.work()
    S[k]()
    S.unknown_name()
    httpx.AsyncClient().fetch(k)
    helper(S.on_done)
`,
	}, Config{})
	got := map[int]string{} // line -> candidates
	for _, u := range ix.UnresolvedCalls() {
		line := u.Caller.Module.Pos(int(u.Call.StartByte())).Line
		var names []string
		for _, c := range u.Candidates {
			names = append(names, c.Func.Qual)
		}
		s := "followed:" + joinOr(names)
		if !u.Followed() {
			s = "not followed"
		}
		got[line] = s
	}
	want := map[int]string{
		9:  "followed:impl.cb",         // cb(1, 2): a parameter passed what the engine cannot tell
		12: "followed:impl.Store.put",  // a default fills value
		13: "followed:impl.Store.put",  // ttl is keyword-only
		14: "followed:-",               // no parameter nope, no **kwargs
		15: "followed:-",               // key is missing
		16: "followed:-",               // one argument too many
		17: "followed:impl.Store.each", // *keys
		18: "followed:impl.Store.opts", // **kw
		19: "followed:impl.Store.make", // a staticmethod counts spec
		21: "not followed",             // four defs named work
		22: "not followed",             // no name
	}
	for line, w := range want {
		if got[line] != w {
			t.Errorf("line %d: got %q, want %q", line, got[line], w)
		}
	}
	for line, g := range got {
		if _, ok := want[line]; !ok {
			t.Errorf("line %d: unexpected unresolved call (%s)", line, g)
		}
	}
	px := ix.Possible()
	if px == nil {
		t.Fatal("no possible index")
	}
	put, _ := ix.Function("impl.Store.put")
	if ix.Reachable(put.Func) || !px.Reachable(put.Func) {
		t.Errorf("Store.put: reached %v, possibly reached %v; want false, true", ix.Reachable(put.Func), px.Reachable(put.Func))
	}
	chain, ok := px.PossibleChain(put.Func)
	if !ok || len(chain) != 2 || chain[0].Func.Func.Qual != "server.tool" || chain[1].Via == nil || chain[1].Via.Name != "put" {
		t.Errorf("chain to Store.put = %+v, %v; want server.tool then put", chain, ok)
	}
	cb, _ := ix.Function("impl.cb")
	if chain, ok := px.PossibleChain(cb.Func); !ok || len(chain) != 3 || chain[1].Func.Func.Qual != "server.helper" {
		t.Errorf("chain to callback = %+v, %v; want tool, helper, callback", chain, ok)
	}
	get, _ := ix.Function("impl.Store.get")
	if px.Reachable(get.Func) {
		t.Error("S.get is a builtin method name: Store.get must not be possibly reached")
	}
}

func joinOr(names []string) string {
	if len(names) == 0 {
		return "-"
	}
	slices.Sort(names)
	out := names[0]
	for _, n := range names[1:] {
		out += "," + n
	}
	return out
}
