package checkpoint

import (
	"fmt"
	"strings"
	"testing"
)

// nestedFinally returns a handler whose offload is followed by try/finally
// statements nested depth deep in their finally clauses: the flow analysis
// follows each finally clause once per way of reaching it, 2^depth paths.
func nestedFinally(depth int) string {
	var b strings.Builder
	b.WriteString("import anyio\n\nasync def h():\n    await anyio.to_thread.run_sync(f)  # here\n")
	for i := 0; i < depth; i++ {
		ind := strings.Repeat("    ", i+1)
		fmt.Fprintf(&b, "%stry:\n%s    x = %d\n%sfinally:\n", ind, ind, i, ind)
	}
	fmt.Fprintf(&b, "%spass\n", strings.Repeat("    ", depth+1))
	return b.String()
}

func TestFunctionBudget(t *testing.T) {
	// Small depths finish within the default budget, with the right answer.
	m := parse(t, nestedFinally(6))
	n := marked(t, m)
	a := New(sameModule{})
	a.SetBudget(DefaultFunctionSteps)
	if a.Covered(m, m.FuncAt(n), n) || len(a.TooComplex()) != 0 {
		t.Fatalf("depth 6: covered or too complex (%v)", a.TooComplex())
	}
	small := a.spent[m.FuncAt(n)]

	// Deep nesting runs out of the budget (without one it would take 2^40
	// steps): the question answers "covered" (no finding) and the function
	// is listed once, however many questions are asked.
	m = parse(t, nestedFinally(40))
	n = marked(t, m)
	fn := m.FuncAt(n)
	a = New(sameModule{})
	a.SetBudget(5_000)
	for i := 0; i < 3; i++ {
		if !a.Covered(m, fn, n) {
			t.Errorf("question %d past the budget: want covered (no finding)", i)
		}
	}
	if tc := a.TooComplex(); len(tc) != 1 || tc[0].Func != fn || tc[0].Steps != 5_000 {
		t.Fatalf("TooComplex = %+v, want h once", tc)
	}
	want := "too complex to analyse fully: the cancellation-flow analysis of app.h took more than 5000 steps (limit: function-steps); its findings are not reported"
	if got := a.TooComplex()[0].Message(); got != want {
		t.Errorf("message %q", got)
	}
	if a.spent[fn] != -1 {
		t.Errorf("spent %d steps, want -1 (given up)", a.spent[fn])
	}
	// The steps are what the budget bounds: the depth-6 function took a few
	// hundred of them.
	if small < 64 || small > 5_000 {
		t.Errorf("depth 6 took %d steps", small)
	}
}

// A summary of an awaited function counts against the function whose
// question needed it; a summary cut short is not remembered, so a later
// question with a budget of its own computes it in full.
func TestFunctionBudgetCountsSummaries(t *testing.T) {
	src := `
import anyio

async def caller():
    await anyio.to_thread.run_sync(f)  # here
    await deep()

async def deep():
` + strings.Repeat("    await g()\n", 200) + `    await anyio.sleep(0)
`
	m := parse(t, src)
	call := marked(t, m)
	fn := m.FuncAt(call)
	var deep = fn
	for _, f := range m.Funcs {
		if f.Name == "deep" {
			deep = f
		}
	}
	a := New(sameModule{})
	a.SetBudget(100)
	if !a.Covered(m, fn, call) || len(a.TooComplex()) != 1 || a.TooComplex()[0].Func != fn {
		t.Fatalf("caller with a budget of 100: %+v", a.TooComplex())
	}
	if _, ok := a.always[deep]; ok || len(a.busy) != 0 {
		t.Errorf("a summary cut short is remembered: always %v busy %v", a.always, a.busy)
	}
	// deep's own question has a budget of its own (200 statements).
	a.SetBudget(5_000)
	if !a.AlwaysCheckpoints(m, deep) || len(a.TooComplex()) != 1 {
		t.Errorf("deep's summary, asked after the aborted question: want computed in full, got too complex %+v", a.TooComplex())
	}
	b := New(sameModule{})
	b.SetBudget(10_000)
	if !b.Covered(m, fn, call) || len(b.TooComplex()) != 0 {
		t.Errorf("caller with a budget of 10,000: too complex %+v", b.TooComplex())
	}
}

// A question follows awaited project functions at most MaxAwaitDepth deep
// (the analysis recurses once per level).
func TestAwaitDepth(t *testing.T) {
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("import anyio\n\nasync def h():\n    await anyio.to_thread.run_sync(f)  # here\n    await f0()\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\nasync def f%d():\n    await f%d()\n", i, i+1)
		}
		fmt.Fprintf(&b, "\nasync def f%d():\n    await anyio.sleep(0)\n", n)
		return b.String()
	}
	m := parse(t, chain(50))
	n := marked(t, m)
	a := New(sameModule{})
	a.SetBudget(DefaultFunctionSteps)
	if !a.Covered(m, m.FuncAt(n), n) || len(a.TooComplex()) != 0 {
		t.Fatalf("a chain of 50 ending in a checkpoint: want covered, too complex %+v", a.TooComplex())
	}
	m = parse(t, chain(MaxAwaitDepth+10))
	n = marked(t, m)
	a = New(sameModule{})
	a.SetBudget(DefaultFunctionSteps)
	if !a.Covered(m, m.FuncAt(n), n) {
		t.Error("past the depth: want covered (no finding)")
	}
	if tc := a.TooComplex(); len(tc) != 1 || !tc[0].Deep || !strings.Contains(tc[0].Message(), "follows awaited functions more than 1000 calls deep") {
		t.Fatalf("TooComplex = %+v", tc)
	}
	if len(a.always) != 0 || len(a.busy) != 0 {
		t.Errorf("summaries of the cut chain remembered: %d", len(a.always))
	}
	// Without a step budget (--limit function-steps=0) the depth is
	// limited all the same: the recursion would otherwise take the stack.
	a = New(sameModule{})
	a.SetBudget(0)
	if !a.Covered(m, m.FuncAt(n), n) {
		t.Error("no budget, past the depth: want covered (no finding)")
	}
	if tc := a.TooComplex(); len(tc) != 1 || !tc[0].Deep {
		t.Fatalf("no budget: TooComplex = %+v", tc)
	}
}

// A try statement whose except clause catches the cancellation, inside a
// loop inside another such clause (a worker joined again after each
// cancel): the summary asks its question again from the inner clause, whose
// continuation analyses the outer clause's block, the inner try with it.
// That second asking is not asked a third time: the question ends, within
// the budget, with or without one.
func TestReaskInsideHandlerEnds(t *testing.T) {
	m := parse(t, `
import asyncio
async def joined(task):
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError as cancel:
        while not task.done():
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                continue
            except Exception:
                break
        raise cancel
`)
	fn := m.Funcs[0]
	for _, budget := range []int64{DefaultFunctionSteps, 0} {
		a := New(sameModule{})
		a.SetBudget(budget)
		a.AlwaysCheckpoints(m, fn)
		a.RaisesUnchecked(m, fn)
		if tc := a.TooComplex(); len(tc) != 0 {
			t.Errorf("budget %d: too complex %+v", budget, tc)
		}
		if budget > 0 && a.spent[fn] > 2_000 {
			t.Errorf("budget %d: %d steps", budget, a.spent[fn])
		}
	}
}
