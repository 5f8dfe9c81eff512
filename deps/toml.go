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

// tval is a TOML value with its location.
type tval struct {
	kind  unstable.Kind // String, Array, InlineTable or Table (a [table]), or a scalar kind
	str   string        // String: the decoded value
	start int           // String: offset of the opening quote; others: of the value
	end   int           // String: offset after the closing quote
	// inner is the offset of the string's contents when they equal the
	// decoded value (no escapes, no trimmed newline), else -1: such a string
	// can only be rewritten whole.
	inner int
	// kvStart/kvEnd span the whole "key = value" the value was assigned by
	// (for a [table], its header).
	kvStart, kvEnd int
	arr            []*tval
	tbl            *ttable
}

type ttable struct {
	keys []string
	m    map[string]*tval
}

func newTable() *ttable { return &ttable{m: map[string]*tval{}} }

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
	if v := t.get(path...); v != nil && v.kind == unstable.String {
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

// parseTOML parses src into a tree. The error is a *FileError at the
// offending position.
func parseTOML(path string, src []byte) (root *ttable, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &FileError{Path: path, Msg: fmt.Sprintf("invalid TOML: %v", r)}
		}
	}()
	var p unstable.Parser
	p.Reset(src)
	root = newTable()
	cur := root
	seenHeaders := map[string]bool{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, last := keyParts(e)
			name := strings.Join(keys, "\x00")
			hdr := tval{kind: unstable.Table, start: last.start, kvStart: keys0Start(e), kvEnd: last.end}
			parent := root
			for _, k := range keys[:len(keys)-1] {
				parent, err = descend(parent, k, path, hdr.kvStart)
				if err != nil {
					return nil, err
				}
			}
			k := keys[len(keys)-1]
			if e.Kind == unstable.Table {
				if seenHeaders[name] {
					return nil, &FileError{Path: path, Offset: hdr.kvStart, Msg: fmt.Sprintf("invalid TOML: table [%s] defined twice", strings.Join(keys, "."))}
				}
				seenHeaders[name] = true
				v := parent.m[k]
				switch {
				case v == nil:
					hdr.tbl = newTable()
					v = &hdr
					parent.m[k] = v
					parent.keys = append(parent.keys, k)
				case v.tbl == nil || v.kind != unstable.Table:
					return nil, &FileError{Path: path, Offset: hdr.kvStart, Msg: fmt.Sprintf("invalid TOML: key %q redefined as a table", strings.Join(keys, "."))}
				}
				cur = v.tbl
			} else {
				v := parent.m[k]
				if v == nil {
					v = &tval{kind: unstable.Array, start: hdr.start, kvStart: hdr.kvStart, kvEnd: hdr.kvEnd, inner: -1}
					parent.m[k] = v
					parent.keys = append(parent.keys, k)
				} else if v.kind != unstable.Array || v.tbl != nil {
					return nil, &FileError{Path: path, Offset: hdr.kvStart, Msg: fmt.Sprintf("invalid TOML: key %q redefined as an array of tables", strings.Join(keys, "."))}
				}
				hdr.tbl = newTable()
				el := hdr
				v.arr = append(v.arr, &el)
				cur = el.tbl
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

// descend returns the table under key k of t, creating it (implicitly).
func descend(t *ttable, k, path string, off int) (*ttable, error) {
	v := t.m[k]
	if v == nil {
		v = &tval{kind: unstable.Table, tbl: newTable(), start: off, inner: -1}
		t.m[k] = v
		t.keys = append(t.keys, k)
	}
	if v.kind == unstable.Array && len(v.arr) > 0 && v.arr[len(v.arr)-1].tbl != nil {
		return v.arr[len(v.arr)-1].tbl, nil // [[a]] then [a.b]: the last element
	}
	if v.tbl == nil {
		return nil, &FileError{Path: path, Offset: off, Msg: fmt.Sprintf("invalid TOML: key %q is not a table", k)}
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
	kvStart := int(e.Raw.Offset)
	for _, k := range keys[:len(keys)-1] {
		var err error
		if t, err = descend(t, k, path, kvStart); err != nil {
			return err
		}
	}
	k := keys[len(keys)-1]
	if _, dup := t.m[k]; dup {
		return &FileError{Path: path, Offset: kvStart, Msg: fmt.Sprintf("invalid TOML: key %q defined twice", strings.Join(keys, "."))}
	}
	v, err := convert(p, e.Value(), path)
	if err != nil {
		return err
	}
	v.kvStart, v.kvEnd = kvStart, int(e.Raw.Offset+e.Raw.Length)
	t.m[k] = v
	t.keys = append(t.keys, k)
	return nil
}

func convert(p *unstable.Parser, n *unstable.Node, path string) (*tval, error) {
	v := &tval{kind: n.Kind, start: int(n.Raw.Offset), end: int(n.Raw.Offset + n.Raw.Length), inner: -1}
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
				v.inner = v.start + q + lead
			}
		}
	case unstable.Array:
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			cv, err := convert(p, c, path)
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, cv)
		}
	case unstable.InlineTable:
		v.tbl = newTable()
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind != unstable.KeyValue {
				continue
			}
			if err := assign(p, v.tbl, c, path); err != nil {
				return nil, err
			}
		}
	default:
		v.str = string(n.Data)
	}
	return v, nil
}

// strSpan returns the offset mapping of a TOML string's contents: off(i) is
// the file offset of byte i of the decoded value. It returns nil when the
// contents differ from the value (escapes): such strings are read, not edited.
func (v *tval) strSpan() func(int) int {
	if v.inner < 0 {
		return nil
	}
	base := v.inner
	return func(i int) int { return base + i }
}
