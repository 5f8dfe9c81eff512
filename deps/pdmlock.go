package deps

// pdm.lock: every [[package]] with its exact version. Editable local
// packages (editable = true) are the project's own and skipped; a git, path
// or URL package may lack a version.
func readPDMLock(l *loader, f *File) []*Requirement {
	return lockPackages(l, f, "package", func(t *ttable) bool {
		e := t.get("editable")
		return e != nil && e.str == "true"
	}, func(t *ttable) bool { return t.get("git") != nil || t.get("path") != nil || t.get("url") != nil })
}
