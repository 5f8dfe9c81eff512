package handlers

import (
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/values"
)

// The callees of calls are the value-flow engine's answer (package values):
// it follows the names, imports, attributes set from constructors and
// parameters, containers and loops that the per-shape callee resolvers
// followed one shape each. Those resolvers were removed once dropping them
// changed no output on the fixtures, the goldens and the labelled
// repositories.

// engineCallees evaluates the callee of every call of the project with the
// engine, once, in module and document order (so that the answers do not
// depend on the workers of the passes that read them), and keeps the
// project functions each can run.
func (b *builder) engineCallees() {
	// What tests pass, add and assign does not flow into the server's
	// values (a test's FileResource added to the resource manager is not
	// one the server reads).
	e := values.New(b.mods, values.Config{ModuleFiles: b.cfg.ModuleFiles, Aside: isTestModule})
	b.engine = e
	b.engineOf = map[*pyast.Node][]FuncRef{}
	for _, m := range b.mods {
		for call := range m.Nodes("call") {
			if rs := e.Callees(m, call); len(rs) > 0 {
				out := make([]FuncRef, len(rs))
				for i, r := range rs {
					out[i] = FuncRef{r.Module, r.Func}
				}
				b.engineOf[call] = out
			}
		}
		// A for statement calls its iterable's __iter__ and __next__
		// (__aiter__ and __anext__, each step awaited, for async for):
		// edges from the iterable expression, after its constructor's.
		for s := range m.Nodes("for_statement") {
			if it := pyast.Unparen(s.ChildByFieldName("right")); it != nil {
				for _, r := range e.Iterates(m, it, pyast.HasChildKind(s, "async")) {
					b.engineOf[it] = append(b.engineOf[it], FuncRef{r.Module, r.Func})
				}
			}
		}
		// A with statement calls its context manager's __enter__ and
		// __exit__ (__aenter__ and __aexit__, awaited, for async with):
		// edges from the item's expression, after the constructor's when
		// the expression is a call.
		for s := range m.Nodes("with_statement") {
			async := pyast.HasChildKind(s, "async")
			for _, cm := range pyast.WithItems(s) {
				for _, r := range e.Enters(m, cm, async) {
					b.engineOf[cm] = append(b.engineOf[cm], FuncRef{r.Module, r.Func})
				}
			}
		}
	}
}
