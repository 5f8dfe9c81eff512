package rules

// What the dependency rules (MCP001, MCP002) need to decide whether a
// version bump can be applied: the 1.x-only APIs the project uses, a comment
// that pins the requirement deliberately, and the lock entries a new
// requirement excludes.

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
)

// apiUse is one use of an API that a major version removed.
type apiUse struct {
	what, where string // "mcp.server.fastmcp", "server.py:3"
}

// mcp1OnlyAPIs returns the project's uses of APIs that mcp 2 removed (SPEC
// section 2; handlers.MCP1APIs, which the engine found already when the
// pass has a handler index): imports of mcp.server.fastmcp, McpError,
// and handlers registered with the 1.x low-level Server decorators
// (@server.call_tool()), in module order. With any of them, even in a test
// or behind an ImportError fallback, mcp>=2,<3 can break the project: the
// bump is advice, not an edit.
func mcp1OnlyAPIs(p *Pass) []apiUse {
	var uses []handlers.MCP1API
	if p.Handlers != nil { // built from p.Modules
		uses = p.Handlers.MCP1APIs()
	} else {
		uses = handlers.MCP1APIs(p.Modules, nil)
	}
	var out []apiUse
	for _, u := range uses {
		out = append(out, apiUse{u.What, where(p, u.Module, int(u.Node.StartByte()))})
	}
	return out
}

// where is "path:line" of an offset in m, the path relative to the project.
func where(p *Pass, m *pyast.Module, off int) string {
	return fmt.Sprintf("%s:%d", relPath(p, m), m.Pos(off).Line)
}

// relPath is m's path relative to the project.
func relPath(p *Pass, m *pyast.Module) string {
	if p.Project != nil && p.Project.Dir != "." {
		return strings.TrimPrefix(m.Path, p.Project.Dir+"/")
	}
	return m.Path
}

// describeUses names each removed API once with its first two places and
// how many more there are: "mcp.server.fastmcp (server.py:1, tools.py:2 and
// 5 more), McpError (errors.py:3)". At most four APIs are named.
func describeUses(uses []apiUse) string {
	var order []string
	where := map[string][]string{}
	for _, u := range uses {
		if _, ok := where[u.what]; !ok {
			order = append(order, u.what)
		}
		where[u.what] = append(where[u.what], u.where)
	}
	var parts []string
	for i, what := range order {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("and %d more APIs", len(order)-4))
			break
		}
		ws := where[what]
		at := strings.Join(ws[:min(2, len(ws))], ", ")
		if len(ws) > 2 {
			at += fmt.Sprintf(" and %d more", len(ws)-2)
		}
		parts = append(parts, what+" ("+at+")")
	}
	return strings.Join(parts, ", ")
}

// pinComment returns a comment on the requirement's line, or on the comment
// lines just above it, that mentions the package or a version of its
// specifier: the maintainer pinned it deliberately, so a bump there is
// advice only. words are the package names to look for.
func pinComment(p *Pass, r *deps.Requirement, words ...string) (string, bool) {
	f := p.Project.File(r.Path)
	if f == nil || r.Start < 0 || r.End > len(f.Src) {
		return "", false
	}
	src := f.Src // bytes: one requirement must not copy the whole file
	lineStart := bytes.LastIndexByte(src[:r.Start], '\n') + 1
	lineEnd := bytes.IndexByte(src[r.End:], '\n')
	if lineEnd < 0 {
		lineEnd = len(src)
	} else {
		lineEnd += r.End
	}
	var comments []string
	if i := bytes.IndexByte(src[r.End:lineEnd], '#'); i >= 0 {
		comments = append(comments, string(src[r.End+i:lineEnd]))
	}
	// Comment-only lines right above (at most three). In PEP 723 metadata
	// every line starts with "#": a comment line there is "#" then a TOML
	// comment, and a line like `#   "requests>=2,<3",` is not one.
	script := strings.HasSuffix(r.Path, ".py") && deps.InScriptBlock(src, r.Start)
	end := lineStart - 1
	for k := 0; k < 3 && end > 0; k++ {
		start := bytes.LastIndexByte(src[:end], '\n') + 1
		line := strings.TrimSpace(string(src[start:end]))
		if script {
			if !strings.HasPrefix(line, "#") {
				break
			}
			line = strings.TrimSpace(line[1:])
		}
		if !strings.HasPrefix(line, "#") {
			break
		}
		comments = append(comments, line)
		end = start - 1
	}
	var versions []string
	for _, c := range r.Clauses {
		if v := strings.TrimSuffix(c.Version, ".*"); v != "" {
			versions = append(versions, v)
		}
	}
	for _, c := range comments {
		if mentions(c, words, versions) {
			return escape.Line(c, 80), true
		}
	}
	return "", false
}

// mentions reports whether a comment names one of words as a word (mcp, not
// MCP001 or mcplint) or contains one of versions. Suppression comments do
// not count.
func mentions(comment string, words, versions []string) bool {
	lower := strings.ToLower(comment)
	if strings.Contains(lower, "mcplint:") || strings.Contains(lower, "noqa") {
		return false
	}
	for _, w := range words {
		if regexp.MustCompile(`(^|[^a-z0-9_.-])` + regexp.QuoteMeta(w) + `($|[^a-z0-9_-])`).MatchString(lower) {
			return true
		}
	}
	for _, v := range versions {
		if regexp.MustCompile(`(^|[^0-9.])` + regexp.QuoteMeta(v) + `($|[^0-9])`).MatchString(lower) {
			return true
		}
	}
	return false
}

// relock says which lock entries of pkg the new requirement spec excludes
// (", then re-lock: uv.lock pins mcp 1.26.0, outside >=2,<3"), or "".
func relock(p *Pass, r *deps.Requirement, pkg, spec string) string {
	set, err := r.SpecifierSet(spec)
	if err != nil {
		return ""
	}
	out := p.Project.Resolution(pkg).LockedOutside(set)
	if len(out) == 0 {
		return ""
	}
	l := out[0]
	return fmt.Sprintf("; then re-lock: %s pins %s %s, which %s excludes", path.Base(l.Path), l.RawName, l.Version, spec)
}

// hashPinned reports whether a requirements-file line carries --hash
// options: a new version there fails to install until the hashes are
// regenerated, so a version edit is advice only.
func hashPinned(p *Pass, r *deps.Requirement) bool {
	f := p.Project.File(r.Path)
	if f == nil || r.Locked || r.End > len(f.Src) {
		return false
	}
	rest := f.Src[r.End:]
	for {
		nl := bytes.IndexByte(rest, '\n')
		var line string
		if nl >= 0 {
			line = string(rest[:nl])
		} else {
			line = string(rest)
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.Contains(line, "--hash") {
			return true
		}
		if nl < 0 || !strings.HasSuffix(strings.TrimRight(line, " \t\r"), "\\") {
			return false
		}
		rest = rest[nl+1:]
	}
}

// hashAdvice is appended to a version fix on a hash-pinned line.
const hashAdvice = ": not applied, the line pins --hash values that the new version would not match " +
	"(regenerate them, e.g. pip-compile --generate-hashes)"

// guardNeed is what the respond/cancel guard needs of mcp: a 1.x release
// with RequestResponder.cancel() (1.3.0rc1 on; mcp 2 has no
// RequestResponder, so the guard fails at import there).
var guardNeed = func() deps.Need {
	_, set, err := deps.ParseSpecifier(">=1.3.0rc1,<2")
	if err != nil {
		panic(err)
	}
	return deps.Need{Name: "mcp", Set: set, What: "the respond/cancel guard (mcp_respond_guard.py needs mcp 1.x)", Changed: true}
}()

// offeredGuard is GuardFix where the project stays on mcp 1.x: what it
// resolves to admits 1.x, and so does every install set of its manifests.
// A manifest that requires mcp 2 (or fastmcp 4) beside a lock of mcp 1.x
// (made before the manifest moved, by an earlier --fix say) is re-locked to
// mcp 2 at the next install, where the guard would stop the server at
// import: the first --fix withholds the guard because it moves the
// manifest, and the second sees the moved manifest and withholds it too.
func offeredGuard(p *Pass) (Fix, bool) {
	if p.guardOffer == nil {
		g, ok := offerGuard(p)
		p.guardOffer = &guardOffer{g, ok}
	}
	g := p.guardOffer.fix
	g.Edits = slices.Clone(g.Edits) // each finding's fix is its own
	return g, p.guardOffer.ok
}

// guardOffer is offeredGuard's answer, kept for the pass.
type guardOffer struct {
	fix Fix
	ok  bool
}

func offerGuard(p *Pass) (Fix, bool) {
	g, ok := GuardFix(p)
	if !ok || p.Project.MCP1() == deps.No {
		return Fix{}, false
	}
	for _, set := range p.Project.ManifestInstalls() {
		if deps.Conflict(append(needsOf(set, nil, deps.Need{}), guardNeed)) != "" {
			return Fix{}, false
		}
	}
	return g, true
}

// needsOf returns the needs of an install set, with r's (when r is not
// nil) replaced by repl.
func needsOf(set []*deps.Requirement, r *deps.Requirement, repl deps.Need) []deps.Need {
	out := make([]deps.Need, 0, len(set))
	for _, q := range set {
		if q == r {
			out = append(out, repl)
			continue
		}
		out = append(out, deps.NeedOf(q))
	}
	return out
}

// bumpTargets is the requirement a package moves to when a bump of another
// package needs its next major release (fastmcp 4 needs mcp 2 and
// fastmcp-slim 4): the same text the rules' own bumps write.
var bumpTargets = map[string]string{"mcp": ">=2,<3", "fastmcp": ">=4,<5", "fastmcp-slim": ">=4,<5"}

// bump is a manifest requirement's move to a new specifier, with the moves
// of the requirements installed beside it that the new version's own
// requirements need.
type bump struct {
	edits []Edit
	moved []string // "mcp==1.28.1 to mcp>=2,<3 (pyproject.toml)"
	// relock says which lock entries the moves make stale.
	relock string
	// why is set when the bump cannot be offered: an install set would be
	// unsatisfiable and the requirement that holds it cannot be moved.
	why string
}

// bumpTogether plans moving manifest requirement r to spec. In each set of
// requirements installed with r (its file's main dependencies with each
// extra or group), a requirement that the new version of r excludes (mcp
// 1.x beside fastmcp 4) moves to its package's target (bumpTargets) in the
// same fix, unless its line cannot be edited, a comment pins it, it pins
// --hash values, or (for mcp) the code uses what mcp 2 removed (blockers):
// then the bump is not offered, and why says so. Whatever else the set
// holds must then be satisfiable (deps.Conflict).
func bumpTogether(p *Pass, r *deps.Requirement, spec string, blockers []apiUse) bump {
	var b bump
	newSet, err := r.SpecifierSet(spec)
	if err != nil {
		b.why = "cannot read " + spec
		return b
	}
	moved := map[*deps.Requirement]string{}
	for _, set := range p.Project.Installs(r) {
		needs := needsOf(set, r, deps.Need{Name: r.Name, Set: newSet, Marker: r.Marker, What: r.RawName + spec, Changed: true, Written: true})
		for i, q := range set {
			if q == r {
				continue
			}
			if t, done := moved[q]; done {
				needs[i] = moveNeed(q, t)
				continue
			}
			req, known := deps.Requires(r.Name, newSet, q.Name)
			if !known || q.Set.Admits(req) {
				continue
			}
			target := bumpTargets[q.Name]
			where := fmt.Sprintf("%s requires %s%s, which %s excludes", r.RawName+spec, q.Name, req, reqText(p, q))
			if why := cannotMove(p, q, target, req, blockers); why != "" {
				b.why = where + ", and " + why
				return b
			}
			moved[q] = target
			needs[i] = moveNeed(q, target)
			b.edits = append(b.edits, Edit{Path: q.Path, Start: q.VersionStart, End: q.VersionEnd, New: target})
			b.moved = append(b.moved, fmt.Sprintf("%s to %s%s", reqText(p, q), q.RawName, target))
			if rl := relock(p, q, q.Name, target); rl != "" && b.relock == "" {
				b.relock = rl
			}
		}
		if c := deps.Conflict(needs); c != "" {
			b.why = "the requirements installed with it could not be resolved: " + c
			return b
		}
	}
	return b
}

// moveNeed is q's need once moved to spec.
func moveNeed(q *deps.Requirement, spec string) deps.Need {
	set, _ := q.SpecifierSet(spec)
	return deps.Need{Name: q.Name, Set: set, Marker: q.Marker, What: q.RawName + spec, Changed: true, Written: true}
}

// cannotMove says why requirement q cannot move to target (which must
// admit req) within a fix, or "".
func cannotMove(p *Pass, q *deps.Requirement, target string, req deps.Set, blockers []apiUse) string {
	set, err := q.SpecifierSet(target)
	switch {
	case target == "" || err != nil || !set.Admits(req):
		return "mcplint knows no release of " + q.Name + " to move it to"
	case q.VersionStart < 0 || q.Unknown || q.URL != "" || q.Source != nil:
		return "that requirement cannot be edited in place"
	case hashPinned(p, q):
		return "that line pins --hash values"
	case q.Name == "mcp" && len(blockers) > 0:
		return "the project uses APIs that mcp 2 removed, so it would not start: " + describeUses(blockers)
	}
	if c, pinned := pinComment(p, q, q.Name); pinned {
		return "a comment there pins it deliberately (" + c + ")"
	}
	return ""
}

// installConflict says why setting manifest requirement r to spec leaves
// one of the sets installed with it unsatisfiable, or "".
//
// The answer depends on r's install sets (its file and group) and on what
// r requires, not on which of several equal lines r is (the need that
// replaces r is Written, so where it sits among the others does not
// change Conflict's answer): it is kept for the pass by those.
func installConflict(p *Pass, r *deps.Requirement, spec string) string {
	k := conflictKey{r.Path, r.Group, r.Name, r.Marker, r.String(), r.Set.String(), spec}
	if c, ok := p.conflicts[k]; ok {
		return c
	}
	c := ""
	if set, err := r.SpecifierSet(spec); err == nil {
		for _, s := range p.Project.Installs(r) {
			if c = deps.Conflict(needsOf(s, r, deps.Need{Name: r.Name, Set: set, Marker: r.Marker, What: r.RawName + spec, Changed: true, Written: true})); c != "" {
				break
			}
		}
	}
	if p.conflicts == nil {
		p.conflicts = map[conflictKey]string{}
	}
	p.conflicts[k] = c
	return c
}

// conflictKey is what installConflict's answer depends on.
type conflictKey struct {
	path, group, name, marker, text, set, spec string
}
