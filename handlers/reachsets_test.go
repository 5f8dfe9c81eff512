package handlers

import (
	"fmt"
	"math/rand"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// graph is a test graph: successors per node, and the handlers that start
// at each node.
type graph struct {
	succ   [][]int32
	starts map[int32][]int32
}

func (g graph) reachSets(handlers int) *reachSets {
	off := []int32{0}
	var flat []int32
	for _, ws := range g.succ {
		flat = append(flat, ws...)
		off = append(off, int32(len(flat)))
	}
	return newReachSets(off, flat, handlers, func(v int32) []int32 { return g.starts[v] })
}

// reaches is the brute-force answer: reaches[u][v] when a path leads from u
// to v (every node reaches itself).
func (g graph) reaches() [][]bool {
	n := len(g.succ)
	out := make([][]bool, n)
	for u := range out {
		out[u] = make([]bool, n)
		stack := []int32{int32(u)}
		out[u][u] = true
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range g.succ[v] {
				if !out[u][w] {
					out[u][w] = true
					stack = append(stack, w)
				}
			}
		}
	}
	return out
}

// check compares the components and handler sets of g with brute force.
func check(t *testing.T, name string, g graph, handlers int) {
	t.Helper()
	r := g.reachSets(handlers)
	reach := g.reaches()
	n := len(g.succ)
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			same := reach[u][v] && reach[v][u]
			if (r.comp[u] == r.comp[v]) != same {
				t.Fatalf("%s: nodes %d and %d: same component %v, mutually reachable %v", name, u, v, r.comp[u] == r.comp[v], same)
			}
			if reach[u][v] && r.comp[u] < r.comp[v] {
				t.Fatalf("%s: edge path %d -> %d goes from component %d up to %d: not reverse topological", name, u, v, r.comp[u], r.comp[v])
			}
		}
	}
	for v := 0; v < n; v++ {
		var want []int32
		for h := int32(0); int(h) < handlers; h++ {
			for u, hs := range g.starts {
				if slices.Contains(hs, h) && reach[u][v] && !slices.Contains(want, h) {
					want = append(want, h)
				}
			}
		}
		if got := r.setOf(r.comp[v]).idx; !slices.Equal(got, want) {
			t.Fatalf("%s: node %d reached from handlers %v, want %v", name, v, got, want)
		}
	}
}

func TestReachSetsSmall(t *testing.T) {
	cases := []struct {
		name     string
		succ     [][]int32
		starts   map[int32][]int32
		handlers int
	}{
		{"self-loop", [][]int32{{0, 1}, {1}}, map[int32][]int32{0: {0}, 1: {1}}, 2},
		{"cycle of three under a handler, one handler inside", [][]int32{{1}, {2}, {3}, {1, 4}, nil},
			map[int32][]int32{0: {1}, 2: {0}}, 2},
		{"two cycles joined", [][]int32{{1}, {0, 2}, {3}, {2}}, map[int32][]int32{0: {2}, 3: {0, 1}}, 3},
		{"diamond", [][]int32{{1, 2}, {3}, {3}, nil}, map[int32][]int32{0: {0}, 1: {2}, 2: {1}}, 3},
		{"handler registered twice at one node and at a wrapper", [][]int32{{1}, {2}, nil},
			map[int32][]int32{0: {1, 1, 0}, 1: {1}}, 2},
	}
	for _, c := range cases {
		check(t, c.name, graph{c.succ, c.starts}, c.handlers)
	}
}

func TestReachSetsRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	for i := 0; i < 300; i++ {
		n := 1 + rng.Intn(30)
		g := graph{succ: make([][]int32, n), starts: map[int32][]int32{}}
		edges := rng.Intn(3 * n)
		for e := 0; e < edges; e++ {
			u := rng.Intn(n)
			g.succ[u] = append(g.succ[u], int32(rng.Intn(n)))
		}
		handlers := 1 + rng.Intn(6)
		for h := 0; h < handlers; h++ {
			for k := 0; k <= rng.Intn(2); k++ {
				v := int32(rng.Intn(n))
				g.starts[v] = append(g.starts[v], int32(h))
			}
		}
		check(t, fmt.Sprintf("random graph %d", i), g, handlers)
	}
}

// TestReachSetsDeep runs a 100,000-deep chain and a cycle of as many nodes
// with a Go stack limited to 1 MB: a recursion as deep as the graph (some
// 50 bytes or more a level) would exceed it and abort the test binary. A
// handler at the top of a chain gives every node below the same set, shared
// (one allocation), and each handler inside the chain adds to the sets of
// the nodes below it only.
func TestReachSetsDeep(t *testing.T) {
	const n = 100_000
	chain := graph{succ: make([][]int32, n), starts: map[int32][]int32{0: {0}, n / 2: {1}}}
	cycle := graph{succ: make([][]int32, n), starts: map[int32][]int32{n - 1: {0}}}
	for v := int32(0); v < n-1; v++ {
		chain.succ[v] = []int32{v + 1}
		cycle.succ[v] = []int32{v + 1}
	}
	cycle.succ[n-1] = []int32{0}
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	r := chain.reachSets(2)
	top, bottom := r.setOf(r.comp[n/2-1]), r.setOf(r.comp[n-1])
	if !slices.Equal(top.idx, []int32{0}) || !slices.Equal(bottom.idx, []int32{0, 1}) {
		t.Fatalf("chain: sets %v above the second handler, %v below, want [0] and [0 1]", top.idx, bottom.idx)
	}
	for v := int32(0); v < n; v++ {
		want := top
		if v >= n/2 {
			want = bottom
		}
		if s := r.setOf(r.comp[v]); s != want {
			t.Fatalf("chain: node %d has its own set %v: sets must be shared along a chain", v, s.idx)
		}
	}
	c := cycle.reachSets(1)
	for v := 0; v < n; v++ {
		if c.comp[v] != c.comp[0] {
			t.Fatalf("cycle: node %d in component %d, node 0 in %d", v, c.comp[v], c.comp[0])
		}
	}
	if s := c.setOf(c.comp[0]); !slices.Equal(s.idx, []int32{0}) {
		t.Fatalf("cycle: set %v, want [0]", s.idx)
	}
}

// TestReachedFromOrder checks the documented order of ReachedFrom (a
// function's own handlers first, the last registered first, then the
// others in registration order) on cycles and a self-loop, and that the
// functions of one component share one list.
func TestReachedFromOrder(t *testing.T) {
	ix := build(t, map[string]string{"s.py": `
from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
@mcp.tool()
async def first(): await shared()
@mcp.tool()
async def ping(): await pong()
@mcp.tool()
async def pong():
    await ping()
    await shared()
mcp.prompt()(ping)
@mcp.tool()
async def loop(): await loop()
async def shared(): await deeper()
async def deeper(): await deeper()
`}, Config{})
	name := func(h *Handler) string {
		return h.Func.Name + "/" + h.Kind
	}
	names := func(hs []*Handler) string {
		var out []string
		for _, h := range hs {
			out = append(out, name(h))
		}
		return strings.Join(out, " ")
	}
	if got := names(ix.Handlers); got != "first/tool ping/tool ping/prompt pong/tool loop/tool" {
		t.Fatalf("registration order %q", got)
	}
	for _, c := range []struct{ fn, want string }{
		{"s.ping", "ping/prompt ping/tool pong/tool"},
		{"s.pong", "pong/tool ping/tool ping/prompt"},
		{"s.first", "first/tool"},
		{"s.loop", "loop/tool"},
		{"s.shared", "first/tool ping/tool ping/prompt pong/tool"},
		{"s.deeper", "first/tool ping/tool ping/prompt pong/tool"},
	} {
		r, _ := ix.Function(c.fn)
		if got := names(ix.ReachedFrom(r.Func)); got != c.want {
			t.Errorf("ReachedFrom(%s) = %q, want %q", c.fn, got, c.want)
		}
	}
	shared, _ := ix.Function("s.shared")
	deeper, _ := ix.Function("s.deeper")
	if a, b := ix.ReachedFrom(shared.Func), ix.ReachedFrom(deeper.Func); &a[0] != &b[0] {
		t.Errorf("shared and deeper, one set of handlers, have two lists")
	}
}

// chainModule is a handler calling a chain of n functions.
func chainModule(n int) string {
	var sb strings.Builder
	sb.WriteString("from mcp.server.fastmcp import FastMCP\nmcp = FastMCP(\"x\")\n@mcp.tool()\nasync def t(): await f0()\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "async def f%d(): await f%d()\n", i, i+1)
	}
	fmt.Fprintf(&sb, "async def f%d(): pass\n", n)
	return sb.String()
}

// TestReachedFromDeepChain builds the index of a 30,000-deep call chain
// under one handler with a 1 MB Go stack (see TestReachSetsDeep) and asks
// every function which handlers reach it.
func TestReachedFromDeepChain(t *testing.T) {
	const n = 30_000
	m, err := pyast.Parse("chain.py", "chain", []byte(chainModule(n)))
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	ix := Build([]*pyast.Module{m}, Config{})
	if got := len(ix.ReachableFuncs()); got != n+2 {
		t.Fatalf("%d reachable functions, want %d", got, n+2)
	}
	var first []*Handler
	for _, r := range ix.ReachableFuncs() {
		hs := ix.ReachedFrom(r.Func)
		if len(hs) != 1 || hs[0].Func.Name != "t" {
			t.Fatalf("%s reached from %v", r.Func.Qual, hs)
		}
		if r.Func.Name == "t" {
			continue // a handler's function has its own list: its handler first
		}
		if first == nil {
			first = hs
		} else if &hs[0] != &first[0] {
			t.Fatalf("%s has its own list of handlers: the chain's functions must share one", r.Func.Qual)
		}
	}
}

// BenchmarkReachedFromChain asks every function of a call chain under one
// handler which handlers reach it, from a fresh condensation each time:
// the time per function must not grow with the chain.
func BenchmarkReachedFromChain(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			m, err := pyast.Parse("chain.py", "chain", []byte(chainModule(n)))
			if err != nil {
				b.Fatal(err)
			}
			ix := Build([]*pyast.Module{m}, Config{})
			funcs := ix.ReachableFuncs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ix.builder.reachSets(ix, ix.builder.successors)
				for _, r := range funcs {
					if len(ix.ReachedFrom(r.Func)) != 1 {
						b.Fatal("not reached")
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(funcs)), "ns/func")
		})
	}
}

// BenchmarkReachSetsChain condenses a chain of n nodes with a handler at the
// top and one in the middle and computes the set of every component: the
// graph part of ReachedFrom, without the maps from functions to nodes.
func BenchmarkReachSetsChain(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			off := make([]int32, n+1)
			succ := make([]int32, 0, n)
			for v := 0; v < n; v++ {
				if v < n-1 {
					succ = append(succ, int32(v+1))
				}
				off[v+1] = int32(len(succ))
			}
			starts := map[int32][]int32{0: {0}, int32(n / 2): {1}}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := newReachSets(off, succ, 2, func(v int32) []int32 { return starts[v] })
				for v := 0; v < n; v++ {
					r.setOf(r.comp[v])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/node")
		})
	}
}
