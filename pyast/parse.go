// Package pyast parses Python source with tree-sitter and answers the
// questions every analysis asks of it: which qualified name a call or
// decorator refers to (through imports, aliases and assignments), which
// functions a module defines, and where things are in the file.
//
// It knows nothing of MCP or of rules. A file is parsed by tree-sitter and
// its syntax tree copied into Go memory at once (see tree.go): the C tree
// never outlives Parse, and nodes are plain Go values the garbage collector
// reclaims with their Module.
package pyast

import (
	"bytes"
	"fmt"
	"sync"
	"unsafe"
)

var (
	utf8BOM     = []byte{0xEF, 0xBB, 0xBF}
	errNoParser = fmt.Errorf("tree-sitter returned no tree")
)

// Module is one parsed Python file.
type Module struct {
	Path  string // the path the file was read from (slash-separated)
	Name  string // dotted module name, set by the caller that knows the package layout
	Src   []byte // the whole file, BOM included; node offsets index into it
	Lines *LineIndex

	tree  []Node // the syntax tree, in preorder (see Node)
	steps int64  // parser steps the parse took (in hundreds)
	Root  *Node

	Scope   *Scope      // module-level bindings
	Stars   []string    // the modules of its module-level "from X import *", in order (relative ones resolved)
	Funcs   []*Function // every def and async def, in source order, nested ones too
	Classes []*Class

	imports imported // ImportedAs's index, built on first use
	broken  memoBool // HasErrors's answer, found on first use

	funcSpans  spans // function_definition ranges
	scopeSpans spans // function and class body ranges
	nodes      nodeIndex
	arena      *indexArena // while index runs
}

// Parse parses src as module name (dotted; "" when unknown), read from path. A syntax error is not an error here: the tree then holds
// ERROR nodes (see HasErrors); only a failure to produce a tree is.
func Parse(path, name string, src []byte) (*Module, error) {
	return ParseLimits(path, name, src, DefaultLimits)
}

// ParseLimits is Parse with limits of its own; past them it returns a
// *TooComplexError (errors.As) and no Module.
func ParseLimits(path, name string, src []byte, lim Limits) (*Module, error) {
	body := src
	if bytes.HasPrefix(body, utf8BOM) {
		// tree-sitter would read the BOM as a stray character; parse the rest
		// and keep offsets valid by parsing a copy with the BOM blanked out.
		body = append([]byte("   "), src[3:]...)
	}
	if i := bytes.IndexByte(body, '\r'); i >= 0 && hasLoneCR(body[i:]) {
		// CPython ends a line at a lone "\r" (old Mac style); tree-sitter does
		// not. Parse a copy with each lone "\r" read as "\n": same length, so
		// every offset stays valid in Src.
		if len(body) > 0 && &body[0] == &src[0] {
			body = append([]byte(nil), body...)
		}
		for j := i; j < len(body); j++ {
			if body[j] == '\r' && (j+1 == len(body) || body[j+1] != '\n') {
				body[j] = '\n'
			}
		}
	}
	t, steps, err := parseTree(body, lim)
	if err != nil {
		if _, ok := err.(*TooComplexError); ok {
			return nil, err
		}
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	tree := packTree(t)
	putRaw(t)
	m := &Module{Path: path, Name: name, Src: src, Lines: NewLineIndex(src), tree: tree, steps: steps}
	m.Root = &tree[0]
	m.index()
	return m, nil
}

// hasLoneCR reports whether b has a "\r" not followed by "\n".
func hasLoneCR(b []byte) bool {
	for i, c := range b {
		if c == '\r' && (i+1 == len(b) || b[i+1] != '\n') {
			return true
		}
	}
	return false
}

// ParseSteps returns the tree-sitter parser steps parsing the file took
// (counted by hundreds), and NodeCount its syntax tree's nodes: what the
// parse Limits bound. For a file the fast path parsed (fastparse.go) it is
// the bound on tree-sitter's steps the fast path checked against the budget
// (see fastStepsPerNode), at least what tree-sitter would have taken.
func (m *Module) ParseSteps() int64 { return m.steps }

// NodeCount returns the number of nodes of the syntax tree.
func (m *Module) NodeCount() int { return len(m.tree) }

// HasErrors reports whether the file has syntax errors: what tree-sitter
// finds, Python 2 syntax and misplaced future imports (grammarErrors), and
// a byte order mark where CPython rejects one (StrayBOM). Not the encoding
// errors of SyntaxErrors: the tree of such a file is sound. The answer is
// found once per module (the scan for grammar errors goes through the whole
// tree, and every rule's fixes ask).
func (m *Module) HasErrors() bool {
	m.broken.once.Do(func() {
		m.broken.v = m.Root.HasError() || m.StrayBOM() >= 0 || len(m.grammarErrors()) > 0
	})
	return m.broken.v
}

// memoBool is a bool found once, by whichever goroutine asks first.
type memoBool struct {
	once sync.Once
	v    bool
}

// FirstError returns the first ERROR or MISSING node, or nil.
func (m *Module) FirstError() *Node {
	var found *Node
	Walk(m.Root, func(n *Node) bool {
		if found != nil {
			return false
		}
		if n.IsError() || n.IsMissing() {
			found = n
			return false
		}
		return n.HasError()
	})
	return found
}

// Text returns the source text of n.
func (m *Module) Text(n *Node) string {
	if n == nil {
		return ""
	}
	return string(m.Src[n.StartByte():n.EndByte()])
}

// TextView returns the source text of n without copying it: a string that
// shares the module's Src (which nothing writes to once parsed). For
// comparisons and map lookups; a string kept beyond them would keep the
// whole file's bytes alive, which Text's copy does not.
func (m *Module) TextView(n *Node) string {
	if n == nil {
		return ""
	}
	end := n.endOf()
	if end == n.start {
		return ""
	}
	return unsafe.String(&m.Src[n.start], int(end-n.start))
}

// Pos returns the position of byte offset off.
func (m *Module) Pos(off int) Position { return m.Lines.Position(off) }
