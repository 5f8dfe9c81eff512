package deps

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// What known releases require of the other packages the rules track (SPEC
// section 2), and a check that the requirements installed together (a
// manifest's main dependencies with one of its extras or groups) leave a
// version of each package that the others' own requirements admit. The
// dependency fixes use it before they offer an edit: a bump that makes a
// manifest uninstallable (fastmcp>=4,<5 beside mcp==1.28.1: fastmcp 4
// requires mcp>=2) moves the other requirement with it, or is not offered.

// requiresRow is what the releases of pkg in a range require of dep.
type requiresRow struct {
	pkg, releases string // the package and its releases (a PEP 440 specifier)
	dep, spec     string // what those releases require of dep
}

// knownRequires is the table. fastmcp-slim carries fastmcp's code and mcp
// pin from 3.3.0, and fastmcp from 3.3.0 requires fastmcp-slim of its own
// version; the rows of fastmcp-slim repeat fastmcp's.
var knownRequires = func() []requiresRow {
	fastmcp := []requiresRow{
		// 2.x requires mcp 1.x; 2.10.0-2.11.2 and 2.14.0-2.14.1 declare no
		// upper bound on mcp.
		{"fastmcp", ">=2.0.0,<2.10.0", "mcp", ">=1.0.0,<2"},
		{"fastmcp", ">=2.10.0,<=2.11.2", "mcp", ">=1.0.0"},
		{"fastmcp", ">2.11.2,<2.14.0", "mcp", ">=1.0.0,<2"},
		{"fastmcp", ">=2.14.0,<=2.14.1", "mcp", ">=1.0.0"},
		{"fastmcp", ">2.14.1,<3.0.0.dev0", "mcp", ">=1.0.0,<2"},
		{"fastmcp", ">=3.0.0.dev0,<4.0.0.dev0", "mcp", ">=1.24.0,<2.0"},
		{"fastmcp", ">=4.0.0.dev0", "mcp", ">=2.0.0"},
	}
	out := append([]requiresRow{}, fastmcp...)
	for _, r := range fastmcp {
		if !strings.HasPrefix(r.releases, ">=2") && !strings.HasPrefix(r.releases, ">2") {
			r.pkg = "fastmcp-slim"
			out = append(out, r)
		}
	}
	return append(out,
		requiresRow{"fastmcp", ">=3.3.0,<4.0.0.dev0", "fastmcp-slim", ">=3.3.0,<4.0.0.dev0"},
		requiresRow{"fastmcp", ">=4.0.0.dev0", "fastmcp-slim", ">=4.0.0.dev0"},
	)
}()

// Need is one requirement as the check reads it: a manifest's, or what a
// fix needs (the respond/cancel guard needs mcp>=1.3.0rc1,<2).
type Need struct {
	Name   string // normalised
	Set    Set
	Marker string // environment marker, "" for none
	What   string // for messages: "mcp==1.28.1 (pyproject.toml)"
	// Changed marks what a fix writes or needs: Conflict then reports
	// only conflicts it takes part in, not those the manifest had before.
	Changed bool
	// Written marks a requirement a fix writes (Changed too): the other
	// requirements of its package beside it are not checked against it,
	// since the rule that writes it reports them and their own fixes move
	// them alike (mcp>=2,<3 in the main dependencies and in a group).
	Written bool
}

// NeedOf is the Need of a requirement.
func NeedOf(r *Requirement) Need {
	return Need{Name: r.Name, Set: r.Set, Marker: r.Marker, What: r.String() + " (" + path.Base(r.Path) + ")"}
}

// Requires returns what the releases of pkg that s admits require of dep,
// as the union over the table's rows that s meets, and whether the table
// knows (a row meets s).
func Requires(pkg string, s Set, dep string) (Set, bool) {
	out, known := None(), false
	for _, r := range knownRequires {
		if r.pkg != pkg || r.dep != dep {
			continue
		}
		_, rel, err := ParseSpecifier(r.releases)
		if err != nil || !s.Admits(rel) {
			continue
		}
		_, req, err := ParseSpecifier(r.spec)
		if err != nil {
			continue
		}
		out, known = out.Union(req).withPre(out.Prereleases || req.Prereleases), true
	}
	return out, known
}

// Conflict returns why needs, installed together, cannot be satisfied by
// any choice of versions the table knows, or "": two needs of one package
// that admit no common version, or a need of a package whose releases
// (those it admits) all require of another package what that package's
// need excludes. Needs with different environment markers may hold at
// once, so they are checked as well; one whose set is unknown (Unknown
// requirements admit everything) never conflicts. When a need is Changed,
// only the conflicts of changed needs count.
func Conflict(needs []Need) string {
	needs = distinctNeeds(needs)
	anyChanged := false
	for _, n := range needs {
		anyChanged = anyChanged || n.Changed
	}
	counts := func(a, b Need) bool { return !anyChanged || a.Changed || b.Changed }
	for i, a := range needs {
		for _, b := range needs[i+1:] {
			if counts(a, b) && !a.Written && !b.Written && a.Name == b.Name && (a.Marker == b.Marker || a.Marker == "" || b.Marker == "") &&
				!a.Set.Admits(b.Set.withPre(true)) {
				return fmt.Sprintf("%s and %s admit no common version", a.What, b.What)
			}
		}
	}
	for _, a := range needs {
		if !requiresSome[a.Name] {
			continue
		}
		for _, x := range needs {
			if a.Name == x.Name || !counts(a, x) {
				continue
			}
			req, known := Requires(a.Name, a.Set, x.Name)
			if known && !x.Set.Admits(req.withPre(true)) {
				return fmt.Sprintf("%s requires %s%s, which %s excludes", a.What, x.Name, req.String(), x.What)
			}
		}
	}
	return ""
}

// requiresSome holds the packages knownRequires has rows for.
var requiresSome = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range knownRequires {
		m[r.pkg] = true
	}
	return m
}()

// distinctNeeds drops repeats of a need (the same requirement written many
// times: a requirements file may repeat a line a million times), keeping at
// most two of each in their first order, so that a need that conflicts with
// itself (an empty set) still does and Conflict's answer is the same as over
// the whole list, at a cost in proportion to the distinct needs.
func distinctNeeds(needs []Need) []Need {
	type needKey struct {
		name, marker, what string
		set                setID
		changed, written   bool
	}
	seen := make(map[needKey]int, len(needs))
	out := needs[:0:0]
	for _, n := range needs {
		k := needKey{n.Name, n.Marker, n.What, n.Set.id(), n.Changed, n.Written}
		if seen[k] >= 2 {
			continue
		}
		seen[k]++
		out = append(out, n)
	}
	return out
}

// Installs returns the sets of manifest requirements installed together
// with r: r's file's main dependencies (Group "") with one of its extras or
// groups, each set once; r's own group only when r is in one. A
// requirements file is installed with the files it includes (-r, and the
// constraints of -c) and with each file that includes it: the set of each
// file that no other includes and whose includes reach r's. Lock entries
// are not in them (a lock is re-made from the manifest).
func (p *Project) Installs(r *Requirement) [][]*Requirement {
	x := p.index()
	k := fileGroup{r.Path, r.Group}
	if sets, ok := x.installs[k]; ok {
		return sets
	}
	sets := p.installs(r)
	x.installs[k] = sets
	return sets
}

// installs is Installs without the memo: the sets depend only on r's file
// and group.
func (p *Project) installs(r *Requirement) [][]*Requirement {
	if r.Group != "" {
		return [][]*Requirement{append(p.mainOf(r.Path), p.groupOf(r.Path, r.Group)...)}
	}
	var out [][]*Requirement
	for _, g := range p.index().groups[r.Path] {
		out = append(out, append(p.mainOf(r.Path), p.groupOf(r.Path, g)...))
	}
	if len(out) > 0 {
		return out
	}
	if len(p.includes) == 0 {
		return [][]*Requirement{p.mainOf(r.Path)}
	}
	for _, top := range p.includeTops(path.Clean(r.Path)) {
		var set []*Requirement
		for _, f := range p.includeClosure(top) {
			set = append(set, p.mainOf(f)...)
			set = append(set, p.constraintsOf(f)...)
		}
		out = append(out, set)
	}
	return out
}

// fileGroup names a file's group of requirements ("" for its main ones).
type fileGroup struct{ path, group string }

// reqIndex is the project's manifest requirements by file and group, and
// the install sets asked for so far, made on first use: the dependency
// rules ask for the sets of every requirement, and a file may hold a
// million lines.
type reqIndex struct {
	byGroup     map[fileGroup][]*Requirement // by cleaned path
	groups      map[string][]string          // a file's extras and groups, in their first order (by path as read)
	constraints map[string][]*Requirement    // -c constraints, by cleaned path
	installs    map[fileGroup][][]*Requirement
}

func (p *Project) index() *reqIndex {
	if p.idx != nil {
		return p.idx
	}
	x := &reqIndex{
		byGroup:     map[fileGroup][]*Requirement{},
		groups:      map[string][]string{},
		constraints: map[string][]*Requirement{},
		installs:    map[fileGroup][][]*Requirement{},
	}
	for _, q := range p.reqs {
		if q.Locked {
			continue
		}
		clean := path.Clean(q.Path)
		if q.Constraint {
			x.constraints[clean] = append(x.constraints[clean], q)
			continue
		}
		k := fileGroup{clean, q.Group}
		if q.Group != "" && !slices.Contains(x.groups[q.Path], q.Group) {
			x.groups[q.Path] = append(x.groups[q.Path], q.Group)
		}
		x.byGroup[k] = append(x.byGroup[k], q)
	}
	p.idx = x
	return x
}

// includeClosure returns file and the files its includes reach, in order.
func (p *Project) includeClosure(file string) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(f string)
	walk = func(f string) {
		if seen[f] {
			return
		}
		seen[f] = true
		out = append(out, f)
		for _, g := range p.includes[f] {
			walk(g)
		}
	}
	walk(file)
	return out
}

// includeTops returns the files that no other file includes and whose
// closure holds file (file itself when nothing includes it).
func (p *Project) includeTops(file string) []string {
	included := map[string]bool{}
	for _, gs := range p.includes {
		for _, g := range gs {
			included[g] = true
		}
	}
	var tops []string
	seen := map[string]bool{}
	for _, f := range p.Files {
		k := path.Clean(f.Path)
		if included[k] || seen[k] {
			continue
		}
		seen[k] = true
		for _, c := range p.includeClosure(k) {
			if c == file {
				tops = append(tops, k)
				break
			}
		}
	}
	if len(tops) == 0 {
		tops = []string{file}
	}
	return tops
}

func (p *Project) constraintsOf(file string) []*Requirement {
	return slices.Clip(p.index().constraints[file])
}

// ManifestInstalls returns every install set of the project's manifests
// (each file's main dependencies with each extra or group), for a check
// that concerns the whole project (the guard needs mcp 1.x).
func (p *Project) ManifestInstalls() [][]*Requirement {
	var out [][]*Requirement
	seen := map[string]bool{}
	for _, q := range p.reqs {
		if q.Locked || q.Constraint {
			continue
		}
		k := q.Path + "\x00" + q.Group
		if seen[k] {
			continue
		}
		seen[k] = true
		if q.Group == "" {
			out = append(out, p.mainOf(q.Path))
			continue
		}
		out = append(out, append(p.mainOf(q.Path), p.groupOf(q.Path, q.Group)...))
	}
	return out
}

func (p *Project) mainOf(file string) []*Requirement { return p.groupOf(file, "") }

// groupOf returns file's requirements of group, clipped: callers append to
// it.
func (p *Project) groupOf(file, group string) []*Requirement {
	return slices.Clip(p.index().byGroup[fileGroup{path.Clean(file), group}])
}
