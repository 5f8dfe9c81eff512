package handlers

import (
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/values"
)

// The callees of calls in handler reach are today's resolvers' answer
// (calleesOfNames) united with the value-flow engine's (package values):
// the engine follows what the per-shape resolvers do not (a method called
// on an attribute set from a constructor parameter, on a dict a function
// returns, a function taken out of a class body import, getattr of names
// iterated from a constant list). The resolvers stay until the engine is a
// superset of them (issue 22).

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
	}
}

// withEngine returns callees, the resolvers' answer for call, with the
// engine's functions it does not hold added after them.
func (b *builder) withEngine(call *pyast.Node, callees []FuncRef) []FuncRef {
	extra := b.engineOf[call]
	if len(extra) == 0 {
		return callees
	}
	out := callees
outer:
	for _, r := range extra {
		for _, c := range callees {
			if c.Func == r.Func {
				continue outer
			}
		}
		if len(out) == len(callees) {
			out = append(out[:len(out):len(out)], r)
			continue
		}
		out = append(out, r)
	}
	return out
}
