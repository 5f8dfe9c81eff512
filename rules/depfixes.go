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
