package checkpoint

import (
	"slices"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Resolver finds the project functions a call can run (a union where the
// callee's value can be one of several: a name defined in both branches of
// an if, a method overridden in subclasses). handlers.Index implements it;
// a nil Resolver means no interprocedural facts (awaiting a project function
// is then never a checkpoint).
type Resolver interface {
	// Callees returns the project functions a call runs, or a with item's
	// context manager expression (its __aenter__ and __aexit__), or a for
	// statement's iterable (its __aiter__ and __anext__).
	Callees(m *pyast.Module, call *pyast.Node) []Callee
	// Externals returns the library values expression e can be (where a
	// binding in another function or module made it: an attribute set in
	// another method, a parameter its callers pass, what a project function
	// returns), each spelled as its qualified name followed by "()" for each
	// call and ".name" for each attribute taken:
	// "sqlalchemy.ext.asyncio.create_async_engine().connect()" is what
	// engine.connect() returns for such an engine. Other values are left out.
	Externals(m *pyast.Module, e *pyast.Node) []string
}

// Callee is one project function a call can run, with its module.
type Callee struct {
	Module *pyast.Module
	Func   *pyast.Function
}

// asyncCallees returns the functions call can run when every one of them
// is a coroutine function, or nil (none, or one that is not: what awaiting
// it does is then unknown).
func (a *Analyzer) asyncCallees(m *pyast.Module, call *pyast.Node) []Callee {
	if a == nil || a.resolver == nil {
		return nil
	}
	cs := a.resolver.Callees(m, call)
	for _, c := range cs {
		if c.Func == nil || !c.Func.Async() {
			return nil
		}
	}
	return cs
}

// Analyzer answers checkpoint questions for one project. It memoises
// per-function facts; it is not safe for concurrent use (make one per Pass).
type Analyzer struct {
	resolver Resolver
	always   map[*pyast.Function]bool
	enters   map[*pyast.Function]bool
	busy     map[*pyast.Function]bool
	// RaisesUnchecked's memo and the functions it is analysing.
	raises    map[*pyast.Function]bool
	busyRaise map[*pyast.Function]bool
	// ReturnsChecked's memo and the questions it is answering.
	returns map[retKey]bool
	busyRet map[retKey]bool
	// The names each function's returns are tracked through (returns.go).
	tracked map[*pyast.Function]map[string]bool

	// The step budget of each function (budget.go).
	budget int64
	spent  map[*pyast.Function]int64
	cur    *pyast.Function // the function the current question is about
	nested int             // the summaries the current question is computing, one inside the other
	over   []TooComplexFunc
}

// New returns an Analyzer that resolves calls of project functions with r
// (nil for none).
func New(r Resolver) *Analyzer {
	return &Analyzer{resolver: r, always: map[*pyast.Function]bool{}, enters: map[*pyast.Function]bool{}, busy: map[*pyast.Function]bool{},
		raises: map[*pyast.Function]bool{}, busyRaise: map[*pyast.Function]bool{},
		returns: map[retKey]bool{}, busyRet: map[retKey]bool{}, tracked: map[*pyast.Function]map[string]bool{},
		spent: map[*pyast.Function]int64{}}
}

// Known checkpoint functions: awaiting a call of one yields to the event loop
// and raises a pending cancellation.
var checkpointFuncs = map[string]bool{
	"anyio.lowlevel.checkpoint":              true,
	"anyio.lowlevel.checkpoint_if_cancelled": true,
	"anyio.sleep":                            true,
	"anyio.sleep_until":                      true,
	"anyio.sleep_forever":                    true,
	"asyncio.sleep":                          true,
	"trio.sleep":                             true,
	"trio.sleep_until":                       true,
	"trio.sleep_forever":                     true,
	"trio.lowlevel.checkpoint":               true,
	"trio.lowlevel.checkpoint_if_cancelled":  true,
	// network and process I/O
	"asyncio.open_connection":         true,
	"asyncio.open_unix_connection":    true,
	"asyncio.create_subprocess_exec":  true,
	"asyncio.create_subprocess_shell": true,
	"anyio.connect_tcp":               true,
	"anyio.connect_unix":              true,
	"anyio.run_process":               true,
	"anyio.open_process":              true,
	"anyio.getaddrinfo":               true,
	// database connections (clients.go lists their methods)
	"asyncpg.connect":     true,
	"asyncpg.create_pool": true,
	"aiosqlite.connect":   true,
}

// timedWaits await their first argument under a timeout: awaiting one is a
// checkpoint when awaiting the argument is (asyncio.wait_for of a call that
// checkpoints; the timeout only adds a cancellation of its own).
var timedWaits = map[string]bool{
	"asyncio.wait_for":       true,
	"asyncio.tasks.wait_for": true,
}

// contextMethods are the MCP Context helpers that send a message to the
// client (a checkpoint: the write stream's send starts with one).
var contextMethods = map[string]bool{
	"info": true, "debug": true, "warning": true, "error": true, "critical": true,
	"log": true, "report_progress": true,
}

// IsCheckpointAwait reports whether the await node (kind "await") really
// yields and observes cancellation. See the package doc for the list.
func (a *Analyzer) IsCheckpointAwait(m *pyast.Module, await *pyast.Node) bool {
	if await == nil || await.Kind() != "await" || await.NamedChildCount() == 0 {
		return false
	}
	return a.isCheckpointCall(m, pyast.Unparen(await.NamedChild(0))) || awaitsShieldedTask(m, await)
}

// awaitsShieldedTask reports whether await awaits a task t inside an except
// clause of a try whose body awaits asyncio.shield(t): the shield raised
// because the awaiting task was cancelled while t ran on, so t is pending
// there and awaiting it yields, where anyio delivers the cancellation again
// (the cleanup idiom `try: await shield(t) except BaseException: await t`).
// Only when t completed in the very step the cancel came is it done there.
func awaitsShieldedTask(m *pyast.Module, await *pyast.Node) bool {
	t := pyast.Unparen(await.NamedChild(0))
	if t == nil || t.Kind() != "identifier" {
		return false
	}
	name := m.TextView(t)
	for p := await.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "function_definition", "lambda", "class_definition":
			return false
		case "except_clause", "except_group_clause":
		default:
			continue
		}
		try := p.Parent()
		if try == nil || try.Kind() != "try_statement" {
			continue
		}
		shielded := false
		pyast.WalkCode(try.ChildByFieldName("body"), func(n *pyast.Node) bool {
			if shielded || n.Kind() != "await" {
				return !shielded
			}
			call := pyast.Unparen(n.NamedChild(0))
			if call == nil || call.Kind() != "call" || !slices.Contains(m.Resolve(pyast.Callee(call)), "asyncio.shield") {
				return true
			}
			pos, _ := m.Args(call)
			if len(pos) > 0 {
				if a := pyast.Unparen(pos[0]); a.Kind() == "identifier" && m.TextView(a) == name {
					shielded = true
				}
			}
			return !shielded
		})
		if shielded {
			return true
		}
	}
	return false
}

func (a *Analyzer) isCheckpointCall(m *pyast.Module, call *pyast.Node) bool {
	if call == nil || call.Kind() != "call" || noneReceiver(m, call) {
		return false
	}
	if _, ok := Offload(m, call); ok {
		return true // every offload starts with a checkpoint
	}
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil {
		return false
	}
	if aw := TimedAwaitable(m, call); aw != nil && a.isCheckpointCall(m, aw) {
		return true // wait_for(aw, timeout) awaits aw: a checkpoint when aw is one
	}
	if callee.Kind() == "identifier" || callee.Kind() == "attribute" {
		for _, q := range m.Resolve(callee) {
			if checkpointFuncs[q] || cancellableWaits[q] {
				return true
			}
		}
	}
	if callee.Kind() == "attribute" {
		obj := pyast.Unparen(callee.ChildByFieldName("object"))
		attr := m.Text(callee.ChildByFieldName("attribute"))
		if attr == "run_in_executor" && isEventLoop(m, obj) {
			return true
		}
		if contextMethods[attr] && a.isMCPContext(m, obj) {
			return true
		}
		if strings.HasPrefix(attr, "send_") && a.isSession(m, obj) {
			return true
		}
		if _, ok := a.ServerRequest(m, call); ok {
			return true // a request to the client: its send starts with a checkpoint
		}
		if a.isClientIO(m, call) {
			return true
		}
	}
	// Awaiting a project coroutine: a checkpoint when each function the call
	// can run checkpoints on every path.
	cs := a.asyncCallees(m, call)
	for _, c := range cs {
		if !a.AlwaysCheckpoints(c.Module, c.Func) {
			return false
		}
	}
	return len(cs) > 0
}

// isEventLoop: asyncio.get_running_loop() / get_event_loop(), called inline or
// assigned to a variable.
func isEventLoop(m *pyast.Module, obj *pyast.Node) bool {
	names := m.TypesOf(obj)
	if obj.Kind() == "call" {
		names = m.Resolve(pyast.Callee(obj))
	}
	for _, q := range names {
		switch q {
		case "asyncio.get_running_loop", "asyncio.get_event_loop", "asyncio.new_event_loop":
			return true
		}
	}
	return false
}

// isMCPContext: a value typed (annotation or constructor) as an mcp or
// fastmcp Context, the result of get_context(), an untyped parameter named
// ctx or context, or a variable so named that a wrapper binds to the
// injected context taken from its own **kwargs parameter (ctx =
// kwargs.get("ctx"), context = kwargs["context"], or through the
// BoundArguments of a signature bound to them: injectedContext).
func (a *Analyzer) isMCPContext(m *pyast.Module, obj *pyast.Node) bool {
	for _, t := range m.TypesOf(obj) {
		if isContextType(t) {
			return true
		}
	}
	for _, x := range a.externals(m, obj) {
		if t, ok := strings.CutSuffix(x, "()"); ok && isContextType(t) {
			return true // an instance of Context, or what get_context() returns
		}
	}
	if obj.Kind() == "call" {
		for _, q := range m.Resolve(pyast.Callee(obj)) {
			if strings.HasSuffix(q, ".get_context") {
				return true
			}
		}
	}
	if obj.Kind() != "identifier" {
		return false
	}
	name := m.Text(obj)
	if name != "ctx" && name != "context" {
		return false
	}
	for _, b := range m.ScopeAt(obj).Lookup(name) {
		if b.Kind == pyast.BindParam && len(b.Types()) == 0 || b.Kind == pyast.BindValue && injectedContext(m, b.Value()) {
			return true
		}
	}
	return false
}

// injectedContext reports whether v takes the handler's injected context
// out of its call's arguments, as a wrapper does: kwargs.get("ctx") or
// kwargs["ctx"] (also "context"), where kwargs is the **kwargs parameter of
// the function v is in, or the arguments bound from them
// (sig.bind_partial(*args, **kwargs).arguments, a dict() copy):
// isCallArguments. The same lookup on any other mapping (a settings or
// plugin dict) is the project's own object, not the MCP Context.
func injectedContext(m *pyast.Module, v *pyast.Node) bool {
	v = pyast.Unparen(v)
	if v == nil {
		return false
	}
	var recv, key *pyast.Node
	switch v.Kind() {
	case "call":
		callee := pyast.Unparen(pyast.Callee(v))
		pos, _ := m.Args(v)
		if callee == nil || callee.Kind() != "attribute" || m.Text(callee.ChildByFieldName("attribute")) != "get" || len(pos) == 0 {
			return false
		}
		recv, key = callee.ChildByFieldName("object"), pos[0]
	case "subscript":
		recv, key = v.ChildByFieldName("value"), v.ChildByFieldName("subscript")
	default:
		return false
	}
	key = pyast.Unparen(key)
	if key == nil || key.Kind() != "string" || !isCallArguments(m, recv, 0) {
		return false
	}
	k := strings.Trim(m.Text(key), `"'`)
	return k == "ctx" || k == "context"
}

// isCallArguments reports whether n holds the arguments of the call of the
// function it is in, by name: its **kwargs parameter, the .arguments of
// sig.bind(...) or sig.bind_partial(...) (inspect.BoundArguments), or
// dict(...) of one of those, also through local variables.
func isCallArguments(m *pyast.Module, n *pyast.Node, depth int) bool {
	n = pyast.Unparen(n)
	if n == nil || depth > 4 {
		return false
	}
	switch n.Kind() {
	case "identifier":
		for _, b := range m.ScopeAt(n).Lookup(m.TextView(n)) {
			switch b.Kind {
			case pyast.BindParam:
				p := b.Node
				if p != nil && p.Kind() == "typed_parameter" && p.NamedChildCount() > 0 {
					p = p.NamedChild(0) // **kwargs: Any
				}
				if p != nil && p.Kind() == "dictionary_splat_pattern" {
					return true
				}
			case pyast.BindValue:
				if m.Unpacked(b) < 0 && isCallArguments(m, b.Value(), depth+1) {
					return true
				}
			}
		}
	case "attribute":
		// bound.arguments, bound = sig.bind_partial(*args, **kwargs)
		if m.Text(n.ChildByFieldName("attribute")) != "arguments" {
			return false
		}
		obj := pyast.Unparen(n.ChildByFieldName("object"))
		if obj != nil && obj.Kind() == "identifier" {
			for _, b := range m.ScopeAt(obj).Lookup(m.TextView(obj)) {
				if b.Kind == pyast.BindValue && m.Unpacked(b) < 0 && isBindCall(m, b.Value()) {
					return true
				}
			}
			return false
		}
		return isBindCall(m, obj)
	case "call":
		// dict(kwargs), dict(bound.arguments): a copy
		callee := pyast.Unparen(pyast.Callee(n))
		pos, kw := m.Args(n)
		if callee != nil && callee.Kind() == "identifier" && m.Text(callee) == "dict" && len(pos) == 1 && len(kw) == 0 {
			return isCallArguments(m, pos[0], depth+1)
		}
	}
	return false
}

// isBindCall: X.bind(...) or X.bind_partial(...), a Signature binding the
// wrapper's arguments.
func isBindCall(m *pyast.Module, v *pyast.Node) bool {
	v = pyast.Unparen(v)
	if v == nil || v.Kind() != "call" {
		return false
	}
	callee := pyast.Unparen(pyast.Callee(v))
	if callee == nil || callee.Kind() != "attribute" {
		return false
	}
	attr := m.Text(callee.ChildByFieldName("attribute"))
	return attr == "bind" || attr == "bind_partial"
}

func isContextType(t string) bool {
	if !strings.HasPrefix(t, "mcp.") && !strings.HasPrefix(t, "fastmcp.") {
		return false
	}
	return strings.HasSuffix(t, ".Context") || strings.HasSuffix(t, ".get_context")
}

// isSession: ctx.session, ctx.request_context.session, a variable named
// session, or a value typed as an mcp ServerSession.
func (a *Analyzer) isSession(m *pyast.Module, obj *pyast.Node) bool {
	for _, t := range m.TypesOf(obj) {
		if strings.HasPrefix(t, "mcp.") && strings.HasSuffix(t, "Session") {
			return true
		}
	}
	for _, x := range a.externals(m, obj) {
		if t, ok := strings.CutSuffix(x, "()"); ok && strings.HasPrefix(t, "mcp.") && strings.HasSuffix(t, "ServerSession") {
			return true // an instance of ServerSession (a ClientSession sends to a server)
		}
		if ctx, ok := strings.CutSuffix(x, ".session"); ok {
			ctx = strings.TrimSuffix(ctx, ".request_context")
			if t, ok := strings.CutSuffix(ctx, "()"); ok && isContextType(t) {
				return true // ctx.session, ctx.request_context.session of a Context
			}
		}
	}
	switch obj.Kind() {
	case "identifier":
		return m.Text(obj) == "session"
	case "attribute":
		return m.Text(obj.ChildByFieldName("attribute")) == "session"
	}
	return false
}
