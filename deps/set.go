package deps

import (
	"strconv"
	"strings"
)

// bound is one end of an interval; unbounded ends have inf set.
type bound struct {
	k    key
	incl bool
	inf  bool
}

type interval struct{ lo, hi bound }

// Set is a set of versions: a union of disjoint, sorted intervals, plus the
// PEP 440 pre-release rule. Pre-releases (and dev-releases) are admitted only
// when Prereleases is set, which a specifier that names one turns on.
type Set struct {
	ivs         []interval
	Prereleases bool
}

// All returns the set of every version.
func All() Set { return Set{ivs: []interval{{lo: bound{inf: true}, hi: bound{inf: true}}}} }

// None returns the empty set.
func None() Set { return Set{} }

// Point returns the set {v}.
func Point(v Version) Set {
	k := v.key()
	return Set{ivs: []interval{{lo: bound{k: k, incl: true}, hi: bound{k: k, incl: true}}}, Prereleases: v.IsPrerelease()}
}

// Range returns [lo, hi) as a PEP 440 reader means ">=lo,<hi": pre-releases
// of hi are outside. An empty string leaves that end open.
func Range(lo, hi string) (Set, error) {
	r := All()
	if lo != "" {
		v, err := ParseVersion(lo)
		if err != nil {
			return Set{}, err
		}
		r.ivs[0].lo = bound{k: v.key(), incl: true}
	}
	if hi != "" {
		v, err := ParseVersion(hi)
		if err != nil {
			return Set{}, err
		}
		r.ivs[0].hi = bound{k: famMin(v.Epoch, v.Release)}
		if v.IsPrerelease() || v.Post >= 0 {
			r.ivs[0].hi = bound{k: v.key()}
		}
	}
	return r, nil
}

func between(lo, hi key, loIncl, hiIncl bool) Set {
	return Set{ivs: []interval{{lo: bound{k: lo, incl: loIncl}, hi: bound{k: hi, incl: hiIncl}}}}
}

func above(k key, incl bool) Set {
	return Set{ivs: []interval{{lo: bound{k: k, incl: incl}, hi: bound{inf: true}}}}
}

func below(k key, incl bool) Set {
	return Set{ivs: []interval{{lo: bound{inf: true}, hi: bound{k: k, incl: incl}}}}
}

// cmpLo orders lower bounds; cmpHi upper bounds.
func cmpLo(a, b bound) int {
	switch {
	case a.inf && b.inf:
		return 0
	case a.inf:
		return -1
	case b.inf:
		return 1
	}
	if c := a.k.cmp(b.k); c != 0 {
		return c
	}
	switch {
	case a.incl == b.incl:
		return 0
	case a.incl:
		return -1
	}
	return 1
}

func cmpHi(a, b bound) int {
	switch {
	case a.inf && b.inf:
		return 0
	case a.inf:
		return 1
	case b.inf:
		return -1
	}
	if c := a.k.cmp(b.k); c != 0 {
		return c
	}
	switch {
	case a.incl == b.incl:
		return 0
	case a.incl:
		return 1
	}
	return -1
}

func (iv interval) empty() bool {
	if iv.lo.inf || iv.hi.inf {
		return false
	}
	c := iv.lo.k.cmp(iv.hi.k)
	return c > 0 || c == 0 && !(iv.lo.incl && iv.hi.incl)
}

// hasFinal reports whether the interval holds a version that is not a
// pre-release.
func (iv interval) hasFinal() bool {
	if iv.empty() {
		return false
	}
	if iv.lo.inf || iv.hi.inf {
		return true
	}
	f, ok := iv.lo.k.nextFinal(!iv.lo.incl)
	if !ok { // finals above a family's top are dense: any later release works
		return iv.hi.k.epoch > iv.lo.k.epoch || iv.hi.k.epoch == iv.lo.k.epoch && cmpRelease(iv.hi.k.release, iv.lo.k.release) > 0
	}
	c := f.cmp(iv.hi.k)
	return c < 0 || c == 0 && iv.hi.incl
}

// Intersect returns s ∩ t. The result admits pre-releases only if both do.
func (s Set) Intersect(t Set) Set {
	var out []interval
	i, j := 0, 0
	for i < len(s.ivs) && j < len(t.ivs) {
		a, b := s.ivs[i], t.ivs[j]
		lo := a.lo
		if cmpLo(b.lo, lo) > 0 {
			lo = b.lo
		}
		hi := a.hi
		if cmpHi(b.hi, hi) < 0 {
			hi = b.hi
		}
		if iv := (interval{lo, hi}); !iv.empty() {
			out = append(out, iv)
		}
		if cmpHi(a.hi, b.hi) < 0 {
			i++
		} else {
			j++
		}
	}
	return Set{ivs: out, Prereleases: s.Prereleases && t.Prereleases}
}

// Union returns s ∪ t. The result admits pre-releases if either does.
func (s Set) Union(t Set) Set {
	all := append(append([]interval(nil), s.ivs...), t.ivs...)
	// insertion sort by lower bound: sets are small
	for i := 1; i < len(all); i++ {
		for j := i; j > 0 && cmpLo(all[j].lo, all[j-1].lo) < 0; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	var out []interval
	for _, iv := range all {
		if n := len(out); n > 0 && touches(out[n-1].hi, iv.lo) {
			if cmpHi(iv.hi, out[n-1].hi) > 0 {
				out[n-1].hi = iv.hi
			}
			continue
		}
		out = append(out, iv)
	}
	return Set{ivs: out, Prereleases: s.Prereleases || t.Prereleases}
}

// touches reports whether an interval ending at hi and one starting at lo
// overlap or meet.
func touches(hi, lo bound) bool {
	if hi.inf || lo.inf {
		return true
	}
	c := lo.k.cmp(hi.k)
	return c < 0 || c == 0 && (hi.incl || lo.incl)
}

// Complement returns the versions not in s (the pre-release flag is kept).
func (s Set) Complement() Set {
	out := Set{Prereleases: s.Prereleases}
	prev := bound{inf: true}
	for _, iv := range s.ivs {
		if !iv.lo.inf {
			out.ivs = append(out.ivs, interval{lo: prev, hi: bound{k: iv.lo.k, incl: !iv.lo.incl}})
		}
		if iv.hi.inf {
			return out
		}
		prev = bound{k: iv.hi.k, incl: !iv.hi.incl}
	}
	out.ivs = append(out.ivs, interval{lo: prev, hi: bound{inf: true}})
	return out
}

// Empty reports whether s admits no version at all.
func (s Set) Empty() bool {
	for _, iv := range s.ivs {
		if iv.hasFinal() || s.Prereleases && !iv.empty() {
			return false
		}
	}
	return true
}

// Contains reports whether s admits v.
func (s Set) Contains(v Version) bool {
	if v.IsPrerelease() && !s.Prereleases {
		return false
	}
	return !s.Intersect(Point(v).withPre(true)).withPre(true).Empty()
}

func (s Set) withPre(p bool) Set { s.Prereleases = p; return s }

// Admits reports whether s holds a version in r (see Range).
func (s Set) Admits(r Set) bool {
	r.Prereleases = true
	return !s.Intersect(r).withPre(s.Prereleases).Empty()
}

// AdmitsRange is Admits(Range(lo, hi)); a bad version admits nothing.
func (s Set) AdmitsRange(lo, hi string) bool {
	r, err := Range(lo, hi)
	return err == nil && s.Admits(r)
}

// UnboundedAbove reports whether s admits arbitrarily high versions.
func (s Set) UnboundedAbove() bool {
	return len(s.ivs) > 0 && s.ivs[len(s.ivs)-1].hi.inf
}

// Above returns s ∩ [v, ∞).
func (s Set) Above(v Version) Set {
	return s.Intersect(above(v.key(), true).withPre(true))
}

// Max returns the highest of versions that s admits.
func (s Set) Max(versions []Version) (Version, bool) {
	var best Version
	found := false
	for _, v := range versions {
		if s.Contains(v) && (!found || v.Compare(best) > 0) {
			best, found = v, true
		}
	}
	return best, found
}

// setID names a Set by its storage: sets read from one requirement text
// share it (requirementCache), so equal IDs mean equal sets (not the
// reverse). It lets a loop over a million repeated requirements do the
// work of one.
type setID struct {
	first *interval
	n     int
	pre   bool
}

func (s Set) id() setID {
	id := setID{n: len(s.ivs), pre: s.Prereleases}
	if len(s.ivs) > 0 {
		id.first = &s.ivs[0]
	}
	return id
}

// String describes s for debugging and messages.
func (s Set) String() string {
	if len(s.ivs) == 0 {
		return "∅"
	}
	var parts []string
	for _, iv := range s.ivs {
		lo, hi := "(-∞", "∞)"
		if !iv.lo.inf {
			lo = map[bool]string{true: "[", false: "("}[iv.lo.incl] + iv.lo.k.String()
		}
		if !iv.hi.inf {
			hi = iv.hi.k.String() + map[bool]string{true: "]", false: ")"}[iv.hi.incl]
		}
		parts = append(parts, lo+", "+hi)
	}
	out := strings.Join(parts, " ∪ ")
	if s.Prereleases {
		out += " +pre"
	}
	return out
}

func (k key) String() string {
	var b strings.Builder
	v := Version{Epoch: k.epoch, Release: k.release, Post: -1, Dev: -1}
	if len(v.Release) == 0 {
		v.Release = []int64{0}
	}
	b.WriteString(v.String())
	switch k.pre {
	case negInf:
		if k.dev == negInf {
			b.WriteString(".min")
			return b.String()
		}
	case posInf:
		if k.post == posInf {
			b.WriteString(".max")
			return b.String()
		}
	default:
		b.WriteString([]string{"a", "b", "rc"}[k.pre])
		b.WriteString(itoa(k.preN))
	}
	if k.post != negInf {
		if k.dev == negInf {
			b.WriteString(".post.min")
			return b.String()
		}
		b.WriteString(".post" + itoa(k.post))
	}
	if k.dev != posInf {
		b.WriteString(".dev" + itoa(k.dev))
	}
	return b.String()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
