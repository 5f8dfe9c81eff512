package values

import "github.com/mcplint/mcplint/pyast"

// The questions below are asked of the engine by what it answers for
// (handlers: which objects are servers, which functions a registration
// receives, which registrations run). Each is a top-level question: the
// engine's lock is held, its budget counted afresh.

// Qual returns what a qualified name is: a project module or a member of
// one, else an external name.
func (e *Engine) Qual(q string) Set {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.begin()
	return e.resolveQual(q, nil)
}

// Returns returns the values project function f of module m returns.
func (e *Engine) Returns(m *pyast.Module, f *pyast.Function) Set {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.begin()
	return e.returns(m, f, nil)
}

// Bases returns the method resolution order of project class c (c first)
// and the qualified names of its bases outside the project, through its
// project bases.
func (e *Engine) Bases(c *pyast.Class) (order []*pyast.Class, ext []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.begin()
	return e.mro(c)
}

// ModuleAttr returns what name is in module m once it has run.
func (e *Engine) ModuleAttr(m *pyast.Module, name string) Set {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.begin()
	return e.moduleAttr(m, name)
}

// Param returns the values parameter i of project function f of module m
// can have.
func (e *Engine) Param(m *pyast.Module, f *pyast.Function, i int) Set {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.begin()
	if i < 0 || i >= len(f.Params) {
		return nil
	}
	return e.paramValues(m, f, i, nil)
}
