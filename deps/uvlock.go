package deps

// uv.lock: every [[package]] with its exact version. The project itself and
// workspace members (source = { editable | virtual }) are skipped; a
// directory, path, git or URL package with a dynamic version may lack one.
// [package.metadata] requires-dist repeats the manifest and is not read.
func readUVLock(l *loader, f *File) []*Requirement {
	return lockPackages(l, f, "package", func(t *ttable) bool { return sourceIs(t, "editable", "virtual") },
		func(t *ttable) bool { return sourceIs(t, "directory", "path", "git", "url") })
}
