package deps

import (
	"github.com/pelletier/go-toml/v2/unstable"
)

// lockPackages reads the [[<array>]] entries of a TOML lock file (uv.lock,
// poetry.lock, pdm.lock, pylock.toml) as locked requirements: name and exact
// version, the span of the version key-value. skip tells entries that are the
// project itself (editable, virtual) from installed packages.
func lockPackages(l *loader, f *File, array string, skip func(t *ttable) bool) []*Requirement {
	root, err := parseTOML(f.Path, f.Src)
	if err != nil {
		l.addErr(err)
		return nil
	}
	var out []*Requirement
	for _, t := range root.tables(array) {
		name, ver := t.get("name"), t.get("version")
		if name == nil || name.kind != unstable.String || skip != nil && skip(t) {
			continue
		}
		r := &Requirement{Name: NormalizeName(name.str), RawName: name.str, Path: f.Path, Locked: true,
			Start: name.kvStart, End: name.kvEnd, VersionStart: -1, VersionEnd: -1, Section: array}
		if ver == nil || ver.kind != unstable.String {
			// pylock.toml: a VCS or directory package may have no version
			r.Set, r.Unknown = All(), true
			out = append(out, r)
			continue
		}
		v, err := ParseVersion(ver.str)
		if err != nil {
			l.errorf(f, ver.start, "%s: %v", name.str, err)
			continue
		}
		r.Version, r.Specifier, r.Set = ver.str, "=="+ver.str, Point(v)
		r.Start, r.End = ver.kvStart, ver.kvEnd
		if off := ver.strSpan(); off != nil {
			r.VersionStart, r.VersionEnd = off(0), off(len(ver.str))
		}
		if m := t.get("markers"); m != nil && m.kind == unstable.String {
			r.Marker = m.str
		}
		if m := t.get("marker"); m != nil && m.kind == unstable.String {
			r.Marker = m.str
		}
		out = append(out, r)
	}
	return out
}

// sourceIs reports whether a package's source table has one of keys.
func sourceIs(t *ttable, keys ...string) bool {
	src := t.get("source")
	if src == nil || src.tbl == nil {
		return false
	}
	for _, k := range keys {
		if src.tbl.get(k) != nil {
			return true
		}
	}
	return false
}
