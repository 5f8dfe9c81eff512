package rules

import (
	"fmt"

	"github.com/mcplint/mcplint/checkpoint"
	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
)

// MCP102 finds shielded cancel scopes in handler-reachable code after which
// no real checkpoint runs before the handler returns.
//
// Recognised shields: a with item that checkpoint.ShieldedScope accepts
// (anyio.CancelScope(shield=True), move_on_after / fail_after(...,
// shield=True), trio's, inline or assigned to a name first), and a scope
// from one of those factories shielded by `scope.shield = <not False>`
// (on the with's `as` name inside its body, or on a name assigned before
// and entered later). Coverage is checkpoint.Analyzer.UncoveredAfter from the
// end of the with statement (to a return or a raise of another exception than
// the cancellation); when the function is not a handler, every call site
// that a handler reaches must be covered in turn (Callers), up to the
// handler (requestEnds, shared with MCP101). A return inside the shielded
// body is never covered.
//
// Not reported: shields inside finally: or inside an except block that
// re-raises (the cancellation is already propagating), and shielded scopes
// whose shield is not literally true.
var mcp102 = Register(&Rule{
	Code:      "MCP102",
	Name:      "shielded-handler-scope",
	Kind:      CodeRule,
	Reach:     true,
	Severity:  SeverityError,
	Fix:       FixSometimes,
	Tags:      []string{"cancellation", "mcp-1x", "crash", "anyio"},
	Precision: "high",
	Exposure:  func(p *deps.Project) deps.Tri { return p.MCP1() },
	Guarded:   true,
	Doc: Doc{
		Summary: "A shielded cancel scope in a handler is not followed by a checkpoint before the handler returns",
		WhatItDoes: "Flags, in code a request handler can run, `with anyio.CancelScope(shield=True):`, " +
			"`anyio.move_on_after(t, shield=True)`, `anyio.fail_after(t, shield=True)` (also a scope assigned first " +
			"and entered later, and `scope.shield = True`) when no real checkpoint runs between the end of the " +
			"shielded block and the end of the handler. Shields in `finally:` blocks and in `except` blocks that " +
			"re-raise are cleanup while the cancellation propagates and are not flagged.",
		WhyIsThisBad: "A shield hides the client's cancel from the code inside it, and leaving the scope does not " +
			"raise it: only the next checkpoint does. With none after the block, the handler returns normally after " +
			"the cancel; mcp 1.x has already answered the request, responds a second time, fails " +
			"`assert not self._completed, \"Request already responded to\"` and the server exits.",
		Example: "@mcp.tool()\nasync def save(doc: str) -> str:\n    with anyio.CancelScope(shield=True):\n" +
			"        await db.write(doc)\n    return \"saved\"\n",
		UseInstead: "@mcp.tool()\nasync def save(doc: str) -> str:\n    with anyio.CancelScope(shield=True):\n" +
			"        await db.write(doc)\n    await anyio.lowlevel.checkpoint_if_cancelled()\n    return \"saved\"\n",
		FixSafety: "Inserting `await anyio.lowlevel.checkpoint_if_cancelled()` right after the `with` block (and " +
			"`import anyio` where missing) is safe: it only raises when the request was cancelled, which is exactly " +
			"the case that crashes; the shielded work still completes.",
		References: []string{
			"https://anyio.readthedocs.io/en/stable/cancellation.html#shielding",
			"https://anyio.readthedocs.io/en/stable/api.html#anyio.lowlevel.checkpoint_if_cancelled",
			"https://github.com/modelcontextprotocol/python-sdk/blob/v1.30.0/src/mcp/shared/session.py",
		},
	},
	Run: runMCP102,
})

func runMCP102(p *Pass) {
	ends := newRequestEnds(p)
	for _, ref := range p.Handlers.ReachableFuncs() {
		checkShields(ends, ref.Module, ref.Func)
	}
}

// checkShields reports the uncovered shielded scopes of function f; ends
// decides whether f's return can end a request unchecked.
func checkShields(ends *requestEnds, m *pyast.Module, f *pyast.Function) {
	if f.Body == nil {
		return
	}
	pyast.WalkCode(f.Body, func(n *pyast.Node) bool {
		if n.Kind() != "with_statement" {
			return true
		}
		item := shieldItem(m, f, n)
		if item == nil || cleanupContext(m, f, n) {
			return true
		}
		returns := returnsInside(n.ChildByFieldName("body"))
		exits := ends.checkpoints.UncoveredAfter(m, f, n, ends.extra(f))
		if returns {
			exits |= checkpoint.ExitReturn
		}
		how := ends.endsRequest(f, exits)
		if how == 0 {
			return true
		}
		msg := fmt.Sprintf("shielded scope %s hides the client's cancel: no checkpoint follows it before the handler returns, so the handler returns normally after a cancel and mcp 1.x responds twice and crashes", escape.Cut(m.Text(item), escape.CodeRunes))
		if how == checkpoint.ExitRaise {
			msg = fmt.Sprintf("shielded scope %s hides the client's cancel: no checkpoint follows it before the handler raises another exception, which mcp 1.x turns into a second response and crashes", escape.Cut(m.Text(item), escape.CodeRunes))
		}
		var fixes []Fix
		if returns {
			msg = fmt.Sprintf("shielded scope %s returns from inside the shield: the handler returns normally after a client's cancel and mcp 1.x responds twice and crashes", escape.Cut(m.Text(item), escape.CodeRunes))
			fixes = append(fixes, Fix{Message: "move the return after the with block and add `await anyio.lowlevel.checkpoint_if_cancelled()` before it", Applicability: DisplayOnly})
		} else if fx, ok := checkpointAfterFix(ends.pass, m, f, n); ok {
			fixes = append(fixes, fx)
		}
		reportIn(ends.pass, f, NodeLocation(m, item), msg, fixes...)
		return true
	})
}

// shieldItem returns the with item of with statement w that is a shielded
// cancel scope, or nil.
func shieldItem(m *pyast.Module, f *pyast.Function, w *pyast.Node) *pyast.Node {
	for _, it := range withItems(w) {
		expr := pyast.Unparen(it.expr)
		switch {
		case checkpoint.ShieldedScope(m, expr):
			return expr
		case it.alias != nil && checkpoint.ScopeFactory(m, expr) && setsShield(m, w.ChildByFieldName("body"), m.Text(it.alias)):
			return expr // with CancelScope() as s: s.shield = True
		case expr.Kind() == "identifier" && assignedScope(m, expr) && setsShield(m, f.Body, m.Text(expr)):
			return expr // s = CancelScope(); s.shield = True; with s:
		}
	}
	return nil
}

// assignedScope reports whether the name id is bound to a cancel scope
// factory call.
func assignedScope(m *pyast.Module, id *pyast.Node) bool {
	for _, b := range m.ScopeAt(id).Lookup(m.Text(id)) {
		if b.Kind == pyast.BindValue && checkpoint.ScopeFactory(m, b.Value()) {
			return true
		}
	}
	return false
}

// setsShield reports whether code under n assigns a true value (anything but
// a literal False, None or 0) to name.shield.
func setsShield(m *pyast.Module, n *pyast.Node, name string) bool {
	found := false
	pyast.WalkCode(n, func(c *pyast.Node) bool {
		if found || c.Kind() != "assignment" {
			return !found
		}
		left, right := pyast.Unparen(c.ChildByFieldName("left")), pyast.Unparen(c.ChildByFieldName("right"))
		if left == nil || right == nil || left.Kind() != "attribute" {
			return true
		}
		if m.Text(left.ChildByFieldName("object")) == name && m.Text(left.ChildByFieldName("attribute")) == "shield" {
			switch right.Kind() {
			case "false", "none":
			case "integer":
				found = m.Text(right) != "0"
			default:
				found = true
			}
		}
		return !found
	})
	return found
}

// cleanupContext reports whether n runs in a finally: block or in an except
// block that re-raises, of function f: the cancellation is already
// propagating there and the shield protects cleanup.
func cleanupContext(m *pyast.Module, f *pyast.Function, n *pyast.Node) bool {
	for a := n.Parent(); a != nil && a.Id() != f.Node.Id(); a = a.Parent() {
		switch a.Kind() {
		case "finally_clause":
			return true
		case "except_clause", "except_group_clause":
			if blk := exceptBody(a); blk != nil && reraisesCancel(m, a, blk) {
				return true
			}
		}
	}
	return false
}

// returnsInside reports whether a return statement in body leaves the
// function from inside it.
func returnsInside(body *pyast.Node) bool {
	found := false
	pyast.WalkCode(body, func(n *pyast.Node) bool {
		if n.Kind() == "return_statement" {
			found = true
		}
		return !found
	})
	return found
}

// checkpointAfterFix inserts `await anyio.lowlevel.checkpoint_if_cancelled()`
// on a new line after with statement w (checkpointAfter), adding
// `import anyio` where needed.
func checkpointAfterFix(p *Pass, m *pyast.Module, f *pyast.Function, w *pyast.Node) (Fix, bool) {
	if !f.Async() {
		return Fix{}, false
	}
	edits, call, ok := checkpointAfter(p, m, w)
	if !ok {
		return Fix{}, false
	}
	return Fix{
		Message:       "add `await " + call + "` after the shielded block",
		Applicability: Safe,
		Edits:         edits,
	}, true
}
