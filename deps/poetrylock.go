package deps

// poetry.lock: every [[package]] with its exact version (a git or directory
// source still records the version it built, so an entry without one is
// malformed).
func readPoetryLock(l *loader, f *File) []*Requirement {
	return lockPackages(l, f, "package", nil, nil)
}
