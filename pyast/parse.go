// Package pyast parses Python source with tree-sitter and answers the
// questions every analysis asks of it: which qualified name a call or
// decorator refers to (through imports, aliases and assignments), which
// functions a module defines, and where things are in the file.
//
// It knows nothing of MCP or of rules. A Module owns a tree-sitter Tree, which
// has no finalizer: call Close when done, and never use a Node of a closed
// Module.
package pyast

import (
	"bytes"
	"fmt"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// Node is a tree-sitter node of a Module's tree.
type Node = sitter.Node

var (
	language    = sitter.NewLanguage(python.Language())
	parserPool  = sync.Pool{New: func() any { p := sitter.NewParser(); _ = p.SetLanguage(language); return p }}
	utf8BOM     = []byte{0xEF, 0xBB, 0xBF}
	errNoParser = fmt.Errorf("tree-sitter returned no tree")
)

func mustQuery(src string) *sitter.Query {
	q, err := sitter.NewQuery(language, src)
	if err != nil {
		panic(fmt.Sprintf("pyast: bad query: %v", err))
	}
	return q
}

// Language returns the Python grammar, for callers that build queries.
func Language() *sitter.Language { return language }

// Module is one parsed Python file.
type Module struct {
	Path  string // the path the file was read from (slash-separated)
	Name  string // dotted module name, set by the caller that knows the package layout
	Src   []byte // the whole file, BOM included; node offsets index into it
	Lines *LineIndex

	tree *sitter.Tree
	Root *Node

	Scope   *Scope      // module-level bindings
	Funcs   []*Function // every def and async def, in source order, nested ones too
	Classes []*Class

	funcByStart  map[uint]*Function
	classByStart map[uint]*Class
	funcSpans    spans // function_definition ranges
	scopeSpans   spans // function and class body ranges
	nodes        nodeIndex
}

// Parse parses src as module name (dotted; "" when unknown), read from path. A syntax error is not an error here: the tree then holds
// ERROR nodes (see HasErrors); only a failure to produce a tree is.
func Parse(path, name string, src []byte) (*Module, error) {
	p := parserPool.Get().(*sitter.Parser)
	defer parserPool.Put(p)
	body := src
	if bytes.HasPrefix(body, utf8BOM) {
		// tree-sitter would read the BOM as a stray character; parse the rest
		// and keep offsets valid by parsing a copy with the BOM blanked out.
		body = append([]byte("   "), src[3:]...)
	}
	tree := p.ParseWithOptions(chunks(body), nil, nil)
	if tree == nil {
		return nil, fmt.Errorf("parse %s: %w", path, errNoParser)
	}
	m := &Module{Path: path, Name: name, Src: src, Lines: NewLineIndex(src), tree: tree}
	m.Root = tree.RootNode()
	m.index()
	return m, nil
}

// readChunk bounds what the parser's read callback returns. The binding
// copies each returned slice into a new C string, and tree-sitter calls the
// callback again whenever its lexer moves, so returning the rest of the file
// (as Parser.Parse does) makes parsing quadratic in the file size.
var readChunk = 4096

func chunks(text []byte) func(int, sitter.Point) []byte {
	return func(i int, _ sitter.Point) []byte {
		if i >= len(text) {
			return nil
		}
		end := i + readChunk
		if end > len(text) {
			end = len(text)
		}
		return text[i:end]
	}
}

// Close releases the syntax tree. The Module's nodes must not be used after.
func (m *Module) Close() {
	if m.tree != nil {
		m.tree.Close()
		m.tree = nil
	}
}

// HasErrors reports whether the file has syntax errors.
func (m *Module) HasErrors() bool { return m.Root.HasError() }

// FirstError returns the first ERROR or MISSING node, or nil.
func (m *Module) FirstError() *Node {
	var found *Node
	Walk(m.Root, func(n *Node) bool {
		if found != nil {
			return false
		}
		if n.IsError() || n.IsMissing() {
			c := *n
			found = &c
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

// Pos returns the position of byte offset off.
func (m *Module) Pos(off int) Position { return m.Lines.Position(off) }
