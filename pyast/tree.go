package pyast

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

// mcplint_trim gives the C heap's free memory back to the system (glibc
// keeps what a thread's arena freed for that thread: after large parses on
// several threads, each arena held its peak).
static void mcplint_trim(void) {
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

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
// Operations are not all the work. The lexer reads bytes between them:
// Python's external scanner, at a line break, looks ahead over every comment
// and blank line that follows to find the next line's indentation, and does
// it again at each of those lines, so a run of n comment lines is read n²/2
// times in a handful of operations (200,000 lines: 10 CPU-s, 2,000,000:
// minutes, between two calls of the progress callback). So the source is
// handed to tree-sitter in chunks of MCPLINT_CHUNK bytes, and every byte
// handed out again (below the furthest byte handed out so far) counts
// 1/MCPLINT_REREAD_PER_STEP of a step, checked in the read callback too:
// a parse past its budget is handed no more input and stops at the next
// operation. Code is read about twice over (a token that starts in one
// chunk and ends in the next), under 0.1 step a byte.
//
// Error recovery is not linear in operations either: each recovery can
// rebuild the error node that holds every token skipped so far, so 50,000
// broken lines cost minutes in a few hundred thousand operations, and
// tree-sitter's public API shows nothing of that work. The thread's CPU
// time, read every 1,600 operations and every 64 chunks read, is the
// backstop for it (cpu_budget_ns, 0 for none).
#define MCPLINT_CHUNK 4096u
#define MCPLINT_REREAD_PER_STEP 32u
typedef struct {
	const char *src;
	uint32_t len;
	uint64_t steps, base, per_byte_milli;
	uint32_t offset;
	uint64_t cpu_start, cpu_budget;
	bool cpu_out, steps_out;
	// read_end is the end of the furthest chunk handed out, reread the
	// bytes handed out again, reads the chunks handed out.
	uint32_t read_end;
	uint64_t reread, reads;
} mcplint_input;

static uint64_t mcplint_thread_cpu(void);

// mcplint_over reports whether the parse passed its step budget, setting
// steps_out: the operations and the bytes read again, against the budget
// of the bytes the parser has read.
static bool mcplint_over(mcplint_input *in) {
	if (in->base && (in->steps + in->reread / MCPLINT_REREAD_PER_STEP) * 1000 > in->base * 1000 + in->per_byte_milli * (uint64_t)in->offset) {
		in->steps_out = true;
	}
	return in->steps_out;
}

static const char *mcplint_read(void *payload, uint32_t byte, TSPoint pos, uint32_t *n) {
	mcplint_input *in = payload;
	if (byte >= in->len || in->steps_out || in->cpu_out) {
		*n = 0;
		return "";
	}
	uint32_t k = in->len - byte;
	if (k > MCPLINT_CHUNK) {
		k = MCPLINT_CHUNK;
	}
	if (byte < in->read_end) {
		in->reread += (byte + k < in->read_end ? byte + k : in->read_end) - byte;
	}
	if (byte + k > in->read_end) {
		in->read_end = byte + k;
	}
	if (mcplint_over(in) || in->cpu_budget && ++in->reads % 64 == 0 && mcplint_thread_cpu() - in->cpu_start > in->cpu_budget && (in->cpu_out = true)) {
		*n = 0;
		return "";
	}
	*n = k;
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
	if (in->cpu_out || in->cpu_budget && in->steps % 1600 == 0 && mcplint_thread_cpu() - in->cpu_start > in->cpu_budget) {
		in->cpu_out = true;
		return true;
	}
	return mcplint_over(in);
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
	if (t && (in->steps_out || in->cpu_out)) {
		// Stopped in the read callback, the parse ended on the input it had.
		ts_tree_delete(t);
		t = NULL;
	}
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
	"runtime/debug"
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
	if n > mFieldMask {
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

// parseTree parses src (already free of a BOM) and returns its tree
// without the droppedPunctuation leaves: with the fast path (fastparse.go)
// when it accepts the file, which writes the very tree tree-sitter would
// (and drops the punctuation as it goes), else with tree-sitter. The array
// is a pooled buffer (see getRaw): the caller hands it back with putRaw once
// it has packed it.
func parseTree(src []byte, lim Limits) ([]rawNode, int64, error) {
	w := tsWeight(len(src))
	parsing.acquire(w)
	defer parsing.release(w)
	if fastPath {
		if nodes, steps, ok := fastParse(src, lim); ok {
			return nodes, steps, nil
		}
	}
	if len(src) >= tsMaxWeight/4 {
		// tree-sitter's memory is the C heap's, which the Go collector
		// neither sees nor counts: a large parse (some 125 bytes for each
		// byte read) came on top of a Go heap grown to twice its live data,
		// the garbage of earlier parses (the fast path's array) included.
		// Hand that back first, so the two peaks do not add up; once a
		// file (its re-parse in recoverGrammarGaps keeps the first tree).
		beforeLargeParse()
	}
	nodes, steps, err := parseTreeSitter(src, lim)
	if err != nil {
		return nil, 0, err
	}
	nodes, steps = recoverGrammarGaps(src, nodes, steps, lim)
	return dropPunctuation(nodes), steps, nil
}

// parseTreeSitter parses src with tree-sitter and copies its tree into Go
// memory, in two cgo calls; the C tree is deleted before it returns. It
// returns the nodes (see rawNode) and the parser steps the parse took (in
// hundreds: tree-sitter reports every 100). A parse past lim stops with a
// *TooComplexError.
func parseTreeSitter(src []byte, lim Limits) ([]rawNode, int64, error) {
	if len(src) >= tsMaxWeight/4 {
		// After the tree is freed (mcplint_copy, or a stopped parse).
		defer C.mcplint_trim()
	}
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
			return nil, 0, &TooComplexError{What: "parsing", Limits: lim, Steps: int64(in.steps + in.reread/C.MCPLINT_REREAD_PER_STEP), Reread: int64(in.reread), Offset: int(in.offset)}
		}
		return nil, 0, errNoParser
	}
	if lim.Nodes > 0 && int(count) > lim.Nodes {
		C.ts_tree_delete(ct)
		return nil, 0, &TooComplexError{What: "syntax tree", Limits: lim, Nodes: int(count)}
	}
	nodes := getRaw(int(count))[:count]
	depth := int(C.mcplint_copy(ct, (*C.mcplint_node)(unsafe.Pointer(unsafe.SliceData(nodes))), count))
	if lim.Depth > 0 && depth > lim.Depth {
		putRaw(nodes)
		return nil, 0, &TooComplexError{What: "depth", Limits: lim, Depth: depth}
	}
	return nodes, int64(in.steps + in.reread/C.MCPLINT_REREAD_PER_STEP), nil
}

// beforeLargeParse runs before tree-sitter parses a file of tsMaxWeight/4
// bytes or more: a collection that returns the Go heap's free pages to the
// system (tests wrap it to look at the heap then). It costs one collection
// per such file, which only generated files reach (a fast-parsed file never
// gets here).
var beforeLargeParse = debug.FreeOSMemory

// parsing bounds the bytes parsed at once, over every worker: a parse's
// memory grows with its file (the fast path's array; tree-sitter holds some
// 125 bytes for each byte it has read until its parse ends, so a list
// literal it stops within its first megabyte takes 150 MB), and eight
// workers on eight such files held 1.2 GB. A parse weighs its file's size up
// to tsMaxWeight: files of code (a few kB) never wait, a file of a megabyte
// or more is parsed alone.
var parsing = &byteSemaphore{limit: tsBudget}

const (
	tsBudget    = 1 << 20
	tsMaxWeight = 1 << 20
)

func tsWeight(n int) int { return min(max(n, 1), tsMaxWeight) }

// byteSemaphore is a counting semaphore of bytes: acquire waits until the
// weight fits under the limit (or nothing else holds any).
type byteSemaphore struct {
	mu    sync.Mutex
	cond  *sync.Cond
	used  int
	limit int
	peak  int // the most ever held (tests)
}

func (s *byteSemaphore) acquire(w int) {
	s.mu.Lock()
	if s.cond == nil {
		s.cond = sync.NewCond(&s.mu)
	}
	for s.used > 0 && s.used+w > s.limit {
		s.cond.Wait()
	}
	s.used += w
	s.peak = max(s.peak, s.used)
	s.mu.Unlock()
}

func (s *byteSemaphore) release(w int) {
	s.mu.Lock()
	s.used -= w
	if s.cond != nil {
		s.cond.Broadcast()
	}
	s.mu.Unlock()
}

// rawNode is a node as a parser writes it: the C struct mcplint_node, which
// tree-sitter's copy (mcplint_copy) and the fast parser both write, 20 bytes
// with every value in full. Nodes are in preorder, as in Node. A parse's
// rawNode array lives only until packTree has written the Module's Node
// array from it; the arrays are reused from parse to parse (getRaw).
type rawNode struct {
	start, end uint32
	size       uint32 // 1 + the number of descendants
	up         uint32 // offset back to the parent, 0 for the root
	symbol     uint16
	field      uint8
	flags      uint8
}

// Compile-time checks that rawNode and mcplint_node have the same layout.
var (
	_ [unsafe.Sizeof(rawNode{}) - unsafe.Sizeof(C.mcplint_node{})]struct{}
	_ [unsafe.Sizeof(C.mcplint_node{}) - unsafe.Sizeof(rawNode{})]struct{}
	_ [unsafe.Offsetof(rawNode{}.up) - unsafe.Offsetof(C.mcplint_node{}.up)]struct{}
	_ [unsafe.Offsetof(C.mcplint_node{}.up) - unsafe.Offsetof(rawNode{}.up)]struct{}
	_ [unsafe.Offsetof(rawNode{}.flags) - unsafe.Offsetof(C.mcplint_node{}.flags)]struct{}
	_ [unsafe.Offsetof(C.mcplint_node{}.flags) - unsafe.Offsetof(rawNode{}.flags)]struct{}
)

// rawFree holds rawNode arrays for reuse: each parse fills one, which
// packTree reads once, so the workers parse file after file into the same
// few arrays instead of allocating (and growing) one per file. A channel,
// not a sync.Pool, which every garbage collection empties: a large project
// collects often while it parses.
var rawFree = make(chan []rawNode, 4)

// rawPoolMax is the largest array kept for reuse (2.6 MB, a file of about
// 400 KB): a rare huge file's array is left to the garbage collector.
const rawPoolMax = 1 << 17

// getRaw returns an empty rawNode array with room for n nodes.
func getRaw(n int) []rawNode {
	select {
	case b := <-rawFree:
		if cap(b) >= n {
			return b[:0]
		}
		// too small for this file: a larger one takes its place
	default:
	}
	return make([]rawNode, 0, n)
}

// putRaw hands an array getRaw returned back for reuse; the caller no
// longer reads it.
func putRaw(t []rawNode) {
	if cap(t) == 0 || cap(t) > rawPoolMax {
		return
	}
	select {
	case rawFree <- t[:0]:
	default:
	}
}

// Node is a node of a Module's syntax tree. Its methods mirror tree-sitter's
// node API; a nil *Node stands for "no node" (tree-sitter's null node).
// A Module's tree does not keep the anonymous bracket, ":", "." and "="
// tokens (droppedPunctuation): a quarter fewer nodes.
//
// A Module's nodes are one array in preorder, and a *Node points into it:
// the children of a node follow it, its parent is up entries back, so every
// accessor is pointer arithmetic within the array and needs no pointer to
// the tree. The identity of a node is its address; a copy of a Node value
// is not a node of any tree, which the noCopy field makes go vet report.
//
// A Node is 12 bytes (a rawNode 20): the start offset and the symbol in
// full, and the rest packed into 48 bits (see the meta constants): flags,
// field, and the length, size and parent offset in 13, 11 and 13 bits.
// A node whose values do not fit (about 1 in 800: the module, long
// functions and classes, the statements far into a long body) is wide: it
// stores its own index instead, and its end, size and parent offset are in
// a table sorted by index, in the same allocation just before the root,
// which the index leads to (see wideEntry): a binary search over the
// tree's few wide nodes.
type Node struct {
	_      noCopy
	start  uint32
	symbol uint16
	meta   uint16 // flags, field, wide, the low bits of the length
	packed uint32 // the rest of the length, size, up; a wide node's index
}

// The bits of Node.meta and Node.packed.
const (
	mFlags     = 0xF // meta 0-3: flagNamed...
	mFieldBit  = 4   // meta 4-9: the field id
	mFieldMask = 0x3F
	mWide      = 1 << 10 // the node's values are in the wide table
	mLenShift  = 11      // meta 11-15: the length's low 5 bits

	lenBits  = 13 // length: meta's 5 bits and packed 0-7
	sizeBits = 11 // packed 8-18
	upBits   = 13 // packed 19-31
	pLenMask = 1<<(lenBits-5) - 1
	pSizeBit = lenBits - 5
	pUpBit   = pSizeBit + sizeBits
)

// noCopy makes go vet's copylocks check report copies of a Node; it takes no
// space.
type noCopy [0]sync.Mutex

const nodeSize = unsafe.Sizeof(Node{})

// The packing fills meta and packed exactly, and a node is 12 bytes; the
// grammar's fields fit in 6 bits (grammarFields checks).
var (
	_ [pUpBit + upBits - 32]struct{}
	_ [32 - pUpBit - upBits]struct{}
	_ [mLenShift + 5 - 16]struct{}
	_ [16 - mLenShift - 5]struct{}
	_ [nodeSize - 12]struct{}
	_ [12 - nodeSize]struct{}
)

// at returns the node k entries after n in its tree's array.
func (n *Node) at(k uint32) *Node {
	return (*Node)(unsafe.Add(unsafe.Pointer(n), int(k)*int(nodeSize)))
}

// flagBits returns the node's flags (flagNamed...).
func (n *Node) flagBits() uint8 { return uint8(n.meta & mFlags) }

// fieldOf returns the node's field id under its parent, 0 for none.
func (n *Node) fieldOf() uint8 { return uint8(n.meta >> mFieldBit & mFieldMask) }

// sizeOf returns 1 + the number of the node's descendants.
func (n *Node) sizeOf() uint32 {
	if n.meta&mWide == 0 {
		return n.packed >> pSizeBit & (1<<sizeBits - 1)
	}
	return n.wideEntry()[2]
}

// upOf returns the offset back to the node's parent, 0 for the root.
func (n *Node) upOf() uint32 {
	if n.meta&mWide == 0 {
		return n.packed >> pUpBit
	}
	return n.wideEntry()[3]
}

// endOf returns the offset just past the node's last byte.
func (n *Node) endOf() uint32 {
	if n.meta&mWide == 0 {
		return n.start + (uint32(n.meta>>mLenShift) | (n.packed&pLenMask)<<5)
	}
	return n.wideEntry()[1]
}

// wideEntry returns the table entry of a wide node: its index, end, size
// and parent offset. The index leads to the root; the table's entry count
// is the 4 bytes before the root, and the entries, sorted by index, the
// bytes before that.
func (n *Node) wideEntry() *[4]uint32 {
	i := n.packed
	root := unsafe.Add(unsafe.Pointer(n), -int(i)*int(nodeSize))
	w := int(*(*uint32)(unsafe.Add(root, -4)))
	tab := unsafe.Slice((*[4]uint32)(unsafe.Add(root, -4-16*w)), w)
	lo, hi := 0, w
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if tab[m][0] < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return &tab[lo]
}

// isWide reports whether a node with these values needs the wide table.
func (r *rawNode) isWide() bool {
	return r.end-r.start >= 1<<lenBits || r.size >= 1<<sizeBits || r.up >= 1<<upBits
}

// packTree writes the Module's Node array from a parser's rawNode array
// (which it only reads). It returns the array from the root on; the wide
// table is in the same allocation before it.
func packTree(t []rawNode) []Node {
	w := 0
	for i := range t {
		if t[i].isWide() {
			w++
		}
	}
	// The table: 4 words an entry and the count, in whole nodes.
	k := 0
	if w > 0 {
		k = (16*w + 4 + int(nodeSize) - 1) / int(nodeSize)
	}
	buf := make([]Node, k+len(t))
	out := buf[k:]
	var tab []uint32
	if w > 0 {
		root := unsafe.Pointer(&out[0])
		tab = unsafe.Slice((*uint32)(unsafe.Add(root, -4-16*w)), 4*w+1)
		tab[4*w] = uint32(w)
		tab = tab[:0]
	}
	for i := range t {
		r := &t[i]
		n := &out[i]
		n.start, n.symbol = r.start, r.symbol
		meta := uint16(r.flags)&mFlags | uint16(r.field)<<mFieldBit
		if r.isWide() {
			n.meta = meta | mWide
			n.packed = uint32(i)
			tab = append(tab, uint32(i), r.end, r.size, r.up)
			continue
		}
		l := r.end - r.start
		n.meta = meta | uint16(l)<<mLenShift
		n.packed = l>>5 | r.size<<pSizeBit | r.up<<pUpBit
	}
	return out
}

// Kind returns the node's type, as the grammar names it.
func (n *Node) Kind() string { return kindName(n.symbol) }

// StartByte returns the offset of the node's first byte.
func (n *Node) StartByte() uint { return uint(n.start) }

// EndByte returns the offset just past the node's last byte.
func (n *Node) EndByte() uint { return uint(n.endOf()) }

// Parent returns the node's parent, or nil for the root.
func (n *Node) Parent() *Node {
	up := n.upOf()
	if up == 0 {
		return nil
	}
	return (*Node)(unsafe.Add(unsafe.Pointer(n), -int(up)*int(nodeSize)))
}

// IsNamed reports whether the node is named in the grammar (not a keyword or punctuation).
func (n *Node) IsNamed() bool { return n.meta&flagNamed != 0 }

// IsError reports whether the node is an ERROR node.
func (n *Node) IsError() bool { return n.meta&flagError != 0 }

// IsMissing reports whether the parser inserted the node to recover from an error.
func (n *Node) IsMissing() bool { return n.meta&flagMissing != 0 }

// HasError reports whether the node is or contains a syntax error.
func (n *Node) HasError() bool { return n.meta&flagHasError != 0 }

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
		if c.meta&flagNamed != 0 {
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
	if n.sizeOf() <= 1 {
		return nil
	}
	return n.at(1)
}

// nextChild returns the child of n after its child c, or nil.
func (n *Node) nextChild(c *Node) *Node {
	// c's next sibling starts just past c's subtree, unless that is past n's.
	off := uint32((uintptr(unsafe.Pointer(c))-uintptr(unsafe.Pointer(n)))/nodeSize) + c.sizeOf()
	if off >= n.sizeOf() {
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
		if c.meta&flagNamed == 0 {
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
		if c.fieldOf() == id {
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
			cs, ce := uint(c.start), uint(c.endOf())
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
