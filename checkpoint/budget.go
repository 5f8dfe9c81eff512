package checkpoint

import (
	"fmt"

	"github.com/mcplint/mcplint/pyast"
)

// The flow analysis follows the statements of a function, and some shapes
// make it follow the same code many times: a finally clause is analysed once
// for each way of reaching it, so try/finally statements nested in finally
// clauses cost 2^depth, and every question about a function (one per offload
// or except clause) walks the rest of its body. A function may therefore
// spend at most a budget of steps (statements and expression nodes visited,
// the summaries of the project functions it awaits included) over all the
// questions asked about it. Past it the function is too complex: the
// question that ran out, and every later one about the function, answers as
// if a checkpoint followed (no finding from an analysis that did not
// finish), and TooComplex lists the function so that the run reports it as
// MCP000.

// DefaultFunctionSteps is the default budget of steps per function. A
// simple statement is about 6 steps (the statement and its expression's
// nodes). Over all the rules' questions, the functions of this project's
// fixtures take at most 109 steps, those of the example servers and of the
// trees bench/gen writes at most 28; a 200-line handler with ten offloads
// would take some 12,000. 200,000 steps are a few tenths of a second.
const DefaultFunctionSteps = 200_000

// MaxAwaitDepth is how deep a question may follow awaited project
// functions (a summary needing the summary of a function it awaits, and so
// on): the analysis recurses once per level, so a generated chain of 100,000
// functions each awaiting the next would hold a stack of hundreds of MB.
// Real call chains are a few dozen deep.
const MaxAwaitDepth = 1_000

// TooComplexFunc is a function whose analysis ran out of its step budget,
// or followed awaited functions more than MaxAwaitDepth deep.
type TooComplexFunc struct {
	Module *pyast.Module
	Func   *pyast.Function
	Steps  int64 // the budget it ran out of
	Deep   bool  // it followed awaited functions too deep, not too long
}

// Message is the MCP000 message for the function.
func (t TooComplexFunc) Message() string {
	if t.Deep {
		return fmt.Sprintf("too complex to analyse fully: the cancellation-flow analysis of %s follows awaited functions more than %d calls deep; its findings are not reported",
			t.Func.Qual, MaxAwaitDepth)
	}
	return fmt.Sprintf("too complex to analyse fully: the cancellation-flow analysis of %s took more than %d steps (limit: function-steps); its findings are not reported",
		t.Func.Qual, t.Steps)
}

// tooComplex is the panic value that unwinds a question past its budget.
type tooComplex struct{ deep bool }

// SetBudget sets the step budget of each function (0: no limit; the
// await depth is limited all the same).
func (a *Analyzer) SetBudget(steps int64) { a.budget = steps }

// TooComplex returns the functions whose analysis ran out of its budget, in
// the order they did.
func (a *Analyzer) TooComplex() []TooComplexFunc { return a.over }

// ask answers a question about fn with q, within fn's budget. A question
// asked while another runs (the summary of an awaited function) counts
// against the function of the outer one. onOver is the answer when fn is
// past its budget.
func (a *Analyzer) ask(m *pyast.Module, fn *pyast.Function, onOver bool, q func() bool) (v bool) {
	if a.cur != nil {
		// A summary needed by the current question.
		if a.nested++; a.nested > MaxAwaitDepth {
			panic(tooComplex{deep: true})
		}
		defer func() { a.nested-- }()
		return q()
	}
	if fn == nil {
		return q()
	}
	if a.spent[fn] < 0 || a.budget > 0 && a.spent[fn] > a.budget {
		return onOver
	}
	a.cur, a.nested = fn, 0
	defer func() {
		a.cur = nil
		r := recover()
		if r == nil {
			return
		}
		tc, ok := r.(tooComplex)
		if !ok {
			panic(r)
		}
		// The summaries under way did not finish: forget them, and ask
		// nothing more about fn.
		clear(a.busy)
		clear(a.busyRaise)
		clear(a.busyRet)
		a.spent[fn] = -1 // past its budget or too deep: asked nothing more
		a.over = append(a.over, TooComplexFunc{Module: m, Func: fn, Steps: a.budget, Deep: tc.deep})
		v = onOver
	}()
	return q()
}

// step counts one step of the current question.
func (f *flow) step() {
	a := f.a
	if a == nil || a.cur == nil {
		return
	}
	a.spent[a.cur]++
	if a.budget > 0 && a.spent[a.cur] > a.budget {
		panic(tooComplex{})
	}
}
