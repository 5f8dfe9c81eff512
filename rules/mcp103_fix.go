package rules

// The fixes of MCP103, chosen by what the handler's body does (issue 10):
//
//   - a body that blocks on nothing (no call, or only calls of pure
//     builtins) gets run_in_thread=False first: on fastmcp >= 3.3 it keeps
//     the function sync, so its direct callers keep working, and nothing
//     blocks the loop (safe where the project's fastmcp is known to be
//     >= 3.3, unsafe where it may be older);
//   - a body that blocks and that the project calls directly (tests
//     included) keeps its sync def and name for those callers: the
//     registration moves to a new async def that runs it in a worker thread
//     with abandon_on_cancel=True;
//   - otherwise the handler itself becomes an async def that runs its old
//     body in a worker thread.
//
// Handlers defined in test code (test_*.py, *_test.py, conftest.py, a
// tests/ or test/ folder) get the same advice, display-only: fixing a
// test's fake server is rarely what a --fix run is for.

import (
	"fmt"
	"path"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/pystyle"
)

// mcp103Fixes returns the fixes of a sync fastmcp handler, best first.
func mcp103Fixes(p *Pass, h *handlers.Handler) []Fix {
	m, f := h.Module, h.Func
	var fixes []Fix
	nonBlocking := !blocks(m, f)
	for _, w := range h.Wrappers {
		if w.Parent != nil {
			// A decorator's per-call wrapper (registered in place of f)
			// runs on the event loop too, and it calls f through a
			// parameter blocks cannot see through: not known not to block.
			nonBlocking = false
		}
	}
	callers := directCalls(p, f, h)
	inline, inlineOK := runInThreadFix(p, h)
	if others := siteSharers(p, h); inlineOK && len(others) > 0 {
		// One registration call registers several sync handlers (a loop
		// over a registry): run_in_thread=False there would move all of
		// them onto the event loop, not only this one.
		inline = Fix{
			Message:       fmt.Sprintf("the registration that serves %s also registers %s: run_in_thread=False there would run all of them on the event loop; register %s on its own with run_in_thread=False, or make it an async def under a decorator that keeps coroutine functions async", f.Name, strings.Join(others, ", "), f.Name),
			Applicability: DisplayOnly,
		}
		if nonBlocking {
			fixes = append(fixes, inline)
			inlineOK = false
		}
	}
	if nonBlocking && inlineOK {
		if p.Project != nil && p.Project.FastMCPAdmits("3.0.0", "3.3.0") == deps.No {
			inline.Applicability = Safe
		}
		inline.Message = fmt.Sprintf("register with run_in_thread=False: %s calls nothing that blocks, so it can run on the event loop and stay a sync def (fastmcp >= 3.3)", f.Name)
		fixes = append(fixes, inline)
		inlineOK = false
	}
	if len(h.Wrappers) == 0 {
		switch {
		case len(callers) > 0:
			if fx, ok := asyncWrapperFix(p, h, callers); ok {
				fixes = append(fixes, fx)
			} else {
				fixes = append(fixes, Fix{
					Message:       fmt.Sprintf("%s is called directly (%s): making it async would hand those callers a coroutine; register an async wrapper that runs it with anyio.to_thread.run_sync(..., abandon_on_cancel=True) instead", f.Name, strings.Join(callers, ", ")),
					Applicability: DisplayOnly,
				})
			}
		case nonBlocking:
			if fx, ok := asyncInPlaceFix(p, m, f); ok {
				fixes = append(fixes, fx)
			}
		default:
			fx, ok := asyncThreadFix(p, m, f)
			if over := reindentOver(p, m, f); ok && over > 0 {
				// Moving the body one level in would push a line past the
				// line length, which only a formatter could re-wrap: keep
				// the def as it is and register an async wrapper after it.
				if w, wok := asyncWrapperFix(p, h, nil); wok {
					fx = w
					fx.Message += fmt.Sprintf(" (moving the body into an inner function would push line %d past the line length of %d)", over, p.widthFor(m))
				}
			}
			if ok {
				fixes = append(fixes, fx)
			}
		}
	}
	if inlineOK {
		fixes = append(fixes, inline)
	}
	if inTests(m.Path) {
		for i := range fixes {
			if fixes[i].Applicability != DisplayOnly {
				fixes[i] = Fix{Message: fixes[i].Message + " (not applied: the handler is defined in test code)", Applicability: DisplayOnly}
			}
		}
	}
	return fixes
}

// inTests reports whether a path is test code: test_*.py, *_test.py,
// conftest.py, or a file under a tests/ or test/ folder.
func inTests(p string) bool {
	base := path.Base(p)
	if strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py" {
		return true
	}
	for _, seg := range strings.Split(path.Dir(p), "/") {
		if seg == "tests" || seg == "test" {
			return true
		}
	}
	return false
}

// pureBuiltins are the builtins a handler can call without blocking: they
// compute on values in memory and do no I/O (print does, and open, input).
var pureBuiltins = map[string]bool{
	"abs": true, "all": true, "any": true, "ascii": true, "bin": true, "bool": true, "bytes": true,
	"callable": true, "chr": true, "dict": true, "divmod": true, "enumerate": true, "filter": true,
	"float": true, "format": true, "frozenset": true, "getattr": true, "hasattr": true, "hash": true,
	"hex": true, "id": true, "int": true, "isinstance": true, "issubclass": true, "iter": true,
	"len": true, "list": true, "map": true, "max": true, "min": true, "oct": true, "ord": true,
	"pow": true, "range": true, "repr": true, "reversed": true, "round": true, "set": true,
	"slice": true, "sorted": true, "str": true, "sum": true, "tuple": true, "type": true, "zip": true,
}

// blocks reports whether f's body may block: it calls something other than
// a pure builtin (a name nothing in the module binds), a builtin exception
// class, or a method of a string literal or of a parameter annotated with a
// builtin type (builtinValue). A call of anything else (a
// project function, an imported one, a method of a value) may do I/O.
func blocks(m *pyast.Module, f *pyast.Function) bool {
	found := false
	pyast.WalkCode(f.Body, func(n *pyast.Node) bool {
		if found {
			return false
		}
		if n.Kind() != "call" {
			return true
		}
		fn := pyast.Unparen(pyast.Callee(n))
		switch {
		case fn == nil:
			found = true
		case fn.Kind() == "identifier":
			name := m.Text(fn)
			bound := len(m.ScopeAt(n).Lookup(name)) > 0
			builtinExc := strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Exception")
			found = bound || !(pureBuiltins[name] || builtinExc)
		case fn.Kind() == "attribute":
			obj := pyast.Unparen(fn.ChildByFieldName("object"))
			found = obj == nil || !builtinValue(m, f, obj)
		default:
			found = true
		}
		return !found
	})
	return found
}

// builtinTypes are the annotations whose values' methods compute in memory.
var builtinTypes = map[string]bool{"str": true, "int": true, "float": true, "bool": true, "bytes": true, "list": true, "dict": true, "tuple": true, "set": true}

// builtinValue reports whether a method's object is a string literal or a
// parameter of f annotated with a builtin type (item_id: str), whose methods
// do no I/O.
func builtinValue(m *pyast.Module, f *pyast.Function, obj *pyast.Node) bool {
	switch obj.Kind() {
	case "string", "concatenated_string":
		return true
	case "call": // item_id.strip().upper(): str methods return str
		fn := pyast.Unparen(pyast.Callee(obj))
		if fn != nil && fn.Kind() == "attribute" {
			return builtinValue(m, f, pyast.Unparen(fn.ChildByFieldName("object")))
		}
	case "identifier":
		name := m.Text(obj)
		for _, prm := range f.Params {
			if prm.Name == name && prm.Kind == pyast.ParamPositional && prm.Annotation() != nil {
				return builtinTypes[strings.TrimSpace(m.Text(prm.Annotation()))]
			}
		}
	}
	return false
}

// directCalls returns where the project calls f directly (path:line), not
// counting the registration call itself: in the parsed modules, and in the
// project's other Python files (tests that import the server and call its
// tools do not mention MCP, so the engine does not parse them), which are
// parsed here when they mention f's name.
func directCalls(p *Pass, f *pyast.Function, h *handlers.Handler) []string {
	var out []string
	parsed := map[string]bool{}
	for _, m := range p.Modules {
		parsed[m.Path] = true
		if !strings.Contains(string(m.Src), f.Name) {
			continue
		}
		for c := range m.Nodes("call") {
			if h.Site != nil && m == h.SiteModule && c.Equals(h.Site) {
				continue
			}
			callee := pyast.Callee(c)
			if callee == nil || !strings.HasSuffix(m.Text(callee), f.Name) {
				continue
			}
			for _, q := range m.Resolve(callee) {
				if q == f.Qual {
					out = append(out, fmt.Sprintf("%s:%d", m.Path, m.Pos(int(c.StartByte())).Line))
					break
				}
			}
		}
	}
	if p.ReadFile == nil {
		return out
	}
	for _, path := range p.PyFiles {
		if parsed[path] {
			continue
		}
		for _, c := range p.callsOf(path, f.Name) {
			if c.qual == f.Qual {
				out = append(out, fmt.Sprintf("%s:%d", path, c.line))
			}
		}
	}
	return out
}

// resolvedCall is a call in a file outside Modules: what its callee can
// refer to, and its line.
type resolvedCall struct {
	qual string
	line int
}

// callsOf returns the calls of the Python file at path (one not in
// Modules) whose callee ends with name, parsing it once per pass and only
// when its text mentions name.
func (p *Pass) callsOf(path, name string) []resolvedCall {
	if p.callsIn == nil {
		p.callsIn = map[string][]resolvedCall{}
	}
	calls, done := p.callsIn[path]
	if !done {
		src, err := p.ReadFile(path)
		if err != nil || !strings.Contains(string(src), name) {
			return nil // not cached: another name may be in it
		}
		m, err := pyast.Parse(path, "", src)
		if err != nil {
			p.callsIn[path] = nil
			return nil
		}
		for c := range m.Nodes("call") {
			callee := pyast.Callee(c)
			for _, q := range m.Resolve(callee) {
				calls = append(calls, resolvedCall{qual: q, line: m.Pos(int(c.StartByte())).Line})
			}
		}
		p.callsIn[path] = calls
	}
	var out []resolvedCall
	for _, c := range calls {
		if strings.HasSuffix(c.qual, "."+name) || c.qual == name {
			out = append(out, c)
		}
	}
	return out
}

// asyncInPlaceFix turns a handler whose body blocks on nothing into an
// async def: fastmcp then runs it on the event loop, where it cannot block.
// Used where run_in_thread=False is not available and nothing calls the
// function directly.
func asyncInPlaceFix(p *Pass, m *pyast.Module, f *pyast.Function) (Fix, bool) {
	if pyast.Yields(f.Body) {
		return Fix{}, false
	}
	edits := []Edit{{Path: m.Path, Start: int(f.Node.StartByte()), End: int(f.Node.StartByte()), New: "async "}}
	if w, ok := wrapArgsEdit(p, m, f.Node.ChildByFieldName("parameters"), "", len("async ")); ok {
		edits = append(edits, w) // the def line no longer fits
	}
	return Fix{
		Message:       fmt.Sprintf("make %s an async def: its body calls nothing that blocks, so it can run on the event loop", f.Name),
		Applicability: Unsafe,
		Edits:         edits,
	}, true
}

// asyncWrapperFix keeps the handler a sync def, for the callers that call it
// directly, and moves its registration decorator to a new async def after
// it, with the same parameters, annotations, defaults and docstring (which
// fastmcp builds the schema from) and name= set to the handler's name, that
// runs it with anyio.to_thread.run_sync(..., abandon_on_cancel=True). Only
// for a module-level or nested function (not a method) registered by its
// outermost decorator.
func asyncWrapperFix(p *Pass, h *handlers.Handler, callers []string) (Fix, bool) {
	m, f := h.Module, h.Func
	site := pyast.Unparen(h.Site)
	if f.Class != nil || site == nil || h.SiteModule != m || len(f.Decorators) == 0 || !f.Decorators[0].Equals(h.Site) || pyast.Yields(f.Body) {
		return Fix{}, false
	}
	deco := h.Site.Parent() // the decorator: "@" and the expression
	if deco == nil || deco.Kind() != "decorator" {
		return Fix{}, false
	}
	defIndent, ok := pystyle.LineIndent(m, f.Stmt)
	if !ok {
		return Fix{}, false
	}
	stmts := blockStmts(f.Body)
	if len(stmts) == 0 {
		return Fix{}, false
	}
	bodyIndent, ok := pystyle.LineIndent(m, stmts[0])
	if !ok || !strings.HasPrefix(bodyIndent, defIndent) || len(bodyIndent) == len(defIndent) {
		return Fix{}, false
	}
	width := p.widthFor(m)
	nl := pystyle.Newline(m.Src)
	// The registration, with name= so that the tool keeps its name.
	regText, ok := withNameArg(m, site, f.Name, defIndent, width, nl)
	if !ok {
		return Fix{}, false
	}
	params := f.Node.ChildByFieldName("parameters")
	var ptexts []string
	verbatim := false // a comment among the parameters: copy the list as written
	for _, c := range pyast.NamedChildren(params) {
		if c.Kind() == "comment" {
			verbatim = true
			continue
		}
		ptexts = append(ptexts, m.Text(c))
	}
	ret := ""
	if r := f.Node.ChildByFieldName("return_type"); r != nil {
		ret = " -> " + m.Text(r)
	}
	runSync, imp, ok := anyioRef(p, m, f.Node, "to_thread.run_sync")
	if !ok || imp != nil && imp.Start >= int(f.Stmt.StartByte()) {
		return Fix{}, false // the import would go into the function
	}
	wrapper := freeName(m, f, "_"+strings.TrimLeft(f.Name, "_")+"_async")
	// The call: positional parameters as themselves; keyword-only ones and
	// **kwargs need a lambda (run_sync passes positional arguments only).
	var pos, kw []string
	for _, prm := range f.Params {
		switch prm.Kind {
		case pyast.ParamPositional:
			pos = append(pos, prm.Name)
		case pyast.ParamVarArgs:
			pos = append(pos, "*"+prm.Name)
		case pyast.ParamKeywordOnly:
			kw = append(kw, prm.Name+"="+prm.Name)
		case pyast.ParamVarKeywords:
			kw = append(kw, "**"+prm.Name)
		}
	}
	args := append([]string{f.Name}, pos...)
	if len(kw) > 0 {
		args = []string{"lambda: " + f.Name + "(" + strings.Join(append(pos, kw...), ", ") + ")"}
	}
	args = append(args, "abandon_on_cancel=True")
	var b strings.Builder
	blank := nl
	if defIndent == "" {
		blank = nl + nl
	}
	b.WriteString(nl + blank + defIndent + "@" + regText + nl)
	if verbatim {
		b.WriteString(defIndent + "async def " + wrapper + m.Text(params) + ret + ":" + nl)
	} else {
		b.WriteString(formatBracketed(defIndent, "async def "+wrapper+"(", ptexts, ")"+ret+":", width, nl) + nl)
	}
	if f.Doc() != nil {
		b.WriteString(bodyIndent + m.Text(f.Doc()) + nl)
	}
	b.WriteString(formatBracketed(bodyIndent, "return await "+runSync+"(", args, ")", width, nl))
	// Remove the decorator line from the handler; add the wrapper after it.
	dStart := pystyle.LineStart(m.Src, int(deco.StartByte()))
	dEnd := pystyle.LineEnd(m.Src, int(deco.EndByte()))
	if strings.TrimSpace(string(m.Src[dStart:int(deco.StartByte())])) != "" || strings.TrimSpace(string(m.Src[int(deco.EndByte()):dEnd])) != "" {
		return Fix{}, false
	}
	end := pystyle.LineEnd(m.Src, int(f.Stmt.EndByte()))
	edits := []Edit{
		{Path: m.Path, Start: dStart, End: dEnd + len(pystyle.BreakAt(m.Src, dEnd)), New: ""},
		{Path: m.Path, Start: end, End: end, New: b.String()},
	}
	if imp != nil {
		edits = append([]Edit{*imp}, edits...)
	}
	why := "for its direct callers (" + strings.Join(callers, ", ") + ")"
	if len(callers) == 0 {
		why = "as it is"
	}
	return Fix{
		Message: fmt.Sprintf("keep %s a sync def %s and register an async wrapper, %s, that runs it with anyio.to_thread.run_sync(..., abandon_on_cancel=True)",
			f.Name, why, wrapper),
		Applicability: Unsafe,
		Edits:         edits,
	}, true
}

// withNameArg returns the registration expression site with name="<name>"
// added (unless it passes name= already): @mcp.tool becomes
// @mcp.tool(name="f"), @mcp.tool() @mcp.tool(name="f"), and a call keeps its
// arguments (laid out black's way at indent). ok is false for other shapes
// or comments inside the call.
func withNameArg(m *pyast.Module, site *pyast.Node, name, indent string, width int, nl string) (string, bool) {
	quoted := "name=\"" + name + "\""
	switch site.Kind() {
	case "attribute", "identifier":
		return m.Text(site) + "(" + quoted + ")", true
	case "call":
		args := site.ChildByFieldName("arguments")
		if args == nil || args.Kind() != "argument_list" {
			return "", false
		}
		var texts []string
		for _, a := range pyast.NamedChildren(args) {
			if a.Kind() == "comment" {
				return "", false
			}
			if a.Kind() == "keyword_argument" && m.Text(a.ChildByFieldName("name")) == "name" {
				return m.Text(site), true
			}
			texts = append(texts, m.Text(a))
		}
		texts = append(texts, quoted)
		head := m.Text(pyast.Callee(site)) + "("
		return strings.TrimPrefix(formatBracketed(indent, "@"+head, texts, ")", width, nl), indent+"@"), true
	}
	return "", false
}

// asyncThreadFix turns `def f(params): body` into an async def that runs the
// original body, moved into an inner sync function with the same parameter
// names, with anyio.to_thread.run_sync(..., abandon_on_cancel=True). The
// decorators, name, parameters, annotations, defaults and docstring stay.
func asyncThreadFix(p *Pass, m *pyast.Module, f *pyast.Function) (Fix, bool) {
	stmts := blockStmts(f.Body)
	if f.Doc() != nil && len(stmts) > 0 {
		stmts = stmts[1:]
	}
	if len(stmts) == 0 || pyast.Yields(f.Body) {
		return Fix{}, false
	}
	defIndent, ok1 := pystyle.LineIndent(m, f.Node)
	bodyIndent, ok2 := pystyle.LineIndent(m, stmts[0])
	if !ok1 || !ok2 || !strings.HasPrefix(bodyIndent, defIndent) || len(bodyIndent) == len(defIndent) {
		return Fix{}, false
	}
	unit := bodyIndent[len(defIndent):]
	runSync, imp, ok := anyioRef(p, m, stmts[0], "to_thread.run_sync")
	if !ok {
		return Fix{}, false
	}
	nl := pystyle.Newline(m.Src)
	helper := freeName(m, f, "_"+strings.TrimLeft(f.Name, "_")+"_sync")
	var params []string
	for _, prm := range f.Params {
		params = append(params, prm.Name)
	}
	start := pystyle.LineStart(m.Src, int(stmts[0].StartByte()))
	end := pystyle.LineEnd(m.Src, int(stmts[len(stmts)-1].EndByte()))
	var b strings.Builder
	if imp != nil && imp.Start >= int(f.Body.StartByte()) {
		// a local import of the handler: it stays at the top of the new body
		b.WriteString(bodyIndent + "import anyio" + nl)
		imp = nil
	}
	width := p.widthFor(m)
	b.WriteString(formatBracketed(bodyIndent, "def "+helper+"(", params, "):", width, nl) + nl)
	b.WriteString(indentLines(m, start, end, unit))
	call := append(append([]string{helper}, params...), "abandon_on_cancel=True")
	b.WriteString(nl + formatBracketed(bodyIndent, "return await "+runSync+"(", call, ")", width, nl))
	edits := []Edit{
		{Path: m.Path, Start: int(f.Node.StartByte()), End: int(f.Node.StartByte()), New: "async "},
		{Path: m.Path, Start: start, End: end, New: b.String()},
	}
	if w, ok := wrapArgsEdit(p, m, f.Node.ChildByFieldName("parameters"), "", len("async ")); ok {
		edits = append(edits, w) // the def line no longer fits
	}
	if imp != nil {
		edits = append([]Edit{*imp}, edits...)
	}
	return Fix{
		Message:       fmt.Sprintf("make %s async def and run its body with anyio.to_thread.run_sync(..., abandon_on_cancel=True)", f.Name),
		Applicability: Unsafe,
		Edits:         edits,
	}, true
}

// reindentOver returns the first line (1-based) of f's body that fits the
// line length now and would not once asyncThreadFix indents it one level
// deeper (lines inside strings stay), or 0.
func reindentOver(p *Pass, m *pyast.Module, f *pyast.Function) int {
	stmts := blockStmts(f.Body)
	if f.Doc() != nil && len(stmts) > 0 {
		stmts = stmts[1:]
	}
	if len(stmts) == 0 {
		return 0
	}
	defIndent, ok1 := pystyle.LineIndent(m, f.Node)
	bodyIndent, ok2 := pystyle.LineIndent(m, stmts[0])
	if !ok1 || !ok2 || len(bodyIndent) <= len(defIndent) {
		return 0
	}
	unit := bodyIndent[len(defIndent):]
	width := p.widthFor(m)
	start := pystyle.LineStart(m.Src, int(stmts[0].StartByte()))
	end := pystyle.LineEnd(m.Src, int(stmts[len(stmts)-1].EndByte()))
	old := strings.Split(strings.ReplaceAll(string(m.Src[start:end]), "\r\n", "\n"), "\n")
	moved := strings.Split(strings.ReplaceAll(indentLines(m, start, end, unit), "\r\n", "\n"), "\n")
	if len(old) != len(moved) {
		return 0
	}
	first := m.Pos(start).Line
	for i := range old {
		if lineWidth(old[i]) <= width && lineWidth(moved[i]) > width {
			return first + i
		}
	}
	return 0
}

// indentLines returns src[start:end] with unit added at the start of every
// non-blank line that does not begin inside a string literal.
func indentLines(m *pyast.Module, start, end int, unit string) string {
	var inString [][2]int
	pyast.Walk(m.Root, func(n *pyast.Node) bool {
		if int(n.EndByte()) <= start || int(n.StartByte()) >= end {
			return false
		}
		if n.Kind() == "string" {
			inString = append(inString, [2]int{int(n.StartByte()), int(n.EndByte())})
			return false
		}
		return true
	})
	var b strings.Builder
	for off := start; off < end; {
		eol := min(pystyle.LineEnd(m.Src, off), end)
		if eol < end {
			eol += len(pystyle.BreakAt(m.Src, eol)) // keep the line break
		}
		line := string(m.Src[off:eol])
		blank := strings.TrimSpace(line) == ""
		quoted := false
		for _, s := range inString {
			if s[0] < off && off < s[1] {
				quoted = true
			}
		}
		if !blank && !quoted {
			b.WriteString(unit)
		}
		b.WriteString(line)
		off = eol
	}
	return b.String()
}

// runInThreadFix adds run_in_thread=False to a decorator or call
// registration, for fastmcp >= 3.3 and without timeout=.
func runInThreadFix(p *Pass, h *handlers.Handler) (Fix, bool) {
	if h.Options["timeout"] != nil || p.Project.FastMCPAdmits("3.0.0", "3.3.0") == deps.Yes {
		return Fix{}, false
	}
	site, sm := pyast.Unparen(h.Site), h.SiteModule
	if site == nil || sm == nil {
		return Fix{}, false
	}
	fix := Fix{Message: "register with run_in_thread=False (fastmcp >= 3.3: runs the body on the event loop)", Applicability: Unsafe}
	switch site.Kind() {
	case "attribute", "identifier": // @mcp.tool, @tool
		if !registrationName(sm, site) {
			return Fix{}, false
		}
		fix.Edits = []Edit{{Path: sm.Path, Start: int(site.EndByte()), End: int(site.EndByte()), New: "(run_in_thread=False)"}}
		return fix, true
	case "call":
		call := site
		if inner := pyast.Unparen(pyast.Callee(call)); inner != nil && inner.Kind() == "call" {
			call = inner // mcp.tool(name=...)(fn)
		}
		if !registrationName(sm, pyast.Callee(call)) {
			return Fix{}, false
		}
		args := call.ChildByFieldName("arguments")
		if args == nil || args.Kind() != "argument_list" {
			return Fix{}, false
		}
		if kw := pyast.KeywordArg(sm, call, "run_in_thread"); kw != nil { // run_in_thread=True
			v := kw.ChildByFieldName("value")
			fix.Edits = []Edit{{Path: sm.Path, Start: int(v.StartByte()), End: int(v.EndByte()), New: "False"}}
			return fix, true
		}
		e, _ := appendArg(sm, args, "run_in_thread=False")
		if w, ok := wrapArgsEdit(p, sm, args, "run_in_thread=False", 0); ok {
			e = w // too long for the line: black's layout
		} else if eol := pystyle.LineEnd(sm.Src, e.Start); lineWidth(string(sm.Src[pystyle.LineStart(sm.Src, e.Start):eol]))+len(e.New) > p.widthFor(sm) {
			return Fix{}, false // it would not fit, and cannot be re-laid out
		}
		fix.Edits = []Edit{e}
		return fix, true
	}
	return Fix{}, false
}

// registrationName reports whether a registration callee is a tool,
// resource or prompt decorator (method or standalone), which take
// run_in_thread.
func registrationName(m *pyast.Module, n *pyast.Node) bool {
	n = pyast.Unparen(n)
	if n == nil {
		return false
	}
	switch n.Kind() {
	case "attribute":
		switch m.Text(n.ChildByFieldName("attribute")) {
		case "tool", "resource", "prompt":
			return true
		}
	case "identifier":
		for _, q := range m.Resolve(n) {
			if strings.HasPrefix(q, "fastmcp.") {
				last := q[strings.LastIndex(q, ".")+1:]
				return last == "tool" || last == "resource" || last == "prompt"
			}
		}
	}
	return false
}

// siteSharers returns the names of the other handlers that h's
// registration call (for fn in REGISTRY: mcp.tool()(fn)) registers and
// fastmcp runs in a worker thread.
func siteSharers(p *Pass, h *handlers.Handler) []string {
	if p.Handlers == nil || h.Site == nil {
		return nil
	}
	var out []string
	for _, o := range p.Handlers.Handlers {
		if o != h && o.Site != nil && o.SiteModule == h.SiteModule && o.Site.Id() == h.Site.Id() && o.Func != h.Func && fastmcp3Candidate(p, o) {
			out = append(out, o.Func.Name)
		}
	}
	return out
}
