package values

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// dictMethods are the dict and list methods whose result the engine reads
// from the container's elements.
var dictMethods = map[string]bool{"get": true, "items": true, "values": true, "keys": true, "copy": true,
	"pop": true, "setdefault": true}

// callValues returns what a call can return.
func (e *Engine) callValues(m *pyast.Module, call *pyast.Node, ev *env) Set {
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil {
		return nil
	}
	pos, kw := m.Args(call)
	var calleeVals Set
	if callee.Kind() == "attribute" {
		name := m.TextView(callee.ChildByFieldName("attribute"))
		objs := e.eval(m, callee.ChildByFieldName("object"), ev)
		var out, rest Set
		for _, o := range objs {
			if o.Kind == Container && dictMethods[name] {
				out = out.union(e.containerMethod(m, o, name, pos, ev))
				continue
			}
			rest = rest.add(o)
		}
		if len(rest) == 0 {
			return out
		}
		calleeVals = e.attrOfSet(rest, name, ev)
		return out.union(e.apply(m, call, calleeVals, pos, kw, ev))
	}
	return e.apply(m, call, e.eval(m, callee, ev), pos, kw, ev)
}

// containerMethod returns what a dict method called on container o returns.
func (e *Engine) containerMethod(m *pyast.Module, o *Value, name string, pos []*pyast.Node, ev *env) Set {
	view := func(w View) Set {
		return Set{o.withView(w)}
	}
	if o.View != Whole {
		return Set{unknown(name + "() of a dict view")}
	}
	if o.Seq != "dict" {
		switch name {
		case "copy":
			return Set{o}
		case "pop":
			return e.iterate(Set{o})
		}
		return Set{unknown(name + "() of a " + o.Seq)}
	}
	switch name {
	case "items":
		return view(Items)
	case "values":
		return view(Values)
	case "keys":
		return view(Keys)
	case "copy":
		return Set{o}
	}
	if len(pos) == 0 {
		return Set{unknown(name + "() without a key")}
	}
	out := e.lookupKey(o, e.eval(m, pos[0], ev))
	if len(pos) > 1 {
		out = out.union(e.eval(m, pos[1], ev))
	} else if name == "get" {
		out = out.add(&Value{Kind: Const, Text: "None"})
	}
	return out
}

// apply returns what calling each of the values returns.
func (e *Engine) apply(m *pyast.Module, call *pyast.Node, callees Set, pos []*pyast.Node, kw map[string]*pyast.Node, ev *env) Set {
	var out Set
	for _, f := range callees {
		out = out.union(e.applyOne(m, call, f, pos, kw, ev, 0))
	}
	return out
}

func (e *Engine) applyOne(m *pyast.Module, call *pyast.Node, f *Value, pos []*pyast.Node, kw map[string]*pyast.Node, ev *env, depth int) Set {
	switch f.Kind {
	case Function, Method:
		if f.Lambda != nil {
			return e.eval(f.Mod, f.Lambda.ChildByFieldName("body"), nil)
		}
		return e.returns(f.Mod, f.Func, nil)
	case Class:
		if ok, _ := e.enumKind(f.Class); ok && len(pos) == 1 {
			return e.enumCall(f, e.eval(m, pos[0], ev))
		}
		return Set{&Value{Kind: Instance, Mod: f.Mod, Class: f.Class}}
	case Instance:
		if fn, fm := e.classMethod(&Value{Kind: Class, Mod: f.Mod, Class: f.Class}, "__call__"); fn != nil {
			return e.returns(fm, fn, nil)
		}
		return Set{unknown("calling an instance of " + f.Class.Qual + " without __call__")}
	case Partial:
		if depth > 4 {
			return Set{unknown("a partial of a partial")}
		}
		return e.applyOne(m, call, f.Of, nil, nil, nil, depth+1)
	case External:
		return e.builtin(m, call, f.Name, pos, kw, ev)
	case ExtResult:
		if len(pos) == 1 && exitStackEnter(f.Name) {
			return e.entered(m, pos[0], ev) // what "with cm as x" would bind
		}
		return Set{&Value{Kind: ExtResult, Name: f.Name + "()"}}
	case Unknown:
		return Set{f}
	}
	return Set{unknown("calling " + f.String())}
}

// contextManagerDecorated reports whether f is decorated with
// contextlib's contextmanager or asynccontextmanager (calling it makes a
// context manager, not a generator object).
func contextManagerDecorated(m *pyast.Module, f *pyast.Function) bool {
	for _, d := range f.Decorators {
		if strings.HasSuffix(m.TextView(d), "contextmanager") {
			return true
		}
	}
	return false
}

// builtin returns what a call of external name q returns: the builtins and
// library functions that move values the engine follows, else an external
// result.
func (e *Engine) builtin(m *pyast.Module, call *pyast.Node, q string, pos []*pyast.Node, kw map[string]*pyast.Node, ev *env) Set {
	arg := func(i int) Set {
		if i < len(pos) {
			return e.eval(m, pos[i], ev)
		}
		return nil
	}
	switch q {
	case "functools.partial":
		var out Set
		for _, v := range arg(0) {
			out = out.add(&Value{Kind: Partial, Of: v})
		}
		return out
	case "getattr":
		if len(pos) < 2 {
			break
		}
		var out Set
		objs := arg(0)
		for _, n := range arg(1) {
			text, ok := e.textOf(n)
			if !ok {
				out = out.add(unknown("getattr with a name the engine cannot tell"))
				continue
			}
			for _, v := range e.attrOfSet(objs, text, ev) {
				if !v.Missing || len(pos) < 3 {
					out = out.add(v)
				}
			}
		}
		return out.union(arg(2))
	case "importlib.import_module":
		var out Set
		for _, n := range arg(0) {
			if n.Kind != Str || strings.HasPrefix(n.Text, ".") {
				out = out.add(unknown("import_module of a name the engine cannot tell"))
				continue
			}
			out = out.union(e.resolveQual(n.Text, nil))
		}
		return out
	case "super":
		f := m.FuncAt(call)
		for f != nil && f.Class == nil {
			f = f.Parent
		}
		if f == nil || len(f.Params) == 0 {
			return Set{unknown("super() outside a method")}
		}
		var out Set
		for _, self := range e.paramValues(m, f, 0, nil) {
			if self.Kind == Instance || self.Kind == Class {
				out = out.add(&Value{Kind: Super, Class: f.Class, Self: self})
			}
		}
		return out
	case "typing.cast", "typing_extensions.cast":
		return arg(1)
	case "staticmethod", "classmethod", "property", "list", "tuple", "set", "frozenset", "sorted", "reversed", "iter":
		if len(pos) == 1 {
			vals := arg(0)
			if q == "list" || q == "tuple" || q == "set" || q == "frozenset" || q == "sorted" || q == "reversed" {
				// A copy holds what the original holds: the elements a
				// dict's iteration yields are its keys.
				var out Set
				for _, v := range vals {
					if v.Kind == Container && v.Seq == "dict" && v.View == Whole {
						v = &Value{Kind: Container, Mod: v.Mod, Site: v.Site, Seq: v.Seq, Items: v.Items, View: Keys}
					}
					out = out.add(v)
				}
				return out
			}
			return vals
		}
	case "zip", "enumerate", "dict":
		return Set{&Value{Kind: Container, Mod: m, Site: call, Seq: q}}
	case "inspect.getmembers":
		return Set{&Value{Kind: Container, Mod: m, Site: call, Seq: "getmembers"}}
	case "next":
		return e.iterate(arg(0))
	}
	if len(pos) == 1 && exitStackEnter(q) {
		return e.entered(m, pos[0], ev) // what "with cm as x" would bind
	}
	return Set{&Value{Kind: ExtResult, Name: q}}
}

// returns returns the values function f returns: its return statements'
// (own code, not nested functions'), None when it can end without one.
func (e *Engine) returns(m *pyast.Module, f *pyast.Function, ev *env) Set {
	return e.memoised(memoKey{kind: kReturns, p: f, s: ev.keyOf()}, func() Set {
		if f.Body == nil {
			return nil
		}
		var out Set
		generator := false
		pyast.WalkCode(f.Body, func(n *pyast.Node) bool {
			switch n.Kind() {
			case "return_statement":
				if v := pyast.ReturnValue(n); v != nil {
					out = out.union(e.eval(m, v, ev))
				} else {
					out = out.add(&Value{Kind: Const, Text: "None"})
				}
				return false
			case "yield":
				generator = true
			}
			return true
		})
		if generator {
			if contextManagerDecorated(m, f) {
				// @contextmanager: a context manager, whose entered value
				// the yield gives
				return Set{unknown("a generator's values")}
			}
			// a generator object: iterating it runs f's body a step at a
			// time (Engine.Iterates); what it yields is not followed
			return Set{&Value{Kind: Generator, Mod: m, Func: f}}
		}
		if len(out) == 0 {
			out = out.add(&Value{Kind: Const, Text: "None"})
		}
		if ann := pyast.ReturnAnnotation(f); ann != nil && opaque(out) {
			// What a library call returns (asyncio.run(build())) the
			// engine cannot tell: the annotation says (-> FastMCP).
			out = out.union(e.annotationValues(m, m.ScopeAt(ann), ann))
		}
		return out
	})
}

// opaque reports whether s holds what a library call returns or an
// unknown.
func opaque(s Set) bool {
	for _, v := range s {
		if v.Kind == ExtResult || v.Kind == Unknown {
			return true
		}
	}
	return false
}

// paramBinding returns the values of a parameter binding.
func (e *Engine) paramBinding(m *pyast.Module, b *pyast.Binding, ev *env) Set {
	f := m.FuncAt(b.Node)
	if f == nil {
		return Set{unknown("a parameter of no function")}
	}
	for i, p := range f.Params {
		if p.Node == b.Node {
			return e.paramValues(m, f, i, ev)
		}
	}
	return Set{unknown("a parameter not indexed")}
}

// paramValues returns the values parameter i of f can have: bound by env,
// self or cls of a method, its annotation (Optional, Union, X | None,
// strings), its default, and the arguments the project's calls of f pass.
func (e *Engine) paramValues(m *pyast.Module, f *pyast.Function, i int, ev *env) Set {
	if ev != nil && ev.fn == f {
		if v, ok := ev.args[i]; ok {
			return v
		}
	}
	return e.memoised(memoKey{kind: kParam, p: f, s: itoa(i)}, func() Set {
		p := f.Params[i]
		if i == 0 && f.Class != nil && !hasDecorator(m, f, "staticmethod") {
			// self is an instance of the class or of any project subclass.
			classmethod := hasDecorator(m, f, "classmethod")
			var out Set
			for _, k := range append([]*pyast.Class{f.Class}, e.subclasses(f.Class)...) {
				if classmethod {
					out = out.add(&Value{Kind: Class, Mod: e.clsMod[k], Class: k})
				} else {
					out = out.add(&Value{Kind: Instance, Mod: e.clsMod[k], Class: k})
				}
			}
			return out
		}
		if p.Kind == pyast.ParamVarArgs || p.Kind == pyast.ParamVarKeywords {
			return Set{unknown("a *args or **kwargs parameter")}
		}
		var declared Set
		if ann := p.Annotation(); ann != nil {
			declared = declared.union(e.annotationValues(m, f.Scope.Parent, ann))
		}
		if d := p.Default(); d != nil {
			declared = declared.union(e.eval(m, d, nil))
		}
		// What the project's call sites pass comes first: a question that
		// takes the first value of a kind (the framework of a server,
		// serverValues) then takes what Python binds there over what the
		// annotation says (def register(mcp: fastmcp.FastMCP) called with
		// the official SDK's server). Unless the call sites' values fill
		// a union: the annotation's and the default's are kept first then.
		passed := e.argumentsOf(m, f, i)
		out := passed.union(declared)
		if passed.overflowed() {
			out = declared.union(passed)
		}
		if len(out) == 0 {
			return Set{unknown("parameter " + p.Name + " has no annotation, default or call site")}
		}
		return out
	})
}

func hasDecorator(m *pyast.Module, f *pyast.Function, name string) bool {
	for _, d := range f.Decorators {
		if m.TextView(d) == name {
			return true
		}
	}
	return false
}

// callSite is a call or a decoration whose callee has a given last name.
type callSite struct {
	m    *pyast.Module
	call *pyast.Node // the call, or the decorator expression of a decorated def
	def  *pyast.Node // the decorated definition's def, for a decoration
}

// sitesNamed returns the calls and decorations whose callee's last name is
// name (the candidates the engine then evaluates), in every module: those
// of a module set aside count only for its own kind of code (flowsInto).
func (e *Engine) sitesNamed(name string) []callSite {
	if e.lazy.calls == nil {
		e.lazy.calls = map[string][]callSite{}
		last := func(m *pyast.Module, c *pyast.Node) string {
			c = pyast.Unparen(c)
			switch {
			case c == nil:
			case c.Kind() == "identifier":
				return m.TextView(c)
			case c.Kind() == "attribute":
				return m.TextView(c.ChildByFieldName("attribute"))
			}
			return ""
		}
		for _, m := range e.mods {
			for call := range m.Nodes("call") {
				if s := last(m, pyast.Callee(call)); s != "" {
					e.lazy.calls[s] = append(e.lazy.calls[s], callSite{m: m, call: call})
				}
				if e.variableCallee(m, pyast.Callee(call)) {
					e.lazy.varCalls = append(e.lazy.varCalls, callSite{m: m, call: call})
				}
			}
			for _, f := range m.Funcs {
				for _, d := range f.Decorators {
					if d.Kind() == "call" {
						// @tool(label="a"): the decorator is what the call
						// returns, a variable callee (the inner function of a
						// decorator factory).
						e.lazy.varDecorations = append(e.lazy.varDecorations, callSite{m: m, call: d, def: f.Node})
					} else if s := last(m, d); s != "" {
						e.lazy.calls[s] = append(e.lazy.calls[s], callSite{m: m, call: d, def: f.Node})
					}
				}
			}
		}
	}
	return e.lazy.calls[name]
}

// variableCallee reports whether a callee is computed (a call's result, a
// subscript) or a name its scope binds to a value (a loop variable, a
// parameter, an assignment), not to a def, a class or an import: what it
// calls is whatever flows into it.
func (e *Engine) variableCallee(m *pyast.Module, c *pyast.Node) bool {
	c = pyast.Unparen(c)
	if c != nil && (c.Kind() == "call" || c.Kind() == "subscript") {
		return true // make()(x), TOOLS[name](x)
	}
	if c == nil || c.Kind() != "identifier" {
		return false
	}
	_, bs, extra := e.lookupName(m, m.ScopeAt(c), m.TextView(c))
	if len(extra) > 0 {
		return true
	}
	for _, b := range bs {
		switch b.Kind {
		case pyast.BindValue, pyast.BindParam, pyast.BindAlias:
			return true
		}
	}
	return false
}

// usedAsValue reports whether the project uses a name other than by
// calling it or defining it (an element, an argument, a value assigned or
// returned): only then can a function of that name flow into a variable
// callee.
func (e *Engine) usedAsValue(name string) bool {
	if e.lazy.asValue == nil {
		e.lazy.asValue = map[string]bool{}
		for _, m := range e.mods {
			pyast.Walk(m.Root, func(n *pyast.Node) bool {
				if n.Kind() != "identifier" {
					return true
				}
				p := n.Parent()
				if p == nil {
					return false
				}
				switch p.Kind() {
				case "list", "tuple", "set", "expression_list", "argument_list", "return_statement", "pair", "parenthesized_expression":
				case "assignment", "keyword_argument":
					if r := p.ChildByFieldName("right"); p.Kind() == "assignment" && (r == nil || r.Id() != n.Id()) {
						return false
					}
					if v := p.ChildByFieldName("value"); p.Kind() == "keyword_argument" && (v == nil || v.Id() != n.Id()) {
						return false
					}
				default:
					return false
				}
				e.lazy.asValue[m.TextView(n)] = true
				return false
			})
		}
	}
	return e.lazy.asValue[name]
}

// aliasesOf returns the names the project's imports bind name under
// (from m import name as alias), each once, in module order.
func (e *Engine) aliasesOf(name string) []string {
	if e.lazy.aliases == nil {
		e.lazy.aliases = map[string][]string{}
		seen := map[[2]string]bool{}
		for _, m := range e.mods {
			for n := range m.Nodes("import_from_statement") {
				for _, c := range pyast.NamedChildren(n) {
					if c.Kind() != "aliased_import" {
						continue
					}
					orig, alias := c.ChildByFieldName("name"), c.ChildByFieldName("alias")
					if orig == nil || alias == nil {
						continue
					}
					o := m.Text(orig)
					if i := strings.LastIndexByte(o, '.'); i >= 0 {
						o = o[i+1:]
					}
					k := [2]string{o, m.Text(alias)}
					if k[0] != k[1] && !seen[k] {
						seen[k] = true
						e.lazy.aliases[k[0]] = append(e.lazy.aliases[k[0]], k[1])
					}
				}
			}
		}
	}
	return e.lazy.aliases[name]
}

// flowsInto reports whether what the code of module from passes flows into
// the code of module to: always, but from a module set aside (a test) only
// into others set aside (a test's calls of its own helpers count; what it
// passes to the server's functions does not).
func (e *Engine) flowsInto(from, to *pyast.Module) bool {
	return !e.aside(from) || e.aside(to)
}

// argumentsOf returns the values the project's calls of f pass as its
// parameter i (and, for a decorator, the functions it decorates).
func (e *Engine) argumentsOf(m *pyast.Module, f *pyast.Function, i int) Set {
	p := f.Params[i]
	var out Set
	sites := e.sitesNamed(f.Name)
	if f.Name == "__init__" && f.Class != nil {
		sites = append(sites[:len(sites):len(sites)], e.sitesNamed(f.Class.Name)...)
	}
	for _, alias := range e.aliasesOf(f.Name) { // from .x import register as register_x
		sites = append(sites[:len(sites):len(sites)], e.sitesNamed(alias)...)
	}
	if e.usedAsValue(f.Name) { // for reg in REGISTRARS: reg(mcp); return collect
		sites = append(sites[:len(sites):len(sites)], e.lazy.varCalls...)
		sites = append(sites[:len(sites):len(sites)], e.lazy.varDecorations...)
	}
	for _, s := range sites {
		if !e.flowsInto(s.m, m) {
			continue
		}
		callee := s.call
		if s.def == nil {
			callee = pyast.Callee(s.call)
		}
		shift := -1
		for _, v := range e.eval(s.m, callee, nil) {
			switch {
			case (v.Kind == Function) && v.Func == f:
				shift = 0
			case v.Kind == Method && v.Func == f:
				shift = 1
			case v.Kind == Class && f.Name == "__init__" && s.def == nil:
				if init, _ := e.classMethod(v, "__init__"); init == f {
					shift = 1
				}
			}
		}
		if shift < 0 {
			continue
		}
		if s.def != nil {
			if i-shift == 0 {
				if df := s.m.FuncByNode(s.def); df != nil {
					out = out.add(&Value{Kind: Function, Mod: s.m, Func: df})
				}
			}
			continue
		}
		pos, kw := s.m.Args(s.call)
		if a := kw[p.Name]; a != nil {
			out = out.union(e.eval(s.m, a, nil))
		} else if j := i - shift; j >= 0 && j < len(pos) && p.Kind == pyast.ParamPositional {
			out = out.union(e.eval(s.m, pos[j], nil))
		}
	}
	return out
}

// decorate applies a definition's decorators, bottom up: a project
// decorator gives what it returns for this definition (its first parameter
// bound to it); a library decorator (staticmethod, functools.wraps(f),
// lru_cache, a registration such as mcp.tool()) is taken to return the
// definition itself.
func (e *Engine) decorate(m *pyast.Module, def *Value, decorators []*pyast.Node) Set {
	vals := Set{def}
	for i := len(decorators) - 1; i >= 0; i-- {
		var next Set
		for _, d := range e.eval(m, decorators[i], nil) {
			switch d.Kind {
			case Function:
				if d.Lambda != nil || len(d.Func.Params) == 0 {
					next = next.union(vals)
					continue
				}
				ev := &env{fn: d.Func, args: map[int]Set{0: vals}, key: "dec " + vals.key()}
				next = next.union(e.returns(d.Mod, d.Func, ev))
			case Method:
				if len(d.Func.Params) < 2 {
					next = next.union(vals)
					continue
				}
				ev := &env{fn: d.Func, args: map[int]Set{1: vals}, key: "dec " + vals.key()}
				next = next.union(e.returns(d.Mod, d.Func, ev))
			case Class:
				next = next.add(&Value{Kind: Instance, Mod: d.Mod, Class: d.Class})
			default:
				next = next.union(vals)
			}
		}
		if len(next) > 0 {
			vals = next
		}
	}
	return vals
}

// annotationValues returns the instances an annotation describes: X, X |
// None, Optional[X], Union[X, Y], "X" (a forward reference, dotted names
// only), a generic X[T] as X.
func (e *Engine) annotationValues(m *pyast.Module, s *pyast.Scope, ann *pyast.Node) Set {
	ann = pyast.Unparen(ann)
	if ann == nil {
		return nil
	}
	if ann.Kind() == "type" && ann.NamedChildCount() == 1 {
		ann = ann.NamedChild(0)
	}
	switch ann.Kind() {
	case "none":
		return Set{&Value{Kind: Const, Text: "None"}}
	case "binary_operator":
		return e.annotationValues(m, s, ann.ChildByFieldName("left")).union(e.annotationValues(m, s, ann.ChildByFieldName("right")))
	case "string":
		txt, ok := stringConst(m, ann)
		if !ok || strings.ContainsAny(txt, " []|(),") || txt == "" {
			return Set{unknown("a string annotation that is not a dotted name")}
		}
		parts := strings.Split(txt, ".")
		_, bs, extra := e.lookupName(m, s, parts[0])
		var vals Set
		for _, b := range bs {
			vals = vals.union(e.bindingValues(m, b, nil))
		}
		if len(bs) == 0 && len(extra) == 0 {
			vals = e.unboundName(m, parts[0])
		}
		for _, a := range parts[1:] {
			vals = e.attrOfSet(vals, a, nil)
		}
		return instances(vals)
	case "subscript", "generic_type":
		val := ann.ChildByFieldName("value")
		if ann.Kind() == "generic_type" {
			val = ann.NamedChild(0)
		}
		heads := e.eval(m, val, nil)
		var out Set
		for _, h := range heads {
			if h.Kind == External && (h.Name == "typing.Optional" || h.Name == "typing.Union" || h.Name == "Optional" || h.Name == "Union" || h.Name == "typing.Annotated") {
				for i, c := range subscriptArgs(ann) {
					if h.Name == "typing.Annotated" && i > 0 {
						break
					}
					out = out.union(e.annotationValues(m, s, c))
				}
				if h.Name == "typing.Optional" || h.Name == "Optional" {
					out = out.add(&Value{Kind: Const, Text: "None"})
				}
				continue
			}
			out = out.union(instances(Set{h}))
		}
		return out
	case "identifier", "attribute":
		return instances(e.eval(m, ann, nil))
	}
	return Set{unknown("an annotation the engine does not read")}
}

func subscriptArgs(n *pyast.Node) []*pyast.Node {
	var out []*pyast.Node
	val := n.ChildByFieldName("value")
	if n.Kind() == "generic_type" {
		val = n.NamedChild(0)
	}
	for _, c := range pyast.NamedChildren(n) {
		if c == val || c.Kind() == "comment" {
			continue
		}
		if c.Kind() == "type_parameter" {
			out = append(out, pyast.NamedChildren(c)...)
			continue
		}
		out = append(out, c)
	}
	return out
}

// instances returns the instances of the classes among vals.
func instances(vals Set) Set {
	var out Set
	for _, v := range vals {
		switch v.Kind {
		case Class:
			out = out.add(&Value{Kind: Instance, Mod: v.Mod, Class: v.Class})
		case External:
			out = out.add(&Value{Kind: ExtResult, Name: v.Name})
		case Unknown:
			out = out.add(v)
		default:
			out = out.add(unknown("an annotation naming " + v.String()))
		}
	}
	return out
}

// exitStackEnter reports whether name (as attrs spells a library value) is
// the enter_context or enter_async_context method of a contextlib ExitStack
// or AsyncExitStack: entering a context manager there returns what its
// __enter__ (__aenter__) returns, as a with statement binds it.
func exitStackEnter(name string) bool {
	for _, stack := range []string{"contextlib.ExitStack().", "contextlib.AsyncExitStack()."} {
		if rest, ok := strings.CutPrefix(name, stack); ok {
			rest = strings.TrimPrefix(rest, "__enter__().") // with ExitStack() as stack: the stack itself
			return rest == "enter_context" || rest == "enter_async_context"
		}
	}
	return false
}
