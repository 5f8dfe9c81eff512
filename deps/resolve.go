package deps

import (
	"fmt"
	"path"
	"strings"
)

// Known releases (SPEC section 2). Only the newest matters for resolution: a
// range open above resolves to the newest release it admits.
var knownReleases = map[string][]Version{
	"mcp": versions("1.0.0", "1.3.0", "1.9.0", "1.9.4", "1.12.0", "1.12.1", "1.12.2", "1.12.3", "1.12.4",
		"1.13.0", "1.13.1", "1.14.0", "1.14.1", "1.15.0", "1.16.0", "1.17.0", "1.18.0", "1.19.0", "1.20.0",
		"1.21.0", "1.22.0", "1.23.0", "1.24.0", "1.25.0", "1.26.0", "1.27.0", "1.27.1", "1.27.2", "1.28.0",
		"1.28.1", "1.29.0", "1.30.0", "2.0.0a1", "2.0.0", "2.1.0", "2.1.1", "2.2.0", "2.3.0"),
	"fastmcp": versions("2.0.0", "2.10.0", "2.11.2", "2.12.0", "2.13.0", "2.14.0", "2.14.1", "2.14.5",
		"3.0.0b1", "3.0.0", "3.1.0", "3.2.0", "3.3.0", "3.4.0", "3.4.7", "4.0.0rc1", "4.0.0", "4.1.0"),
	"anyio": versions("3.7.1", "4.0.0", "4.1.0", "4.5.0", "4.9.0", "4.10.0", "4.11.0", "4.12.0"),
}

func versions(vs ...string) []Version {
	out := make([]Version, len(vs))
	for i, s := range vs {
		out[i] = MustVersion(s)
	}
	return out
}

// packageNames maps a resolved package to the distribution names it covers.
var packageNames = map[string][]string{
	"mcp":     {"mcp"},
	"fastmcp": {"fastmcp", "fastmcp-slim"},
	"anyio":   {"anyio"},
}

// Tracked tells whether a project keeps the requirements of the
// distribution name (normalised): the names packageNames covers.
func Tracked(name string) bool {
	for _, names := range packageNames {
		for _, n := range names {
			if n == name {
				return true
			}
		}
	}
	return false
}

// Resolution is what a project's files say about one package.
type Resolution struct {
	Package string
	Known   bool // something declares, locks or assumes it
	Set     Set  // the versions the project can run (when Known)
	// Locked are lock entries (exact versions), Declared manifest
	// requirements, Constraints pip constraints; each in file order.
	Locked, Declared, Constraints []*Requirement
	Assumed                       string   // the option value used, when nothing declares
	Stale                         []string // lock entries that the manifests do not admit
	Implied                       string   // how the set was implied by another package ("fastmcp 3.x pulls mcp 1.x")
	// Code says why the project's code narrowed a declared range of mcp
	// to 1.x (Project.SetCodeNeedsMCP1), when it did.
	Code string
}

// Resolution returns what the project's files say about pkg ("mcp",
// "fastmcp" (fastmcp and fastmcp-slim) or "anyio"; any other name is read as
// a single distribution). A lock's exact version beats a declared range; a
// range open above resolves to the newest release it admits.
func (p *Project) Resolution(pkg string) *Resolution {
	pkg = NormalizeName(pkg)
	if r := p.resolved[pkg]; r != nil {
		return r
	}
	if p.resolved == nil {
		p.resolved = map[string]*Resolution{}
	}
	r := p.resolve(pkg, true)
	p.resolved[pkg] = r
	return r
}

// dropStaleMCPLocks returns the lock entries of mcp, less those of a lock
// made for another manifest: one that does not lock the fastmcp a manifest
// declares, while the fastmcp that declaration resolves to excludes the
// locked mcp (a lock of mcp 1.6.0 beside fastmcp>=2.8.1, which resolves to
// fastmcp 4.x and mcp 2.x). Installing from the manifest re-locks both, so
// that mcp is not what runs; res.Stale says why it was left out.
func (p *Project) dropStaleMCPLocks(res *Resolution, implied Set) []*Requirement {
	f := p.Resolution("fastmcp")
	if len(f.Declared) == 0 {
		return res.Locked
	}
	for _, d := range f.Declared {
		if d.Unknown { // fastmcp @ git+...: its mcp is not known
			return res.Locked
		}
	}
	var kept []*Requirement
	for _, l := range res.Locked {
		v, err := ParseVersion(l.Version)
		locksFastmcp := false
		for _, fl := range f.Locked {
			locksFastmcp = locksFastmcp || fl.Path == l.Path
		}
		if l.Unknown || err != nil || locksFastmcp || implied.withPre(true).Contains(v) {
			kept = append(kept, l)
			continue
		}
		res.Stale = append(res.Stale, fmt.Sprintf("%s locks %s %s but no fastmcp, which %s declares (%s: %s)",
			path.Base(l.Path), l.RawName, l.Version, path.Base(f.Declared[0].Path), f.Declared[0].Specifier, res.Implied))
	}
	return kept
}

// relocks reports whether the lock l was made from the manifest that
// declares d, by a tool that re-locks when the manifest no longer admits
// what the lock holds: uv.lock, poetry.lock or pdm.lock beside the
// pyproject.toml (pip-compile output is installed as it is).
func relocks(l, d *Requirement) bool {
	switch path.Base(l.Path) {
	case "uv.lock", "poetry.lock", "pdm.lock":
	default:
		return false
	}
	return path.Base(d.Path) == "pyproject.toml" && path.Dir(l.Path) == path.Dir(d.Path)
}

// pinnedResolution is Resolution without narrowing a range open above to the
// newest release: the versions the project's files admit, for claims that
// must hold for every environment they allow (an environment made before
// the newest release still runs an older one).
func (p *Project) pinnedResolution(pkg string) *Resolution {
	pkg = NormalizeName(pkg)
	if r := p.pinned[pkg]; r != nil {
		return r
	}
	if p.pinned == nil {
		p.pinned = map[string]*Resolution{}
	}
	r := p.resolve(pkg, false)
	p.pinned[pkg] = r
	return r
}

func (p *Project) matching(pkg string) []*Requirement {
	names := packageNames[pkg]
	if names == nil {
		names = []string{pkg}
	}
	var out []*Requirement
	for _, r := range p.reqs {
		for _, n := range names {
			if r.Name == n {
				out = append(out, r)
			}
		}
	}
	return out
}

// resolve resolves pkg; narrow resolves ranges open above to the newest
// release they admit.
func (p *Project) resolve(pkg string, narrow bool) *Resolution {
	res := &Resolution{Package: pkg}
	for _, r := range p.matching(pkg) {
		switch {
		case r.Locked:
			res.Locked = append(res.Locked, r)
		case r.Constraint:
			res.Constraints = append(res.Constraints, r)
		default:
			res.Declared = append(res.Declared, r)
		}
	}
	constraint := All()
	for _, c := range res.Constraints {
		constraint = constraint.Intersect(c.Set).withPre(constraint.Prereleases || c.Set.Prereleases)
	}
	// mcp is also pulled by fastmcp: fastmcp < 4 needs mcp 1.x, >= 4 mcp 2.x.
	implied, hasImplied := Set{}, false
	if pkg == "mcp" {
		f := p.Resolution("fastmcp")
		if !narrow {
			f = p.pinnedResolution("fastmcp")
		}
		if f.Known && len(f.Locked)+len(f.Declared) > 0 {
			hasImplied = true
			if f.Set.AdmitsRange("", "4.0.0") {
				implied = implied.Union(mustRange("1.0.0", "2.0.0"))
				res.Implied = "fastmcp < 4 pulls mcp 1.x"
			}
			if f.Set.AdmitsRange("4.0.0", "") {
				implied = implied.Union(mustRange("2.0.0", ""))
				if res.Implied == "" {
					res.Implied = "fastmcp >= 4 pulls mcp 2.x"
				}
			}
		}
	}
	if pkg == "mcp" && hasImplied {
		res.Locked = p.dropStaleMCPLocks(res, implied)
	}
	// declaredSet is what a declaration resolves to, as with no lock.
	declaredSet := func(d *Requirement) Set {
		s := d.Set.Intersect(constraint).withPre(d.Set.Prereleases || constraint.Prereleases)
		if hasImplied {
			s = s.Intersect(implied).withPre(s.Prereleases)
		}
		if pkg == "mcp" && p.codeMCP1 != "" && s.AdmitsRange("2.0.0.dev0", "") {
			// The code runs only on 1.x: the environments it runs in
			// have the 1.x part of the range, whatever a fresh install
			// picks. A range with no 1.x stays: the code is broken there.
			if c := s.Intersect(mustRange("", "2.0.0")); !c.Empty() {
				s, res.Code = c, p.codeMCP1
			}
		}
		if narrow {
			s = resolveOpen(s, knownReleases[pkg])
		}
		return s
	}
	// A lock entry without a version (a VCS or directory package) says
	// nothing about the version: the manifests decide, as with no lock.
	exact := 0
	for _, l := range res.Locked {
		if !l.Unknown {
			exact++
		}
	}
	switch {
	case exact > 0:
		res.Known = true
		res.Set = None()
		for _, l := range res.Locked {
			if l.Unknown {
				continue
			}
			res.Set = res.Set.Union(l.Set)
			v, err := ParseVersion(l.Version)
			if err != nil {
				continue
			}
			for _, d := range res.Declared {
				if !d.Unknown && !d.Set.withPre(true).Contains(v) {
					spec := d.Specifier
					if spec == "" {
						spec = "any version"
					}
					res.Stale = append(res.Stale, fmt.Sprintf("%s locks %s %s but %s declares %s", path.Base(l.Path), l.RawName, l.Version, path.Base(d.Path), spec))
					if relocks(l, d) {
						// uv sync and poetry install re-lock from the
						// manifest first; only a frozen install keeps the
						// lock: the project can run either.
						res.Set = res.Set.Union(declaredSet(d))
					}
				}
			}
		}
	case len(res.Declared) > 0:
		res.Known = true
		res.Set = None()
		done := map[setID]bool{} // a set repeated adds nothing to the union
		for _, d := range res.Declared {
			if done[d.Set.id()] {
				continue
			}
			done[d.Set.id()] = true
			res.Set = res.Set.Union(declaredSet(d))
		}
	case hasImplied:
		res.Known = true
		res.Set = implied
	default:
		assume := ""
		switch pkg {
		case "mcp":
			assume = p.opts.AssumeMCP
		case "fastmcp":
			assume = p.opts.AssumeFastMCP
		}
		if assume == "" {
			return res
		}
		if v, err := ParseVersion(assume); err == nil {
			res.Set = Point(v)
		} else if _, s, err := ParseSpecifier(assume); err == nil {
			res.Set = resolveOpen(s, knownReleases[pkg])
		} else {
			return res
		}
		res.Known, res.Assumed = true, assume
	}
	return res
}

func mustRange(lo, hi string) Set {
	s, err := Range(lo, hi)
	if err != nil {
		panic(err)
	}
	return s
}

// resolveOpen narrows a range that is open above to what an installer picks
// today: the newest release it admits (and anything newer).
func resolveOpen(s Set, known []Version) Set {
	if !s.UnboundedAbove() {
		return s
	}
	if newest, ok := s.Max(known); ok {
		return s.Above(newest)
	}
	last := s.ivs[len(s.ivs)-1]
	return Set{ivs: []interval{last}, Prereleases: s.Prereleases}
}

// Describe returns one line about pkg for reports, e.g.
// "mcp ==1.26.0 (uv.lock), declared >=1.20 in pyproject.toml".
func (p *Project) Describe(pkg string) string {
	r := p.Resolution(pkg)
	var parts []string
	for _, l := range r.Locked {
		if l.Version == "" {
			parts = append(parts, fmt.Sprintf("locked without a version (%s)", p.displayName(l.Path)))
			continue
		}
		parts = append(parts, fmt.Sprintf("==%s (%s)", l.Version, p.displayName(l.Path)))
	}
	var decl []string
	for _, d := range r.Declared {
		spec := d.Specifier
		switch {
		case d.URL != "":
			spec = "@ " + d.URL
		case spec == "":
			spec = "(any version)"
		}
		decl = append(decl, fmt.Sprintf("%s in %s", spec, p.displayName(d.Path)))
	}
	if len(decl) > 0 {
		prefix := "declared "
		if len(parts) == 0 {
			prefix = ""
		}
		parts = append(parts, prefix+strings.Join(dedupe(decl), ", "))
	}
	switch {
	case len(parts) == 0 && r.Implied != "":
		parts = append(parts, "not declared ("+r.Implied+")")
	case len(parts) == 0 && r.Assumed != "":
		parts = append(parts, "assumed "+r.Assumed)
	case len(parts) == 0:
		parts = append(parts, "not declared")
	}
	out := pkg + " " + strings.Join(parts, ", ")
	if r.Code != "" {
		out += "; only 1.x: the code " + r.Code + ", which mcp 2.x removed"
	}
	if len(r.Stale) > 0 {
		out += "; stale lock: " + strings.Join(r.Stale, "; ")
	}
	return out
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// FloorEdit returns the edit that raises a manifest requirement of pkg to
// floor within floor's major version (mcp>=1.20,<2 -> mcp>=1.27.0,<2): the
// first requirement, in file order, that admits a version of that major below
// floor. ok is false when none does or none can be edited in place.
func (p *Project) FloorEdit(pkg, floor string) (path string, start, end int, newText string, ok bool) {
	for _, r := range p.matching(NormalizeName(pkg)) {
		if text, ok := r.FloorSpecifier(floor); ok {
			return r.Path, r.VersionStart, r.VersionEnd, text, true
		}
	}
	return "", 0, 0, "", false
}

// FloorSpecifier returns the specifier that replaces r's version part to
// raise its floor to floor within floor's major, in the user's style: a
// one-clause pin keeps its operator (==1.20.0 -> ==1.27.0, ~=1.20 -> ~=1.27,
// ==1.20.* -> ==1.27.*, Poetry ^1.20 -> ^1.27, ~1.20.0 -> ~1.27.0, a bare
// Poetry 1.20.0 -> 1.27.0); a range gets the new floor and keeps its upper
// bounds and the exclusions that still matter. ok is false when r is a lock
// entry, cannot be edited in place, or already admits nothing below floor in
// that major.
func (r *Requirement) FloorSpecifier(floor string) (string, bool) {
	fv, err := ParseVersion(floor)
	if err != nil || r.Locked || r.Constraint || r.Unknown || r.VersionStart < 0 {
		return "", false
	}
	major := fmt.Sprint(fv.Major())
	next := fmt.Sprint(fv.Major() + 1)
	if !r.Set.AdmitsRange(major, floor) {
		return "", false
	}
	if text, ok := r.sameStyleFloor(floor, next); ok {
		return text, true
	}
	keep := []string{">=" + floor}
	upper := false
	for _, c := range r.Clauses {
		v, err := ParseVersion(strings.TrimSuffix(c.Version, ".*"))
		if err != nil {
			continue
		}
		switch c.Op {
		case "<", "<=":
			if v.Compare(fv) > 0 {
				keep = append(keep, c.String())
				upper = true
			}
		case "!=":
			if v.Compare(fv) >= 0 || strings.HasSuffix(c.Version, ".*") && v.Major() == fv.Major() {
				keep = append(keep, c.String())
			}
		}
	}
	if !upper {
		keep = append(keep, "<"+next)
	}
	text := strings.Join(keep, ",")
	if _, s, err := ParseSpecifier(text); err != nil || !s.AdmitsRange(floor, next) {
		text = ">=" + floor + ",<" + next
	}
	return text, true
}

// sameStyleFloor rewrites a one-clause pin to floor with the same operator
// and as many release components as the user wrote (at least two); ok is
// false for other shapes, or when the result would not admit exactly
// versions in [floor, next).
func (r *Requirement) sameStyleFloor(floor, next string) (string, bool) {
	if len(r.Clauses) != 1 {
		return "", false
	}
	c := r.Clauses[0]
	base := strings.TrimSuffix(c.Version, ".*")
	n := strings.Count(base, ".") + 1
	var text string
	switch {
	case c.Op == "==" && strings.HasSuffix(c.Version, ".*"):
		if n < 2 {
			return "", false // ==1.* is a range over the major: it gets a range
		}
		text = "==" + releasePrefix(floor, n) + ".*"
	case c.Op == "==" && r.Poetry && !strings.HasPrefix(r.Specifier, "="):
		text = floor // a bare Poetry version is an exact pin
	case c.Op == "==" || c.Op == "===":
		text = c.Op + floor
	case c.Op == "~=" && n >= 2, c.Op == "^" && r.Poetry, c.Op == "~" && r.Poetry && n >= 2:
		text = c.Op + releasePrefix(floor, max(n, 2))
	default:
		return "", false
	}
	parse := ParseSpecifier
	if r.Poetry {
		parse = ParsePoetryConstraint
	}
	_, set, err := parse(text)
	if err != nil || set.AdmitsRange("", floor) || set.AdmitsRange(next, "") || !set.AdmitsRange(floor, next) {
		return "", false
	}
	return text, true
}

// releasePrefix returns the first n release components of version v
// ("1.27.0", 2 -> "1.27"), padded with zeros.
func releasePrefix(v string, n int) string {
	parts := strings.Split(v, ".")
	for len(parts) < n {
		parts = append(parts, "0")
	}
	return strings.Join(parts[:n], ".")
}

// LockedOutside returns the lock entries of the resolution whose version
// set s excludes: after changing a requirement to s, those need a re-lock.
func (r *Resolution) LockedOutside(s Set) []*Requirement {
	var out []*Requirement
	for _, l := range r.Locked {
		if v, err := ParseVersion(l.Version); err == nil && !s.withPre(true).Contains(v) {
			out = append(out, l)
		}
	}
	return out
}

// SpecifierSet parses spec as r's syntax (PEP 440, or Poetry's for a Poetry
// requirement) and returns the versions it admits.
func (r *Requirement) SpecifierSet(spec string) (Set, error) {
	parse := ParseSpecifier
	if r.Poetry {
		parse = ParsePoetryConstraint
	}
	_, set, err := parse(spec)
	return set, err
}

// ResolveOpen is what an installer picks from s for pkg today: s itself if
// it is bounded above, else the newest known release s admits and anything
// newer.
func ResolveOpen(pkg string, s Set) Set { return resolveOpen(s, knownReleases[NormalizeName(pkg)]) }
