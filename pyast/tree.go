package pyast

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

// The subset of tree-sitter's public API (tree_sitter/api.h) used here. The
// symbols are compiled into the go-tree-sitter package, which this package
// links against; its header is not on this package's include path.
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;
typedef struct { uint32_t row, column; } TSPoint;
typedef struct {
	void *payload;
	const char *(*read)(void *payload, uint32_t byte_index, TSPoint position, uint32_t *bytes_read);
	int encoding;
	void *decode;
} TSInput;
typedef struct { void *payload; uint32_t current_byte_offset; bool has_error; } TSParseState;
typedef struct { void *payload; bool (*progress_callback)(TSParseState *state); } TSParseOptions;

extern TSParser *ts_parser_new(void);
extern bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
extern TSTree *ts_parser_parse_with_options(TSParser *self, const TSTree *old_tree, TSInput input, TSParseOptions options);
extern void ts_parser_delete(TSParser *self);
extern void ts_tree_delete(TSTree *self);
extern TSNode ts_tree_root_node(const TSTree *self);
extern uint32_t ts_node_descendant_count(TSNode self);
extern uint16_t ts_node_symbol(TSNode self);
extern uint32_t ts_node_start_byte(TSNode self);
extern uint32_t ts_node_end_byte(TSNode self);
extern bool ts_node_is_named(TSNode self);
extern bool ts_node_is_missing(TSNode self);
extern bool ts_node_is_error(TSNode self);
extern bool ts_node_has_error(TSNode self);
extern TSTreeCursor ts_tree_cursor_new(TSNode node);
extern void ts_tree_cursor_delete(TSTreeCursor *self);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
extern uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
extern uint32_t ts_language_symbol_count(const TSLanguage *self);
extern const char *ts_language_symbol_name(const TSLanguage *self, uint16_t symbol);
extern uint32_t ts_language_field_count(const TSLanguage *self);
extern const char *ts_language_field_name_for_id(const TSLanguage *self, uint16_t id);

// One node of a copied tree, laid out as the Go type Node. Nodes are stored
// in preorder (document order), so the descendants of node i are exactly the
// nodes i+1 .. i+size-1, and every link is an offset within the array.
typedef struct {
	uint32_t start, end;   // byte range
	uint32_t size;         // 1 + the number of descendants
	uint32_t up;           // offset back to the parent (i - parent), 0 for the root
	uint16_t symbol;       // alias-aware public symbol
	uint8_t field;         // field id under the parent, 0 for none
	uint8_t flags;
} mcplint_node;

enum { NODE_NAMED = 1, NODE_ERROR = 2, NODE_MISSING = 4, NODE_HAS_ERROR = 8 };

static TSParser *mcplint_parser(const TSLanguage *lang) {
	TSParser *p = ts_parser_new();
	ts_parser_set_language(p, lang);
	return p;
}

// The input and the step count of one parse. tree-sitter calls the progress
// callback once every 100 parser operations (shifts, reductions, error
// recovery attempts) with the offset it has read up to; the parse stops when
// the count passes base + per_byte_milli / 1000 × the furthest offset read
// (base 0: no step limit).
//
// Error recovery is not linear in operations: each recovery can rebuild the
// error node that holds every token skipped so far, so 50,000 broken lines
// cost minutes in a few hundred thousand operations, and tree-sitter's
// public API shows nothing of that work. The thread's CPU time, read every
// 1,600 operations, is the backstop for it (cpu_budget_ns, 0 for none).
typedef struct {
	const char *src;
	uint32_t len;
	uint64_t steps, base, per_byte_milli;
	uint32_t offset;
	uint64_t cpu_start, cpu_budget;
	bool cpu_out, steps_out;
} mcplint_input;

static const char *mcplint_read(void *payload, uint32_t byte, TSPoint pos, uint32_t *n) {
	mcplint_input *in = payload;
	if (byte >= in->len) {
		*n = 0;
		return "";
	}
	*n = in->len - byte;
	return in->src + byte;
}

static uint64_t mcplint_thread_cpu(void) {
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) {
		return 0;
	}
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool mcplint_progress(TSParseState *st) {
	mcplint_input *in = st->payload;
	in->steps += 100;
	if (st->current_byte_offset > in->offset) {
		in->offset = st->current_byte_offset;
	}
	if (in->cpu_budget && in->steps % 1600 == 0 && mcplint_thread_cpu() - in->cpu_start > in->cpu_budget) {
		in->cpu_out = true;
		return true;
	}
	if (in->base && in->steps * 1000 > in->base * 1000 + in->per_byte_milli * (uint64_t)in->offset) {
		in->steps_out = true;
		return true;
	}
	return false;
}

// mcplint_parse parses src (in->len bytes; passed apart from in, which Go
// memory may not point into) and returns the tree and its node count, or
// NULL when the parse passed its step budget (in->steps_out) or took more
// than in->cpu_budget ns of the thread's CPU time (in->cpu_out).
static TSTree *mcplint_parse(TSParser *p, mcplint_input *in, const char *src, uint32_t *count) {
	in->src = src;
	in->cpu_start = mcplint_thread_cpu();
	TSInput input = {in, mcplint_read, 0, NULL}; // TSInputEncodingUTF8
	TSParseOptions opts = {in, mcplint_progress};
	TSTree *t = ts_parser_parse_with_options(p, NULL, input, opts);
	*count = t ? ts_node_descendant_count(ts_tree_root_node(t)) : 0;
	return t;
}

static void mcplint_fill(mcplint_node *out, TSTreeCursor *c, uint32_t i, int64_t parent) {
	TSNode n = ts_tree_cursor_current_node(c);
	mcplint_node *o = &out[i];
	o->start = ts_node_start_byte(n);
	o->end = ts_node_end_byte(n);
	o->size = 1;
	o->up = parent < 0 ? 0 : i - (uint32_t)parent;
	o->symbol = ts_node_symbol(n);
	o->field = parent < 0 ? 0 : (uint8_t)ts_tree_cursor_current_field_id(c);
	uint8_t f = 0;
	if (ts_node_is_named(n)) f |= NODE_NAMED;
	if (ts_node_is_error(n)) f |= NODE_ERROR;
	if (ts_node_is_missing(n)) f |= NODE_MISSING;
	if (ts_node_has_error(n)) f |= NODE_HAS_ERROR;
	o->flags = f;
}

// mcplint_copy writes the tree's nodes in preorder into out (count of them,
// as mcplint_parse returned), deletes the tree and returns its depth (the
// root alone: 0).
static uint32_t mcplint_copy(TSTree *t, mcplint_node *out, uint32_t count) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
	uint32_t n = 0, cur = 0, depth = 0, deepest = 0;
	mcplint_fill(out, &c, n++, -1);
	for (;;) {
		if (n < count && ts_tree_cursor_goto_first_child(&c)) {
			mcplint_fill(out, &c, n, cur);
			cur = n++;
			if (++depth > deepest) deepest = depth;
			continue;
		}
		for (;;) {
			out[cur].size = n - cur;
			if (out[cur].up == 0) {
				goto done;
			}
			uint32_t parent = cur - out[cur].up;
			if (n < count && ts_tree_cursor_goto_next_sibling(&c)) {
				mcplint_fill(out, &c, n, parent);
				cur = n++;
				break;
			}
			if (!ts_tree_cursor_goto_parent(&c)) {
				goto done;
			}
			cur = parent;
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	ts_tree_delete(t);
	return deepest;
}
*/
import "C"

import (
	"sync"
	"unsafe"

	// The tree-sitter runtime: this package calls its C API directly.
	_ "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

const (
	flagNamed    = 1
	flagError    = 2
	flagMissing  = 4
	flagHasError = 8
)

var (
	lang       = (*C.TSLanguage)(python.Language())
	parserPool = sync.Pool{New: func() any { return C.mcplint_parser(lang) }}

	// symbolNames maps a symbol id to its node kind; fieldIDs maps a field
	// name to its id. Both are built once from the grammar, before the
	// package's other variables (kind sets) that read them.
	symbolNames = grammarSymbols()
	fieldIDs    = grammarFields()
)

const errorSymbol = 0xFFFF // ts_builtin_sym_error

func grammarSymbols() []string {
	out := make([]string, int(C.ts_language_symbol_count(lang)))
	for i := range out {
		out[i] = C.GoString(C.ts_language_symbol_name(lang, C.uint16_t(i)))
	}
	return out
}

func grammarFields() map[string]uint8 {
	out := map[string]uint8{}
	n := int(C.ts_language_field_count(lang))
	if n > 255 {
		panic("pyast: the grammar has more fields than a node can store")
	}
	for i := 1; i <= n; i++ {
		if name := C.ts_language_field_name_for_id(lang, C.uint16_t(i)); name != nil {
			out[C.GoString(name)] = uint8(i)
		}
	}
	return out
}

// kindName returns the node kind of a symbol id.
func kindName(sym uint16) string {
	if int(sym) < len(symbolNames) {
		return symbolNames[sym]
	}
	if sym == errorSymbol {
		return "ERROR"
	}
	return ""
}

// symbolsOf returns the symbol ids whose kind is name.
func symbolsOf(name string) []uint16 {
	var out []uint16
	for i, s := range symbolNames {
		if s == name {
			out = append(out, uint16(i))
		}
	}
	return out
}

// parseTree parses src (already free of a BOM): with the fast path
// (fastparse.go) when it accepts the file, which writes the very tree
// tree-sitter would, else with tree-sitter.
func parseTree(src []byte, lim Limits) ([]Node, int64, error) {
	if fastPath {
		if nodes, steps, ok := fastParse(src, lim); ok {
			return nodes, steps, nil
		}
	}
	return parseTreeSitter(src, lim)
}

// parseTreeSitter parses src with tree-sitter and copies its tree into Go
// memory, in two cgo calls; the C tree is deleted before it returns. It
// returns the nodes (see Node) and the parser steps the parse took (in
// hundreds: tree-sitter reports every 100). A parse past lim stops with a
// *TooComplexError.
func parseTreeSitter(src []byte, lim Limits) ([]Node, int64, error) {
	p := parserPool.Get().(*C.TSParser)
	var count C.uint32_t
	in := C.mcplint_input{len: C.uint32_t(len(src)), cpu_budget: C.uint64_t(max(lim.CPU.Nanoseconds(), 0))}
	var ptr *C.char
	if len(src) > 0 {
		ptr = (*C.char)(unsafe.Pointer(&src[0]))
	}
	if lim.Steps > 0 {
		in.base, in.per_byte_milli = C.uint64_t(lim.Steps), C.uint64_t(lim.perByteMilli())
	}
	ct := C.mcplint_parse(p, &in, ptr, &count)
	if ct == nil {
		// A cancelled parser would resume the cancelled parse on its next
		// call, and ts_parser_reset does not clear a cancelled tree
		// balancing (tree-sitter 0.25): drop it.
		C.ts_parser_delete(p)
	} else {
		parserPool.Put(p)
	}
	if ct == nil {
		switch {
		case bool(in.cpu_out):
			return nil, 0, &TooComplexError{What: "cpu", Limits: lim, Offset: int(in.offset)}
		case bool(in.steps_out):
			return nil, 0, &TooComplexError{What: "parsing", Limits: lim, Steps: int64(in.steps), Offset: int(in.offset)}
		}
		return nil, 0, errNoParser
	}
	if lim.Nodes > 0 && int(count) > lim.Nodes {
		C.ts_tree_delete(ct)
		return nil, 0, &TooComplexError{What: "syntax tree", Limits: lim, Nodes: int(count)}
	}
	nodes := make([]Node, int(count))
	depth := int(C.mcplint_copy(ct, (*C.mcplint_node)(unsafe.Pointer(unsafe.SliceData(nodes))), count))
	if lim.Depth > 0 && depth > lim.Depth {
		return nil, 0, &TooComplexError{What: "depth", Limits: lim, Depth: depth}
	}
	return nodes, int64(in.steps), nil
}

// Node is a node of a Module's syntax tree. Its methods mirror tree-sitter's
// node API; a nil *Node stands for "no node" (tree-sitter's null node).
// A Module's tree does not keep the anonymous bracket, ":", "." and "="
// tokens (droppedPunctuation): a quarter fewer nodes.
//
// A Module's nodes are one array in preorder (the C struct mcplint_node, 20
// bytes each), and a *Node points into it: the children of a node follow it,
// its parent is up entries back, so every accessor is pointer arithmetic
// within the array and needs no pointer to the tree. The identity of a node
// is its address; a copy of a Node value is not a node of any tree, which
// the noCopy field makes go vet report.
type Node struct {
	_          noCopy
	start, end uint32
	size       uint32 // 1 + the number of descendants
	up         uint32 // offset back to the parent, 0 for the root
	symbol     uint16
	field      uint8
	flags      uint8
}

// noCopy makes go vet's copylocks check report copies of a Node; it takes no
// space.
type noCopy [0]sync.Mutex

const nodeSize = unsafe.Sizeof(Node{})

// Compile-time checks that Node and mcplint_node have the same layout.
var (
	_ [nodeSize - unsafe.Sizeof(C.mcplint_node{})]struct{}
	_ [unsafe.Sizeof(C.mcplint_node{}) - nodeSize]struct{}
	_ [unsafe.Offsetof(Node{}.flags) - unsafe.Offsetof(C.mcplint_node{}.flags)]struct{}
	_ [unsafe.Offsetof(C.mcplint_node{}.flags) - unsafe.Offsetof(Node{}.flags)]struct{}
)

// at returns the node k entries after n in its tree's array.
func (n *Node) at(k uint32) *Node {
	return (*Node)(unsafe.Add(unsafe.Pointer(n), int(k)*int(nodeSize)))
}

// Kind returns the node's type, as the grammar names it.
func (n *Node) Kind() string { return kindName(n.symbol) }

// StartByte returns the offset of the node's first byte.
func (n *Node) StartByte() uint { return uint(n.start) }

// EndByte returns the offset just past the node's last byte.
func (n *Node) EndByte() uint { return uint(n.end) }

// Parent returns the node's parent, or nil for the root.
func (n *Node) Parent() *Node {
	if n.up == 0 {
		return nil
	}
	return (*Node)(unsafe.Add(unsafe.Pointer(n), -int(n.up)*int(nodeSize)))
}

// IsNamed reports whether the node is named in the grammar (not a keyword or punctuation).
func (n *Node) IsNamed() bool { return n.flags&flagNamed != 0 }

// IsError reports whether the node is an ERROR node.
func (n *Node) IsError() bool { return n.flags&flagError != 0 }

// IsMissing reports whether the parser inserted the node to recover from an error.
func (n *Node) IsMissing() bool { return n.flags&flagMissing != 0 }

// HasError reports whether the node is or contains a syntax error.
func (n *Node) HasError() bool { return n.flags&flagHasError != 0 }

// ChildCount returns the number of children, anonymous ones included
// (droppedPunctuation is not kept).
func (n *Node) ChildCount() uint {
	k := uint(0)
	for c := n.firstChild(); c != nil; c = n.nextChild(c) {
		k++
	}
	return k
}

// NamedChildCount returns the number of named children.
func (n *Node) NamedChildCount() uint {
	k := uint(0)
	for c := n.firstChild(); c != nil; c = n.nextChild(c) {
		if c.flags&flagNamed != 0 {
			k++
		}
	}
	return k
}

// Id returns a value unique to the node among the nodes alive.
func (n *Node) Id() uintptr { return uintptr(unsafe.Pointer(n)) }

// Equals reports whether n and o are the same node.
func (n *Node) Equals(o *Node) bool { return n == o }

// firstChild returns the first child, or nil.
func (n *Node) firstChild() *Node {
	if n.size <= 1 {
		return nil
	}
	return n.at(1)
}

// nextChild returns the child of n after its child c, or nil.
func (n *Node) nextChild(c *Node) *Node {
	// c's next sibling starts just past c's subtree, unless that is past n's.
	off := uint32((uintptr(unsafe.Pointer(c))-uintptr(unsafe.Pointer(n)))/nodeSize) + c.size
	if off >= n.size {
		return nil
	}
	return n.at(off)
}

// Child returns the i-th child, anonymous children included, or nil.
func (n *Node) Child(i uint) *Node {
	for c := n.firstChild(); c != nil; c = n.nextChild(c) {
		if i == 0 {
			return c
		}
		i--
	}
	return nil
}

// NamedChild returns the i-th named child, or nil.
func (n *Node) NamedChild(i uint) *Node {
	for c := n.firstChild(); c != nil; c = n.nextChild(c) {
		if c.flags&flagNamed == 0 {
			continue
		}
		if i == 0 {
			return c
		}
		i--
	}
	return nil
}

// ChildByFieldName returns the first child under the given field, or nil.
func (n *Node) ChildByFieldName(name string) *Node {
	id, ok := fieldID(name)
	if !ok {
		return nil
	}
	for c := n.firstChild(); c != nil; c = n.nextChild(c) {
		if c.field == id {
			return c
		}
	}
	return nil
}

// DescendantForByteRange returns the smallest node within n that spans the
// byte range [start, end] (tree-sitter's rule: a node touching the range's
// end only counts when it is empty).
func (n *Node) DescendantForByteRange(start, end uint) *Node {
	cur := n
outer:
	for {
		for c := cur.firstChild(); c != nil; c = cur.nextChild(c) {
			cs, ce := uint(c.start), uint(c.end)
			if ce < end {
				continue
			}
			if cs == ce && ce < start || cs != ce && ce <= start {
				continue
			}
			if start < cs {
				break
			}
			cur = c
			continue outer
		}
		return cur
	}
}
