package workspace

import (
	"math/bits"
	"slices"
	"strings"
	"unsafe"
)

// This file compiles the patterns of one ignore file into a matcher whose
// cost per path does not grow with the number of patterns:
//
//   - a pattern without a slash (git's NODIR) is matched against the
//     basename: literal ones through a hash map, the others through one lazy
//     DFA built from all of them;
//   - a pattern with a slash is matched against the path relative to the
//     file's folder: literal ones through a trie of path components, the
//     others through a second lazy DFA.
//
// Each map, trie node and DFA state carries the highest index of the
// patterns it matches (split into directory-only and any-kind patterns), so
// that the last matching pattern of the file decides, as in git. The DFAs
// are built from a position NFA of git's wildmatch semantics (wildmatch.c,
// with WM_PATHNAME for patterns with a slash): "*" is any run of bytes but
// "/", "**" between slashes (or at an end) any run of bytes, "**/" also
// nothing, "?" one byte but "/", "[...]" one byte of a class (never "/"),
// "\x" the byte x. Walking a path through a DFA costs one table look-up per
// byte once the states met are built, and the walk keeps the state reached
// at each folder (see gitignore.go), so a path costs its basename's length.

// best is the highest pattern index that matched, for patterns of any kind
// (all) and for directory-only ones (dir); -1 when none did.
type best struct{ all, dir int32 }

var noMatch = best{-1, -1}

func (b best) merge(o best) best {
	if o.all > b.all {
		b.all = o.all
	}
	if o.dir > b.dir {
		b.dir = o.dir
	}
	return b
}

func (b *best) add(idx int32, dirOnly bool) {
	if dirOnly {
		if idx > b.dir {
			b.dir = idx
		}
	} else if idx > b.all {
		b.all = idx
	}
}

// pick is the index that decides for a path of the given kind.
func (b best) pick(isDir bool) int32 {
	if isDir && b.dir > b.all {
		return b.dir
	}
	return b.all
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) set(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// only returns the byte of a set of one byte.
func (s *byteSet) only() (byte, bool) {
	c, n := -1, 0
	for w, v := range s {
		for ; v != 0 && n < 2; v &= v - 1 {
			c = w*64 + bits.TrailingZeros64(v)
			n++
		}
	}
	return byte(c), n == 1
}

func (s *byteSet) empty() bool  { return s[0]|s[1]|s[2]|s[3] == 0 }
func (s *byteSet) invert()      { s[0], s[1], s[2], s[3] = ^s[0], ^s[1], ^s[2], ^s[3] }
func (s *byteSet) clear(c byte) { s[c>>6] &^= 1 << (c & 63) }
func (s *byteSet) setRange(lo, hi int) {
	for c := lo; c <= hi; c++ {
		s.set(byte(c))
	}
}

func allBytes() byteSet { return byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} }

func oneByte(c byte) byteSet {
	var s byteSet
	s.set(c)
	return s
}

// nfa is a position automaton: state s moves to s+1 on a byte of on, stays
// on a byte of loop, and reaches eps (later states) on nothing. A state
// with acc >= 0 ends pattern acc.
type nfa struct {
	st     []nstate
	starts []int32
}

type nstate struct {
	on, loop byteSet
	eps      []int32
	acc      int32
	dirOnly  bool
}

func (n *nfa) add() int32 {
	n.st = append(n.st, nstate{acc: -1})
	return int32(len(n.st) - 1)
}

// compileGlob adds pattern p (idx in its file) to n, with git's wildmatch
// semantics; pathname is WM_PATHNAME. wildStart is where wildmatch is
// handed the pattern (git matches a literal prefix itself and passes the
// rest, so a "**" right after that prefix counts as at the start). It
// returns false, adding nothing, for a pattern wildmatch can never match
// (an unclosed "[", an unknown "[:class:]", a trailing backslash).
func (n *nfa) compileGlob(p string, wildStart int, pathname bool, idx int32, dirOnly bool) bool {
	mark := len(n.st)
	undo := func() bool {
		n.st = n.st[:mark]
		return false
	}
	anyByte := allBytes()
	notSlash := allBytes()
	notSlash.clear('/')
	consume := func(s byteSet) { st := n.add(); n.st[st].on = s }
	for i := 0; i < len(p); {
		switch c := p[i]; c {
		case '\\':
			if i+1 >= len(p) {
				return undo()
			}
			consume(oneByte(p[i+1]))
			i += 2
		case '?':
			if pathname {
				consume(notSlash)
			} else {
				consume(anyByte)
			}
			i++
		case '[':
			s, next, ok := parseClass(p, i)
			if !ok {
				return undo()
			}
			if pathname {
				s.clear('/')
			}
			consume(s)
			i = next
		case '*':
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			switch {
			case !pathname:
				st := n.add()
				n.st[st].loop = anyByte
				n.st[st].eps = []int32{st + 1}
			case j-i >= 2 && (i == wildStart || p[i-1] == '/') &&
				(j == len(p) || p[j] == '/' || (p[j] == '\\' && j+1 < len(p) && p[j+1] == '/')):
				if j < len(p) && p[j] == '/' {
					// "**/" is nothing, or any bytes and a slash:
					// an entry state choosing between the two.
					entry := n.add()
					loop := n.add()
					slash := n.add()
					n.st[entry].eps = []int32{loop, slash + 1}
					n.st[loop].loop = anyByte
					n.st[loop].eps = []int32{slash}
					n.st[slash].on = oneByte('/')
					j++
				} else {
					st := n.add()
					n.st[st].loop = anyByte
					n.st[st].eps = []int32{st + 1}
				}
			default:
				st := n.add()
				n.st[st].loop = notSlash
				n.st[st].eps = []int32{st + 1}
			}
			i = j
		default:
			consume(oneByte(c))
			i++
		}
	}
	end := n.add()
	n.st[end].acc = idx
	n.st[end].dirOnly = dirOnly
	n.starts = append(n.starts, int32(mark))
	return true
}

// parseClass reads the bracket expression at p[i] ('[') as wildmatch.c
// does: "!" or "^" negates, "]" first is literal, "a-z" ranges, "\x" the
// byte x, "[:alpha:]" and the other POSIX classes in ASCII. It returns the
// set, the index after the closing "]", and false when the expression is
// malformed (wildmatch then matches nothing).
func parseClass(p string, i int) (byteSet, int, bool) {
	var s byteSet
	at := func(k int) byte {
		if k < len(p) {
			return p[k]
		}
		return 0
	}
	i++
	ch := at(i)
	if ch == '^' {
		ch = '!'
	}
	negated := ch == '!'
	if negated {
		i++
		ch = at(i)
	}
	var prev byte
	for {
		if ch == 0 {
			return s, 0, false
		}
		switch {
		case ch == '\\':
			i++
			ch = at(i)
			if ch == 0 {
				return s, 0, false
			}
			s.set(ch)
		case ch == '-' && prev != 0 && at(i+1) != 0 && at(i+1) != ']':
			i++
			ch = at(i)
			if ch == '\\' {
				i++
				ch = at(i)
				if ch == 0 {
					return s, 0, false
				}
			}
			if prev <= ch {
				s.setRange(int(prev), int(ch))
			}
			ch = 0
		case ch == '[' && at(i+1) == ':':
			start := i + 2
			k := start
			for k < len(p) && p[k] != ']' {
				k++
			}
			if k >= len(p) {
				return s, 0, false
			}
			if k-start-1 < 0 || p[k-1] != ':' {
				// No ":]": a plain "[" in the set.
				i = start - 2
				ch = '['
				s.set('[')
				break
			}
			if !posixClass(&s, p[start:k-1]) {
				return s, 0, false
			}
			i = k
			ch = 0
		default:
			s.set(ch)
		}
		prev = ch
		i++
		ch = at(i)
		if ch == ']' {
			break
		}
	}
	if negated {
		s.invert()
	}
	return s, i + 1, true
}

// posixClass adds the bytes of a [:name:] class as git's own ctype (ASCII
// only; git's isspace is " \t\n\r") defines them.
func posixClass(s *byteSet, name string) bool {
	var f func(c int) bool
	switch name {
	case "alnum":
		f = func(c int) bool { return isAlpha(c) || isDigit(c) }
	case "alpha":
		f = isAlpha
	case "blank":
		f = func(c int) bool { return c == ' ' || c == '\t' }
	case "cntrl":
		f = func(c int) bool { return c < 32 || c == 127 }
	case "digit":
		f = isDigit
	case "graph":
		f = func(c int) bool { return c > 32 && c < 127 }
	case "lower":
		f = func(c int) bool { return c >= 'a' && c <= 'z' }
	case "print":
		f = func(c int) bool { return c >= 32 && c < 127 }
	case "punct":
		f = func(c int) bool { return c > 32 && c < 127 && !isAlpha(c) && !isDigit(c) }
	case "space":
		f = func(c int) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	case "upper":
		f = func(c int) bool { return c >= 'A' && c <= 'Z' }
	case "xdigit":
		f = func(c int) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	default:
		return false
	}
	for c := 0; c < 128; c++ {
		if f(c) {
			s.set(byte(c))
		}
	}
	return true
}

func isAlpha(c int) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c int) bool { return c >= '0' && c <= '9' }

// maxDFAStates bounds the states one DFA keeps in its table; past it the
// table starts afresh (the states already reached keep working), so a
// pattern set whose DFA would blow up costs time per byte, never memory.
const maxDFAStates = 10000

// dfa is the lazily built subset automaton of an nfa.
type dfa struct {
	n       *nfa
	class   [256]uint16 // byte -> equivalence class
	rep     []byte      // class -> one of its bytes
	start   *dstate
	dead    *dstate
	table   map[string]*dstate
	mark    []uint32 // closure scratch: generation per NFA state
	gen     uint32
	scratch []int32
	stack   []int32
	moved   []int32
}

// dstate is a set of NFA states, with the patterns it ends and its
// transitions built so far (nil: not yet).
type dstate struct {
	set  []int32
	next []*dstate
	acc  best
}

func newDFA(n *nfa) *dfa {
	d := &dfa{n: n, table: map[string]*dstate{}, mark: make([]uint32, len(n.st))}
	d.classes()
	d.dead = d.intern(nil)
	d.start = d.intern(d.closure(n.starts))
	return d
}

// classes splits the bytes into classes no set of the NFA tells apart, so
// a state's table has one entry per class.
func (d *dfa) classes() {
	// Single bytes (the literals) each get a class of their own; the
	// other sets (classes, "any but /") split the rest.
	seen := map[byteSet]bool{}
	var sets []byteSet
	var single byteSet
	for i := range d.n.st {
		for _, s := range []*byteSet{&d.n.st[i].on, &d.n.st[i].loop} {
			if s.empty() || seen[*s] {
				continue
			}
			seen[*s] = true
			if c, ok := s.only(); ok {
				single.set(c)
			} else {
				sets = append(sets, *s)
			}
		}
	}
	var cls [256]int
	nclass := 1
	var split [512]int
	for _, s := range sets {
		if nclass == 256 {
			break
		}
		for i := range split[:2*nclass] {
			split[i] = -1
		}
		next := 0
		for c := 0; c < 256; c++ {
			k := 2 * cls[c]
			if s.has(byte(c)) {
				k++
			}
			if split[k] < 0 {
				split[k] = next
				next++
			}
			cls[c] = split[k]
		}
		nclass = next
	}
	// Number the classes afresh, a single byte alone in its own.
	renum := map[int]int{}
	d.rep = d.rep[:0]
	for c := 0; c < 256; c++ {
		key := cls[c]
		if single.has(byte(c)) {
			key = 256 + c
		}
		id, ok := renum[key]
		if !ok {
			id = len(d.rep)
			renum[key] = id
			d.rep = append(d.rep, byte(c))
		}
		d.class[c] = uint16(id)
	}
}

// closure returns the sorted epsilon closure of states.
func (d *dfa) closure(states []int32) []int32 {
	d.gen++
	if d.gen == 0 {
		for i := range d.mark {
			d.mark[i] = 0
		}
		d.gen = 1
	}
	out := d.scratch[:0]
	stack := append(d.stack[:0], states...)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if d.mark[s] == d.gen {
			continue
		}
		d.mark[s] = d.gen
		out = append(out, s)
		stack = append(stack, d.n.st[s].eps...)
	}
	slices.Sort(out)
	d.scratch, d.stack = out, stack
	return out
}

func (d *dfa) intern(set []int32) *dstate {
	key := ""
	if len(set) > 0 {
		key = unsafe.String((*byte)(unsafe.Pointer(&set[0])), len(set)*4)
	}
	if st, ok := d.table[key]; ok {
		return st
	}
	if len(d.table) >= maxDFAStates {
		d.table = map[string]*dstate{"": d.dead}
	}
	st := &dstate{set: append([]int32(nil), set...), next: make([]*dstate, len(d.rep)), acc: noMatch}
	for _, s := range st.set {
		if a := d.n.st[s].acc; a >= 0 {
			st.acc.add(a, d.n.st[s].dirOnly)
		}
	}
	d.table[strings.Clone(key)] = st
	return st
}

// step is the state after byte c from st.
func (d *dfa) step(st *dstate, c byte) *dstate {
	k := d.class[c]
	if nx := st.next[k]; nx != nil {
		return nx
	}
	moved := d.moved[:0]
	for _, s := range st.set {
		if d.n.st[s].loop.has(c) {
			moved = append(moved, s)
		}
		if d.n.st[s].on.has(c) {
			moved = append(moved, s+1)
		}
	}
	d.moved = moved
	nx := d.dead
	if len(moved) > 0 {
		nx = d.intern(d.closure(moved))
	}
	st.next[k] = nx
	return nx
}

// run feeds s from st; it stops early in the dead state.
func (d *dfa) run(st *dstate, s string) *dstate {
	for i := 0; i < len(s) && st != d.dead; i++ {
		st = d.step(st, s[i])
	}
	return st
}

// litNode is a node of the trie of literal path patterns, one edge per
// path component.
type litNode struct {
	kids map[string]*litNode
	acc  best
}

func (t *litNode) insert(path string, idx int32, dirOnly bool) {
	for _, c := range strings.Split(path, "/") {
		if t.kids == nil {
			t.kids = map[string]*litNode{}
		}
		nx := t.kids[c]
		if nx == nil {
			nx = &litNode{acc: noMatch}
			t.kids[c] = nx
		}
		t = nx
	}
	t.acc.add(idx, dirOnly)
}

func (t *litNode) child(name string) *litNode {
	if t == nil {
		return nil
	}
	return t.kids[name]
}
