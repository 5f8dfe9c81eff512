package engine

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/workspace"
)

// layout applies the project model (deps/layout.go) to the folders the walk
// found with dependency files: a project is what one environment installs.
//
//  1. A workspace root's members (uv, PDM, Hatch) join the root's project:
//     their manifests and code are analysed with the root's, and the
//     root's lock decides their versions. A member's own lock file, which
//     the workspace's installer does not read, stays a project of its own.
//  2. A requirements file whose header says pip-compile or uv compiled it
//     from a manifest of another folder joins that manifest's project, as
//     its lock. A file that only its folder makes a dependency file
//     (requirements/dev.txt) and that another project's requirements file
//     includes is read there, not as a project of its own.
//  3. A folder with dependency files inside a package that the enclosing
//     project's entry points name ([project.scripts], [project.entry-points],
//     a __main__.py of the package) keeps its dependency files, but its
//     code is the enclosing project's: installing that project installs
//     the package, and its console script runs it.
//
// It changes byDir in place and returns the folders whose Python files
// belong to another project (the member or the nested package, to the
// project that installs it).
func (e *runner) layout(byDir map[string]*project, pyFiles []string, packages map[string]bool) map[string]string {
	redirect := map[string]string{}
	owner := func(d string) string {
		for i := 0; i < 64; i++ {
			to, ok := redirect[d]
			if !ok {
				break
			}
			d = to
		}
		return d
	}
	dirs := func() []string {
		out := make([]string, 0, len(byDir))
		for d := range byDir {
			out = append(out, d)
		}
		sort.Strings(out)
		return out
	}
	// A manifest is read and parsed once per run (readDep, e.parsed).
	manifest := func(f string) (deps.Manifest, bool) {
		src, err := e.readDep(f)
		if err != nil {
			return deps.Manifest{}, false
		}
		return e.parsed.ReadManifest(f, src)
	}
	has := func(pr *project, base string) string {
		for _, f := range pr.depFiles {
			if path.Base(f) == base {
				return f
			}
		}
		return ""
	}
	why := func(pr *project, f, reason string) {
		if pr.why == nil {
			pr.why = map[string]string{}
		}
		pr.why[f] = reason
	}
	// move takes from's dependency files that keep does not keep to into.
	move := func(from, into *project, keep func(string) bool, reason func(string) string) {
		rest := from.depFiles[:0]
		for _, f := range from.depFiles {
			if keep != nil && keep(f) {
				rest = append(rest, f)
				continue
			}
			into.depFiles = append(into.depFiles, f)
			why(into, f, reason(f))
		}
		from.depFiles = rest
	}

	// 1. Workspaces.
	for _, r := range dirs() {
		root := byDir[r]
		if root == nil || redirect[r] != "" {
			continue
		}
		pp := has(root, "pyproject.toml")
		if pp == "" {
			continue
		}
		m, ok := manifest(pp)
		if !ok {
			continue
		}
		for _, w := range m.Workspaces {
			for _, d := range dirs() {
				member := byDir[d]
				if d == r || member == nil || redirect[d] != "" || !isUnder(d, r) || has(member, "pyproject.toml") == "" {
					continue
				}
				rel := d
				if r != "." {
					rel = strings.TrimPrefix(d, r+"/")
				}
				if !w.Matches(rel) {
					continue
				}
				lockWhy := ""
				if w.Lock != "" {
					if lock := has(root, w.Lock); lock != "" {
						lockWhy = ", whose " + lock + " decides its versions"
						why(root, lock, fmt.Sprintf("the lock of the %s workspace at %s: it pins what every member ([%s] members) runs", w.Tool, r, w.Table))
					}
				}
				move(member, root, func(f string) bool { return deps.IsLockFile(path.Base(f)) }, func(string) string {
					return fmt.Sprintf("member %s of the %s workspace at %s ([%s] members): installed into the root's environment%s", d, w.Tool, r, w.Table, lockWhy)
				})
				root.membersJoined = true
				root.joined = append(root.joined, fmt.Sprintf("%s: member of the %s workspace at %s ([%s] members), analysed as one program with it", d, w.Tool, r, w.Table))
				redirect[d] = r
				if len(member.depFiles) > 0 {
					member.why = map[string]string{}
					for _, f := range member.depFiles {
						member.why[f] = fmt.Sprintf("a lock of workspace member %s: the %s workspace at %s installs the member from the root's lock, not this one", d, w.Tool, r)
					}
				} else {
					delete(byDir, d)
				}
			}
		}
	}

	// 2. Compiled requirements files.
	depDir := map[string]string{} // dependency file -> its folder
	for d, pr := range byDir {
		for _, f := range pr.depFiles {
			depDir[f] = d
		}
	}
	exist := func(p string) bool { _, ok := depDir[p]; return ok }
	for _, d := range dirs() {
		pr := byDir[d]
		if pr == nil {
			continue
		}
		for _, f := range append([]string(nil), pr.depFiles...) {
			if !isRequirementsFile(f) {
				continue
			}
			src, err := e.readDep(f)
			if err != nil {
				continue
			}
			c, ok := deps.CompiledFrom(f, src, exist)
			if !ok {
				continue
			}
			target := ""
			for _, s := range c.Sources {
				if sd, ok := depDir[s]; ok && byDir[owner(sd)] != nil {
					if target == "" || isManifest(s) && !isManifest(target) {
						target = s
					}
				}
			}
			if target == "" {
				continue
			}
			into := owner(depDir[target])
			if into == owner(d) {
				continue
			}
			move(pr, byDir[into], func(g string) bool { return g != f }, func(string) string {
				return fmt.Sprintf("compiled from %s by %s (its header: %s): read as the lock of that manifest's project", target, c.Tool, c.Command)
			})
			byDir[into].joined = append(byDir[into].joined, fmt.Sprintf("%s: compiled from %s by %s, read as this project's lock", f, target, c.Tool))
			depDir[f] = into
			if len(pr.depFiles) == 0 {
				delete(byDir, d)
			}
		}
	}
	e.dropIncluded(byDir)

	// 3. Nested folders inside an installed package.
	hasMain := map[string]bool{}
	for _, f := range pyFiles {
		if path.Base(f) == "__main__.py" {
			hasMain[workspace.Dir(f)] = true
		}
	}
	for _, n := range dirs() {
		pr := byDir[n]
		if pr == nil || redirect[n] != "" || n == "." || n == "/" {
			continue
		}
		// the enclosing project: the nearest folder above with dependency files
		encl := ""
		for a := workspace.Dir(n); ; a = workspace.Dir(a) {
			if to, ok := redirect[a]; ok {
				encl = owner(to)
				break
			}
			if q := byDir[a]; q != nil && len(q.depFiles) > 0 {
				encl = a
				break
			}
			if a == "." || a == "/" || a == workspace.Dir(a) {
				break
			}
		}
		if encl == "" {
			continue
		}
		// the top package n is in, below the enclosing project's folder (n
		// itself may be a namespace package of a regular one)
		top := ""
		for d := n; d != encl && isUnder(d, encl) && d != "." && d != "/"; d = workspace.Dir(d) {
			if packages[d] {
				top = d
			} else if d != n {
				break
			}
		}
		if top == "" {
			continue
		}
		enc := byDir[encl]
		reason := ""
		for _, f := range enc.depFiles {
			if path.Base(f) != "pyproject.toml" {
				continue
			}
			if m, ok := manifest(f); ok {
				for _, p := range m.EntryPackages {
					if p == path.Base(top) {
						reason = fmt.Sprintf("%s's entry points name package %s", f, p)
						break
					}
				}
			}
			if reason != "" {
				break
			}
		}
		if reason == "" && top != n && hasMain[top] && (has(enc, "pyproject.toml") != "" || has(enc, "setup.py") != "" || has(enc, "setup.cfg") != "") {
			reason = fmt.Sprintf("package %s, which %s installs, runs as python -m (%s/__main__.py)", path.Base(top), encl, top)
		}
		if reason == "" {
			continue
		}
		redirect[n] = encl
		pr.codeElsewhere = true
		enc.joined = append(enc.joined, fmt.Sprintf("%s: its code, in package %s, analysed here although the folder has dependency files of its own: %s", n, path.Base(top), reason))
	}
	return redirect
}

// builtPackages returns the packages the project's pyproject.toml tells its
// build backend to put in the wheel (deps.Manifest.Packages). Asked of a
// project with no Python file of its own: such packages are copied into
// its folder when it is built (a PyPI packaging folder beside the source
// tree), so the run cannot tell from the folder whether it installs a
// server.
func (e *runner) builtPackages(pr *project) []string {
	for _, f := range pr.depFiles {
		if path.Base(f) != "pyproject.toml" || workspace.Dir(f) != pr.dir {
			continue
		}
		src, err := e.readDep(f)
		if err != nil {
			return nil
		}
		if m, ok := e.parsed.ReadManifest(f, src); ok {
			return m.Packages
		}
	}
	return nil
}

// isManifest tells a project's manifest (what a compile reads to make a
// lock of the project itself) from a requirements input.
func isManifest(p string) bool {
	switch path.Base(p) {
	case "pyproject.toml", "setup.py", "setup.cfg":
		return true
	}
	return false
}

// isRequirementsFile tells a pip requirements file among a project's
// dependency files, by name or by its folder (deps.FormatOf).
func isRequirementsFile(f string) bool {
	return deps.FormatOf(path.Base(f)) == "requirements" || deps.InRequirementsFolder(f)
}

// dropIncluded removes from their folder's project the files that only
// their folder makes dependency files (deps.InRequirementsFolder) when the
// requirements files of another project include them (-r, -c): the
// includes are found by reading those projects' files with deps.Load (the
// same include resolution), and only when such a file exists.
func (e *runner) dropIncluded(byDir map[string]*project) {
	folderOnly := map[string]string{} // file -> its project's folder
	for d, pr := range byDir {
		for _, f := range pr.depFiles {
			if deps.OnlyByFolder(f) {
				folderOnly[f] = d
			}
		}
	}
	if len(folderOnly) == 0 {
		return
	}
	included := map[string]bool{}
	for d, pr := range byDir {
		var reqs []string
		for _, f := range pr.depFiles {
			if isRequirementsFile(f) {
				reqs = append(reqs, f)
			}
		}
		if len(reqs) == 0 {
			continue
		}
		proj, _ := deps.Load(d, reqs, deps.Options{NoStyle: true, ReadFile: e.readDep, Parsed: e.parsed, Root: filepath.FromSlash(e.containRoot(d)), KeepRepeats: 1})
		for _, f := range proj.Files {
			if from := folderOnly[f.Path]; from != "" && from != d {
				included[f.Path] = true
			}
		}
	}
	for f := range included {
		d := folderOnly[f]
		pr := byDir[d]
		rest := pr.depFiles[:0]
		for _, g := range pr.depFiles {
			if g != f {
				rest = append(rest, g)
			}
		}
		pr.depFiles = rest
		if len(pr.depFiles) == 0 {
			delete(byDir, d)
		}
	}
}

// outerWorkspaces gives a project that is a member of a workspace whose
// root is above every scan root (`mcplint check packages/srv`, the
// pre-commit hook's project roots) the root's lock: the installer reads
// it for the member, as uv does when run in a member's folder. The search
// goes up from the project's folder to the repository's top (a folder with
// .git); the root's own manifest is not read (its dependencies are not
// the member's), nor are its other members (outside the scan).
func (e *runner) outerWorkspaces(byDir map[string]*project) {
	wd, err := os.Getwd()
	if err != nil {
		return
	}
	tops := workspace.RepoTops{}
	for d, pr := range byDir {
		if pr.script || pr.membersJoined || !hasFile(pr, "pyproject.toml") {
			continue
		}
		abs := filepath.FromSlash(d)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(wd, abs)
		}
		top := tops.Of(abs)
		if top == abs {
			continue // the repository's top
		}
	search:
		for up := filepath.Dir(abs); ; up = filepath.Dir(up) {
			rootDir := workspace.DisplayPathFrom(wd, up)
			if byDir[rootDir] != nil {
				break // walked: layout joined what it declares
			}
			// By its display path, as the other readers of the file name it
			// (each project's search for its formatter settings).
			pp := path.Join(rootDir, "pyproject.toml")
			if src, err := e.readDep(pp); err == nil {
				if m, ok := e.parsed.ReadManifest(pp, src); ok {
					rel, _ := filepath.Rel(up, abs)
					for _, w := range m.Workspaces {
						if w.Lock == "" || !w.Matches(filepath.ToSlash(rel)) {
							continue
						}
						lock := path.Join(rootDir, w.Lock)
						if _, err := os.Stat(filepath.FromSlash(lock)); err != nil {
							continue
						}
						pr.depFiles = append(pr.depFiles, lock)
						if pr.why == nil {
							pr.why = map[string]string{}
						}
						pr.why[lock] = fmt.Sprintf("the lock of the %s workspace at %s ([%s] members), of which %s is a member: it pins what the member runs", w.Tool, rootDir, w.Table, d)
						pr.joined = append(pr.joined, fmt.Sprintf("%s: the lock of the %s workspace at %s, above the scan, of which this project is a member", lock, w.Tool, rootDir))
						break search
					}
				}
			}
			if up == top || filepath.Dir(up) == up {
				break
			}
		}
	}
}

func hasFile(pr *project, base string) bool {
	for _, f := range pr.depFiles {
		if path.Base(f) == base {
			return true
		}
	}
	return false
}
