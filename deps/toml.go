package deps

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// This file is the one place that uses go-toml's unstable.Parser (pinned to
// v2.4.3 in go.mod): it turns a document into a small tree whose strings
// carry their byte spans, which every TOML format reads.

// tval is a TOML value with its location. It is kept small (72 bytes) and
// arrays hold their elements by value, because a document can be one array
// of a million strings: the tree then costs one allocation of 72 MB rather
// than a million allocations of twice that. Offsets are int32: dependency
// files are read up to 16 MiB (safeio.Dependency).
type tval struct {
	str string  // String: the decoded value; scalars: their text
	arr []tval  // Array: the elements
	tbl *ttable // Table, InlineTable: the keys
	// start is the offset of a String's opening quote, of other values'
	// first byte; end is the offset after a String's closing quote.
	start, end int32
	// inner is the offset of the string's contents when they equal the
	// decoded value (no escapes, no trimmed newline), else -1: such a string
	// can only be rewritten whole.
	inner int32
	// kvStart/kvEnd span the whole "key = value" the value was assigned by
	// (for a [table], its header).
	kvStart, kvEnd int32
	k              uint8 // the unstable.Kind: String, Array, InlineTable or Table (a [table]), or a scalar kind
	// aot marks an array of tables ([[a]]), which headers extend; a
	// static array (a = [...]) is closed.
	aot bool
}

// kind returns the value's kind.
func (v *tval) kind() unstable.Kind { return unstable.Kind(v.k) }

type ttable struct {
	keys   []string
	m      map[string]*tval
	origin origin
}

// origin is how a table came to exist; TOML lets a table be defined once.
type origin uint8

const (
	// implicit: created as a parent by a header such as [a.b.c] (a, a.b);
	// its own [a.b] header may still come once.
	implicit origin = iota
	// header: defined by its [header], or an element of [[header]].
	header
	// dotted: created by a dotted key (b.c = 1); a header may add
	// sub-tables to it but not define it, nor may a later dotted key in
	// another table reach into a header's table.
	dotted
	// inline: an inline table { ... }, closed to any addition.
	inline
)

func newTable(o origin) *ttable { return &ttable{m: map[string]*tval{}, origin: o} }

// get follows a dotted path of keys through tables.
func (t *ttable) get(path ...string) *tval {
	var v *tval
	cur := t
	for _, k := range path {
		if cur == nil {
			return nil
		}
		v = cur.m[k]
		if v == nil {
			return nil
		}
		cur = v.tbl
	}
	return v
}

// table returns the table at path, or nil.
func (t *ttable) table(path ...string) *ttable {
	if v := t.get(path...); v != nil {
		return v.tbl
	}
	return nil
}

// strAt returns the string at path, or "".
func (t *ttable) strAt(path ...string) string {
	if v := t.get(path...); v != nil && v.kind() == unstable.String {
		return v.str
	}
	return ""
}

// tables returns the tables of an array of tables (or a single table) at path.
func (t *ttable) tables(path ...string) []*ttable {
	v := t.get(path...)
	if v == nil {
		return nil
	}
	if v.tbl != nil {
		return []*ttable{v.tbl}
	}
	var out []*ttable
	for _, e := range v.arr {
		if e.tbl != nil {
			out = append(out, e.tbl)
		}
	}
	return out
}

// parseTOML parses src into a tree with TOML 1.0's table rules. A header
// resolves its dotted name from the root, through the last element of any
// array of tables on the way: after [[package]], [package.metadata] is a
// table of that element and [[package.wheels]] an array in it, so each
// element has its own sub-tables, and defining one twice is an error only
// within one element. The error is a *FileError at the offending position.
func parseTOML(path string, src []byte) (root *ttable, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &FileError{Path: path, Msg: fmt.Sprintf("invalid TOML: %v", r)}
		}
	}()
	var p unstable.Parser
	p.Reset(src)
	root = newTable(header)
	cur := root
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			if cur, err = openHeader(root, e, path); err != nil {
				return nil, err
			}
		case unstable.KeyValue:
			if err := assign(&p, cur, e, path); err != nil {
				return nil, err
			}
		}
	}
	if perr := p.Error(); perr != nil {
		fe := &FileError{Path: path, Msg: "invalid TOML: " + perr.Error()}
		var pe *unstable.ParserError
		if asParserError(perr, &pe) {
			fe.Offset = cap(src) - cap(pe.Highlight)
			if pe.Highlight == nil || fe.Offset < 0 || fe.Offset > len(src) {
				fe.Offset = len(src)
			}
		}
		return nil, fe
	}
	return root, nil
}

// openHeader applies a [table] or [[array]] header e and returns the table
// its key-values go to.
func openHeader(root *ttable, e *unstable.Node, path string) (*ttable, error) {
	keys, last := keyParts(e)
	off := keys0Start(e)
	name := strings.Join(keys, ".")
	parent := root
	for _, k := range keys[:len(keys)-1] {
		var err error
		if parent, err = descendHeader(parent, k, path, off, last.end); err != nil {
			return nil, err
		}
	}
	k := keys[len(keys)-1]
	v := parent.m[k]
	if e.Kind == unstable.ArrayTable {
		if v == nil {
			v = &tval{k: uint8(unstable.Array), aot: true, start: int32(last.start), kvStart: int32(off), kvEnd: int32(last.end), inner: -1}
			parent.m[k] = v
			parent.keys = append(parent.keys, k)
		} else if !v.aot {
			return nil, tomlErr(path, off, "key %q redefined as an array of tables", name)
		}
		el := tval{k: uint8(unstable.Table), tbl: newTable(header), start: int32(last.start), kvStart: int32(off), kvEnd: int32(last.end), inner: -1}
		v.arr = append(v.arr, el)
		return el.tbl, nil
	}
	switch {
	case v == nil:
		v = &tval{k: uint8(unstable.Table), tbl: newTable(header), start: int32(last.start), kvStart: int32(off), kvEnd: int32(last.end), inner: -1}
		parent.m[k] = v
		parent.keys = append(parent.keys, k)
	case v.tbl == nil || v.aot:
		return nil, tomlErr(path, off, "key %q redefined as a table", name)
	case v.tbl.origin == implicit:
		// [a.b.c] then [a.b]: a.b is defined now, here
		v.tbl.origin = header
		v.start, v.kvStart, v.kvEnd = int32(last.start), int32(off), int32(last.end)
	default:
		return nil, tomlErr(path, off, "table [%s] defined twice", name)
	}
	return v.tbl, nil
}

func tomlErr(path string, off int, format string, args ...any) *FileError {
	return &FileError{Path: path, Offset: off, Msg: "invalid TOML: " + fmt.Sprintf(format, args...)}
}

func asParserError(err error, out **unstable.ParserError) bool {
	pe, ok := err.(*unstable.ParserError)
	if ok {
		*out = pe
	}
	return ok
}

type keyPart struct {
	name       string
	start, end int
}

func keyParts(e *unstable.Node) ([]string, keyPart) {
	var keys []string
	var last keyPart
	it := e.Key()
	for it.Next() {
		n := it.Node()
		keys = append(keys, string(n.Data))
		last = keyPart{string(n.Data), int(n.Raw.Offset), int(n.Raw.Offset + n.Raw.Length)}
	}
	return keys, last
}

func keys0Start(e *unstable.Node) int {
	it := e.Key()
	if it.Next() {
		return int(it.Node().Raw.Offset)
	}
	return 0
}

// descendHeader returns the table under key k of t for a header's dotted
// name (the header spans off-end): an array of tables stands for its last
// element, and a missing table is created implicitly.
func descendHeader(t *ttable, k, path string, off, end int) (*ttable, error) {
	v := t.m[k]
	switch {
	case v == nil:
		v = &tval{k: uint8(unstable.Table), tbl: newTable(implicit), start: int32(off), kvStart: int32(off), kvEnd: int32(end), inner: -1}
		t.m[k] = v
		t.keys = append(t.keys, k)
	case v.aot:
		return v.arr[len(v.arr)-1].tbl, nil // [[a]] then [a.b]: the last element
	case v.tbl == nil:
		return nil, tomlErr(path, off, "key %q is not a table", k)
	case v.tbl.origin == inline:
		return nil, tomlErr(path, off, "inline table %q cannot be extended", k)
	}
	return v.tbl, nil
}

// descendDotted returns the table under key k of t for a dotted key
// (k.x = 1, spanning off-end), creating it. Only a table that dotted keys
// created can be entered again this way.
func descendDotted(t *ttable, k, path string, off, end int) (*ttable, error) {
	v := t.m[k]
	if v == nil {
		v = &tval{k: uint8(unstable.Table), tbl: newTable(dotted), start: int32(off), kvStart: int32(off), kvEnd: int32(end), inner: -1}
		t.m[k] = v
		t.keys = append(t.keys, k)
	}
	if v.tbl == nil || v.aot {
		return nil, tomlErr(path, off, "key %q is not a table", k)
	}
	if v.tbl.origin != dotted {
		return nil, tomlErr(path, off, "table %q cannot be extended with dotted keys", k)
	}
	return v.tbl, nil
}

// assign sets a key-value pair in t.
func assign(p *unstable.Parser, t *ttable, e *unstable.Node, path string) error {
	var keys []string
	it := e.Key()
	for it.Next() {
		keys = append(keys, string(it.Node().Data))
	}
	kvStart, kvEnd := int(e.Raw.Offset), int(e.Raw.Offset+e.Raw.Length)
	for _, k := range keys[:len(keys)-1] {
		var err error
		if t, err = descendDotted(t, k, path, kvStart, kvEnd); err != nil {
			return err
		}
	}
	k := keys[len(keys)-1]
	if _, dup := t.m[k]; dup {
		return tomlErr(path, kvStart, "key %q defined twice", strings.Join(keys, "."))
	}
	v := &tval{}
	if err := convert(p, e.Value(), path, v); err != nil {
		return err
	}
	v.kvStart, v.kvEnd = int32(kvStart), int32(kvEnd)
	t.m[k] = v
	t.keys = append(t.keys, k)
	return nil
}

// convert fills v with the value of n.
func convert(p *unstable.Parser, n *unstable.Node, path string, v *tval) error {
	*v = tval{k: uint8(n.Kind), start: int32(n.Raw.Offset), end: int32(n.Raw.Offset + n.Raw.Length), inner: -1}
	switch n.Kind {
	case unstable.String:
		v.str = string(n.Data)
		raw := p.Raw(n.Raw)
		q := 1
		if len(raw) >= 6 && (bytes.HasPrefix(raw, []byte(`"""`)) || bytes.HasPrefix(raw, []byte("'''"))) {
			q = 3
		}
		if len(raw) >= 2*q {
			body := raw[q : len(raw)-q]
			lead := 0
			if q == 3 {
				if bytes.HasPrefix(body, []byte("\r\n")) {
					lead = 2
				} else if bytes.HasPrefix(body, []byte("\n")) {
					lead = 1
				}
			}
			if string(body[lead:]) == v.str {
				v.inner = v.start + int32(q+lead)
			}
		}
	case unstable.Array:
		count := 0
		for it := n.Children(); it.Next(); {
			if it.Node().Kind != unstable.Comment {
				count++
			}
		}
		v.arr = make([]tval, 0, count)
		for it := n.Children(); it.Next(); {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			v.arr = v.arr[:len(v.arr)+1]
			if err := convert(p, c, path, &v.arr[len(v.arr)-1]); err != nil {
				return err
			}
		}
	case unstable.InlineTable:
		v.tbl = newTable(inline)
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind != unstable.KeyValue {
				continue
			}
			if err := assign(p, v.tbl, c, path); err != nil {
				return err
			}
		}
	default:
		v.str = string(n.Data)
	}
	return nil
}

// strSpan returns the offset mapping of a TOML string's contents: off(i) is
// the file offset of byte i of the decoded value. It returns nil when the
// contents differ from the value (escapes): such strings are read, not edited.
func (v *tval) strSpan() func(int) int {
	if v.inner < 0 {
		return nil
	}
	base := int(v.inner)
	return func(i int) int { return base + i }
}
