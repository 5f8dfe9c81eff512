package deps

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/internal/escape"
)

// Clause is one comparison of a specifier: ">=1.20", "==1.*", "^1.2" (Poetry).
type Clause struct {
	Op      string // ~= == != <= >= < > === and, for Poetry, ^ ~ (and "" for "*")
	Version string // as written, ".*" included
}

func (c Clause) String() string { return c.Op + c.Version }

var pepOps = []string{"===", "~=", "==", "!=", "<=", ">=", "<", ">"}

// ParseSpecifier parses a PEP 440 specifier set (comma-separated clauses;
// an empty string admits every version) and returns its clauses and the set
// of versions it admits under the pre-release rule.
func ParseSpecifier(s string) ([]Clause, Set, error) {
	var clauses []Clause
	if strings.TrimSpace(s) == "" {
		return nil, All(), nil
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		op := ""
		for _, o := range pepOps {
			if strings.HasPrefix(part, o) {
				op = o
				break
			}
		}
		if op == "" {
			return nil, Set{}, fmt.Errorf("invalid specifier %s: expected an operator", escape.Quote(part))
		}
		ver := strings.TrimSpace(part[len(op):])
		if ver == "" {
			return nil, Set{}, fmt.Errorf("invalid specifier %s: missing version", escape.Quote(part))
		}
		clauses = append(clauses, Clause{Op: op, Version: ver})
	}
	set, err := clausesSet(clauses)
	if err != nil {
		return nil, Set{}, err
	}
	return clauses, set, nil
}

// clausesSet intersects the clauses' sets and applies the pre-release rule.
func clausesSet(clauses []Clause) (Set, error) {
	set := All()
	pre := false
	for _, c := range clauses {
		cs, p, err := c.set()
		if err != nil {
			return Set{}, err
		}
		set = set.Intersect(cs)
		pre = pre || p
	}
	set.Prereleases = pre
	return set, nil
}

// set returns the versions one clause admits and whether it names a
// pre-release (which turns pre-releases on, as packaging does).
func (c Clause) set() (Set, bool, error) {
	bad := func(why string) (Set, bool, error) {
		return Set{}, false, fmt.Errorf("invalid specifier %s: %s", escape.Quote(c.String()), why)
	}
	if c.Op == "" && c.Version == "*" {
		return All(), false, nil
	}
	ver := c.Version
	wild := strings.HasSuffix(ver, ".*")
	if wild {
		if c.Op != "==" && c.Op != "!=" {
			return bad("a wildcard needs == or !=")
		}
		ver = strings.TrimSuffix(ver, ".*")
	}
	if c.Op == "===" {
		v, err := ParseVersion(ver)
		if err != nil { // arbitrary equality with a non-version string: nothing we know
			return None(), false, nil
		}
		return Point(v), v.IsPrerelease(), nil
	}
	v, err := ParseVersion(ver)
	if err != nil {
		return bad(err.Error())
	}
	if wild && (v.Pre != "" || v.Post >= 0 || v.Dev >= 0 || v.Local != "") {
		return bad("a wildcard follows the release numbers only")
	}
	if v.Local != "" && c.Op != "==" && c.Op != "!=" {
		return bad("a local version needs == or !=")
	}
	pre := v.IsPrerelease() && c.Op != "!="
	k := v.key()
	switch c.Op {
	case "==", "!=":
		s := Point(v).withPre(false)
		if wild {
			s = prefix(v.Epoch, v.Release)
		}
		if c.Op == "!=" {
			s = s.Complement()
		}
		return s, pre, nil
	case ">=":
		return above(k, true), pre, nil
	case "<=":
		return below(k, true), pre, nil
	case ">":
		s := above(k, false)
		if v.Post < 0 { // >V excludes the post-releases of V's release
			s = s.Intersect(between(postMin(v.Epoch, v.Release), famMax(v.Epoch, v.Release), true, true).Complement())
		}
		return s, pre, nil
	case "<":
		if v.IsPrerelease() {
			return below(k, false), pre, nil
		}
		// <V excludes the pre-releases of V's release
		s := below(famMin(v.Epoch, v.Release), false)
		if v.Post >= 0 {
			base := Version{Epoch: v.Epoch, Release: v.Release, Post: -1, Dev: -1}
			s = s.Union(between(base.key(), k, true, false))
		}
		return s, pre, nil
	case "~=":
		if len(v.Release) < 2 {
			return bad("~= needs at least two release numbers")
		}
		return above(k, true).Intersect(prefix(v.Epoch, v.Release[:len(v.Release)-1])), pre, nil
	case "^", "~":
		return poetryRange(c.Op, v), pre, nil
	}
	return bad("unknown operator")
}

// prefix returns the versions whose release starts with r (==r.*).
func prefix(epoch int64, r []int64) Set {
	next := append([]int64(nil), r...)
	next[len(next)-1]++
	return between(famMin(epoch, r), famMin(epoch, next), true, false)
}

// poetryRange is Poetry's ^ (caret) and ~ (tilde) constraints.
func poetryRange(op string, v Version) Set {
	r := v.Release
	var upper []int64
	switch op {
	case "^":
		// bump the first non-zero component (of those written)
		i := 0
		for i < len(r)-1 && r[i] == 0 {
			i++
		}
		upper = append(append([]int64(nil), r[:i]...), r[i]+1)
	case "~":
		if len(r) == 1 {
			upper = []int64{r[0] + 1}
		} else {
			upper = []int64{r[0], r[1] + 1}
		}
	}
	return between(v.key(), famMin(v.Epoch, upper), true, false)
}

// ParsePoetryConstraint parses a Poetry version constraint: "^1.2", "~1.2",
// "*", "1.2.3" (exact), "1.2.*", ">=1,<2" or ">=1 <2" (and), "a || b" (or).
func ParsePoetryConstraint(s string) ([]Clause, Set, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "*" {
		return nil, All(), nil
	}
	var all []Clause
	result := None()
	for _, alt := range strings.Split(s, "|") {
		alt = strings.TrimSpace(alt)
		if alt == "" {
			continue // "||" splits into an empty middle part
		}
		var clauses []Clause
		for _, part := range strings.FieldsFunc(alt, func(r rune) bool { return r == ',' || r == ' ' }) {
			op := ""
			for _, o := range append(pepOps, "^", "~") {
				if strings.HasPrefix(part, o) {
					op = o
					break
				}
			}
			ver := strings.TrimSpace(part[len(op):])
			if ver == "" { // ">= 1.2": operator and version split by a space
				clauses = append(clauses, Clause{Op: op})
				continue
			}
			if n := len(clauses); n > 0 && clauses[n-1].Version == "" {
				clauses[n-1].Version = ver
				continue
			}
			if op == "" {
				if ver == "*" {
					continue
				}
				op = "=="
			}
			clauses = append(clauses, Clause{Op: op, Version: ver})
		}
		for _, c := range clauses {
			if c.Version == "" {
				return nil, Set{}, fmt.Errorf("invalid constraint %s: missing version", escape.Quote(s))
			}
		}
		set, err := clausesSet(clauses)
		if err != nil {
			return nil, Set{}, err
		}
		result = result.Union(set)
		all = append(all, clauses...)
	}
	return all, result, nil
}
