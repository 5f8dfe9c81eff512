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

// One node of a copied tree. Nodes are stored in preorder (document order),
// so the descendants of node i are exactly the nodes i+1 .. next-1.
typedef struct {
	uint32_t start, end;   // byte range
	int32_t parent;        // index of the parent, -1 for the root
	uint32_t next;         // index just past the last descendant
	uint32_t children;     // child count, anonymous children included
	uint32_t named;        // named child count
	uint16_t symbol;       // alias-aware public symbol
	uint16_t field;        // field id under the parent, 0 for none
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

static void mcplint_fill(mcplint_node *out, TSTreeCursor *c, uint32_t i, int32_t parent) {
	TSNode n = ts_tree_cursor_current_node(c);
	mcplint_node *o = &out[i];
	o->start = ts_node_start_byte(n);
	o->end = ts_node_end_byte(n);
	o->parent = parent;
	o->next = i + 1;
	o->children = 0;
	o->named = 0;
	o->symbol = ts_node_symbol(n);
	o->field = parent < 0 ? 0 : ts_tree_cursor_current_field_id(c);
	uint8_t f = 0;
	if (ts_node_is_named(n)) f |= NODE_NAMED;
	if (ts_node_is_error(n)) f |= NODE_ERROR;
	if (ts_node_is_missing(n)) f |= NODE_MISSING;
	if (ts_node_has_error(n)) f |= NODE_HAS_ERROR;
	o->flags = f;
	if (parent >= 0) {
		out[parent].children++;
		if (f & NODE_NAMED) out[parent].named++;
	}
}

// mcplint_copy writes the tree's nodes in preorder into out (count of them,
// as mcplint_parse returned) and deletes the tree.
static void mcplint_copy(TSTree *t, mcplint_node *out, uint32_t count) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
	uint32_t n = 0, cur = 0;
	mcplint_fill(out, &c, n++, -1);
	for (;;) {
		if (n < count && ts_tree_cursor_goto_first_child(&c)) {
			mcplint_fill(out, &c, n, (int32_t)cur);
			cur = n++;
			continue;
		}
		for (;;) {
			out[cur].next = n;
			if (n < count && ts_tree_cursor_goto_next_sibling(&c)) {
				int32_t p = out[cur].parent;
				mcplint_fill(out, &c, n, p);
				cur = n++;
				break;
			}
			if (out[cur].parent < 0 || !ts_tree_cursor_goto_parent(&c)) {
				goto done;
			}
			cur = (uint32_t)out[cur].parent;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	ts_tree_delete(t);
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

func grammarFields() map[string]uint16 {
	out := map[string]uint16{}
	for i := 1; i <= int(C.ts_language_field_count(lang)); i++ {
		if name := C.ts_language_field_name_for_id(lang, C.uint16_t(i)); name != nil {
			out[C.GoString(name)] = uint16(i)
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

// tree is a syntax tree copied into Go memory: nodes in preorder, and one
// Node handle per node so that accessors return stable pointers.
type tree struct {
	data    []C.mcplint_node
	handles []Node
	steps   int64 // parser steps the parse took (in hundreds: tree-sitter reports every 100)
}

// parseTree parses src (already free of a BOM) and copies its tree, in two
// cgo calls; the C tree is deleted before it returns. A parse past lim stops
// with a *TooComplexError.
func parseTree(src []byte, lim Limits) (*tree, error) {
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
			return nil, &TooComplexError{What: "cpu", Limits: lim, Offset: int(in.offset)}
		case bool(in.steps_out):
			return nil, &TooComplexError{What: "parsing", Limits: lim, Steps: int64(in.steps), Offset: int(in.offset)}
		}
		return nil, errNoParser
	}
	if lim.Nodes > 0 && int(count) > lim.Nodes {
		C.ts_tree_delete(ct)
		return nil, &TooComplexError{What: "syntax tree", Limits: lim, Nodes: int(count)}
	}
	t := &tree{data: make([]C.mcplint_node, int(count)), steps: int64(in.steps)}
	C.mcplint_copy(ct, unsafe.SliceData(t.data), count)
	t.handles = make([]Node, len(t.data))
	for i := range t.handles {
		t.handles[i] = Node{t: t, i: int32(i)}
	}
	return t, nil
}

// Node is a node of a Module's syntax tree. Its methods mirror tree-sitter's
// node API; a nil *Node stands for "no node" (tree-sitter's null node).
type Node struct {
	t *tree
	i int32
}

func (n *Node) d() *C.mcplint_node { return &n.t.data[n.i] }

func (t *tree) node(i int32) *Node {
	if i < 0 {
		return nil
	}
	return &t.handles[i]
}

// Kind returns the node's type, as the grammar names it.
func (n *Node) Kind() string { return kindName(uint16(n.d().symbol)) }

// StartByte returns the offset of the node's first byte.
func (n *Node) StartByte() uint { return uint(n.d().start) }

// EndByte returns the offset just past the node's last byte.
func (n *Node) EndByte() uint { return uint(n.d().end) }

// Parent returns the node's parent, or nil for the root.
func (n *Node) Parent() *Node { return n.t.node(int32(n.d().parent)) }

// IsNamed reports whether the node is named in the grammar (not a keyword or punctuation).
func (n *Node) IsNamed() bool { return n.d().flags&flagNamed != 0 }

// IsError reports whether the node is an ERROR node.
func (n *Node) IsError() bool { return n.d().flags&flagError != 0 }

// IsMissing reports whether the parser inserted the node to recover from an error.
func (n *Node) IsMissing() bool { return n.d().flags&flagMissing != 0 }

// HasError reports whether the node is or contains a syntax error.
func (n *Node) HasError() bool { return n.d().flags&flagHasError != 0 }

// ChildCount returns the number of children, anonymous ones included.
func (n *Node) ChildCount() uint { return uint(n.d().children) }

// NamedChildCount returns the number of named children.
func (n *Node) NamedChildCount() uint { return uint(n.d().named) }

// Id returns a value unique to the node among the nodes alive.
func (n *Node) Id() uintptr { return uintptr(unsafe.Pointer(&n.t.handles[n.i])) }

// Equals reports whether n and o are the same node.
func (n *Node) Equals(o Node) bool { return n.t == o.t && n.i == o.i }

// firstChild returns the index of the first child, or -1.
func (n *Node) firstChild() int32 {
	if n.d().next == C.uint32_t(n.i+1) {
		return -1
	}
	return n.i + 1
}

// nextSibling returns the index of the next sibling of node i (child of
// parent p), or -1.
func (t *tree) nextSibling(i int32, p int32) int32 {
	next := int32(t.data[i].next)
	if p < 0 || next >= int32(t.data[p].next) {
		return -1
	}
	return next
}

// Child returns the i-th child, anonymous children included, or nil.
func (n *Node) Child(i uint) *Node {
	for c := n.firstChild(); c >= 0; c = n.t.nextSibling(c, n.i) {
		if i == 0 {
			return &n.t.handles[c]
		}
		i--
	}
	return nil
}

// NamedChild returns the i-th named child, or nil.
func (n *Node) NamedChild(i uint) *Node {
	for c := n.firstChild(); c >= 0; c = n.t.nextSibling(c, n.i) {
		if n.t.data[c].flags&flagNamed == 0 {
			continue
		}
		if i == 0 {
			return &n.t.handles[c]
		}
		i--
	}
	return nil
}

// ChildByFieldName returns the first child under the given field, or nil.
func (n *Node) ChildByFieldName(name string) *Node {
	id, ok := fieldIDs[name]
	if !ok {
		return nil
	}
	for c := n.firstChild(); c >= 0; c = n.t.nextSibling(c, n.i) {
		if uint16(n.t.data[c].field) == id {
			return &n.t.handles[c]
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
		for c := cur.firstChild(); c >= 0; c = n.t.nextSibling(c, cur.i) {
			d := &n.t.data[c]
			cs, ce := uint(d.start), uint(d.end)
			if ce < end {
				continue
			}
			if cs == ce && ce < start || cs != ce && ce <= start {
				continue
			}
			if start < cs {
				break
			}
			cur = &n.t.handles[c]
			continue outer
		}
		return cur
	}
}
