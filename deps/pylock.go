package deps

// pylock.toml and pylock.<name>.toml (PEP 751): every [[packages]] entry. A
// VCS, directory or archive package may have no version (it admits any); a
// directory package that is editable is the project itself and skipped.
func readPylock(l *loader, f *File) []*Requirement {
	return lockPackages(l, f, "packages", func(t *ttable) bool {
		d := t.get("directory")
		if d == nil || d.tbl == nil {
			return false
		}
		e := d.tbl.get("editable")
		return e != nil && e.str == "true"
	}, func(t *ttable) bool {
		return t.get("vcs") != nil || t.get("directory") != nil || t.get("archive") != nil
	})
}
