package handlers

import (
	"slices"
	"strings"

	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/values"
)

// Unknown is not "safe". A call in handler reach whose callee neither the
// resolvers nor the value-flow engine can tell (a method on a receiver the
// engine knows nothing of, a call of a parameter nothing passes) may run
// any project function of that name: the analysis must not take it for a
// call that runs none.
//
// Such a call is an unresolved call when the engine's value of its callee
// (and of its receiver, for obj.m(...)) holds nothing but unknowns (None
// aside: a method of None raises; and an attribute a known module or class
// does not have is known to be no project function), and the project defines a function of
// its name (a method for obj.m(...), a function outside a class for
// m(...)), or the callee has no name (handlers[key](...)). Not unresolved:
// a callee or receiver the engine resolves to anything else (a library's
// name or what a library call returns, a builtin, a constant, a container,
// an instance of a project class), a name no project def has (it can run
// no project code by that name), a method name of Python's builtin types
// (builtinMethods: d.get(k) on an unknown d is a dict's far more often
// than a project's), and dunder names.
//
// The fallback: the candidates of an unresolved call are the project's
// defs of its name whose signature admits the call's arguments
// (arityFits), outside test modules. Up to MaxCandidates of them, the call
// is followed: each candidate becomes a possible callee, and what it
// reaches is possibly reached (Possible). More than that, or no name, and
// the call is not followed: a fan-out to every def of a common name would
// report what almost surely does not run.
//
// A registration is unresolved in the same way: a registration call on a
// server that runs (mcp.tool(fn), mcp.add_tool(fn), ...) whose handler
// argument the engine cannot tell (getattr(self, name) with a name it
// cannot tell, a parameter nothing passes) may serve any project code.
// It is listed with the unresolved calls (Registration) and never
// followed: nothing names the handlers it could register.

// MaxCandidates is how many project defs an unresolved call may match by
// name and arity and still be followed to each.
const MaxCandidates = 3

// UnresolvedCall is a call in handler reach (or in possibly reached code)
// that nothing resolved.
type UnresolvedCall struct {
	Caller FuncRef
	Call   *pyast.Node
	// Name is the callee's last name (m of obj.m(...)), "" when the
	// callee has none.
	Name string
	// Matching counts the project defs that match by name and arity;
	// Candidates are they when the call is followed (Followed).
	Matching   int
	Candidates []FuncRef
	// Registration marks a registration call on a server whose handler
	// (its argument) the analysis cannot tell (unfoundHandler): not a call
	// whose callee it cannot. Caller.Func is nil at module level.
	Registration bool
}

// Followed reports whether the fallback followed the call to its
// candidates: it has a name, and at most MaxCandidates defs match (none
// matching is followed too: no project def can be the callee).
func (u *UnresolvedCall) Followed() bool { return u.Name != "" && u.Matching <= MaxCandidates }

// UnresolvedCalls returns the unresolved calls of handler reach, possibly
// reached code included, by file and position.
func (ix *Index) UnresolvedCalls() []UnresolvedCall {
	if ix == nil {
		return nil
	}
	return ix.unresolved
}

// Possible returns the index whose call graph adds, to the resolved one,
// an edge from each followed unresolved call to each of its candidates:
// what it reaches that the index does not is possibly reached. Nil when no
// unresolved call has a candidate.
func (ix *Index) Possible() *Index {
	if ix == nil {
		return nil
	}
	return ix.possible
}

// ChainStep is one function of a chain from a handler: Via, when set, is
// the unresolved call of the step before that the fallback followed to
// this one.
type ChainStep struct {
	Func FuncRef
	Via  *UnresolvedCall
}

// PossibleChain returns a shortest chain of calls from a handler (its
// function or a wrapper) to f that follows at least one unresolved call to
// a candidate, on the index Possible returned; false when there is none.
// One breadth-first search from every handler at once, made on the first
// question, answers them all (a walk up its tree per question).
func (ix *Index) PossibleChain(f *pyast.Function) ([]ChainStep, bool) {
	if ix == nil || ix.fallback == nil {
		return nil, false
	}
	return ix.chainTo(chainState{f, true})
}

// ReachChain returns a shortest chain of resolved calls from a handler to
// f: the handler's function (or a wrapper it is registered with) first, f
// last. ok is false when no handler reaches f by resolved calls alone.
func (ix *Index) ReachChain(f *pyast.Function) (chain []FuncRef, ok bool) {
	if ix == nil || ix.builder == nil {
		return nil, false
	}
	steps, ok := ix.chainTo(chainState{f, false})
	for _, st := range steps {
		chain = append(chain, st.Func)
	}
	return chain, ok
}

// chainTo returns the chain chainTree found to state s, from its handler.
func (ix *Index) chainTo(s chainState) ([]ChainStep, bool) {
	ix.chainOnce.Do(ix.chainTree)
	b := ix.builder
	if _, ok := ix.chainFrom[s]; !ok {
		return nil, false
	}
	var out []ChainStep
	for {
		fr := ix.chainFrom[s]
		out = append(out, ChainStep{Func: FuncRef{b.moduleOf[s.f], s.f}, Via: fr.via})
		if fr.root {
			break
		}
		s = fr.prev
	}
	slices.Reverse(out)
	return out, true
}

// chainState is a function reached by a chain, and whether the chain
// followed an unresolved call to a candidate.
type chainState struct {
	f    *pyast.Function
	used bool
}

// chainStep is how the search of chainTree first reached a state.
type chainStep struct {
	prev chainState
	via  *UnresolvedCall
	root bool
}

// chainTree searches the call graph with the fallback's edges breadth
// first from every handler, over chainStates, for PossibleChain.
func (ix *Index) chainTree() {
	b := ix.builder
	seen := map[chainState]chainStep{}
	var queue []chainState
	for _, h := range ix.Handlers {
		for _, g := range append(append([]*pyast.Function{h.Func}, h.Wrappers...), h.AltWrappers...) {
			s := chainState{g, false}
			if _, ok := seen[s]; !ok {
				seen[s] = chainStep{root: true}
				queue = append(queue, s)
			}
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, g := range b.successors(s.f) {
			if t := (chainState{g, s.used}); !hasState(seen, t) {
				seen[t] = chainStep{prev: s}
				queue = append(queue, t)
			}
		}
		for _, e := range ix.fallback[s.f] {
			if t := (chainState{e.to.Func, true}); !hasState(seen, t) {
				seen[t] = chainStep{prev: s, via: e.call}
				queue = append(queue, t)
			}
		}
	}
	ix.chainFrom = seen
}

func hasState[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}

// fallbackEdge is an edge the fallback adds: the unresolved call and one of
// its candidates.
type fallbackEdge struct {
	call *UnresolvedCall
	to   FuncRef
}

// unresolvedCalls finds the unresolved calls of handler reach and, through
// the candidates of those it follows, of possibly reached code, and makes
// the index Possible returns.
func (b *builder) unresolvedCalls() {
	// The engine stays: Index.Server and the guard questions the rules ask
	// after the build evaluate through it (engineservers.go).
	ix := b.out
	for _, u := range b.unfound {
		ix.unresolved = append(ix.unresolved, UnresolvedCall{Caller: FuncRef{u.module, u.module.FuncAt(u.call)}, Call: u.call, Registration: true})
	}
	defer func() { // by file and position, once every call is in
		slices.SortStableFunc(ix.unresolved, func(x, y UnresolvedCall) int {
			if c := strings.Compare(x.Caller.Module.Path, y.Caller.Module.Path); c != 0 {
				return c
			}
			return int(x.Call.StartByte()) - int(y.Call.StartByte())
		})
	}()
	if len(ix.Handlers) == 0 || b.engine == nil || ix.sets == nil {
		return
	}
	resolved := make(map[*pyast.Node]bool, len(b.sites))
	for _, s := range b.sites {
		resolved[s.call] = true
	}
	// The project's defs by name, and the calls of each reached function.
	byName := map[string][]FuncRef{}
	for _, m := range b.mods {
		if isTestModule(m) {
			continue
		}
		for _, f := range m.Funcs {
			byName[f.Name] = append(byName[f.Name], FuncRef{m, f})
		}
	}
	reached := func(f *pyast.Function) bool { _, ok := ix.sets.node[f]; return ok }
	seen := map[*pyast.Function]bool{}
	var queue []FuncRef
	for _, r := range ix.reachable {
		if reached(r.Func) {
			seen[r.Func] = true
			queue = append(queue, r)
		}
	}
	callsOf := map[*pyast.Function][]*pyast.Node{}
	scanned := map[*pyast.Module]bool{}
	var found []*UnresolvedCall
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		if !scanned[r.Module] {
			scanned[r.Module] = true
			for call := range r.Module.Nodes("call") {
				if f := r.Module.FuncAt(call); f != nil {
					callsOf[f] = append(callsOf[f], call)
				}
			}
		}
		for _, call := range callsOf[r.Func] {
			if resolved[call] {
				continue
			}
			u, ok := b.unresolved(r, call, byName)
			if !ok {
				continue
			}
			found = append(found, u)
			for _, c := range u.Candidates {
				if !seen[c.Func] {
					seen[c.Func] = true
					queue = append(queue, c)
				}
			}
		}
		for _, g := range b.successors(r.Func) {
			if !seen[g] {
				seen[g] = true
				queue = append(queue, FuncRef{b.moduleOf[g], g})
			}
		}
	}
	fallback := map[*pyast.Function][]fallbackEdge{}
	var sites []site
	for _, u := range found {
		ix.unresolved = append(ix.unresolved, *u)
		for _, c := range u.Candidates {
			fallback[u.Caller.Func] = append(fallback[u.Caller.Func], fallbackEdge{u, c})
			sites = append(sites, site{module: u.Caller.Module, call: u.Call, caller: u.Caller.Func, callee: c})
		}
	}
	if len(sites) == 0 {
		return
	}
	// The handlers, definitions and guards are ix's; the reach is made
	// again below.
	px := &Index{Handlers: ix.Handlers, callers: map[*pyast.Function][]CallSite{}, funcs: ix.funcs,
		moduleOf: ix.moduleOf, builder: b, guards: ix.guards, projectGuard: ix.projectGuard,
		handlerGuard: ix.handlerGuard, unguarded: ix.unguarded, servers: ix.servers, fallback: fallback}
	b.reachInto(px, append(slices.Clip(b.sites), sites...), func(f *pyast.Function) []*pyast.Function {
		out := b.successors(f)
		if es := fallback[f]; len(es) > 0 {
			out = slices.Clip(out)
			for _, e := range es {
				out = append(out, e.to.Func)
			}
		}
		return out
	})
	ix.possible = px
}

// unresolved decides whether call, in reached function r, is an
// unresolved call (see the comment at the top of the file), and finds its
// candidates.
func (b *builder) unresolved(r FuncRef, call *pyast.Node, byName map[string][]FuncRef) (*UnresolvedCall, bool) {
	m := r.Module
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil {
		return nil, false
	}
	u := &UnresolvedCall{Caller: r, Call: call}
	var recv *pyast.Node
	switch callee.Kind() {
	case "identifier":
		u.Name = m.Text(callee)
	case "attribute":
		u.Name = m.Text(callee.ChildByFieldName("attribute"))
		recv = callee.ChildByFieldName("object")
	}
	method := recv != nil
	var defs []FuncRef
	if u.Name != "" {
		if strings.HasPrefix(u.Name, "__") && strings.HasSuffix(u.Name, "__") || method && builtinMethods[u.Name] {
			return nil, false
		}
		for _, d := range byName[u.Name] {
			if (d.Func.Class != nil) == method {
				defs = append(defs, d)
			}
		}
		if len(defs) == 0 {
			return nil, false
		}
	}
	if !unknownOnly(b.engine.Eval(m, callee)) || recv != nil && !unknownOnly(b.engine.Eval(m, recv)) {
		return nil, false
	}
	for _, d := range defs {
		if arityFits(m, call, d, method) {
			u.Matching++
			if u.Matching <= MaxCandidates {
				u.Candidates = append(u.Candidates, d)
			}
		}
	}
	if !u.Followed() {
		u.Candidates = nil
	}
	return u, true
}

// unknownOnly reports whether a value set holds an unknown and nothing
// else but None. An attribute a known module or class does not bind
// (Value.Missing) is not unknown: the engine knows what it was looked up
// on, and no project code binds it there.
func unknownOnly(s values.Set) bool {
	some := false
	for _, v := range s {
		switch {
		case v.Kind == values.Unknown && !v.Missing:
			some = true
		case v.Kind == values.Const && v.Text == "None":
		default:
			return false
		}
	}
	return some
}

// arityFits reports whether def d admits the arguments of call: the
// positional ones fill its positional parameters (or its *args), each
// keyword names one of its parameters (or it has **kwargs), and every
// parameter without a default gets an argument. A *x or **y argument in
// the call may fill any count of positional or keyword parameters. For
// obj.m(...) (bound) the def's first parameter is the instance (the class
// for a classmethod), except for a staticmethod.
func arityFits(m *pyast.Module, call *pyast.Node, d FuncRef, bound bool) bool {
	pos, kw := m.Args(call)
	starPos, starKw := false, false
	if args := call.ChildByFieldName("arguments"); args != nil && args.Kind() == "argument_list" {
		for _, a := range pyast.NamedChildren(args) {
			switch a.Kind() {
			case "list_splat":
				starPos = true
			case "dictionary_splat":
				starKw = true
			}
		}
	}
	params := d.Func.Params
	if bound && len(params) > 0 && !isStaticMethod(d) {
		params = params[1:]
	}
	varArgs, varKw := false, false
	named := map[string]bool{}
	var positional []pyast.Param
	for _, p := range params {
		switch p.Kind {
		case pyast.ParamVarArgs:
			varArgs = true
		case pyast.ParamVarKeywords:
			varKw = true
		case pyast.ParamPositional:
			positional = append(positional, p)
			named[p.Name] = true
		case pyast.ParamKeywordOnly:
			named[p.Name] = true
		}
	}
	if len(pos) > len(positional) && !varArgs {
		return false
	}
	for k := range kw {
		if !named[k] && !varKw {
			return false
		}
	}
	if starPos || starKw {
		return true // the splats may fill what is missing
	}
	for i, p := range params {
		if p.Kind == pyast.ParamVarArgs || p.Kind == pyast.ParamVarKeywords || p.Default() != nil {
			continue
		}
		if _, ok := kw[p.Name]; ok {
			continue
		}
		if p.Kind == pyast.ParamPositional && positionIn(positional, params[i]) < len(pos) {
			continue
		}
		return false
	}
	return true
}

// positionIn returns p's index among the positional parameters ps.
func positionIn(ps []pyast.Param, p pyast.Param) int {
	for i, q := range ps {
		if q.Node == p.Node {
			return i
		}
	}
	return len(ps)
}

// isStaticMethod reports whether d is decorated @staticmethod.
func isStaticMethod(d FuncRef) bool {
	for _, dec := range d.Func.Decorators {
		if t := d.Module.TextView(dec); t == "staticmethod" || t == "builtins.staticmethod" {
			return true
		}
	}
	return false
}

// builtinMethods are the method names of Python's builtin types (str,
// bytes, list, dict, set, tuple, int, float) and of file objects: a call
// obj.name(...) on a receiver the engine cannot tell is taken for the
// builtin's, not matched against project defs of that name.
var builtinMethods = func() map[string]bool {
	names := map[string]bool{}
	for _, list := range []string{
		// str and bytes
		"capitalize casefold center count decode encode endswith expandtabs find format format_map hex index " +
			"isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle " +
			"isupper join ljust lower lstrip maketrans partition removeprefix removesuffix replace rfind rindex " +
			"rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title translate upper zfill",
		// list, dict, set, tuple
		"append clear copy extend insert pop remove reverse sort fromkeys get items keys popitem setdefault " +
			"update values add difference difference_update discard intersection intersection_update isdisjoint " +
			"issubset issuperset symmetric_difference symmetric_difference_update union",
		// int and float
		"as_integer_ratio bit_count bit_length conjugate from_bytes to_bytes is_integer",
		// file objects
		"close fileno flush isatty read readable readline readlines seek seekable tell truncate writable write writelines",
	} {
		for _, n := range strings.Fields(list) {
			names[n] = true
		}
	}
	return names
}()
