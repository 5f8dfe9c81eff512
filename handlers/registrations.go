package handlers

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/values"
)

// findRegistrations finds every handler registered in module m: decorators,
// registration calls, component constructors, request_handlers assignments,
// 2.x on_* constructor arguments and replaced tool functions.
func (b *builder) findRegistrations(m *pyast.Module) {
	for n := range m.Nodes("decorated_definition") {
		if def := n.ChildByFieldName("definition"); def != nil && def.Kind() == "function_definition" {
			b.decorated(m, m.FuncByNode(def))
		}
	}
	for n := range m.Nodes("call") {
		b.registrationCall(m, n)
	}
	for n := range m.Nodes("assignment") {
		b.registrationAssignment(m, n)
	}
}

// dropDisabled removes fastmcp handlers registered with enabled=False that
// nothing in the project enables again: fastmcp does not serve them.
func (b *builder) dropDisabled() {
	var enables []enableCall
	collected := false
	kept := b.out.Handlers[:0]
	for _, h := range b.out.Handlers {
		v := pyast.Unparen(h.Options["enabled"])
		if h.Framework != PrefectFastMCP || v == nil || v.Kind() != "false" {
			kept = append(kept, h)
			continue
		}
		if !collected {
			enables, collected = b.enableCalls(), true
		}
		for _, e := range enables {
			if e.enables(b, h) {
				kept = append(kept, h)
				break
			}
		}
	}
	b.out.Handlers = kept
}

// enableCall is a call of an enable method: tool.enable(), mcp.enable(names=
// {...}), mcp.enable(tags={...}).
type enableCall struct {
	m       *pyast.Module
	call    *pyast.Node
	obj     *pyast.Node
	strings []string // the string literals in its arguments
	opaque  bool     // no arguments, or an argument that is not made of literals
}

func (b *builder) enableCalls() []enableCall {
	var out []enableCall
	for _, m := range b.mods {
		for call := range m.Nodes("call") {
			obj, attr := lastAttr(m, pyast.Callee(call))
			if obj == nil || attr != "enable" {
				continue
			}
			e := enableCall{m: m, call: call, obj: obj}
			pos, kw := m.Args(call)
			args := append([]*pyast.Node{}, pos...)
			for _, v := range kw {
				args = append(args, v)
			}
			e.opaque = len(args) == 0
			for _, a := range args {
				pyast.Walk(a, func(n *pyast.Node) bool {
					if !n.IsNamed() || n.Kind() == "comment" {
						return true
					}
					switch n.Kind() {
					case "string":
						e.strings = append(e.strings, strings.Trim(m.Text(n), "\"'rbuRBU"))
						return false
					case "set", "list", "tuple", "dictionary", "pair", "true", "false", "none":
						return true
					}
					e.opaque = true
					return false
				})
			}
			out = append(out, e)
		}
	}
	return out
}

// enables reports whether an enable call can turn h back on: it is called on
// h's own function (fastmcp 2 decorators return the tool), or its arguments
// name the tool or one of its tags, or cannot be read (a variable, no
// argument at all). Calls on an imported module (gc.enable()) do not count.
func (e enableCall) enables(b *builder, h *Handler) bool {
	if r, ok := b.funcOf(e.m, e.obj); ok {
		return r.Func == h.Func && e.opaque
	}
	if e.obj.Kind() == "identifier" {
		for _, bd := range e.m.ScopeAt(e.call).Lookup(e.m.Text(e.obj)) {
			if bd.Kind == pyast.BindImport {
				return false
			}
		}
	}
	if e.opaque {
		return true
	}
	names := map[string]bool{h.Func.Name: true}
	for _, key := range []string{"name", "tags"} {
		if v := h.Options[key]; v != nil {
			pyast.Walk(v, func(n *pyast.Node) bool {
				if n.Kind() == "string" {
					names[strings.Trim(h.SiteModule.Text(n), "\"'rbuRBU")] = true
					return false
				}
				return true
			})
		}
	}
	for _, s := range e.strings {
		for n := range names {
			if n != "" && strings.Contains(s, n) {
				return true
			}
		}
	}
	return false
}

// add notes a handler found by findRegistrations (Build records them).
func (b *builder) add(h *Handler) { b.pending = append(b.pending, h) }

// record keeps a handler once per function, kind and framework: the outer
// form of a nested registration (mcp.add_tool(Tool.from_function(fn)))
// wins, as does the first module's. A function registered both as it is and
// inside a wrapper ([confirm(t) if c else t for t in tools]) can be served
// bare, so the bare form is kept; the other form's wrappers still run on
// requests (AltWrappers).
func (b *builder) record(h *Handler) {
	key := fmt.Sprintf("%s\x00%s\x00%d", h.Func.Qual, h.Kind, h.Framework)
	if kept := b.seenReg[key]; kept != nil {
		switch {
		case len(h.Wrappers) == 0 && len(kept.Wrappers) > 0:
			kept.AltWrappers = append(kept.AltWrappers, kept.Wrappers...)
			kept.Wrappers = nil
		case len(h.Wrappers) > 0 && len(kept.Wrappers) == 0:
			kept.AltWrappers = append(kept.AltWrappers, h.Wrappers...)
		}
		return
	}
	b.seenReg[key] = h
	if h.Options == nil {
		h.Options = map[string]*pyast.Node{}
	}
	b.out.Handlers = append(b.out.Handlers, h)
}

// registration classifies a decorator or the callee of a registration call:
// it returns the framework, kind and server name when expr registers a handler.
func (b *builder) registration(m *pyast.Module, expr *pyast.Node, isCall bool) (Framework, string, string, bool) {
	for _, q := range m.Resolve(expr) {
		if kind, ok := standaloneDecorators[q]; ok {
			return PrefectFastMCP, kind, "", true
		}
		// A configured decorator matches by the name it is used under or,
		// through re-exports, by where it is defined.
		canonical := q
		if sym := b.lookup(q); sym.fn != nil {
			canonical = sym.fn.Qual
		}
		for _, extra := range b.cfg.ExtraDecorators {
			if q == extra || canonical == extra {
				return Custom, "handler", "", true
			}
		}
	}
	obj, attr := lastAttr(m, expr)
	if obj == nil {
		return FrameworkUnknown, "", "", false
	}
	if !decoratorKinds[attr] && !lowLevelKinds[attr] {
		return FrameworkUnknown, "", "", false
	}
	fw, server := b.serverOf(m, obj)
	switch fw {
	case FrameworkUnknown:
		return fw, "", "", false
	case OfficialLowLevel:
		if !lowLevelKinds[attr] || !isCall {
			return FrameworkUnknown, "", "", false
		}
	default:
		if !decoratorKinds[attr] || attr == "ui" && fw != PrefectFastMCP {
			return FrameworkUnknown, "", "", false
		}
	}
	if attr == "ui" {
		attr = "tool" // an app's entry-point tool
	}
	return fw, attr, server, true
}

// decorated handles a decorated function: the first registration decorator
// (top to bottom) registers it; the project decorators below it wrap it.
func (b *builder) decorated(m *pyast.Module, f *pyast.Function) {
	if f == nil {
		return
	}
	for i, d := range f.Decorators {
		callee, isCall := d, false
		if d.Kind() == "call" {
			callee, isCall = pyast.Callee(d), true
		}
		fw, kind, server, ok := b.registration(m, callee, isCall)
		if !ok {
			continue
		}
		h := &Handler{Func: f, Module: m, Kind: kind, Framework: fw, Server: server, Site: d, SiteModule: m}
		if isCall {
			_, h.Options = m.Args(d)
			h.Kind = resourceKind(m, kind, d)
		}
		for _, w := range f.Decorators[i+1:] {
			for _, r := range b.decoratorRuns(m, w) {
				h.Wrappers = append(h.Wrappers, r.Func)
			}
		}
		b.add(h)
		return
	}
}

// target is a handler function found at a registration site, with the
// project wrappers applied around it there.
type target struct {
	ref      FuncRef
	wrappers []*pyast.Function
}

// targets resolves a handler argument at a registration site: a function
// name, wrapper(fn), functools.partial(fn, ...), Tool.from_function(fn), a
// parameter of a registration helper (followed to the helper's call sites:
// def _register(m, fn): m.tool()(fn)), or a loop variable over a literal list
// (for fn in [a, b]: mcp.add_tool(fn)).
func (b *builder) targets(m *pyast.Module, arg *pyast.Node, depth int) []target {
	arg = pyast.Unparen(arg)
	if arg == nil || depth > 4 {
		return nil
	}
	switch arg.Kind() {
	case "identifier", "attribute":
		if out := b.wrapperTargets(m, arg); out != nil {
			return out
		}
		if r, ok := b.funcOf(m, arg); ok {
			// The name binds the decorated function: its project
			// decorators wrap what is registered.
			t := target{ref: r}
			for _, d := range r.Func.Decorators {
				for _, w := range b.decoratorRuns(r.Module, d) {
					if w.Func != r.Func {
						t.wrappers = append(t.wrappers, w.Func)
					}
				}
			}
			return []target{t}
		}
		if arg.Kind() == "identifier" {
			if out := b.paramTargets(m, arg, depth); out != nil {
				return out
			}
			if out := b.loopTargets(m, arg, depth); out != nil {
				return out
			}
			if out := b.valueTargets(m, arg, depth); out != nil {
				return out
			}
		}
		// What the engine says the name holds: getattr(mod, name) for
		// names from a constant list, a function stored in an attribute.
		return b.engineTargets(m, arg)
	case "call":
		pos, kw := m.Args(arg)
		callee := pyast.Callee(arg)
		if _, attr := lastAttr(m, callee); attr == "from_function" {
			return b.targets(m, fromFunctionArg(pos, kw), depth+1)
		}
		if len(pos) == 0 {
			return nil
		}
		if c := castArg(m, arg); c != arg {
			return b.targets(m, c, depth+1)
		}
		for _, q := range m.Resolve(callee) {
			if _, ok := fromFunction(q); q == "functools.partial" || ok {
				return b.targets(m, fromFunctionArg(pos, kw), depth+1)
			}
		}
		ws := b.engineFuncs(m, callee) // log_tool_usage(fn), log_tool_usage a parameter
		if len(ws) > 0 {
			fn := wrappedArg(b, m, arg, pos)
			var out []target
			for _, t := range b.targets(m, fn, depth+1) {
				for _, w := range ws {
					t.wrappers = append(t.wrappers[:len(t.wrappers):len(t.wrappers)], w.Func)
				}
				out = append(out, t)
			}
			// What the wrapper returns when it is a coroutine function
			// made elsewhere runs around the function on each request.
			made := b.madeCoroutines(m, arg, out)
			for i := range out {
				for _, r := range made {
					out[i].wrappers = append(out[i].wrappers[:len(out[i].wrappers):len(out[i].wrappers)], r.Func)
				}
			}
			if len(out) > 0 || len(b.engineFuncs(m, fn)) > 0 {
				return out
			}
			// The argument is no function (create_handler(pattern, desc),
			// a factory of its own handler): what the engine says the
			// whole call returns.
		}
		// What the call returns (getattr(tools, name) for names iterated
		// from a constant list).
		return b.engineTargets(m, arg)
	}
	return nil
}

// wrappedArg returns the argument of wrapper call call that passes the
// function it wraps: the first positional argument, unless that is no
// project function and a later one (or a keyword argument's value) is
// (authorized(name, policy, handler)).
func wrappedArg(b *builder, m *pyast.Module, call *pyast.Node, pos []*pyast.Node) *pyast.Node {
	if len(b.engineFuncs(m, pos[0])) > 0 {
		return pos[0]
	}
	for _, a := range pyast.NamedChildren(call.ChildByFieldName("arguments")) {
		if a.Kind() == "keyword_argument" {
			a = a.ChildByFieldName("value")
		}
		if a != nil && !a.Equals(pos[0]) && len(b.engineFuncs(m, a)) > 0 {
			return a
		}
	}
	return pos[0]
}

// madeCoroutines returns the coroutine functions a wrapper call makes of
// sync functions: when every target is a sync def and the engine says the
// call returns only project coroutine functions, none of them a target (def
// make_wrapper(func): ... return create_tool(executor), whose async def
// awaits asyncio.to_thread of a function that calls func), what the server
// registers is such a coroutine function, which runs the target: it runs on
// the event loop, not in a worker thread. Nil otherwise: a wrapper that
// returns the function, or a sync function that calls it.
func (b *builder) madeCoroutines(m *pyast.Module, call *pyast.Node, ts []target) []FuncRef {
	if len(ts) == 0 {
		return nil
	}
	for _, t := range ts {
		if t.ref.Func.Async() {
			return nil
		}
	}
	made := b.engineFuncs(m, call)
	if len(made) == 0 {
		return nil
	}
	for _, r := range made {
		if !r.Func.Async() {
			return nil
		}
		for _, t := range ts {
			if t.ref.Func == r.Func {
				return nil
			}
		}
	}
	return made
}

// wrapperTargets resolves a name bound to a decorator's local wrapper
// (def decorator(func): @wraps(func) def wrapper(*a, **kw): return
// func(*a, **kw); REGISTRY.append(wrapper)): registering the wrapper
// registers each function the decorator is applied to, which the wrapper
// runs. The handler is the decorated function, with the wrapper that
// matches it (a decorator that builds an async wrapper for a coroutine
// function and a sync one otherwise is sync for a sync function) and its
// other project decorators as wrappers. A name bound to several wrappers
// (wrapper = async_wrapper / wrapper = sync_wrapper) takes them all.
func (b *builder) wrapperTargets(m *pyast.Module, arg *pyast.Node) []target {
	byDecorator := map[*pyast.Function][]*pyast.Function{}
	var order []*pyast.Function
	for _, w := range b.nameFuncs(m, arg, 0) {
		if !b.runsParentParam(w) {
			continue
		}
		d := w.Parent
		if byDecorator[d] == nil {
			order = append(order, d)
		}
		byDecorator[d] = append(byDecorator[d], w)
	}
	var out []target
	for _, d := range order {
		ws := byDecorator[d]
		for _, g := range b.decoratedWith(d) {
			t := target{ref: g}
			for _, w := range ws {
				if w.Async() == g.Func.Async() {
					t.wrappers = append(t.wrappers, w)
				}
			}
			if len(t.wrappers) == 0 {
				t.wrappers = ws
			}
			for _, dec := range g.Func.Decorators {
				for _, w := range b.decoratorRuns(g.Module, dec) {
					if w.Func != g.Func && !b.makes(w.Func, dec, d) {
						t.wrappers = append(t.wrappers, w.Func)
					}
				}
			}
			out = append(out, t)
		}
	}
	return out
}

// runsParentParam reports whether w is a function nested in a decorator
// that calls the decorator's first parameter (the decorated function) or
// passes it to a call (to_thread.run_sync(func), functools.partial(func)).
func (b *builder) runsParentParam(w *pyast.Function) bool {
	d := w.Parent
	if d == nil || len(d.Params) == 0 || d.Params[0].Kind != pyast.ParamPositional {
		return false
	}
	name := d.Params[0].Name
	for _, prm := range w.Params {
		if prm.Name == name {
			return false
		}
	}
	m := b.moduleOf[w]
	for _, call := range m.CallsIn(w) {
		if isParamOf(m, d, w, name, pyast.Callee(call), 0) {
			return true
		}
		// passed on to be run: to_thread.run_sync(func, ...),
		// functools.partial(func, ...)
		pos, kw := m.Args(call)
		for _, a := range pos {
			if isParamOf(m, d, w, name, a, 0) {
				return true
			}
		}
		for _, a := range kw {
			if isParamOf(m, d, w, name, a, 0) {
				return true
			}
		}
	}
	return false
}

// isParamOf reports whether expr names parameter name of d from inside w:
// the parameter itself or a local variable of d bound to it (sync_func =
// func, async_func = cast(T, func)).
func isParamOf(m *pyast.Module, d, w *pyast.Function, name string, expr *pyast.Node, depth int) bool {
	expr = castArg(m, pyast.Unparen(expr))
	if expr == nil || expr.Kind() != "identifier" || depth > 4 {
		return false
	}
	for _, bd := range m.ScopeAt(expr).Lookup(m.TextView(expr)) {
		if bd.Node == nil || bd.Node.StartByte() < d.Node.StartByte() || bd.Node.EndByte() > d.Node.EndByte() ||
			bd.Node.StartByte() >= w.Node.StartByte() && bd.Node.EndByte() <= w.Node.EndByte() {
			continue // not bound in d's own scope
		}
		switch {
		case bd.Kind == pyast.BindParam && bd.Name() == name:
			return true
		case bd.Kind == pyast.BindAlias || bd.Kind == pyast.BindValue:
			if v := bd.Value(); v != nil && isParamOf(m, d, w, name, v, depth+1) {
				return true
			}
		}
	}
	return false
}

// fromFunctionArg returns the function a Tool.from_function(fn, ...) call
// (or functools.partial(fn, ...)) builds from: its first positional
// argument, else its fn= keyword (from_function's parameter); nil when it
// has neither.
func fromFunctionArg(pos []*pyast.Node, kw map[string]*pyast.Node) *pyast.Node {
	if len(pos) > 0 {
		return pos[0]
	}
	return kw["fn"]
}

// castArg returns x for typing.cast(T, x) (nested casts too), else expr.
func castArg(m *pyast.Module, expr *pyast.Node) *pyast.Node {
	for expr != nil && expr.Kind() == "call" {
		pos, _ := m.Args(expr)
		if len(pos) != 2 || !resolvesTo(m, pyast.Callee(expr), "typing.cast") && !resolvesTo(m, pyast.Callee(expr), "typing_extensions.cast") {
			break
		}
		expr = pyast.Unparen(pos[1])
	}
	return expr
}

// nameFuncs returns the project functions a name can hold: what it resolves
// to, and for a variable of a function, what its assignments bind (wrapper =
// cast(T, async_wrapper)).
func (b *builder) nameFuncs(m *pyast.Module, expr *pyast.Node, depth int) []*pyast.Function {
	expr = castArg(m, pyast.Unparen(expr))
	if expr == nil || depth > 4 {
		return nil
	}
	var out []*pyast.Function
	for _, q := range m.Resolve(expr) {
		if sym := b.lookup(q); sym.fn != nil {
			out = append(out, sym.fn)
		}
	}
	if expr.Kind() == "identifier" {
		for _, bd := range m.ScopeAt(expr).Lookup(m.TextView(expr)) {
			if v := bd.Value(); bd.Kind == pyast.BindValue && v != nil && pyast.Unparen(v).Kind() == "call" {
				out = append(out, b.nameFuncs(m, v, depth+1)...)
			}
		}
	}
	return out
}

// makes reports whether decorator expression dec (applying project function
// w) applies d: @d, or @factory(...) where factory returns d.
func (b *builder) makes(w *pyast.Function, dec *pyast.Node, d *pyast.Function) bool {
	if w == d {
		return true
	}
	if dec.Kind() != "call" {
		return false
	}
	m := b.moduleOf[w]
	for _, v := range pyast.Returns(w) {
		for _, inner := range b.engineFuncs(m, v) {
			if inner.Func == d {
				return true
			}
		}
	}
	return false
}

// paramTargets follows a parameter of the enclosing function to the
// arguments its call sites pass.
func (b *builder) paramTargets(m *pyast.Module, id *pyast.Node, depth int) []target {
	fn := m.FuncAt(id)
	if fn == nil {
		return nil
	}
	name := m.Text(id)
	idx := -1
	for i, p := range fn.Params {
		if p.Name == name && p.Kind != pyast.ParamVarArgs && p.Kind != pyast.ParamVarKeywords {
			idx = i
		}
	}
	if idx < 0 || len(m.ScopeAt(id).Lookup(name)) != 1 {
		return nil
	}
	if fn.Class != nil {
		idx-- // self is not passed
	}
	var out []target
	for s := range b.callSitesOf(fn) {
		if isTestModule(s.module) && !isTestModule(m) {
			continue // what a test passes is not what the server registers
		}
		pos, kw := s.module.Args(s.call)
		arg := kw[name]
		if arg == nil && idx >= 0 && idx < len(pos) {
			arg = pos[idx]
		}
		out = append(out, b.targets(s.module, arg, depth+1)...)
	}
	if idx == 0 { // a decorator's parameter: the functions it decorates
		for _, r := range b.decoratedWith(fn) {
			if !isTestModule(r.Module) || isTestModule(m) {
				out = append(out, target{ref: r})
			}
		}
	}
	return out
}

// decoratedWith returns the project functions decorated with fn: @fn, or
// @factory(...) where factory returns fn.
func (b *builder) decoratedWith(fn *pyast.Function) []FuncRef {
	lz := b.lazy
	lz.decoratedOnce.Do(func() {
		lz.decoratedBy = map[*pyast.Function][]FuncRef{}
		for _, m := range b.mods {
			for _, g := range m.Funcs {
				for _, d := range g.Decorators {
					for _, r := range b.decoratorRuns(m, d) {
						if d.Kind() != "call" {
							lz.decoratedBy[r.Func] = append(lz.decoratedBy[r.Func], FuncRef{m, g})
							continue
						}
						for _, v := range pyast.Returns(r.Func) {
							for _, inner := range b.engineFuncs(r.Module, v) {
								lz.decoratedBy[inner.Func] = append(lz.decoratedBy[inner.Func], FuncRef{m, g})
							}
						}
					}
				}
			}
		}
	})
	return lz.decoratedBy[fn]
}

// valueTargets resolves a function's local variable bound to a call of
// what builds a tool from a function (tool = FunctionTool.from_function(fn);
// mcp.add_tool(tool)): the calls' targets.
func (b *builder) valueTargets(m *pyast.Module, id *pyast.Node, depth int) []target {
	sc, bs := m.ScopeAt(id).LookupScope(m.TextView(id))
	if sc == nil || sc.Func == nil {
		return nil
	}
	var out []target
	for _, bd := range bs {
		if v := pyast.Unparen(bd.Value()); bd.Kind == pyast.BindValue && v != nil && v.Kind() == "call" && m.Unpacked(bd) < 0 {
			out = append(out, b.targets(m, v, depth+1)...)
		}
	}
	return out
}

// loopTargets resolves a for-loop variable over a collection: a literal, or
// a variable of this or another module bound to one and filled by the
// project (values.go).
func (b *builder) loopTargets(m *pyast.Module, id *pyast.Node, depth int) []target {
	var out []target
	for _, v := range b.loopValues(m, id) {
		out = append(out, b.targets(v.m, v.n, depth+1)...)
	}
	return out
}

// registrationCall handles the call forms of registration.
func (b *builder) registrationCall(m *pyast.Module, call *pyast.Node) {
	callee := pyast.Unparen(pyast.Callee(call))
	pos, kw := m.Args(call)
	if callee.Kind() == "identifier" {
		// deco = mcp.tool(name="x"); deco(fn): the call form below,
		// through the name the decorator is kept in.
		if v := assignedOnce(m, callee); v != nil && v.Kind() == "call" {
			callee = v
		}
	}
	// mcp.tool(...)(fn) and mcp.tool()(wrapper(fn))
	if callee.Kind() == "call" {
		inner := pyast.Unparen(pyast.Callee(callee))
		if inner.Kind() == "identifier" {
			// tool = mcp.tool; tool(name="x")(fn): the method kept in
			// a name (saved before the project replaced it, say).
			if v := assignedOnce(m, inner); v != nil && v.Kind() == "attribute" {
				inner = v
			}
		}
		if fw, kind, server, ok := b.registration(m, inner, true); ok && len(pos) > 0 {
			ts := b.targets(m, pos[0], 0)
			b.unfoundHandler(m, call, pos[0], ts)
			for _, t := range ts {
				r, ws := t.ref, t.wrappers
				_, opts := m.Args(callee)
				b.add(&Handler{SiteModule: m, Func: r.Func, Module: r.Module, Kind: resourceKind(m, kind, callee), Framework: fw, Server: server, Site: call, Options: opts, Wrappers: ws})
			}
		}
		return
	}
	// Tool.from_function(fn) and friends, wherever they appear (the names
	// of the callee that can be one, resolved by indexCalls).
	for _, q := range b.makers[call] {
		if fw, ok := fromFunction(q); ok {
			for _, t := range b.targets(m, fromFunctionArg(pos, kw), 0) {
				r, ws := t.ref, t.wrappers
				b.add(&Handler{SiteModule: m, Func: r.Func, Module: r.Module, Kind: componentKind(q, m, call), Framework: fw, Site: call, Options: kw, Wrappers: ws})
			}
			return
		}
		// FastMCP(tools=[...]) and 2.x Server(on_call_tool=fn).
		if fw, ok := serverClasses[q]; ok {
			b.constructorHandlers(m, call, fw, kw)
			return
		}
	}
	obj, attr := lastAttr(m, callee)
	if obj == nil {
		return
	}
	switch {
	case decoratorKinds[attr] && len(pos) > 0:
		// fastmcp call form: mcp.tool(fn, name=...)
		fw, server := b.serverOf(m, obj)
		kind := attr
		if kind == "ui" {
			kind = "tool"
		}
		if fw == PrefectFastMCP || fw == OfficialMCPServer && attr != "ui" {
			ts := b.targets(m, pos[0], 0)
			if !decoratorFactory(call) {
				b.unfoundHandler(m, call, pos[0], ts)
			}
			for _, t := range ts {
				r, ws := t.ref, t.wrappers
				b.add(&Handler{SiteModule: m, Func: r.Func, Module: r.Module, Kind: resourceKind(m, kind, call), Framework: fw, Server: server, Site: call, Options: kw, Wrappers: ws})
			}
		}
	case addMethods[attr] != "" && len(pos) > 0:
		fw, server := b.serverOf(m, obj)
		if fw == FrameworkUnknown || fw == OfficialLowLevel {
			return
		}
		kind := resourceKind(m, addMethods[attr], call) // add_resource_fn(fn, uri="x://{id}")
		if inner := pyast.Unparen(pos[0]); kind == "resource" && inner.Kind() == "call" {
			for _, q := range m.Resolve(pyast.Callee(inner)) {
				if _, ok := fromFunction(q); ok {
					kind = componentKind(q, m, inner)
				}
			}
		}
		ts := b.targets(m, pos[0], 0)
		made := pos[0] // add_tool(Tool.from_function(fn)): what it is made of
		if inner := pyast.Unparen(pos[0]); inner.Kind() == "call" {
			for _, q := range b.makers[inner] {
				if _, ok := fromFunction(q); ok {
					if fn := fromFunctionArg(m.Args(inner)); fn != nil {
						made = fn
					}
					break
				}
			}
		}
		b.unfoundHandler(m, call, made, ts)
		for _, t := range ts {
			r, ws := t.ref, t.wrappers
			b.add(&Handler{SiteModule: m, Func: r.Func, Module: r.Module, Kind: kind, Framework: fw, Server: server, Site: call, Options: kw, Wrappers: ws})
		}
	case attr == "add_request_handler" && len(pos) > 0:
		fw, server := b.serverOf(m, obj)
		if fw == FrameworkUnknown {
			return
		}
		ts := b.targets(m, pos[len(pos)-1], 0)
		b.unfoundHandler(m, call, pos[len(pos)-1], ts)
		for _, t := range ts {
			r, ws := t.ref, t.wrappers
			b.add(&Handler{SiteModule: m, Func: r.Func, Module: r.Module, Kind: "request", Framework: fw, Server: server, Site: call, Options: kw, Wrappers: ws})
		}
	}
}

// assignedOnce returns the value of the one assignment that binds name
// n where it is read (its scope's binding, or a module-level one), or nil
// when the name has another binding or none.
func assignedOnce(m *pyast.Module, n *pyast.Node) *pyast.Node {
	bs := m.ScopeAt(n).Lookup(m.TextView(n))
	if len(bs) != 1 || bs[0].Kind == pyast.BindParam || m.Unpacked(bs[0]) >= 0 {
		return nil
	}
	return pyast.Unparen(bs[0].Value())
}

// decoratorFactory reports whether call makes a decorator: it is one
// (@mcp.prompt("name")) or the callee of a call (mcp.prompt(name)(fn)), so
// its first argument is a name, not the handler.
func decoratorFactory(call *pyast.Node) bool {
	p := call.Parent()
	for p != nil && p.Kind() == "parenthesized_expression" {
		p = p.Parent()
	}
	if p == nil {
		return false
	}
	return p.Kind() == "decorator" || p.Kind() == "call" && pyast.Unparen(p.ChildByFieldName("function")) == call
}

// unfoundSite is a registration call whose handler the analysis cannot
// tell.
type unfoundSite struct {
	module *pyast.Module
	call   *pyast.Node
}

// unfoundHandler notes registration call call on a server, whose handler
// argument arg gave no project function (targets ts is empty), when the
// engine cannot tell what arg is: an unknown among its values (not an
// attribute nothing binds). Such a registration may serve any project
// code, so it is an unresolved call (unresolved.go) that nothing follows;
// an argument the engine knows to be a library's function or object (a
// tool another package made) is not.
func (b *builder) unfoundHandler(m *pyast.Module, call, arg *pyast.Node, ts []target) {
	if len(ts) > 0 {
		return
	}
	unknown := false
	for _, v := range b.engine.Eval(m, arg) {
		switch {
		case v.Kind == values.Str:
			return // a name: mcp.tool("name") makes a decorator (fastmcp)
		case v.Kind == values.Unknown && !v.Missing:
			unknown = true
		}
	}
	if unknown {
		b.unfound = append(b.unfound, unfoundSite{m, call})
	}
}

// componentKind is the kind a from_function constructor makes: a
// ResourceTemplate, or a Resource whose URI has {params}, is a resource
// template.
func componentKind(q string, m *pyast.Module, call *pyast.Node) string {
	switch {
	case strings.Contains(q, "Prompt"):
		return "prompt"
	case strings.Contains(q, "ResourceTemplate"):
		return "resource template"
	case strings.Contains(q, "Resource"):
		return resourceKind(m, "resource", call)
	}
	return "tool"
}

// resourceKind turns a resource registration whose URI (first positional
// argument, uri= or uri_template=) has {params} into a resource template.
func resourceKind(m *pyast.Module, kind string, call *pyast.Node) string {
	if kind == "resource" && isTemplateURI(m, call) {
		return "resource template"
	}
	return kind
}

// constructorHandlers handles FastMCP(tools=[fn, Tool.from_function(g)]) and
// 2.x Server(on_call_tool=fn, ...).
func (b *builder) constructorHandlers(m *pyast.Module, call *pyast.Node, fw Framework, kw map[string]*pyast.Node) {
	for name, v := range kw {
		switch {
		case name == "tools" || name == "prompts" || name == "resources":
			v = pyast.Unparen(v)
			if v.Kind() != "list" && v.Kind() != "tuple" {
				continue
			}
			for _, el := range pyast.NamedChildren(v) {
				for _, t := range b.targets(m, el, 0) {
					r, ws := t.ref, t.wrappers
					b.add(&Handler{SiteModule: m, Func: r.Func, Module: r.Module, Kind: name[:len(name)-1], Framework: fw, Site: el, Wrappers: ws})
				}
			}
		case len(name) > 3 && name[:3] == "on_":
			for _, t := range b.targets(m, v, 0) {
				r, ws := t.ref, t.wrappers
				b.add(&Handler{SiteModule: m, Func: r.Func, Module: r.Module, Kind: name[3:], Framework: fw, Site: v, Wrappers: ws})
			}
		}
	}
}

// registrationAssignment handles server.request_handlers[T] = fn and the
// replacement of a registered tool's function (tool.fn = wrapped).
func (b *builder) registrationAssignment(m *pyast.Module, n *pyast.Node) {
	left, right := pyast.Unparen(n.ChildByFieldName("left")), n.ChildByFieldName("right")
	if left == nil || right == nil {
		return
	}
	switch left.Kind() {
	case "subscript":
		obj, attr := lastAttr(m, left.ChildByFieldName("value"))
		if attr != "request_handlers" {
			return
		}
		fw, server := b.serverOf(m, obj)
		if fw == FrameworkUnknown {
			return
		}
		for _, t := range b.targets(m, right, 0) {
			r, ws := t.ref, t.wrappers
			b.add(&Handler{SiteModule: m, Func: r.Func, Module: r.Module, Kind: "request", Framework: fw, Server: server, Site: n, Wrappers: ws})
		}
	case "attribute":
		_, attr := lastAttr(m, left)
		if attr != "fn" {
			return
		}
		// The tool object comes from a server; take the module's server framework.
		fw := b.moduleFramework(m)
		if fw == FrameworkUnknown {
			return
		}
		for _, t := range b.targets(m, right, 0) {
			b.add(&Handler{SiteModule: m, Func: t.ref.Func, Module: t.ref.Module, Kind: "tool", Framework: fw, Site: n, Wrappers: t.wrappers})
		}
	}
}

// moduleFramework returns the framework of a server object bound or a
// server class imported at module level in m, if any.
func (b *builder) moduleFramework(m *pyast.Module) Framework {
	for _, name := range m.Scope.Names() {
		vals := b.engine.ModuleAttr(m, name)
		if f := b.serverValues(vals); f != FrameworkUnknown {
			return f
		}
		for _, v := range vals {
			switch v.Kind {
			case values.External:
				if f, ok := serverClasses[v.Name]; ok {
					return f
				}
			case values.Class:
				if f := b.serverClassValue(v.Class); f != FrameworkUnknown {
					return f
				}
			}
		}
	}
	return FrameworkUnknown
}
