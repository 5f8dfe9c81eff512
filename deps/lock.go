package deps

import (
	"strconv"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// lockPackages reads the [[<array>]] entries of a TOML lock file (uv.lock,
// poetry.lock, pdm.lock, pylock.toml) as locked requirements: name and exact
// version, the span of the version key-value. skip tells entries that are the
// project itself (editable, virtual) from installed packages; unversioned
// tells entries that may legitimately have no version (a VCS or directory
// package): those admit any version and leave resolution to the manifests.
//
// Any other entry without a string version that parses is malformed: it is
// an error (MCP000) and is dropped, so the declared requirements decide the
// package's versions. Reading it as "any version" would resolve to the newest
// release and hide every finding the declared range exposes.
func lockPackages(l *loader, f *File, array string, skip, unversioned func(t *ttable) bool) []*Requirement {
	root, err := parseTOML(f.Path, f.Src)
	if err != nil {
		l.addErr(err)
		return nil
	}
	var out []*Requirement
	for _, t := range root.tables(array) {
		name, ver := t.get("name"), t.get("version")
		if name == nil || name.kind() != unstable.String || skip != nil && skip(t) {
			continue
		}
		r := &Requirement{Name: NormalizeName(name.str), RawName: name.str, Path: f.Path, Locked: true,
			Start: int(name.kvStart), End: int(name.kvEnd), VersionStart: -1, VersionEnd: -1, Section: array}
		if ver == nil && unversioned != nil && unversioned(t) {
			r.Set, r.Unknown = All(), true
			out = append(out, r)
			continue
		}
		if ver == nil {
			l.errorf(f, int(name.kvStart), "lock entry for %s has no version: ignored, the declared requirements decide its version", quoteName(name.str))
			continue
		}
		if ver.kind() != unstable.String {
			l.errorf(f, int(ver.kvStart), "lock entry for %s: the version is not a string: ignored, the declared requirements decide its version", quoteName(name.str))
			continue
		}
		v, err := ParseVersion(ver.str)
		if err != nil {
			l.errorf(f, int(ver.start), "lock entry for %s: %v: ignored, the declared requirements decide its version", quoteName(name.str), err)
			continue
		}
		r.Version, r.Specifier, r.Set = ver.str, "=="+ver.str, Point(v)
		r.Start, r.End = int(ver.kvStart), int(ver.kvEnd)
		if off := ver.strSpan(); off != nil {
			r.VersionStart, r.VersionEnd = off(0), off(len(ver.str))
		}
		if m := t.get("markers"); m != nil && m.kind() == unstable.String {
			r.Marker = m.str
		}
		if m := t.get("marker"); m != nil && m.kind() == unstable.String {
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

// quoteName quotes a package name for a message, cut to a bounded length (a
// lock file is input from the scanned repository).
func quoteName(s string) string {
	const max = 80
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return strconv.Quote(s)
}
