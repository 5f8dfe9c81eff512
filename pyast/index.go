package pyast

import (
	"sort"
	"strings"
	"unsafe"
)

// Function is a def or async def. It is 128 bytes (a size class): whether
// it is async and its docstring are found from its nodes.
type Function struct {
	Name       string
	Qual       string  // module.[Class.]name, nested: module.outer.inner
	Node       *Node   // the function_definition
	Stmt       *Node   // the whole statement: the decorated_definition when decorated
	Decorators []*Node // the expressions after "@", top to bottom
	Params     []Param
	Body       *Node // the block
	Class      *Class
	Parent     *Function
	Scope      *Scope
}

// Async reports whether the function is an async def.
func (f *Function) Async() bool {
	for c := f.Node.firstChild(); c != nil; c = f.Node.nextChild(c) {
		switch c.Kind() {
		case "async":
			return true
		case "def":
			return false
		}
	}
	return false
}

// Doc returns the string node of the function's docstring, or nil.
func (f *Function) Doc() *Node {
	if f.Body != nil && f.Body.NamedChildCount() > 0 {
		first := f.Body.NamedChild(0)
		if first.Kind() == "expression_statement" && first.NamedChildCount() == 1 && first.NamedChild(0).Kind() == "string" {
			return first.NamedChild(0)
		}
	}
	return nil
}

// ParamKind distinguishes positional, *args, keyword-only and **kwargs parameters.
type ParamKind int

const (
	ParamPositional ParamKind = iota
	ParamVarArgs
	ParamKeywordOnly
	ParamVarKeywords
)

// Param is one parameter of a function.
type Param struct {
	Name string // shares the module's Src (see TextView)
	Kind ParamKind
	Node *Node // the parameter: identifier, typed_parameter, default_parameter, ...
}

// Annotation returns the parameter's annotation, or nil.
func (p Param) Annotation() *Node {
	if annotatedParamKinds.has(p.Node.symbol) {
		return p.Node.ChildByFieldName("type")
	}
	return nil
}

// Default returns the parameter's default value, or nil.
func (p Param) Default() *Node {
	if defaultParamKinds.has(p.Node.symbol) {
		return p.Node.ChildByFieldName("value")
	}
	return nil
}

var (
	annotatedParamKinds = newKindSet("typed_parameter", "default_parameter", "typed_default_parameter")
	defaultParamKinds   = newKindSet("default_parameter", "typed_default_parameter")
)

// Class is a class definition.
type Class struct {
	Name       string
	Qual       string
	Node       *Node
	Decorators []*Node
	Bases      []*Node               // a generic base's class: FastMCP for FastMCP[LifespanT]
	Methods    map[string]*Function  // nil when it has none
	Attrs      map[string][]*Binding // self.x = ... in methods and x = ... in the body; nil when none
	Scope      *Scope
}

// FuncAt returns the innermost function that contains n, or nil. A
// function's decorators are not in it (they run in the enclosing scope).
func (m *Module) FuncAt(n *Node) *Function {
	if i := m.funcSpans.innermost(n.StartByte()); i >= 0 {
		return m.Funcs[m.funcSpans.items[i].owner]
	}
	return nil
}

// FuncByNode returns the Function of a function_definition node.
func (m *Module) FuncByNode(n *Node) *Function {
	if n == nil {
		return nil
	}
	// m.Funcs is in document order: sorted by the start of their defs.
	start := n.StartByte()
	i := sort.Search(len(m.Funcs), func(i int) bool { return m.Funcs[i].Node.StartByte() >= start })
	if i < len(m.Funcs) && m.Funcs[i].Node.StartByte() == start {
		return m.Funcs[i]
	}
	return nil
}

// ScopeAt returns the scope code at n runs in: the innermost function or
// class body that contains it. A function's decorators, defaults and
// annotations run in the scope around the def.
func (m *Module) ScopeAt(n *Node) *Scope {
	if i := m.scopeSpans.innermost(n.StartByte()); i >= 0 {
		if o := m.scopeSpans.items[i].owner; o >= 0 {
			return m.Funcs[o].Scope
		} else {
			return m.Classes[^o].Scope
		}
	}
	return m.Scope
}

// bindingKinds are the nodes that bind a name.
var bindingKinds = newKindSet("function_definition", "class_definition", "import_statement",
	"import_from_statement", "assignment", "with_item")

// index builds scopes, functions, classes and bindings, and the per-kind
// node lists of Nodes, in one pass over the tree in document order (so a def
// or class is indexed before anything inside it). A first, cheaper pass
// counts what the second stores, so that each list is allocated once at its
// size.
func (m *Module) index() {
	var c indexCounts
	c.count(m.tree)
	m.arena = newIndexArena(&c)
	defer func() { m.arena = nil }()
	m.Scope = newScope(nil, m.Name)
	for k, n := range c.kinds {
		if n > 0 {
			m.nodes.byKind[k] = make([]uint32, 0, n)
		}
	}
	m.Funcs = make([]*Function, 0, c.funcs)
	m.Classes = make([]*Class, 0, c.classes)
	m.funcSpans.items = make([]span, 0, c.funcs)
	m.scopeSpans.items = make([]span, 0, c.funcs+c.classes)
	for i := range m.tree {
		n := &m.tree[i]
		if k := indexedSlot[n.symbol]; k >= 0 {
			m.nodes.byKind[k] = append(m.nodes.byKind[k], uint32(i))
		}
		if bindingKinds.has(n.symbol) {
			m.indexNode(n)
		}
	}
}

// indexCounts are the sizes of a module's index lists.
type indexCounts struct {
	kinds          [len(nodeKinds)]int // nodes of each of nodeKinds
	funcs, classes int
	params         int // parameters of defs
	bindings       int // bindings of defs, classes, parameters, imports and assignments to a name
}

var (
	funcKinds       = newKindSet("function_definition")
	classKinds      = newKindSet("class_definition")
	parametersKinds = newKindSet("parameters")
	importKinds     = newKindSet("import_statement", "import_from_statement")
	assignmentKinds = newKindSet("assignment")
	withItemKinds   = newKindSet("with_item")
	// paramKinds are the children of a def's parameters node that are
	// parameters (not "*", "/" or comments).
	paramKinds = newKindSet("identifier", "typed_parameter", "default_parameter", "typed_default_parameter",
		"list_splat_pattern", "dictionary_splat_pattern")
	importedKinds = newKindSet("dotted_name", "aliased_import")
)

// count counts what index stores. The bindings are counted as indexNode
// makes them where that is cheap to tell; the few it does not count (with
// items, attributes of classes) are allocated one by one.
func (c *indexCounts) count(tree []Node) {
	for i := range tree {
		n := &tree[i]
		sym := n.symbol
		if k := indexedSlot[sym]; k >= 0 {
			c.kinds[k]++
		}
		switch {
		case funcKinds.has(sym):
			c.funcs++
		case classKinds.has(sym):
			c.classes++
		case parametersKinds.has(sym):
			c.params += paramCount(n)
		case importKinds.has(sym):
			for ch := n.firstChild(); ch != nil; ch = n.nextChild(ch) {
				if ch.IsNamed() && importedKinds.has(ch.symbol) {
					c.bindings++
				}
			}
			if mod := n.ChildByFieldName("module_name"); mod != nil && importedKinds.has(mod.symbol) {
				c.bindings--
			}
		case assignmentKinds.has(sym):
			if l := Unparen(n.ChildByFieldName("left")); l != nil && l.Kind() == "identifier" && n.ChildByFieldName("right") != nil {
				c.bindings++
			}
		}
	}
	c.bindings += c.funcs + c.classes + c.params
}

// paramCount returns the number of parameters in a parameters node.
func paramCount(n *Node) int {
	k := 0
	for c := n.firstChild(); c != nil; c = n.nextChild(c) {
		if c.IsNamed() && paramKinds.has(c.symbol) {
			k++
		}
	}
	return k
}

// indexArena holds the array a module's Bindings are taken from while index
// runs: one allocation per module, sized by indexCounts, instead of one per
// Binding (88 bytes, which a Binding alone rounds up to 96). Past its count a
// Binding is allocated alone. (Functions, Scopes and Params alone waste
// less than the rounding of an array of them, so they are not here.)
type indexArena struct {
	bindings []Binding
}

func newIndexArena(c *indexCounts) *indexArena {
	return &indexArena{bindings: make([]Binding, c.bindings)}
}

// take returns the next element of *s, or a new one when *s is used up.
func take[T any](s *[]T) *T {
	if len(*s) == 0 {
		return new(T)
	}
	p := &(*s)[0]
	*s = (*s)[1:]
	return p
}

func newScope(parent *Scope, qual string) *Scope {
	return &Scope{Parent: parent, Qual: qual}
}

// qualify returns outer.name, and name as the end of it: one string where
// the name alone would be a second (a name from TextView would keep the
// module's source alive in whatever kept it).
func qualify(outer, name string) (qual, suffix string) {
	qual = outer + "." + name
	return qual, qual[len(qual)-len(name):]
}

// qualified returns the one target outer.name of a binding and sets *name
// to the end of it (see qualify).
func qualified(outer string, name *string) []string {
	q, n := qualify(outer, *name)
	*name = n
	return []string{q}
}

// newBinding returns a new Binding of the module's index.
func (m *Module) newBinding(name string, kind BindingKind, n *Node, targets, types []string) *Binding {
	b := take(&m.arena.bindings)
	b.Kind, b.Node = kind, n
	b.set(name, targets, types)
	return b
}

func (m *Module) indexNode(n *Node) {
	s := m.ScopeAt(n)
	switch n.Kind() {
	case "function_definition":
		m.indexFunction(n, s, s.Func, s.Class)
	case "class_definition":
		m.indexClass(n, s)
	case "import_statement":
		m.indexImport(n, s)
	case "import_from_statement":
		m.indexFromImport(n, s)
	case "assignment":
		m.indexAssignment(n, s, s.Func, s.Class)
	case "with_item":
		m.indexWithItem(n, s)
	}
}

func (m *Module) indexFunction(n *Node, outer *Scope, parent *Function, cls *Class) {
	// The name is the end of the qualified name, not a string of its own.
	f := &Function{Node: n, Stmt: n, Parent: parent, Body: n.ChildByFieldName("body")}
	f.Qual, f.Name = qualify(outer.Qual, m.TextView(n.ChildByFieldName("name")))
	name := f.Name
	if cls != nil && parent == nil {
		f.Class = cls
	}
	if p := n.Parent(); p != nil && p.Kind() == "decorated_definition" {
		f.Stmt = p
		for _, d := range NamedChildren(p) {
			if d.Kind() == "decorator" && d.NamedChildCount() > 0 {
				f.Decorators = append(f.Decorators, d.NamedChild(0))
			}
		}
	}
	f.Scope = newScope(outer, f.Qual)
	f.Scope.Func = f
	m.funcSpans.add(n.StartByte(), n.EndByte(), int32(len(m.Funcs)))
	if f.Body != nil {
		m.scopeSpans.add(f.Body.StartByte(), f.Body.EndByte(), int32(len(m.Funcs)))
	}
	m.Funcs = append(m.Funcs, f)
	// The binding's one target is f.Qual itself, not an array of its own.
	outer.bind(m.newBinding(name, BindDef, f.Stmt, unsafe.Slice(&f.Qual, 1), nil))
	if cls != nil && f.Class == cls {
		if cls.Methods == nil {
			cls.Methods = map[string]*Function{}
		}
		cls.Methods[name] = f
	}
	m.indexParams(f)
}

func (m *Module) indexParams(f *Function) {
	ps := f.Node.ChildByFieldName("parameters")
	if ps == nil {
		return
	}
	if k := paramCount(ps); k > 0 {
		f.Params = make([]Param, 0, k)
	}
	kwOnly := false
	for p := ps.firstChild(); p != nil; p = ps.nextChild(p) {
		if !p.IsNamed() {
			continue
		}
		prm := Param{Node: p}
		switch p.Kind() {
		case "identifier":
			prm.Name = m.TextView(p)
		case "typed_parameter":
			for _, c := range NamedChildren(p) {
				switch c.Kind() {
				case "identifier":
					prm.Name = m.TextView(c)
				case "list_splat_pattern":
					prm.Name, prm.Kind = m.TextView(c.NamedChild(0)), ParamVarArgs
				case "dictionary_splat_pattern":
					prm.Name, prm.Kind = m.TextView(c.NamedChild(0)), ParamVarKeywords
				}
				if prm.Name != "" {
					break
				}
			}
		case "default_parameter", "typed_default_parameter":
			prm.Name = m.TextView(p.ChildByFieldName("name"))
		case "list_splat_pattern":
			prm.Name, prm.Kind = m.TextView(p.NamedChild(0)), ParamVarArgs
			kwOnly = true
		case "dictionary_splat_pattern":
			prm.Name, prm.Kind = m.TextView(p.NamedChild(0)), ParamVarKeywords
		case "keyword_separator":
			kwOnly = true
			continue
		default:
			continue
		}
		if prm.Kind == ParamPositional && kwOnly {
			prm.Kind = ParamKeywordOnly
		}
		if prm.Kind == ParamVarArgs {
			kwOnly = true
		}
		var targets, types []string
		if len(f.Params) == 0 && f.Class != nil && !isStaticMethod(m, f) {
			targets = unsafe.Slice(&f.Class.Qual, 1)
		}
		if ann := prm.Annotation(); ann != nil {
			types = m.annotationTypes(f.Scope.Parent, ann)
		}
		f.Params = append(f.Params, prm)
		f.Scope.bind(m.newBinding(prm.Name, BindParam, p, targets, types))
	}
}

func isStaticMethod(m *Module, f *Function) bool {
	for _, d := range f.Decorators {
		if m.TextView(d) == "staticmethod" {
			return true
		}
	}
	return false
}

// annotationTypes resolves an annotation to the names it mentions: "Context",
// "Context | None", "Optional[Context]", "Context[ServerSession, None]" and
// string annotations all give the resolved Context.
func (m *Module) annotationTypes(s *Scope, ann *Node) []string {
	var out []string
	Walk(ann, func(c *Node) bool {
		switch c.Kind() {
		case "identifier", "attribute":
			if p := c.Parent(); p != nil && p.Kind() == "attribute" {
				return true
			}
			out = appendUnique(out, m.ResolveIn(s, c)...)
			return false
		case "string":
			// "Context": a forward reference; parse the dotted name inside.
			txt := strings.Trim(m.TextView(c), `"'`)
			if txt != "" && !strings.ContainsAny(txt, " []|") {
				head, rest, _ := strings.Cut(txt, ".")
				for _, b := range s.Lookup(head) {
					for _, t := range b.Targets() {
						if rest != "" {
							t += "." + rest
						}
						out = appendUnique(out, t)
					}
				}
			}
			return false
		}
		return true
	})
	return out
}

func (m *Module) indexClass(n *Node, outer *Scope) {
	c := &Class{Node: n}
	c.Qual, c.Name = qualify(outer.Qual, m.TextView(n.ChildByFieldName("name")))
	name := c.Name
	if p := n.Parent(); p != nil && p.Kind() == "decorated_definition" {
		for _, d := range NamedChildren(p) {
			if d.Kind() == "decorator" && d.NamedChildCount() > 0 {
				c.Decorators = append(c.Decorators, d.NamedChild(0))
			}
		}
	}
	if sup := n.ChildByFieldName("superclasses"); sup != nil {
		for _, b := range NamedChildren(sup) {
			if b.Kind() != "keyword_argument" {
				if v := Unparen(b.ChildByFieldName("value")); b.Kind() == "subscript" && v != nil && (v.Kind() == "identifier" || v.Kind() == "attribute") {
					b = v // class S(FastMCP[LifespanT]) subclasses FastMCP
				}
				c.Bases = append(c.Bases, b)
			}
		}
	}
	c.Scope = newScope(outer, c.Qual)
	c.Scope.Class = c
	if body := n.ChildByFieldName("body"); body != nil {
		m.scopeSpans.add(body.StartByte(), body.EndByte(), ^int32(len(m.Classes)))
	}
	m.Classes = append(m.Classes, c)
	outer.bind(m.newBinding(name, BindDef, n, unsafe.Slice(&c.Qual, 1), nil))
}

// addAttr records a binding of attribute name of the class.
func (c *Class) addAttr(name string, b *Binding) {
	if c.Attrs == nil {
		c.Attrs = map[string][]*Binding{}
	}
	c.Attrs[name] = append(c.Attrs[name], b)
}

func (m *Module) indexImport(n *Node, s *Scope) {
	for _, c := range NamedChildren(n) {
		switch c.Kind() {
		case "dotted_name":
			full := DottedName(m, c)
			head, _, _ := strings.Cut(full, ".")
			s.bind(m.newBinding(head, BindImport, n, []string{head}, nil))
		case "aliased_import":
			full := DottedName(m, c.ChildByFieldName("name"))
			alias := m.Text(c.ChildByFieldName("alias"))
			s.bind(m.newBinding(alias, BindImport, n, []string{full}, nil))
		}
	}
}

func (m *Module) indexFromImport(n *Node, s *Scope) {
	modNode := n.ChildByFieldName("module_name")
	base := m.fromModule(modNode)
	if base == "" {
		return
	}
	for _, c := range NamedChildren(n) {
		if c.Id() == modNode.Id() {
			continue
		}
		switch c.Kind() {
		case "dotted_name":
			name := DottedName(m, c)
			s.bind(m.newBinding(name, BindImport, n, []string{base + "." + name}, nil))
		case "aliased_import":
			name := DottedName(m, c.ChildByFieldName("name"))
			alias := m.Text(c.ChildByFieldName("alias"))
			s.bind(m.newBinding(alias, BindImport, n, []string{base + "." + name}, nil))
		case "wildcard_import":
			if s == m.Scope { // Python allows it at module level only
				m.Stars = append(m.Stars, base)
			}
		}
	}
}

// fromModule resolves the module of a from-import, relative ones included.
func (m *Module) fromModule(n *Node) string {
	if n == nil {
		return ""
	}
	if n.Kind() == "dotted_name" {
		return DottedName(m, n)
	}
	// relative_import: import_prefix ("." / "..") and an optional dotted_name
	dots, rest := 0, ""
	for _, c := range Children(n) {
		switch c.Kind() {
		case "import_prefix":
			dots = strings.Count(m.TextView(c), ".")
		case "dotted_name":
			rest = DottedName(m, c)
		}
	}
	return RelativeModule(m.Name, m.IsPackage(), dots, rest)
}

// RelativeModule resolves "from <dots><rest> import ..." written in module
// name (a package's __init__ when isPackage).
func RelativeModule(name string, isPackage bool, dots int, rest string) string {
	parts := strings.Split(name, ".")
	if name == "" {
		parts = nil
	}
	drop := dots
	if isPackage {
		drop--
	}
	if drop > len(parts) {
		drop = len(parts)
	}
	base := strings.Join(parts[:len(parts)-drop], ".")
	switch {
	case base == "":
		return rest
	case rest == "":
		return base
	}
	return base + "." + rest
}

// IsPackage reports whether the module is a package's __init__.py.
func (m *Module) IsPackage() bool {
	return strings.HasSuffix(m.Path, "/__init__.py") || m.Path == "__init__.py" ||
		strings.HasSuffix(m.Path, "/__init__.pyi")
}

func (m *Module) indexAssignment(n *Node, s *Scope, fn *Function, cls *Class) {
	left, right := Unparen(n.ChildByFieldName("left")), AssignedValue(n)
	if left == nil {
		return
	}
	switch left.Kind() {
	case "identifier":
		if right == nil { // annotation only: "x: int"
			return
		}
		// The name of a value is the end of its target (see qualify).
		name := m.TextView(left)
		kind := BindValue
		var targets, types []string
		switch right.Kind() {
		case "identifier", "attribute":
			kind = BindAlias
			targets = m.ResolveIn(s, right)
			types = m.typesIn(s, right)
		case "conditional_expression":
			// cls = Compat if flag else FastMCP: an alias of either name.
			if alts := m.conditionalNames(s, right); alts != nil {
				kind = BindAlias
				targets = alts
				break
			}
			targets = qualified(s.Qual, &name)
		case "call":
			targets = qualified(s.Qual, &name)
			types = m.ResolveIn(s, Constructor(right))
		case "await":
			// x = await factory(): the type is what the factory returns;
			// record the factory, callers follow its return annotation.
			targets = qualified(s.Qual, &name)
			if c := Unparen(right.NamedChild(0)); c != nil && c.Kind() == "call" {
				types = m.ResolveIn(s, Constructor(c))
			}
		default:
			targets = qualified(s.Qual, &name)
		}
		b := m.newBinding(name, kind, n, targets, types)
		s.bind(b)
		if cls != nil && fn == nil {
			cls.addAttr(name, b)
		}
	case "pattern_list", "tuple_pattern", "list_pattern":
		// a, b = f(): each name is a value of the function (or module);
		// Module.Unpacked says which element of the value it takes.
		if right == nil {
			return
		}
		for _, c := range NamedChildren(left) {
			if c.Kind() != "identifier" {
				continue
			}
			name := m.TextView(c)
			b := m.newBinding(name, BindValue, n, qualified(s.Qual, &name), nil)
			s.bind(b)
			if cls != nil && fn == nil {
				cls.addAttr(name, b)
			}
		}
	case "attribute":
		// self.x = value inside a method: an attribute of the class.
		obj := Unparen(left.ChildByFieldName("object"))
		if fn == nil || obj.Kind() != "identifier" || right == nil {
			return
		}
		c := m.selfClass(s, m.TextView(obj))
		if c == nil {
			return
		}
		name := m.TextView(left.ChildByFieldName("attribute"))
		targets := qualified(c.Qual, &name)
		var types []string
		if right.Kind() == "call" {
			types = m.ResolveIn(s, Constructor(right))
		} else {
			types = m.typesIn(s, right)
		}
		if ann := n.ChildByFieldName("type"); ann != nil {
			// self.x: Client | None = None
			types = appendUnique(types, m.annotationTypes(s, ann)...)
		}
		c.addAttr(name, m.newBinding(name, BindValue, n, targets, types))
	}
}

// conditionalNames returns what "a if cond else b" can name when both
// branches are names or attribute chains (a None branch names nothing), or
// nil when a branch is another expression.
func (m *Module) conditionalNames(s *Scope, n *Node) []string {
	var out []string
	for i, c := range NamedChildren(n) {
		c = Unparen(c)
		switch {
		case i == 1: // the condition
		case c == nil:
			return nil
		case c.Kind() == "none":
		case c.Kind() == "identifier" || c.Kind() == "attribute":
			qs := m.ResolveIn(s, c)
			if len(qs) == 0 {
				return nil
			}
			out = appendUnique(out, qs...)
		case c.Kind() == "conditional_expression":
			qs := m.conditionalNames(s, c)
			if qs == nil {
				return nil
			}
			out = appendUnique(out, qs...)
		default:
			return nil
		}
	}
	return out
}

// typesIn returns the value types of a name in scope s (see TypesOf).
func (m *Module) typesIn(s *Scope, n *Node) []string {
	if n.Kind() != "identifier" {
		return nil
	}
	var out []string
	for _, b := range s.Lookup(m.TextView(n)) {
		out = appendUnique(out, b.Types()...)
	}
	return out
}

func (m *Module) indexWithItem(n *Node, s *Scope) {
	v := n.ChildByFieldName("value")
	if v == nil || v.Kind() != "as_pattern" {
		return
	}
	expr := Unparen(v.NamedChild(0))
	if expr != nil && expr.Kind() == "await" {
		// async with await factory() as x: as for x = await factory(),
		// record the factory.
		expr = Unparen(expr.NamedChild(0))
	}
	alias := v.ChildByFieldName("alias")
	if expr == nil || alias == nil || expr.Kind() != "call" {
		return
	}
	target := alias
	if target.NamedChildCount() == 1 {
		target = target.NamedChild(0)
	}
	if target.Kind() != "identifier" {
		return
	}
	name := m.TextView(target)
	targets := qualified(s.Qual, &name)
	s.bind(m.newBinding(name, BindValue, n, targets, m.ResolveIn(s, Constructor(expr))))
}

// ImportTargets returns the qualified names an import statement binds
// (relative imports resolved).
func (m *Module) ImportTargets(n *Node) []string {
	var out []string
	switch n.Kind() {
	case "import_statement":
		for _, c := range NamedChildren(n) {
			switch c.Kind() {
			case "dotted_name":
				out = append(out, DottedName(m, c))
			case "aliased_import":
				out = append(out, DottedName(m, c.ChildByFieldName("name")))
			}
		}
	case "import_from_statement":
		modNode := n.ChildByFieldName("module_name")
		base := m.fromModule(modNode)
		if base == "" {
			return nil
		}
		out = append(out, base)
		for _, c := range NamedChildren(n) {
			if c.Id() == modNode.Id() {
				continue
			}
			switch c.Kind() {
			case "dotted_name":
				out = append(out, base+"."+DottedName(m, c))
			case "aliased_import":
				out = append(out, base+"."+DottedName(m, c.ChildByFieldName("name")))
			}
		}
	}
	return out
}
