package pystyle

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Insertion is text to insert at a byte offset.
type Insertion struct {
	At   int
	Text string
}

// PlaceImport returns where the import statement line (for example "import
// anyio", which imp describes) goes so that isort and ruff's I rules find
// the imports still sorted, and the text to insert there (line endings as
// the file's).
//
// With fn nil the line goes among the module's top-level imports, after the
// header CPython and the tools require first (a UTF-8 BOM, the shebang and
// encoding comments, the module docstring, `from __future__` imports): into
// the first block of consecutive imports that has imp's section (else the
// first block), at its sorted position within the section, or as a new
// section (blank lines around it) between the sections before and after
// it. With no top-level import, it goes before the first statement after
// the header, followed by the blank lines isort puts after imports (two
// before a def or class, one otherwise).
//
// With fn set the line is a local import of fn: it goes among the imports
// that open fn's body (after its docstring), sorted the same way, or first
// in the body when there are none. ok is false when fn's body shares the
// def's line.
func (s Style) PlaceImport(m *pyast.Module, imp Import, line string, fn *pyast.Function, firstParty func(string) bool) (ins Insertion, ok bool) {
	nl := Newline(m.Src)
	var stmts []*pyast.Node
	indent := ""
	if fn != nil {
		if fn.Body == nil {
			return Insertion{}, false
		}
		stmts = codeStmts(fn.Body)
		if len(stmts) == 0 {
			return Insertion{}, false
		}
		ind, own := LineIndent(m, stmts[0])
		if !own {
			return Insertion{}, false
		}
		indent = ind
	} else {
		stmts = pyast.NamedChildren(m.Root)
	}
	i := 0
	if fn == nil {
		i = HeaderEnd(stmts)
	}
	body := stmts[i:]
	blocks := importBlocks(body)
	if fn != nil && len(blocks) > 0 && (len(body) == 0 || !blocks[0][0].Equals(body[0])) {
		blocks = nil // only the imports that open the body count
	} else if fn != nil && len(blocks) > 1 {
		blocks = blocks[:1]
	}
	sec := s.SectionOf(imp, firstParty)
	var blk []entry
	for _, b := range blocks {
		es := s.entries(m, b, firstParty)
		for _, e := range es {
			if e.sec == sec {
				blk = es
				break
			}
		}
		if blk != nil {
			break
		}
	}
	if blk == nil && len(blocks) > 0 {
		blk = s.entries(m, blocks[0], firstParty)
	}
	line = indent + line
	if len(blk) == 0 {
		return s.beforeCode(m, stmts, i, line, indent, nl), true
	}
	// The first entry that sorts after imp.
	after := -1
	for k, e := range blk {
		if e.sec > sec || e.sec == sec && s.Less(imp, e.imp) {
			after = k
			break
		}
	}
	lastSame := -1 // the last entry of imp's section before that one
	end := len(blk)
	if after >= 0 {
		end = after
	}
	for k := 0; k < end; k++ {
		if blk[k].sec == sec {
			lastSame = k
		}
	}
	between := strings.Repeat(nl, s.Isort.LinesBetweenTypes)
	switch {
	case after >= 0 && blk[after].sec == sec:
		e := blk[after]
		if s.Isort.LinesBetweenTypes > 0 && !s.Isort.ForceSortWithinSections && !imp.From && e.imp.From {
			if lastSame >= 0 { // after the last straight import, before the blank lines
				return Insertion{At: lineAfter(m.Src, blk[lastSame].node), Text: line + nl}, true
			}
			return Insertion{At: s.lineBefore(m, blk, after, lastSame < 0), Text: line + nl + between}, true
		}
		return Insertion{At: s.lineBefore(m, blk, after, lastSame < 0), Text: line + nl}, true
	case lastSame >= 0:
		return Insertion{At: lineAfter(m.Src, blk[lastSame].node), Text: line + nl}, true
	case after >= 0: // a new section before the entry's
		return Insertion{At: s.lineBefore(m, blk, after, true), Text: line + nl + nl}, true
	}
	// A new section after the block.
	at := lineAfter(m.Src, blk[len(blk)-1].node)
	lead, trail := nl, nl
	if at == len(m.Src) && !lineStarts(m.Src, at) {
		lead = nl + nl
	}
	if rest := m.Src[at:]; len(rest) > 0 && rest[0] != '\n' && rest[0] != '\r' && fn == nil {
		trail = nl + nl // code right after the block: one blank line after the imports
	}
	return Insertion{At: at, Text: lead + line + trail}, true
}

// entry is one import of a block.
type entry struct {
	node *pyast.Node
	imp  Import
	sec  Section
}

func (s Style) entries(m *pyast.Module, block []*pyast.Node, firstParty func(string) bool) []entry {
	var out []entry
	for _, st := range block {
		if st.Kind() == "comment" {
			continue
		}
		imp := ImportOf(m, st)
		out = append(out, entry{node: st, imp: imp, sec: s.SectionOf(imp, firstParty)})
	}
	return out
}

// ImportOf describes an import statement node for the sort: its first
// module, whether it is a from-import, and its relative level.
func ImportOf(m *pyast.Module, st *pyast.Node) Import {
	switch st.Kind() {
	case "import_statement":
		for _, c := range pyast.NamedChildren(st) {
			switch c.Kind() {
			case "dotted_name":
				return Import{Module: pyast.DottedName(m, c)}
			case "aliased_import":
				return Import{Module: pyast.DottedName(m, c.ChildByFieldName("name"))}
			}
		}
	case "import_from_statement", "future_import_statement":
		mod := st.ChildByFieldName("module_name")
		if st.Kind() == "future_import_statement" {
			return Import{Module: "__future__", From: true}
		}
		if mod == nil {
			return Import{From: true}
		}
		if mod.Kind() == "relative_import" {
			imp := Import{From: true}
			for _, c := range pyast.Children(mod) {
				switch c.Kind() {
				case "import_prefix":
					imp.Level = strings.Count(m.Text(c), ".")
				case "dotted_name":
					imp.Module = pyast.DottedName(m, c)
				}
			}
			return imp
		}
		return Import{Module: pyast.DottedName(m, mod), From: true}
	}
	return Import{}
}

// importBlocks splits statements into runs of consecutive imports (comments
// between imports stay in the run).
func importBlocks(stmts []*pyast.Node) [][]*pyast.Node {
	var out [][]*pyast.Node
	var cur []*pyast.Node
	flush := func() {
		for len(cur) > 0 && cur[len(cur)-1].Kind() == "comment" {
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for _, st := range stmts {
		switch st.Kind() {
		case "import_statement", "import_from_statement":
			cur = append(cur, st)
		case "comment":
			if len(cur) > 0 {
				cur = append(cur, st)
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

// lineBefore returns where a line inserted before entry k of blk starts:
// the start of its line, or, when the entry is not the first of its
// section (first is false) and comment lines sit right above it, the start
// of those comments, which belong to it. A comment above the first entry of
// a section may head the section and stays above the new line.
func (s Style) lineBefore(m *pyast.Module, blk []entry, k int, first bool) int {
	at := LineStart(m.Src, int(blk[k].node.StartByte()))
	if first || k == 0 || blk[k-1].sec != blk[k].sec {
		return at
	}
	prevEnd := lineAfter(m.Src, blk[k-1].node)
	for at > prevEnd {
		ls := LineStart(m.Src, at-1)
		if !strings.HasPrefix(strings.TrimSpace(string(m.Src[ls:at])), "#") {
			break
		}
		at = ls
	}
	return at
}

// HeaderEnd returns the index of the first of a module's top-level
// statements that is not part of the header CPython and the tools require
// first: comments (the shebang and encoding lines among them), the module
// docstring, `from __future__` imports.
func HeaderEnd(stmts []*pyast.Node) int {
	sawCode := false
	for i, st := range stmts {
		switch {
		case st.Kind() == "comment":
			continue
		case !sawCode && isDocstring(st):
			sawCode = true
			continue
		case st.Kind() == "future_import_statement":
			sawCode = true
			continue
		}
		return i
	}
	return len(stmts)
}

// beforeCode inserts line before stmts[i] (the first statement after the
// header), or at the end of the file.
func (s Style) beforeCode(m *pyast.Module, stmts []*pyast.Node, i int, line, indent, nl string) Insertion {
	if i >= len(stmts) {
		at := len(m.Src)
		lead := ""
		if !lineStarts(m.Src, at) {
			lead = nl
		}
		return Insertion{At: at, Text: lead + line + nl}
	}
	st := stmts[i]
	at := LineStart(m.Src, int(st.StartByte()))
	lead := ""
	if i > 0 && stmts[i-1].Kind() == "future_import_statement" && LineStart(m.Src, int(stmts[i-1].EndByte())) == LineStart(m.Src, at-1) {
		lead = nl // a blank line after the __future__ section
	}
	trail := nl
	if indent == "" {
		trail = nl + nl
		switch st.Kind() {
		case "function_definition", "class_definition", "decorated_definition":
			trail = nl + nl + nl
		}
	}
	return Insertion{At: at, Text: lead + line + trail}
}

// codeStmts returns a block's statements without its docstring.
func codeStmts(body *pyast.Node) []*pyast.Node {
	var out []*pyast.Node
	for _, st := range pyast.NamedChildren(body) {
		if len(out) == 0 && st.Kind() != "comment" && isDocstring(st) {
			continue
		}
		out = append(out, st)
	}
	return out
}

func isDocstring(st *pyast.Node) bool {
	return st.Kind() == "expression_statement" && st.NamedChildCount() == 1 && st.NamedChild(0).Kind() == "string"
}
