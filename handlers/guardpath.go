package handlers

// Following the code that starts the server, to see what has run by the
// time it serves. A guard is in place when it is installed before the server
// starts serving on every path that serves: imported or installed before the
// top-level statement that runs the server, or inside the functions that
// statement calls (main(), anyio.run(main)) before their run() call. Inside
// functions the walk is path-sensitive: an install under an if, in a loop
// body or in an except handler does not count for the code after it (the
// branch may not run); an install in a try body does (the walk assumes the
// project's own imports do not fail). A branch whose condition is known
// without running the code (`if False:`, `if TYPE_CHECKING:`, `if 0:`) is
// taken or not accordingly (staticTruth). At module level, and in the
// modules imported before, a statement counts for every path where it
// dominates the statement that serves (dominates: each branch around it
// that may not run holds that statement too), for some path otherwise, and
// not at all where it never runs (neverRuns). Unlike the walk inside
// functions this does not join branches: an import on both sides of a
// module-level if/else counts for no path.
//
// In a function that installs a guard, a return before the install is a
// path that serves unguarded, unless the guard decides there that the SDK
// needs no patch: the return is under a condition that reads the class it
// patches (RequestResponder already patched, or already answering once:
// `if getattr(RequestResponder, "_patched", False): return`, directly or
// through a local assigned from it), or in an except handler of a try whose
// body imports mcp (the SDK is missing: nothing serves).

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// ran is what has run: modules (*pyast.Module, their top-level code) and
// guard patch statements (their Id).
type ran map[any]bool

func (r ran) clone() ran {
	out := make(ran, len(r))
	for k := range r {
		out[k] = true
	}
	return out
}

// flow is what has run before a point: on every path that reaches it (must)
// and on some path (may). dead: no path reaches it (after return, raise,
// break, continue).
type flow struct {
	must, may ran
	dead      bool
}

func (f flow) clone() flow { return flow{f.must.clone(), f.may.clone(), f.dead} }

// join merges the flows of paths that meet: must is what every live path
// ran, may what some ran.
func join(fs ...flow) flow {
	var out flow
	first := true
	for _, f := range fs {
		if f.dead {
			continue
		}
		if first {
			out, first = f.clone(), false
			continue
		}
		for k := range out.must {
			if !f.must[k] {
				delete(out.must, k)
			}
		}
		for k := range f.may {
			out.may[k] = true
		}
	}
	if first {
		return flow{ran{}, ran{}, true}
	}
	return out
}

// serving is a call that starts the server, with what ran before it.
type serving struct {
	mod  *pyast.Module
	call *pyast.Node
	at   flow
}

// servePath follows the code run from a start (a top-level statement that
// runs the server, an entry-point function) and records the calls that
// serve.
type servePath struct {
	b       *builder
	patches map[uintptr]bool // every guard's patch statements
	// installers are the functions that hold a patch statement: their
	// returns may be the guard's own decision (skipsPatch).
	installers map[*pyast.Function]bool
	serves     []serving
	stack      map[*pyast.Function]bool
	exits      *[]flow // the flows at the returns of the function being walked
	calls      int     // calls followed so far (bounded by maxServeCalls)
}

// maxServeDepth bounds how deep calls are followed (runsServer's bound);
// maxServeCalls bounds how many are followed from one start, so that a
// wide call tree costs a bounded time (past it, a call is not followed).
const (
	maxServeDepth = 3
	maxServeCalls = 2000
)

func (b *builder) newServePath() *servePath {
	p := &servePath{b: b, patches: map[uintptr]bool{}, installers: map[*pyast.Function]bool{}, stack: map[*pyast.Function]bool{}}
	for _, g := range b.out.guards {
		for _, pt := range g.Patches {
			p.patches[pt.Stmt.Id()] = true
			if f := pt.Module.FuncAt(pt.Stmt); f != nil {
				p.installers[f] = true
			}
		}
	}
	return p
}

// block walks the statements of a block (or module) in order.
func (p *servePath) block(m *pyast.Module, blk *pyast.Node, in flow, depth int) flow {
	f := in
	for _, st := range pyast.NamedChildren(blk) {
		if f.dead {
			return f
		}
		f = p.stmt(m, st, f, depth)
	}
	return f
}

// stmt walks one statement.
func (p *servePath) stmt(m *pyast.Module, st *pyast.Node, in flow, depth int) flow {
	switch st.Kind() {
	case "comment", "pass_statement", "function_definition", "class_definition", "decorated_definition":
		return in
	case "block":
		return p.block(m, st, in, depth)
	case "if_statement":
		cond := st.ChildByFieldName("condition")
		f := p.expr(m, cond, in, depth)
		v, known := staticTruth(m, cond)
		if known && v { // if True: only the consequence runs
			return p.block(m, st.ChildByFieldName("consequence"), f, depth)
		}
		var branches []flow
		if !known { // if False: / if TYPE_CHECKING: the consequence never runs
			branches = append(branches, p.block(m, st.ChildByFieldName("consequence"), f.clone(), depth))
		}
		hasElse := false
		for _, c := range pyast.NamedChildren(st) {
			switch c.Kind() {
			case "elif_clause":
				g := p.expr(m, c.ChildByFieldName("condition"), f.clone(), depth)
				branches = append(branches, p.block(m, c.ChildByFieldName("consequence"), g, depth))
			case "else_clause":
				hasElse = true
				branches = append(branches, p.block(m, c.ChildByFieldName("body"), f.clone(), depth))
			}
		}
		if !hasElse {
			branches = append(branches, f)
		}
		return join(branches...)
	case "try_statement":
		// The normal path runs the body (and else, finally); handlers are
		// walked for the calls that serve in them, and their ends count
		// only as some paths: an install in the body counts after the try.
		body := p.block(m, st.ChildByFieldName("body"), in.clone(), depth)
		var fin *pyast.Node
		var handlers []flow
		for _, c := range pyast.NamedChildren(st) {
			switch c.Kind() {
			case "except_clause", "except_group_clause":
				handlers = append(handlers, p.block(m, lastBlock(c), in.clone(), depth))
			case "else_clause":
				body = p.block(m, c.ChildByFieldName("body"), body, depth)
			case "finally_clause":
				fin = lastBlock(c)
			}
		}
		for _, h := range handlers {
			if !body.dead && !h.dead {
				for k := range h.may {
					body.may[k] = true
				}
			}
		}
		if fin != nil {
			if body.dead { // the finally block runs, the code after it does not
				p.block(m, fin, in.clone(), depth)
				return body
			}
			body = p.block(m, fin, body, depth)
		}
		return body
	case "with_statement":
		f := in
		for _, c := range pyast.NamedChildren(st) {
			if c.Kind() == "with_clause" {
				f = p.expr(m, c, f, depth)
			}
		}
		return p.block(m, st.ChildByFieldName("body"), f, depth)
	case "for_statement", "while_statement":
		// The body may run no time: what it installs does not count after it.
		f := p.expr(m, st.ChildByFieldName("right"), in, depth)
		f = p.expr(m, st.ChildByFieldName("condition"), f, depth)
		outs := []flow{f, p.block(m, st.ChildByFieldName("body"), f.clone(), depth)}
		for _, c := range pyast.NamedChildren(st) {
			if c.Kind() == "else_clause" {
				outs = append(outs, p.block(m, c.ChildByFieldName("body"), f.clone(), depth))
			}
		}
		return join(outs...)
	case "match_statement":
		f := p.expr(m, st.ChildByFieldName("subject"), in, depth)
		outs := []flow{f}
		for _, c := range pyast.NamedChildren(st.ChildByFieldName("body")) {
			if c.Kind() == "case_clause" {
				outs = append(outs, p.block(m, c.ChildByFieldName("consequence"), f.clone(), depth))
			}
		}
		return join(outs...)
	case "return_statement":
		f := p.expr(m, st, in, depth)
		if p.exits != nil && !p.skipsPatch(m, st) {
			*p.exits = append(*p.exits, f)
		}
		return flow{ran{}, ran{}, true}
	case "raise_statement", "break_statement", "continue_statement":
		p.expr(m, st, in, depth)
		return flow{ran{}, ran{}, true}
	}
	return p.simple(m, st, in, depth)
}

// skipsPatch reports whether a return in a guard's installing function is
// the guard deciding that the SDK needs no patch (see the file comment): on
// that path nothing serves unguarded, so it is not an exit of the call.
func (p *servePath) skipsPatch(m *pyast.Module, ret *pyast.Node) bool {
	fn := m.FuncAt(ret)
	if fn == nil || !p.installers[fn] {
		return false
	}
	child := ret
	for a := ret.Parent(); a != nil && a.Id() != fn.Node.Id(); child, a = a, a.Parent() {
		switch a.Kind() {
		case "except_clause", "except_group_clause":
			if try := a.Parent(); try != nil && try.Kind() == "try_statement" && importsMCP(m, try.ChildByFieldName("body")) {
				return true
			}
		case "if_statement", "elif_clause":
			if c := a.ChildByFieldName("consequence"); c != nil && c.Id() == child.Id() && readsResponder(m, a.ChildByFieldName("condition")) {
				return true
			}
		}
	}
	return false
}

// importsMCP reports whether a block imports from the mcp package.
func importsMCP(m *pyast.Module, blk *pyast.Node) bool {
	if blk == nil {
		return false
	}
	for _, st := range pyast.NamedChildren(blk) {
		if st.Kind() != "import_statement" && st.Kind() != "import_from_statement" {
			continue
		}
		for _, t := range m.ImportTargets(st) {
			if t == "mcp" || strings.HasPrefix(t, "mcp.") {
				return true
			}
		}
	}
	return false
}

// readsResponder reports whether an expression reads
// mcp.shared.session.RequestResponder: named in it, or through a local
// variable of the function assigned from an expression that names it.
func readsResponder(m *pyast.Module, e *pyast.Node) bool {
	found := false
	var walk func(n *pyast.Node, locals bool)
	walk = func(n *pyast.Node, locals bool) {
		if found || n == nil || pyast.IsFunctionBoundary(n) {
			return
		}
		switch n.Kind() {
		case "identifier", "attribute":
			if isResponder(m, n) {
				found = true
				return
			}
			if n.Kind() == "identifier" && locals {
				for _, b := range m.ScopeAt(n).Lookup(m.Text(n)) {
					if b.Kind == pyast.BindValue || b.Kind == pyast.BindAlias {
						walk(b.Value(), false)
					}
				}
			}
		}
		for _, c := range pyast.NamedChildren(n) {
			walk(c, locals)
		}
	}
	walk(e, true)
	return found
}

// lastBlock returns the block of a clause (its last named child).
func lastBlock(c *pyast.Node) *pyast.Node {
	kids := pyast.NamedChildren(c)
	for i := len(kids) - 1; i >= 0; i-- {
		if kids[i].Kind() == "block" {
			return kids[i]
		}
	}
	return nil
}

// simple walks a simple statement: an import runs the modules it names, a
// guard patch statement installs its patch, and its calls run.
func (p *servePath) simple(m *pyast.Module, st *pyast.Node, in flow, depth int) flow {
	f := p.expr(m, st, in, depth)
	if st.Kind() == "import_statement" || st.Kind() == "import_from_statement" {
		l := newLoaded()
		p.b.imports(m, st, true, l)
		for im := range l.may {
			f.may[im] = true
			if l.must[im] {
				f.must[im] = true
			}
		}
	}
	if p.patches[st.Id()] {
		f.must[st.Id()], f.may[st.Id()] = true, true
	}
	return f
}

// expr runs the calls of an expression (or statement) in evaluation order,
// arguments before the call: a run method on a server serves, a project
// function is followed into, and so is a project function passed as an
// argument (anyio.run(main)).
func (p *servePath) expr(m *pyast.Module, n *pyast.Node, in flow, depth int) flow {
	if n == nil || in.dead {
		return in
	}
	f := in
	var visit func(c *pyast.Node)
	visit = func(c *pyast.Node) {
		for _, k := range pyast.NamedChildren(c) {
			if !pyast.IsFunctionBoundary(k) {
				visit(k)
			}
		}
		if f.dead {
			return
		}
		switch c.Kind() {
		case "call":
			callee := pyast.Unparen(pyast.Callee(c))
			if callee != nil && callee.Kind() == "attribute" && runMethods[m.TextView(callee.ChildByFieldName("attribute"))] {
				if fw, _ := p.b.serverOf(m, callee.ChildByFieldName("object")); fw != FrameworkUnknown {
					p.serves = append(p.serves, serving{m, c, f.clone()})
					return
				}
			}
			f = p.callEach(p.b.engineOf[c], f, depth)
		case "identifier":
			if par := c.Parent(); par != nil && par.Kind() == "argument_list" {
				f = p.callEach(p.b.engineFuncs(m, c), f, depth)
			}
		}
	}
	visit(n)
	return f
}

// callEach is what has run after a call that runs one of rs (the functions
// its callee can be, whichever it is): the paths through each, joined; in
// itself when rs is empty.
func (p *servePath) callEach(rs []FuncRef, in flow, depth int) flow {
	if len(rs) == 0 {
		return in
	}
	if len(rs) == 1 {
		return p.call(rs[0], in, depth)
	}
	outs := make([]flow, 0, len(rs))
	for _, r := range rs {
		outs = append(outs, p.call(r, in.clone(), depth))
	}
	return join(outs...)
}

// call follows a call of project function r: the flow after it is what
// every return of r ran.
func (p *servePath) call(r FuncRef, in flow, depth int) flow {
	if depth >= maxServeDepth || r.Func.Body == nil || p.stack[r.Func] || p.calls >= maxServeCalls {
		return in
	}
	p.calls++
	p.stack[r.Func] = true
	saved := p.exits
	var exits []flow
	p.exits = &exits
	end := p.block(r.Module, r.Func.Body, in.clone(), depth+1)
	p.exits = saved
	delete(p.stack, r.Func)
	out := join(append(exits, end)...)
	if out.dead { // it never returns (it raises): keep walking with what it had
		return in
	}
	return out
}

// staticTruth is the truth of a condition known without running the code:
// the constants True, False, None and integers, typing.TYPE_CHECKING
// (false at run time) and `not` of those. known is false for the rest.
func staticTruth(m *pyast.Module, cond *pyast.Node) (value, known bool) {
	cond = pyast.Unparen(cond)
	if cond == nil {
		return false, false
	}
	switch cond.Kind() {
	case "true":
		return true, true
	case "false", "none":
		return false, true
	case "integer":
		t := m.TextView(cond)
		return strings.Trim(t, "0_") != "", strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' && r != '_' }) < 0
	case "not_operator":
		v, ok := staticTruth(m, cond.ChildByFieldName("argument"))
		return !v, ok
	case "identifier", "attribute":
		if nameResolves(m, cond, "typing.TYPE_CHECKING") || nameResolves(m, cond, "typing_extensions.TYPE_CHECKING") {
			return false, true
		}
	}
	return false, false
}

// branchOf classifies the clause body child of a as a path through a:
// never (a branch whose condition is statically false, or an else after a
// statically true one), maybe (it may not run: a condition, an except
// handler, a loop body, a match case) or always (a try body, its else and
// finally, a with body, a branch statically true, the body of a loop over
// a literal that is not empty). child is the named
// child of a that holds the statement.
func branchOf(m *pyast.Module, a, child *pyast.Node) (never, maybe bool) {
	switch a.Kind() {
	case "if_statement":
		if c := a.ChildByFieldName("consequence"); c != nil && c.Equals(child) {
			v, known := staticTruth(m, a.ChildByFieldName("condition"))
			return known && !v, !known
		}
	case "elif_clause", "else_clause":
		if c := a.ChildByFieldName("condition"); c != nil && c.Equals(child) {
			return false, false
		}
		par := a.Parent()
		if par == nil {
			return false, true
		}
		switch par.Kind() {
		case "try_statement":
			return false, false // try ... else: runs when the body did (imports assumed not to fail)
		case "if_statement":
			v, known := staticTruth(m, par.ChildByFieldName("condition"))
			if known && v {
				return true, false
			}
			if a.Kind() == "elif_clause" {
				w, k := staticTruth(m, a.ChildByFieldName("condition"))
				return k && !w, !(known && k && w)
			}
			elifs := false
			for _, c := range pyast.NamedChildren(par) {
				elifs = elifs || c.Kind() == "elif_clause"
			}
			return false, !(known && !elifs)
		}
		return false, true // for/while ... else: runs unless the loop breaks
	case "except_clause", "except_group_clause", "case_clause":
		return false, true
	case "for_statement":
		if c := a.ChildByFieldName("body"); c != nil && c.Equals(child) {
			// A loop over a literal that holds something runs its body
			// (for name in ("respond", "cancel"): setattr(...)).
			r := pyast.Unparen(a.ChildByFieldName("right"))
			literal := r != nil && (r.Kind() == "tuple" || r.Kind() == "list" || r.Kind() == "set") && r.NamedChildCount() > 0
			return false, !literal
		}
	case "while_statement":
		if c := a.ChildByFieldName("body"); c != nil && c.Equals(child) {
			v, known := staticTruth(m, a.ChildByFieldName("condition"))
			return known && !v, !(known && v)
		}
	}
	return false, false
}

// neverRuns reports whether statement st can never run: it is in a branch
// whose condition is statically false (`if False:`, `if TYPE_CHECKING:`),
// within its function or module.
func neverRuns(m *pyast.Module, st *pyast.Node) bool {
	child := st
	for a := st.Parent(); a != nil && !pyast.IsFunctionBoundary(a); child, a = a, a.Parent() {
		if never, _ := branchOf(m, a, child); never {
			return true
		}
	}
	return false
}

// dominates reports whether statement st of a module's top-level code runs
// on every path that reaches statement at (nil: the end of the module):
// each branch around st that may not run (a condition, an except handler,
// a loop body) holds at too. A try body counts as running: the walk
// assumes the project's own imports do not fail, so `try: import guard
// except ImportError: pass` installs the guard.
func dominates(m *pyast.Module, st, at *pyast.Node) bool {
	child := st
	for a := st.Parent(); a != nil && !pyast.IsFunctionBoundary(a); child, a = a, a.Parent() {
		never, maybe := branchOf(m, a, child)
		if never {
			return false
		}
		if maybe && (at == nil || at.StartByte() < child.StartByte() || at.EndByte() > child.EndByte()) {
			return false
		}
	}
	return true
}
