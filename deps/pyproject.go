package deps

import (
	"path"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// pyproject.toml: [project] dependencies and optional-dependencies,
// [dependency-groups] (include-group entries are skipped: the included
// group is read on its own), [tool.poetry] dependencies, dev-dependencies and
// group.*.dependencies (strings, tables, arrays of tables; ^ ~ * and bare
// versions), [tool.pdm] dev-dependencies, [tool.uv] dev-dependencies,
// constraint-dependencies (as constraints) and override-dependencies, and
// [tool.uv.sources] (a git, path, url or workspace source replaces the
// version: unknown, unless a git tag reads as a version; a workspace
// member read with its root inherits the root's sources).
// Not read: [build-system] requires (build time only), dynamic dependencies.

func readPyproject(l *loader, f *File) []*Requirement {
	root, err := l.opts.Parsed.toml(f.Path, f.Src)
	if err != nil {
		l.addErr(err)
		return nil
	}
	if l.tomls == nil {
		l.tomls = map[string]*ttable{}
	}
	l.tomls[path.Clean(f.Path)] = root // for readStyle
	if root.table("tool", "uv", "workspace") != nil || root.table("tool", "pdm", "workspace") != nil {
		l.proj.workspace = true
		if path.Dir(f.Path) == path.Clean(l.proj.Dir) && l.rootSources == nil {
			l.rootSources, l.rootSourcesFile = root.table("tool", "uv", "sources"), f
		}
	}
	reqs := pyprojectRequirements(l, f, root)
	if l.rootSources != nil && l.proj.members && f != l.rootSourcesFile && l.proj.why[f.Path] != "" {
		// A workspace member inherits the root's sources for the
		// packages its own [tool.uv.sources] does not name.
		own := root.table("tool", "uv", "sources")
		var inherit []*Requirement
		for _, r := range reqs {
			if own == nil || !own.hasName(r.Name) {
				inherit = append(inherit, r)
			}
		}
		applyUVSources(l.rootSourcesFile, l.rootSources, inherit)
	}
	return reqs
}

// hasName tells whether the table has a key that names the (normalised)
// package name.
func (t *ttable) hasName(name string) bool {
	for _, k := range t.keys {
		if NormalizeName(k) == name {
			return true
		}
	}
	return false
}

func pyprojectRequirements(l *loader, f *File, root *ttable) []*Requirement {
	var reqs []*Requirement
	add := func(v *tval, section, group string) {
		reqs = append(reqs, pep508Array(l, f, v, section, group)...)
	}
	add(root.get("project", "dependencies"), "project.dependencies", "")
	if opt := root.table("project", "optional-dependencies"); opt != nil {
		for _, k := range opt.keys {
			add(opt.m[k], "project.optional-dependencies."+k, k)
		}
	}
	if dg := root.table("dependency-groups"); dg != nil {
		for _, k := range dg.keys {
			add(dg.m[k], "dependency-groups."+k, k)
		}
	}
	if pdm := root.table("tool", "pdm", "dev-dependencies"); pdm != nil {
		for _, k := range pdm.keys {
			add(pdm.m[k], "tool.pdm.dev-dependencies."+k, k)
		}
	}
	add(root.get("tool", "uv", "dev-dependencies"), "tool.uv.dev-dependencies", "dev")
	add(root.get("tool", "uv", "override-dependencies"), "tool.uv.override-dependencies", "")
	for _, r := range pep508Array(l, f, root.get("tool", "uv", "constraint-dependencies"), "tool.uv.constraint-dependencies", "") {
		r.Constraint = true
		reqs = append(reqs, r)
	}
	if poetry := root.table("tool", "poetry"); poetry != nil {
		reqs = append(reqs, poetryTable(l, f, poetry.table("dependencies"), "tool.poetry.dependencies", "")...)
		reqs = append(reqs, poetryTable(l, f, poetry.table("dev-dependencies"), "tool.poetry.dev-dependencies", "dev")...)
		if groups := poetry.table("group"); groups != nil {
			for _, g := range groups.keys {
				if gt := groups.m[g].tbl; gt != nil {
					reqs = append(reqs, poetryTable(l, f, gt.table("dependencies"), "tool.poetry.group."+g+".dependencies", g)...)
				}
			}
		}
	}
	if sources := root.table("tool", "uv", "sources"); sources != nil {
		applyUVSources(f, sources, reqs)
	}
	return reqs
}

// pep508Array reads an array of PEP 508 strings (non-strings are skipped).
func pep508Array(l *loader, f *File, v *tval, section, group string) []*Requirement {
	if v == nil {
		return nil
	}
	if v.kind() != unstable.Array {
		l.errorf(f, int(v.kvStart), "%s: expected an array of requirement strings", section)
		return nil
	}
	var out []*Requirement
	for i := range v.arr {
		e := &v.arr[i]
		if e.kind() != unstable.String {
			continue // {include-group = "..."} and the like
		}
		if r := tomlRequirement(l, f, e); r != nil && l.keep(r) {
			r.Section, r.Group = section, group
			out = append(out, r)
		}
	}
	return out
}

// tomlRequirement parses a PEP 508 string held in a TOML string.
func tomlRequirement(l *loader, f *File, e *tval) *Requirement {
	off := e.strSpan()
	whole := off == nil
	if whole {
		off = func(int) int { return int(e.start) }
	}
	r, err := newRequirement(f.Path, e.str, off)
	if err != nil {
		l.errorf(f, int(e.start), "invalid requirement: %v", err)
		return nil
	}
	if whole { // escapes: the literal is the requirement, not editable in place
		r.Start, r.End, r.VersionStart, r.VersionEnd = int(e.start), int(e.end), -1, -1
	}
	return r
}

// poetryTable reads a Poetry dependency table: name = "constraint" or
// name = {version = ..., extras = [...], markers = ..., git/path/url = ...}
// or name = [ {...}, {...} ].
func poetryTable(l *loader, f *File, t *ttable, section, group string) []*Requirement {
	if t == nil {
		return nil
	}
	var out []*Requirement
	for _, name := range t.keys {
		if strings.EqualFold(name, "python") {
			continue
		}
		v := t.m[name]
		entries := []*tval{v}
		if v.kind() == unstable.Array {
			entries = entries[:0]
			for i := range v.arr {
				entries = append(entries, &v.arr[i])
			}
		}
		for _, e := range entries {
			if r := poetryEntry(l, f, name, v, e); r != nil {
				r.Section, r.Group = section, group
				out = append(out, r)
			}
		}
	}
	return out
}

// poetryEntry reads one Poetry (or Pipfile) dependency value e of key name;
// kv is the key-value it was assigned by.
func poetryEntry(l *loader, f *File, name string, kv, e *tval) *Requirement {
	r := &Requirement{Name: NormalizeName(name), RawName: name, Path: f.Path, Poetry: true,
		Start: int(kv.kvStart), End: int(kv.kvEnd), VersionStart: -1, VersionEnd: -1}
	var ver *tval
	switch e.kind() {
	case unstable.String:
		ver = e
	case unstable.InlineTable, unstable.Table:
		t := e.tbl
		ver = t.get("version")
		if ex := t.get("extras"); ex != nil {
			for _, x := range ex.arr {
				r.Extras = append(r.Extras, NormalizeName(x.str))
			}
		}
		r.Marker = t.strAt("markers")
		if py := t.strAt("python"); py != "" && r.Marker == "" {
			r.Marker = "python_version " + py
		}
		for _, src := range []string{"git", "path", "url", "file"} {
			if s := t.strAt(src); s != "" {
				r.URL, r.urlKind = s, src
			}
		}
		if r.urlKind == "git" {
			for _, k := range []string{"tag", "rev", "branch"} {
				if s := t.strAt(k); s != "" {
					r.urlRef = s
					break
				}
			}
		}
	default:
		l.errorf(f, int(kv.kvStart), "%s: unexpected value", name)
		return nil
	}
	if r.URL != "" && ver == nil {
		r.Set, r.Unknown = All(), true
		if tag := e.tbl.strAt("tag"); tag != "" {
			if tv, err := ParseVersion(tag); err == nil {
				r.Set, r.Unknown = Point(tv), false // a release tag names the version
			}
		}
		return r
	}
	if ver != nil {
		r.Specifier = strings.TrimSpace(ver.str)
		if off := ver.strSpan(); off != nil {
			lead := len(ver.str) - len(strings.TrimLeft(ver.str, " \t"))
			r.VersionStart, r.VersionEnd = off(lead), off(lead+len(r.Specifier))
		}
	} else {
		r.Specifier = "*"
	}
	var err error
	r.Clauses, r.Set, err = ParsePoetryConstraint(r.Specifier)
	if err != nil {
		at := int(kv.kvStart)
		if ver != nil {
			at = int(ver.start)
		}
		l.errorf(f, at, "%s: %v", name, err)
		return nil
	}
	if r.Specifier == "*" {
		r.Specifier = ""
	}
	return r
}

// applyUVSources marks requirements whose version a [tool.uv.sources] entry
// replaces (git, path, url, workspace).
func applyUVSources(f *File, sources *ttable, reqs []*Requirement) {
	for _, name := range sources.keys {
		v := sources.m[name]
		var t *ttable
		switch {
		case v.tbl != nil:
			t = v.tbl
		case v.kind() == unstable.Array && len(v.arr) > 0 && v.arr[0].tbl != nil:
			t = v.arr[0].tbl // several sources by marker: the first describes it
		default:
			continue
		}
		url, kind := "", ""
		for _, k := range []string{"git", "path", "url"} {
			if s := t.strAt(k); s != "" {
				url, kind = s, k
			}
		}
		if w := t.get("workspace"); w != nil && w.str == "true" {
			url, kind = "workspace", "workspace"
		}
		if url == "" {
			continue // an index source: the version still comes from the requirement
		}
		src := &Source{Path: f.Path, Start: int(v.kvStart), End: int(v.kvEnd), Kind: kind, URL: url}
		for _, k := range []string{"tag", "rev", "branch"} {
			if s := t.strAt(k); s != "" {
				src.Ref = s
				break
			}
		}
		set, unknown := All(), true
		if tag := t.strAt("tag"); tag != "" {
			if tv, err := ParseVersion(tag); err == nil {
				set, unknown = Point(tv), false
			}
		}
		for _, r := range reqs {
			if r.Name == NormalizeName(name) && !r.Constraint {
				r.URL, r.Set, r.Unknown, r.Clauses, r.Source = url, set, unknown, nil, src
				r.VersionStart, r.VersionEnd = -1, -1
			}
		}
	}
}
