package deps

import (
	"path"
	"path/filepath"
)

// VersionSource is one dependency file of a project: what kind of file it is, why
// it belongs to the project, and the packages whose versions it decided.
type VersionSource struct {
	Path string
	// Role is "lock" (exact versions: a lock file, a compiled or lock-style
	// requirements file), "constraints" (a pip constraints file) or
	// "manifest" (declared ranges).
	Role string
	// Why says why the file belongs to the project: "in the project's
	// folder", "included by a requirements file", or the engine's reason
	// for a file of another folder (Options.Why).
	Why string
	// Decides lists the tracked packages (mcp, fastmcp, anyio) whose
	// resolution the file decided: a lock's exact version where one
	// exists, else the declared ranges and constraints; the mcp that
	// fastmcp implies is decided by fastmcp's files.
	Decides []string
}

// VersionSourcePackages are the packages VersionSources reports on, in order.
var VersionSourcePackages = []string{"mcp", "fastmcp", "anyio"}

// VersionSources returns the project's dependency files in reading order, with
// what each decided.
func (p *Project) VersionSources() []VersionSource {
	if p == nil {
		return nil
	}
	decides := map[string][]string{}
	add := func(file, pkg string) {
		for _, q := range decides[file] {
			if q == pkg {
				return
			}
		}
		decides[file] = append(decides[file], pkg)
	}
	deciders := func(r *Resolution) []string {
		var out []string
		exact := false
		for _, l := range r.Locked {
			if !l.Unknown {
				exact = true
				out = append(out, l.Path)
			}
		}
		if !exact {
			for _, d := range r.Declared {
				out = append(out, d.Path)
			}
			for _, c := range r.Constraints {
				out = append(out, c.Path)
			}
		}
		return out
	}
	for _, pkg := range VersionSourcePackages {
		r := p.Resolution(pkg)
		files := deciders(r)
		if pkg == "mcp" && len(files) == 0 && r.Implied != "" {
			files = deciders(p.Resolution("fastmcp"))
		}
		for _, f := range files {
			add(f, pkg)
		}
	}
	locked := map[string]bool{}
	constraint := map[string]bool{}
	for _, r := range p.reqs {
		if r.Locked {
			locked[r.Path] = true
		}
		if r.Constraint {
			constraint[r.Path] = true
		}
	}
	out := make([]VersionSource, 0, len(p.Files))
	for _, f := range p.Files {
		s := VersionSource{Path: f.Path, Role: "manifest", Decides: decides[f.Path]}
		base := path.Base(f.Path)
		switch {
		case IsLockFile(base) || locked[f.Path] || (isRequirementsName(base) || InRequirementsFolder(f.Path)) && isLockRequirements(base, f.Src):
			s.Role = "lock"
		case constraint[f.Path]:
			s.Role = "constraints"
		}
		switch {
		case p.why[f.Path] != "":
			s.Why = p.why[f.Path]
		case path.Dir(f.Path) == path.Clean(p.Dir) && readerForPath(f.Path) != nil:
			s.Why = "in the project's folder"
		default:
			s.Why = "included by a requirements file"
		}
		if s.Decides == nil {
			s.Decides = []string{}
		}
		out = append(out, s)
	}
	return out
}

// displayName is how the version lines (Describe) name a file: its base
// name in the project's folder, its path from the project's folder when the
// engine joined it from another (a workspace member's pyproject.toml).
func (p *Project) displayName(file string) string {
	if p.why[file] == "" {
		return path.Base(file)
	}
	if rel, err := filepath.Rel(filepath.FromSlash(p.Dir), filepath.FromSlash(file)); err == nil {
		return filepath.ToSlash(rel)
	}
	return file
}
