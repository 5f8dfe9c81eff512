package rules

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
)

// PossiblyReached rewrites d, a finding a code rule reported on the call
// graph with the fallback's edges (handlers.Index.Possible, px) and not on
// the resolved one, as a possibly reached finding: its headline starts
// "possibly reached:", a note gives the chain from a handler through the
// unresolved call to the candidate def it was matched to (by name and
// arity), and related locations point at the call and the def. It reports
// false when d's function has no such chain (then d is not reported).
// The engine caps its severity at a warning.
func PossiblyReached(d *Diagnostic, px *handlers.Index) bool {
	ref, ok := px.Function(d.Anchor)
	if !ok {
		return false
	}
	chain, ok := px.PossibleChain(ref.Func)
	if !ok {
		return false
	}
	var steps []string
	var related []Related
	for i, s := range chain {
		name := "`" + shortQual(s.Func) + "`"
		if i == 0 {
			name = "handler " + name
		}
		if u := s.Via; u != nil {
			m := u.Caller.Module
			at := NodeLocation(m, u.Call)
			call := escape.Line(m.Text(pyast.Callee(u.Call)), escape.CodeRunes)
			steps = append(steps, fmt.Sprintf("unresolved call `%s(...)` at %s:%d", call, at.Path, at.Start.Line))
			name = "candidate " + name
			related = append(related,
				Related{Location: at, Message: fmt.Sprintf("the analysis cannot tell what `%s` is: matched by name and arity to %s", call, defs(u.Matching))},
				Related{Location: NodeLocation(s.Func.Module, defName(s.Func.Func)), Message: "a project def that could be its callee: " + name})
		}
		steps = append(steps, name)
	}
	steps = shortenChain(steps)
	head, notes := Headline(d.Message)
	lines := append([]string{PossiblyLabel + head}, notes...)
	lines = append(lines, "possibly reached through "+strings.Join(steps, " -> "))
	d.Message = strings.Join(lines, "\n")
	d.Related = append(related, d.Related...)
	return true
}

// shortenChain keeps a long chain's start and end (maxChainSteps steps).
func shortenChain(steps []string) []string {
	if len(steps) <= maxChainSteps {
		return steps
	}
	n := len(steps) - maxChainSteps + 1
	return append(append(steps[:2:2], fmt.Sprintf("... (%d more)", n)), steps[len(steps)-(maxChainSteps-3):]...)
}

// maxChainSteps is how many steps of a chain a message shows at most.
const maxChainSteps = 10

// shortQual is f's qualified name without its module's (Class.method).
func shortQual(r handlers.FuncRef) string {
	if n := r.Module.Name; n != "" && strings.HasPrefix(r.Func.Qual, n+".") {
		return r.Func.Qual[len(n)+1:]
	}
	return r.Func.Qual
}

func defs(n int) string {
	if n == 1 {
		return "1 project def"
	}
	return fmt.Sprintf("%d project defs", n)
}

// defName is the name node of a def (the def itself when it has none).
func defName(f *pyast.Function) *pyast.Node {
	if n := f.Node.ChildByFieldName("name"); n != nil {
		return n
	}
	return f.Node
}
