package deps

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pelletier/go-toml/v2/unstable"
)

// The project model: a project is what one environment installs. The walk
// finds folders with dependency files; these readers say which of them one
// environment installs together, so the engine can analyse them as one
// program whose locks decide every part's versions:
//
//   - a workspace root's members (uv's [tool.uv.workspace], PDM's
//     [tool.pdm.workspace] since PDM 2.28, Hatch's workspace.members of a
//     [tool.hatch.envs.NAME] table since Hatch 1.16) are installed into the
//     root's environment, from the root's lock (uv.lock, pdm.lock; Hatch
//     has none);
//   - a requirements file that pip-compile or uv pip compile wrote is the
//     lock of the manifest its header names (CompiledFrom);
//   - the enclosing project's entry points ([project.scripts],
//     [project.gui-scripts], [project.entry-points.*], [tool.poetry.scripts])
//     name the packages its installation runs (Manifest.EntryPackages);
//   - the build backend's package lists name what its wheel holds
//     (Manifest.Packages): a project that names packages and has no Python
//     file of its own is a packaging folder that its code is copied into
//     when it is built.
//
// Poetry has no workspace: its monorepos use path dependencies
// (develop = true), and each project keeps its own poetry.lock, so those
// stay projects of their own.

// Manifest is what a pyproject.toml says about the layout of projects.
type Manifest struct {
	Workspaces []Workspace
	// EntryPackages are the top-level packages the entry points name
	// ("pkg" of "pkg.cli:main"), in file order, without repeats.
	EntryPackages []string
	// Packages are the packages and modules the build backend is told to
	// put in the wheel, as written: Hatch's packages of
	// [tool.hatch.build.targets.wheel] or [tool.hatch.build], setuptools'
	// packages (a list, not find) and py-modules of [tool.setuptools],
	// Poetry's include of [[tool.poetry.packages]], Flit's
	// [tool.flit.module] name. Without repeats, in file order.
	Packages []string
}

// Workspace is one declaration of members installed with the root.
type Workspace struct {
	Tool    string   // "uv", "pdm" or "hatch"
	Table   string   // where it is declared: "tool.uv.workspace"
	Lock    string   // the lock file of the root that pins the members ("" for none)
	Members []string // globs relative to the root's folder
	Exclude []string
}

// ReadManifest reads the layout declarations of a pyproject.toml; ok is
// false when it is not valid TOML (Load reports that). Parsed.ReadManifest
// is the same, parsing the file once per run.
func ReadManifest(p string, src []byte) (m Manifest, ok bool) {
	return (*Parsed)(nil).ReadManifest(p, src)
}

// manifestOf reads the layout declarations of a parsed pyproject.toml.
func manifestOf(root *ttable) (m Manifest) {
	if t := root.table("tool", "uv", "workspace"); t != nil {
		m.Workspaces = append(m.Workspaces, Workspace{Tool: "uv", Table: "tool.uv.workspace", Lock: "uv.lock",
			Members: tomlStrings(t.get("members")), Exclude: tomlStrings(t.get("exclude"))})
	}
	if t := root.table("tool", "pdm", "workspace"); t != nil {
		m.Workspaces = append(m.Workspaces, Workspace{Tool: "pdm", Table: "tool.pdm.workspace", Lock: "pdm.lock",
			Members: tomlStrings(t.get("members")), Exclude: tomlStrings(t.get("exclude"))})
	}
	if envs := root.table("tool", "hatch", "envs"); envs != nil {
		for _, name := range envs.keys {
			env := envs.m[name].tbl
			if env == nil {
				continue
			}
			if t := env.table("workspace"); t != nil {
				m.Workspaces = append(m.Workspaces, Workspace{Tool: "hatch", Table: "tool.hatch.envs." + name + ".workspace",
					Members: tomlStrings(t.get("members")), Exclude: tomlStrings(t.get("exclude"))})
			}
		}
	}
	m.Packages = wheelPackages(root)
	seen := map[string]bool{}
	addEntry := func(v *tval) {
		ref := v.str
		if v.tbl != nil { // poetry: {callable = "pkg:main"}
			ref = v.tbl.strAt("callable")
		}
		if v.kind() != unstable.String && v.tbl == nil {
			return
		}
		if i := strings.IndexAny(ref, ":["); i >= 0 {
			ref = ref[:i]
		}
		top, _, _ := strings.Cut(strings.TrimSpace(ref), ".")
		if top != "" && !seen[top] {
			seen[top] = true
			m.EntryPackages = append(m.EntryPackages, top)
		}
	}
	for _, tp := range [][]string{{"project", "scripts"}, {"project", "gui-scripts"}, {"tool", "poetry", "scripts"}} {
		if t := root.table(tp...); t != nil {
			for _, k := range t.keys {
				addEntry(t.m[k])
			}
		}
	}
	if groups := root.table("project", "entry-points"); groups != nil {
		for _, g := range groups.keys {
			if t := groups.m[g].tbl; t != nil {
				for _, k := range t.keys {
					addEntry(t.m[k])
				}
			}
		}
	}
	return m
}

// wheelPackages reads the build backends' package lists (Manifest.Packages).
func wheelPackages(root *ttable) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p = strings.TrimSpace(p); p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, t := range [][]string{{"tool", "hatch", "build", "targets", "wheel"}, {"tool", "hatch", "build"}} {
		if tb := root.table(t...); tb != nil {
			for _, p := range tomlStrings(tb.get("packages")) {
				add(p)
			}
		}
	}
	if st := root.table("tool", "setuptools"); st != nil {
		for _, p := range tomlStrings(st.get("packages")) {
			add(p)
		}
		for _, p := range tomlStrings(st.get("py-modules")) {
			add(p)
		}
	}
	for _, t := range root.tables("tool", "poetry", "packages") {
		add(t.strAt("include"))
	}
	add(root.strAt("tool", "flit", "module", "name"))
	return out
}

// tomlStrings returns the strings of an array (a Hatch member may also be
// {path = "..."}); other values are skipped.
func tomlStrings(v *tval) []string {
	if v == nil || v.kind() != unstable.Array {
		return nil
	}
	var out []string
	for i := range v.arr {
		e := &v.arr[i]
		switch {
		case e.kind() == unstable.String:
			out = append(out, e.str)
		case e.tbl != nil && e.tbl.strAt("path") != "":
			out = append(out, e.tbl.strAt("path"))
		}
	}
	return out
}

// Matches tells whether the folder rel (a slash path relative to the root's
// folder) is a member: some member glob matches it and no exclude glob.
func (w Workspace) Matches(rel string) bool {
	rel = path.Clean(rel)
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	match := func(globs []string) bool {
		for _, g := range globs {
			g = path.Clean(strings.TrimPrefix(strings.ReplaceAll(g, "\\", "/"), "./"))
			if ok, err := doublestar.Match(g, rel); err == nil && ok {
				return true
			}
		}
		return false
	}
	return match(w.Members) && !match(w.Exclude)
}

// Compiled is what the header of a compiled requirements file says.
type Compiled struct {
	Tool    string   // "pip-compile", "uv pip compile", "uv export"
	Command string   // the command line as the header gives it
	Sources []string // the files it was compiled from, slash paths joined to the folder it ran in
}

// CompiledFrom reads the header pip-compile, uv pip compile or uv export
// writes at the top of a requirements file (p is its slash path):
//
//	#    pip-compile --output-file=requirements/prod.txt pyproject.toml
//	#    uv pip compile pyproject.toml -o requirements.txt
//
// The folder the command ran in is the one from which its --output-file
// (-o) names p, else p's own folder; the sources are the command's file
// arguments from there (pip-compile with none reads requirements.in, or
// setup.py, or pyproject.toml: exist tells which exists; uv export reads the
// project's pyproject.toml). ok is false when the file has no such header.
func CompiledFrom(p string, src []byte, exist func(string) bool) (c Compiled, ok bool) {
	head := src
	if len(head) > 4096 {
		head = head[:4096]
	}
	for _, line := range strings.Split(string(head), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if !strings.HasPrefix(line, "#") {
			if line == "" {
				continue
			}
			break // the header ends at the first requirement
		}
		fields := strings.Fields(strings.TrimLeft(line, "# \t"))
		switch {
		case len(fields) > 0 && fields[0] == "pip-compile":
			c.Tool, fields = "pip-compile", fields[1:]
		case len(fields) > 2 && fields[0] == "uv" && fields[1] == "pip" && fields[2] == "compile":
			c.Tool, fields = "uv pip compile", fields[3:]
		case len(fields) > 1 && fields[0] == "uv" && fields[1] == "export":
			c.Tool, fields = "uv export", fields[2:]
		default:
			continue
		}
		c.Command = strings.TrimSpace(strings.TrimLeft(line, "# \t"))
		return c.resolve(p, fields, exist), true
	}
	return Compiled{}, false
}

// fileOptions are the options of pip-compile and uv pip compile whose value
// is a file that is not a source.
var fileOptions = map[string]bool{"-o": true, "--output-file": true, "-c": true, "--constraint": true, "--constraints": true,
	"--override": true, "--overrides": true, "-b": true, "--build-constraint": true, "--build-constraints": true}

func (c Compiled) resolve(p string, args []string, exist func(string) bool) Compiled {
	var output string
	var srcs []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			opt, val, hasVal := strings.Cut(a, "=")
			if !fileOptions[opt] {
				continue
			}
			if !hasVal && i+1 < len(args) {
				i++
				val = args[i]
			}
			if opt == "-o" || opt == "--output-file" {
				output = val
			}
			continue
		}
		if looksLikeSource(a) {
			srcs = append(srcs, a)
		}
	}
	// The folder the command ran in: the one from which --output-file names
	// p; else (pip-compile writes next to its source by default) the nearest
	// folder, p's own or above, from which the first source exists.
	dir, known := path.Dir(p), false
	if output != "" && !path.IsAbs(output) {
		out := path.Clean(strings.ReplaceAll(output, "\\", "/"))
		switch {
		case out == path.Clean(p):
			dir, known = ".", true
		case strings.HasSuffix(p, "/"+out):
			dir, known = path.Clean(strings.TrimSuffix(p, "/"+out)), true
		}
	}
	if !known && len(srcs) > 0 && exist != nil && !path.IsAbs(srcs[0]) {
		for d := dir; ; d = path.Dir(d) {
			if exist(path.Join(d, srcs[0])) {
				dir = d
				break
			}
			if d == "." || d == "/" || path.Dir(d) == d {
				break
			}
		}
	}
	if len(srcs) == 0 {
		defaults := []string{"requirements.in", "setup.py", "pyproject.toml"}
		if c.Tool == "uv export" {
			defaults = []string{"pyproject.toml"}
		}
		for _, d := range defaults {
			if exist == nil || exist(path.Join(dir, d)) {
				srcs = []string{d}
				break
			}
		}
	}
	for _, s := range srcs {
		s = strings.ReplaceAll(s, "\\", "/")
		if path.IsAbs(s) {
			continue // written on another machine: not a path here
		}
		c.Sources = append(c.Sources, path.Join(dir, s))
	}
	return c
}

// looksLikeSource tells a file argument of the compile command from an
// option's value (--extra dev): a manifest or a requirements file name.
func looksLikeSource(a string) bool {
	base := path.Base(strings.ReplaceAll(a, "\\", "/"))
	switch base {
	case "pyproject.toml", "setup.py", "setup.cfg":
		return true
	}
	ext := path.Ext(base)
	return ext == ".in" || ext == ".txt"
}
