package rules

// Source-edit helpers shared by the rules' fixes: lines, indentation and
// newline style, free names, `import anyio`, appending an argument to a call,
// and inserting a checkpoint after a statement.

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/pystyle"
)

// freeName returns name, or name with a number, unbound where f's body runs.
func freeName(m *pyast.Module, f *pyast.Function, name string) string {
	for i := 2; ; i++ {
		if len(f.Scope.Lookup(name)) == 0 && !strings.Contains(m.Text(f.Body), name) {
			return name
		}
		name = fmt.Sprintf("%s%d", strings.TrimRight(name, "0123456789"), i)
	}
}

// style returns the project's formatting settings: line length and import
// order (the defaults of black and isort's profile black without a project).
func (p *Pass) style() pystyle.Style {
	if p == nil || p.Project == nil {
		return pystyle.Style{}
	}
	return p.Project.Style
}

// widthFor is the line length the fixes keep to in m (pystyle.WidthFor),
// read once per module for the pass: it scans the whole file, and a
// module of 10,000 handlers has a fix each.
func (p *Pass) widthFor(m *pyast.Module) int {
	if p == nil {
		return pystyle.Style{}.WidthFor(m)
	}
	if w, ok := p.widths[m]; ok {
		return w
	}
	w := p.style().WidthFor(m)
	if p.widths == nil {
		p.widths = map[*pyast.Module]int{}
	}
	p.widths[m] = w
	return w
}

// firstParty reports whether top is a top-level module of the project (isort
// and ruff place its imports in the first-party section).
func (p *Pass) firstParty(top string) bool {
	if p == nil {
		return false
	}
	if p.topModules == nil {
		p.topModules = map[string]bool{}
		for _, m := range p.Modules {
			if m.Name != "" {
				t, _, _ := strings.Cut(m.Name, ".")
				p.topModules[t] = true
			}
		}
		// Every file and folder at the project root or under src/, as
		// ruff's default src = [".", "src"] finds them, parsed or not.
		dir := "."
		if p.Project != nil {
			dir = p.Project.Dir
		}
		for _, f := range p.PyFiles {
			rel := strings.TrimPrefix(f, dir+"/")
			if dir == "." {
				rel = strings.TrimPrefix(f, "./")
			}
			if rel == f && dir != "." {
				continue
			}
			parts := strings.Split(rel, "/")
			if parts[0] == "src" && len(parts) > 1 {
				parts = parts[1:]
			}
			p.topModules[strings.TrimSuffix(parts[0], ".py")] = true
		}
	}
	return p.topModules[top]
}

// anyioRef returns an expression for anyio.<member> (member is
// "lowlevel.checkpoint_if_cancelled" or "to_thread.run_sync") usable where
// node at runs, reusing what the code already imports: `from
// anyio.lowlevel import checkpoint_if_cancelled` gives
// checkpoint_if_cancelled, `from anyio import lowlevel` (or `import
// anyio.lowlevel as ll`) lowlevel.checkpoint_if_cancelled (ll....), `import
// anyio`, `import anyio.lowlevel` or `import anyio as aio` anyio.… (aio.…).
// Otherwise it adds `import anyio` (imp; importEdit places it) and returns
// "anyio.<member>". ok is false when the name anyio is bound to something
// else there.
func anyioRef(p *Pass, m *pyast.Module, at *pyast.Node, member string) (expr string, imp *Edit, ok bool) {
	sc := m.ScopeAt(at)
	parts := strings.Split("anyio."+member, ".")
	for k := len(parts); k >= 1; k-- {
		q := strings.Join(parts[:k], ".")
		if name := boundTo(m, sc, at, q); name != "" {
			return strings.Join(append([]string{name}, parts[k:]...), "."), nil, true
		}
	}
	if len(sc.Lookup("anyio")) > 0 {
		return "", nil, false
	}
	e, ok := importEdit(p, m, at, "import anyio", pystyle.Import{Module: "anyio"})
	if !ok {
		return "", nil, false
	}
	return "anyio." + member, &e, true
}

// boundTo returns a name that refers, where node at runs, to exactly the
// imported module or object q (every binding of it imports q, none only for
// type checking, and a local import comes before at), or "". The name q's
// last part is preferred, then the others in sorted order.
func boundTo(m *pyast.Module, sc *pyast.Scope, at *pyast.Node, q string) string {
	ok := func(name string) bool {
		bs := sc.Lookup(name)
		for _, b := range bs {
			if b.Kind != pyast.BindImport || len(b.Targets()) != 1 || b.Targets()[0] != q || typeCheckingOnly(m, b.Node) {
				return false
			}
			if m.FuncAt(b.Node) != nil && b.Node.StartByte() > at.StartByte() {
				return false // a local import after the use: unbound there
			}
		}
		return len(bs) > 0
	}
	last := q[strings.LastIndexByte(q, '.')+1:]
	if ok(last) {
		return last
	}
	// Only a name some import binds to q can be one (ok needs every
	// binding to import q): the module's index of them, sorted, not every
	// name of every enclosing scope sorted again for each finding (5,000
	// handlers in one module took 15 s).
	names := m.ImportedAs(q)
	for x := sc; x != nil; x = x.Parent {
		for _, n := range names {
			if n != last && len(x.Local(n)) > 0 && ok(n) {
				return n
			}
		}
	}
	return ""
}

// typeCheckingOnly reports whether statement n runs only for type checkers:
// under `if TYPE_CHECKING:` (or typing.TYPE_CHECKING).
func typeCheckingOnly(m *pyast.Module, n *pyast.Node) bool {
	for a := n.Parent(); a != nil; a = a.Parent() {
		if a.Kind() == "if_statement" && strings.Contains(m.Text(a.ChildByFieldName("condition")), "TYPE_CHECKING") {
			return true
		}
	}
	return false
}

// importEdit returns the edit that adds the import statement line
// (describing imp) for code at node at: where isort would put it among the
// module's imports (pystyle.PlaceImport, by the project's isort settings),
// or, to keep a deliberately local import local, among the imports at the
// top of the function that holds at when that function imports inside its
// body, or when the module imports anyio only inside functions.
func importEdit(p *Pass, m *pyast.Module, at *pyast.Node, line string, imp pystyle.Import) (Edit, bool) {
	st := p.style()
	if f := m.FuncAt(at); f != nil && (importsInside(f.Body) || importedOnlyLocally(m, imp.Module)) {
		if ins, ok := st.PlaceImport(m, imp, line, f, p.firstParty); ok {
			return Edit{Path: m.Path, Start: ins.At, End: ins.At, New: ins.Text}, true
		}
	}
	ins, ok := st.PlaceImport(m, imp, line, nil, p.firstParty)
	if !ok {
		return Edit{}, false
	}
	return Edit{Path: m.Path, Start: ins.At, End: ins.At, New: ins.Text}, true
}

// importsInside reports whether a function body has an import statement of
// its own (not in nested functions).
func importsInside(body *pyast.Node) bool {
	found := false
	pyast.WalkCode(body, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "import_statement", "import_from_statement":
			found = true
		}
		return !found
	})
	return found
}

// importedOnlyLocally reports whether module mod (or a submodule) is
// imported in m, and only inside functions.
func importedOnlyLocally(m *pyast.Module, mod string) bool {
	local := false
	for _, kind := range []string{"import_statement", "import_from_statement"} {
		for n := range m.Nodes(kind) {
			for _, q := range m.ImportTargets(n) {
				if q != mod && !strings.HasPrefix(q, mod+".") {
					continue
				}
				if m.FuncAt(n) == nil {
					return false
				}
				local = true
			}
		}
	}
	return local
}

// checkpointAfter returns the edits that put
// `await anyio.lowlevel.checkpoint_if_cancelled()` on a new line after
// statement s, at s's indentation and followed by the lines of then (at the
// same indentation), and the name of anyio they use: anyio, or an alias of
// it, with `import anyio` added where no name binds it. ok is false when s
// does not start its line, when code follows s on its last line
// (`x = await f(); y()`, a trailing backslash), or when the name anyio is
// bound to something else. The import edit, when there is one, comes first.
func checkpointAfter(p *Pass, m *pyast.Module, s *pyast.Node, then ...string) (edits []Edit, call string, ok bool) {
	indent, first := pystyle.LineIndent(m, s)
	if !first {
		return nil, "", false
	}
	end := int(s.EndByte())
	eol := pystyle.LineEnd(m.Src, end)
	end = min(end, eol) // a comment ending a block holds the \r of its \r\n
	if rest := strings.TrimSpace(string(m.Src[end:eol])); rest != "" && !strings.HasPrefix(rest, "#") {
		return nil, "", false
	}
	call, imp, ok := anyioRef(p, m, s, "lowlevel.checkpoint_if_cancelled")
	if !ok {
		return nil, "", false
	}
	call += "()"
	nl := pystyle.BreakAt(m.Src, eol)
	at := eol + len(nl)
	lead := ""
	if eol == len(m.Src) { // no newline at the end of the file: add one
		at, lead = eol, pystyle.Newline(m.Src)
		nl = lead
	}
	text := lead + indent + "await " + call + nl
	for _, line := range then {
		text += indent + line + nl
	}
	if imp != nil {
		edits = append(edits, *imp)
	}
	return append(edits, Edit{Path: m.Path, Start: at, End: at, New: text}), call, true
}

// checkpointBefore returns the edits that put
// `await anyio.lowlevel.checkpoint_if_cancelled()` on a new line before
// statement s, at its indentation (see checkpointAfter for the name of anyio
// and the import). ok is false when s does not start its line or anyio is
// bound to something else.
func checkpointBefore(p *Pass, m *pyast.Module, s *pyast.Node) (edits []Edit, call string, ok bool) {
	indent, first := pystyle.LineIndent(m, s)
	if !first {
		return nil, "", false
	}
	call, imp, ok := anyioRef(p, m, s, "lowlevel.checkpoint_if_cancelled")
	if !ok {
		return nil, "", false
	}
	call += "()"
	at := pystyle.LineStart(m.Src, int(s.StartByte()))
	nl := pystyle.BreakAt(m.Src, pystyle.LineEnd(m.Src, at))
	if nl == "" {
		nl = pystyle.Newline(m.Src)
	}
	if imp != nil {
		edits = append(edits, *imp)
	}
	text := indent + "await " + call + nl
	return append(edits, Edit{Path: m.Path, Start: at, End: at, New: text}), call, true
}

// appendArg returns the edit that adds the argument text arg at the end of
// the argument list args: ", arg" after the last argument, or arg inside
// empty parentheses. last is that last argument (comments left out), or nil.
func appendArg(m *pyast.Module, args *pyast.Node, arg string) (e Edit, last *pyast.Node) {
	for _, a := range pyast.NamedChildren(args) {
		if a.Kind() != "comment" {
			last = a
		}
	}
	if last == nil {
		at := int(args.StartByte()) + 1
		return Edit{Path: m.Path, Start: at, End: at, New: arg}, nil
	}
	at := int(last.EndByte())
	return Edit{Path: m.Path, Start: at, End: at, New: ", " + arg}, last
}
