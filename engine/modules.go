package engine

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// moduleNames maps the Python files of a project to dotted module names and
// back. A file's name is its path from the top of its package (the nearest
// folder above it without __init__.py). Lookups also accept every dotted
// suffix of the path from the project root, so that namespace packages
// (folders without __init__.py) and src/ layouts resolve.
type moduleNames struct {
	byFile map[string]string
	byName map[string][]string
}

func newModuleNames(pr *project) *moduleNames {
	mn := &moduleNames{byFile: map[string]string{}, byName: map[string][]string{}}
	hasInit := map[string]bool{}
	for _, f := range pr.pyFiles {
		if path.Base(f) == "__init__.py" {
			hasInit[path.Dir(f)] = true
		}
	}
	// An __init__.py in the project's own folder makes it a package only
	// when its name can be imported: web-eval-agent's checkout folder (or
	// awslabs' billing-cost-management-mcp-server) cannot, so its modules
	// are named from the folders below it, as its code imports them.
	rootPackage := hasInit[pr.dir] && identifier.MatchString(folderName(pr.dir))
	for _, f := range pr.pyFiles {
		parts := []string{}
		base := strings.TrimSuffix(path.Base(f), ".py")
		if base != "__init__" {
			parts = append(parts, base)
		}
		for d := path.Dir(f); hasInit[d]; d = path.Dir(d) {
			if d == pr.dir && !rootPackage {
				break
			}
			parts = append([]string{folderName(d)}, parts...)
			if d == "." || d == "/" {
				break
			}
		}
		mn.byFile[f] = strings.Join(parts, ".")
		// Every suffix of the path below the project root.
		segs := strings.Split(relModulePath(pr.dir, f), "/")
		for i := range segs {
			name := strings.Join(segs[i:], ".")
			mn.byName[name] = append(mn.byName[name], f)
		}
		if n := mn.byFile[f]; n != "" && !contains(mn.byName[n], f) {
			mn.byName[n] = append(mn.byName[n], f)
		}
	}
	// Names must be unique within a project (qualified names of functions
	// are built from them): files whose package name collides, such as
	// app/server.py and build/server.py outside packages, are named by their
	// dotted path from the project root instead.
	count := map[string]int{}
	for _, n := range mn.byFile {
		count[n]++
	}
	for f, n := range mn.byFile {
		if count[n] > 1 {
			unique := strings.ReplaceAll(relModulePath(pr.dir, f), "/", ".")
			mn.byFile[f] = unique
			if !contains(mn.byName[unique], f) {
				mn.byName[unique] = append(mn.byName[unique], f)
			}
		}
	}
	return mn
}

// identifier matches a name Python can import (ASCII only).
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// folderName is the last element of a folder's path; for "." (a scan of
// the current folder), the name of the current folder.
func folderName(d string) string {
	if d == "." {
		if abs, err := filepath.Abs(d); err == nil {
			return filepath.Base(abs)
		}
	}
	return path.Base(d)
}

// relModulePath is a file's path below the project root without ".py" (and
// without "/__init__" for packages).
func relModulePath(dir, f string) string {
	rel := strings.TrimSuffix(f, ".py")
	if dir != "." && strings.HasPrefix(rel, dir+"/") {
		rel = rel[len(dir)+1:]
	}
	return strings.TrimSuffix(rel, "/__init__")
}

func (mn *moduleNames) name(file string) string { return mn.byFile[file] }

// files returns the files a dotted module name can refer to.
func (mn *moduleNames) files(name string) []string { return mn.byName[name] }

// all returns every name files answers, in no order.
func (mn *moduleNames) all() []string {
	out := make([]string, 0, len(mn.byName))
	for name := range mn.byName {
		out = append(out, name)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
