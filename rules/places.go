package rules

import (
	"encoding/binary"
	"errors"
)

// Places are the places of the findings folded into one (Diagnostic.More).
// A repeated line of a dependency file can fold a million findings into
// one, so their encoding in the cache (gob, through GobEncode) is compact:
// each place as varints of its differences from the place before and from
// its own start, a few bytes where a struct of five int32 took 28.
type Places []Place

// GobEncode writes the places as zigzag varints: the start's and the line's
// differences from the place before, the end's and the anchor's from the
// start, the anchor end's from the anchor start.
func (ps Places) GobEncode() ([]byte, error) {
	out := make([]byte, 0, 1+len(ps)*6)
	out = binary.AppendUvarint(out, uint64(len(ps)))
	var prev Place
	for _, p := range ps {
		out = binary.AppendVarint(out, int64(p.Start)-int64(prev.Start))
		out = binary.AppendVarint(out, int64(p.End)-int64(p.Start))
		out = binary.AppendVarint(out, int64(p.AnchorStart)-int64(p.Start))
		out = binary.AppendVarint(out, int64(p.AnchorEnd)-int64(p.AnchorStart))
		out = binary.AppendVarint(out, int64(p.Line)-int64(prev.Line))
		prev = p
	}
	return out, nil
}

var errPlaces = errors.New("folded places: damaged encoding")

// GobDecode reads what GobEncode wrote.
func (ps *Places) GobDecode(b []byte) error {
	n, k := binary.Uvarint(b)
	// Each place takes five bytes at least: a count past that is damage,
	// not a reason to allocate.
	if k <= 0 || n > uint64(len(b)-k)/5 {
		return errPlaces
	}
	b = b[k:]
	if n == 0 {
		// As gob reads back an empty slice of structs: nil.
		if len(b) != 0 {
			return errPlaces
		}
		*ps = nil
		return nil
	}
	next := func() (int64, bool) {
		v, k := binary.Varint(b)
		if k <= 0 {
			return 0, false
		}
		b = b[k:]
		return v, true
	}
	out := make(Places, 0, n)
	var prev Place
	for range n {
		var d [5]int64
		for i := range d {
			v, ok := next()
			if !ok {
				return errPlaces
			}
			d[i] = v
		}
		start := int64(prev.Start) + d[0]
		anchor := start + d[2]
		p := Place{Start: int32(start), End: int32(start + d[1]), AnchorStart: int32(anchor), AnchorEnd: int32(anchor + d[3]), Line: int32(int64(prev.Line) + d[4])}
		out = append(out, p)
		prev = p
	}
	if len(b) != 0 {
		return errPlaces
	}
	*ps = out
	return nil
}
