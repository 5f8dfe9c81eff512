// Package deps reads Python dependency files and resolves, per project, which
// versions of mcp, fastmcp (and fastmcp-slim) and anyio the project can run.
//
// CONTRACT (used by rules, engine and workspace; keep these names):
//   - IsDependencyFile(name) and IsDependencyPath(path) tell the workspace
//     which files make a directory a project root.
//   - Load(dir, files, opts) reads a project's dependency files.
//   - Project.MCP / FastMCP / Anyio answer version questions as a Tri.
//
// The package has the shape of osv-scalibr's extractors: one file per format
// (pyproject.go, requirements.go, setupcfg.go, setuppy.go, pipfile.go,
// script.go, and the lock files uvlock.go, poetrylock.go, pdmlock.go,
// pipfilelock.go, pylock.go), each returning Requirements with the byte span
// of their text. version.go, specifier.go and set.go are PEP 440 (and Poetry's
// ^ and ~) as an algebra of version sets; resolve.go turns a project's
// requirements into the versions it can run. layout.go reads what decides
// which folders one environment installs together (workspaces, compiled
// requirements headers, entry points), for the engine's project model, and
// sources.go says which files decided a project's versions and why.
package deps

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/redact"
	"github.com/mcplint/mcplint/internal/safeio"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/pystyle"
)

// Tri is a three-valued answer: the project's dependencies say yes, say no,
// or do not say.
type Tri int8

const (
	Unknown Tri = iota
	No
	Yes
)

func (t Tri) String() string { return [...]string{"unknown", "no", "yes"}[t] }

// Or returns Yes if either is Yes, No if both are No, else Unknown.
func (t Tri) Or(u Tri) Tri {
	switch {
	case t == Yes || u == Yes:
		return Yes
	case t == No && u == No:
		return No
	}
	return Unknown
}

func triOf(b bool) Tri {
	if b {
		return Yes
	}
	return No
}

// File is one dependency file read for a project.
type File struct {
	Path  string // slash path as the workspace gives it
	Src   []byte
	Lines *pyast.LineIndex
	// Encoding names the encoding Src was decoded from ("UTF-16",
	// "UTF-32": encoding.go), "" for a file read as its bytes.
	Encoding string
}

// Project is one directory with dependency files and what they resolve to.
type Project struct {
	Dir   string  // slash path of the project root ("." for the scan root)
	Files []*File // dependency files read (includes too), in reading order

	// Style is the project's formatting settings (line length, import
	// order) from the ruff, black and isort configuration files that apply
	// to the project (style.go), for the fixes.
	Style pystyle.Style

	// Notes says what was read but skipped (a setup.py value that is not a
	// literal, an include from a URL), for verbose output.
	Notes []string

	reqs      []*Requirement
	opts      Options
	resolved  map[string]*Resolution
	pinned    map[string]*Resolution // Resolution without narrowing open ranges
	workspace bool                   // a workspace root ([tool.uv.workspace], ...)
	codeMCP1  string                 // SetCodeNeedsMCP1's reason
	// why says why a file read from another folder belongs to the project
	// (Options.Why), by path; members: the workspace's members were read
	// with it (Options.MembersJoined).
	why     map[string]string
	members bool
	// includes are the files each requirements file names with -r or -c
	// (slash paths, cleaned), for the install sets (requires.go).
	includes map[string][]string
	idx      *reqIndex // requires.go
}

// WorkspaceRoot reports whether the project's pyproject.toml declares a
// workspace ([tool.uv.workspace], [tool.pdm.workspace], a Hatch
// environment's workspace) whose members were not read with it: its lock
// also pins what the members, projects of their own, run. When the engine
// joined the members into the root's project (Options.MembersJoined), the
// root holds their code and this is false.
func (p *Project) WorkspaceRoot() bool { return p != nil && p.workspace && !p.members }

// Options for Load.
type Options struct {
	AssumeMCP     string // a version (or specifier) to assume for mcp where nothing declares it
	AssumeFastMCP string
	// ReadFile, when set, is how Load and LoadScript read every file
	// (includes too): the fixer passes its overlay of edited contents so a
	// fix can be checked before anything is written. Nil means safeio.ReadFile
	// with the dependency-file limit.
	ReadFile func(path string) ([]byte, error)
	// Root is the folder that paths named inside a dependency file (-r and
	// -c includes, setup.cfg file: entries) must stay in once symlinks are
	// resolved: the scan root the project is under. "" means the project's
	// own folder. A path that leads outside is not read; its MCP000 message
	// quotes the path, never the content.
	Root string
	// AllRequirements keeps the requirements of every package. By default
	// a project keeps only those of the packages it resolves (mcp, fastmcp,
	// fastmcp-slim, anyio: see Tracked): every requirement is still parsed
	// and an invalid one is still an error, but a dependency list of a
	// million entries costs its parse, not a million records. Tests of the
	// file readers set it to see every requirement.
	AllRequirements bool
	// KeepRepeats is how many copies of a line that a requirements file
	// repeats exactly are kept as requirements of their own; the others are
	// Repeats of the last copy kept. 0 keeps them all. The engine sets it to
	// its display limit of findings of one kind (--max-same-findings): the
	// findings past it are folded to their place anyway, and 1.3 million
	// copies of a line cost 10 MB, not 360.
	KeepRepeats int
	// ParseLimits bound the parsing of setup.py; nil means pyast.DefaultLimits.
	ParseLimits *pyast.Limits
	// NoStyle leaves Style empty: no formatter configuration is looked for
	// (for a report of the versions, which no fix reads).
	NoStyle bool
	// Why says, by path, why a file of another folder belongs to the
	// project: the engine's project model (layout.go) joined it (a
	// workspace member's manifest, a compiled requirements file read as the
	// lock of the manifest its header names). Project.VersionSources reports it.
	Why map[string]string
	// MembersJoined says that the project's files include its workspace
	// members' (WorkspaceRoot is then false).
	MembersJoined bool
	// Parsed, when set, holds the manifests the run parsed already (the
	// engine's project model read them): each is parsed once per run.
	Parsed *Parsed
}

func (o Options) read(p string) ([]byte, error) {
	if o.ReadFile != nil {
		return o.ReadFile(p)
	}
	return safeio.ReadFile(filepath.FromSlash(p), safeio.Dependency)
}

// FileError is a problem in one dependency file, at a position.
type FileError struct {
	Path   string
	Offset int // byte offset
	Line   int // 1-based; 0 when the error is about the whole file
	Column int // 1-based, in characters
	Msg    string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// IsDependencyFile reports whether a file name marks a project root.
func IsDependencyFile(name string) bool { return FormatOf(name) != "" }

// FormatOf names the format mcplint reads a dependency file in, from the
// file's name: "requirements" (pip requirement and constraint files),
// "pylock" (pylock.toml and pylock.NAME.toml), else the file's own name
// ("pyproject.toml", "uv.lock", ...); "" for a file that is none. Two names
// of the same format are read the same way: a symlink from one dependency
// file is followed only to a file of its own format (workspace).
func FormatOf(name string) string {
	switch name {
	case "pyproject.toml", "setup.cfg", "setup.py", "Pipfile", "Pipfile.lock", "uv.lock", "poetry.lock", "pdm.lock":
		return name
	}
	if name == "pylock.toml" || strings.HasPrefix(name, "pylock.") && strings.HasSuffix(name, ".toml") {
		return "pylock"
	}
	if isRequirementsName(name) {
		return "requirements"
	}
	return ""
}

// IsDependencyPath is IsDependencyFile for a slash path: it also takes the
// requirement files of a folder named requirements (requirements/base.in,
// requirements/prod.txt), the layout pip-tools documents, whose names need
// not say "requirements".
func IsDependencyPath(p string) bool {
	return IsDependencyFile(path.Base(p)) || InRequirementsFolder(p)
}

// OnlyByFolder reports whether p is a dependency file only because of its
// folder (requirements/prod.txt): its name alone says nothing.
func OnlyByFolder(p string) bool {
	return !IsDependencyFile(path.Base(p)) && InRequirementsFolder(p)
}

// InRequirementsFolder reports whether p is a .txt or .in file of a folder
// named requirements.
func InRequirementsFolder(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	return (ext == ".txt" || ext == ".in") && strings.EqualFold(path.Base(path.Dir(p)), "requirements")
}

// IsLockFile reports whether name is a lock file that an installer reads
// from the project's folder by itself (uv.lock, poetry.lock, pdm.lock,
// Pipfile.lock, pylock.toml and pylock.NAME.toml), rather than one a
// command line names.
func IsLockFile(name string) bool {
	switch name {
	case "Pipfile.lock", "uv.lock", "poetry.lock", "pdm.lock", "pylock.toml":
		return true
	}
	return strings.HasPrefix(name, "pylock.") && strings.HasSuffix(name, ".toml")
}

// isRequirementsName matches pip requirement and constraint files:
// requirements.txt, requirements-dev.txt, dev-requirements.in,
// requirements.lock, requirements-lock.txt, constraints.txt.
func isRequirementsName(name string) bool {
	lower := strings.ToLower(name)
	ext := path.Ext(lower)
	switch ext {
	case ".txt", ".in", ".lock":
	default:
		return false
	}
	stem := strings.TrimSuffix(lower, ext)
	return strings.Contains(stem, "requirements") || strings.Contains(stem, "constraints")
}

// reader is the per-format entry point: the requirements of one file.
type reader func(l *loader, f *File) []*Requirement

// readers are the entry points by FormatOf.
var readers = map[string]reader{
	"pyproject.toml": readPyproject,
	"setup.cfg":      readSetupCfg,
	"setup.py":       readSetupPy,
	"Pipfile":        readPipfile,
	"Pipfile.lock":   readPipfileLock,
	"uv.lock":        readUVLock,
	"poetry.lock":    readPoetryLock,
	"pdm.lock":       readPDMLock,
	"pylock":         readPylock,
	"requirements":   readRequirementsFile,
}

func readerFor(name string) reader { return readers[FormatOf(name)] }

// readerForPath is readerFor for a slash path (IsDependencyPath).
func readerForPath(p string) reader {
	if rd := readerFor(path.Base(p)); rd != nil {
		return rd
	}
	if InRequirementsFolder(p) {
		return readRequirementsFile
	}
	return nil
}

// loader reads one project's files.
type loader struct {
	opts  Options
	proj  *Project
	errs  []error
	files map[string]*File // by cleaned path
	// reqFiles: requirements files already read (by cleaned path), and the
	// include stack for cycle detection.
	reqDone  map[string]bool
	reqStack []string
	// tomls: TOML files parsed (by cleaned path; nil when unreadable), for
	// the style files that are also dependency files.
	tomls map[string]*ttable
	// rootSources is the workspace root's [tool.uv.sources] (and its
	// file), which the members' requirements inherit (uv: a member's own
	// entry for a package overrides the root's).
	rootSources     *ttable
	rootSourcesFile *File
	// parsed holds the parse of the requirement lines read so far.
	parsed requirementCache
	// repeats counts the copies of each requirements-file line read so
	// far (Options.KeepRepeats), by file and text.
	repeats map[repeatKey]*repeated
}

type repeatKey struct{ path, line string }

// repeated is the copies of a line read so far, and the last one kept.
type repeated struct {
	n    int
	kept *Requirement
}

// errorf records an error in f. The message is bounded and made printable
// (escape.Bound) whatever a reader put in it, and credential-shaped text in
// it is masked (quote): it must never carry more than an excerpt of a
// file, and never a secret.
func (l *loader) errorf(f *File, off int, format string, args ...any) {
	l.errs = append(l.errs, &FileError{Path: f.Path, Offset: off, Msg: quote(fmt.Sprintf(format, args...))})
}

// addErr records an error from a parser (TOML, JSON); a *FileError's
// message is bounded and masked as errorf's are.
func (l *loader) addErr(err error) {
	if fe, ok := err.(*FileError); ok {
		fe.Msg = quote(fe.Msg)
	}
	l.errs = append(l.errs, err)
}

// quote is what every message and note of the package goes through, since
// any of them may cite a line of a file that is not what its name says (a
// .git/config behind a requirements name): bounded, printable, and with
// credential-shaped text masked (package redact).
func quote(msg string) string { return escape.Bound(redact.Text(msg)) }

// note records something read but skipped.
func (l *loader) note(f *File, off int, format string, args ...any) {
	pos := ""
	if f.Lines != nil {
		p := f.Lines.Position(off)
		pos = fmt.Sprintf(":%d:%d", p.Line, p.Column)
	}
	l.proj.Notes = append(l.proj.Notes, f.Path+pos+": "+quote(fmt.Sprintf(format, args...)))
}

// named checks a path named inside a dependency file (an include) before
// it is read: it must not be inside a version-control folder (where a CI
// checkout keeps the job's token), and must lead, symlinks resolved, inside
// opts.Root (or the project's folder). It returns why not, for the MCP000
// message (which quotes the path, never the content), or "".
func (l *loader) named(p string) string {
	if d := safeio.VCSDir(filepath.FromSlash(p)); d != "" {
		return "the file is inside version-control internals (" + d + "): not read"
	}
	root := l.opts.Root
	if root == "" {
		root = filepath.FromSlash(l.proj.Dir)
	}
	if isOutside(safeio.Within(root, filepath.FromSlash(p))) {
		return "the file is outside the scanned tree: not read"
	}
	return ""
}

// file reads a file once.
func (l *loader) file(p string) (*File, error) {
	key := path.Clean(p)
	if f := l.files[key]; f != nil {
		return f, nil
	}
	src, err := l.opts.read(p)
	if err != nil {
		return nil, err
	}
	src, enc := Decode(src)
	f := &File{Path: p, Src: src, Lines: pyast.NewLineIndex(src), Encoding: enc}
	l.files[key] = f
	l.proj.Files = append(l.proj.Files, f)
	return f, nil
}

func newLoader(dir string, opts Options) *loader {
	return &loader{
		opts: opts,
		// The project keeps only the options it reads after loading: a
		// ReadFile closure would keep alive every byte its caller read (the
		// engine's reads the whole project's sources) for as long as the
		// run reports the project.
		proj: &Project{Dir: dir, opts: Options{AssumeMCP: opts.AssumeMCP, AssumeFastMCP: opts.AssumeFastMCP},
			why: opts.Why, members: opts.MembersJoined},
		files:   map[string]*File{},
		reqDone: map[string]bool{},
	}
}

// Load reads the dependency files of the project rooted at dir. Errors in one
// file do not stop the others: they are returned alongside, as *FileError.
func Load(dir string, files []string, opts Options) (*Project, []error) {
	l := newLoader(dir, opts)
	for _, p := range files {
		rd := readerForPath(p)
		if rd == nil || l.reqDone[path.Clean(p)] {
			continue // already read as an include
		}
		f, err := l.file(p)
		if err != nil {
			l.addErr(&FileError{Path: p, Msg: "cannot read: " + unwrapPathError(err)})
			continue
		}
		l.readSafely(rd, f)
	}
	if len(files) > 0 && !opts.NoStyle {
		l.readStyle(path.Dir(files[0]))
	}
	return l.finish()
}

// readSafely runs a reader; a panic becomes an error for that file.
func (l *loader) readSafely(rd reader, f *File) {
	defer func() {
		if r := recover(); r != nil {
			l.errorf(f, 0, "internal error reading the file: %v", r)
		}
	}()
	for _, r := range rd(l, f) {
		if l.keep(r) {
			l.proj.reqs = append(l.proj.reqs, r)
		}
	}
}

// keep tells whether the project keeps r (Options.AllRequirements). Readers
// of lists that can be long call it as they go, so that what is dropped is
// garbage at once; readSafely applies it to whatever a reader returns.
func (l *loader) keep(r *Requirement) bool {
	return l.opts.AllRequirements || Tracked(r.Name)
}

func (l *loader) finish() (*Project, []error) {
	for _, err := range l.errs {
		if fe, ok := err.(*FileError); ok && fe.Line == 0 {
			if f := l.files[path.Clean(fe.Path)]; f != nil && (fe.Offset > 0 || len(f.Src) > 0) {
				pos := f.Lines.Position(fe.Offset)
				fe.Line, fe.Column = pos.Line, pos.Column
			}
		}
	}
	sort.SliceStable(l.proj.reqs, func(i, j int) bool {
		a, b := l.proj.reqs[i], l.proj.reqs[j]
		if a.Path != b.Path {
			return false // keep file reading order
		}
		return a.Start < b.Start
	})
	return l.proj, l.errs
}

func unwrapPathError(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// isOutside tells whether err is safeio's refusal of a path outside the
// scanned tree.
func isOutside(err error) bool {
	var oe *safeio.OutsideError
	return errors.As(err, &oe)
}

// Requirements returns the requirements read, file by file in source order:
// those of the packages Tracked names, or every one with
// Options.AllRequirements.
func (p *Project) Requirements() []*Requirement { return p.reqs }

// File returns the file read at path, or nil.
func (p *Project) File(path string) *File {
	for _, f := range p.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// SetCodeNeedsMCP1 records that the project's own code uses an API that
// only mcp 1.x has, so it runs only where mcp is 1.x; why says what the code
// does and where ("imports mcp.server.fastmcp (server.py:3)"). A declared
// range of mcp that admits both 1.x and 2.x then resolves within 1.x
// (mcp>=1.0 is 1.x, not the newest release a fresh install picks: there
// the code does not even import). A lock's version, an assumed version, the
// mcp that fastmcp pulls, and a declared range with no 1.x still win: the
// code is broken there, the versions stay what the files say.
func (p *Project) SetCodeNeedsMCP1(why string) {
	if p == nil || p.codeMCP1 == why {
		return
	}
	p.codeMCP1 = why
	p.resolved, p.pinned = nil, nil
}

// WithoutCode returns the project as its dependency files alone resolve it
// (before SetCodeNeedsMCP1): a copy, p is left as it is.
func (p *Project) WithoutCode() *Project {
	if p == nil || p.codeMCP1 == "" {
		return p
	}
	q := *p
	q.codeMCP1, q.resolved, q.pinned = "", nil, nil
	return &q
}

// MCPAdmits reports whether the project can run an mcp version in [lo, hi)
// ("" for an open end), e.g. MCPAdmits("1.12.3", "2.0.0").
func (p *Project) MCPAdmits(lo, hi string) Tri { return p.admits("mcp", lo, hi) }

// FastMCPAdmits is MCPAdmits for fastmcp (and fastmcp-slim).
func (p *Project) FastMCPAdmits(lo, hi string) Tri { return p.admits("fastmcp", lo, hi) }

// AnyioAdmits is MCPAdmits for anyio.
func (p *Project) AnyioAdmits(lo, hi string) Tri { return p.admits("anyio", lo, hi) }

func (p *Project) admits(pkg, lo, hi string) Tri {
	if p == nil {
		return Unknown
	}
	r := p.Resolution(pkg)
	if !r.Known {
		return Unknown
	}
	return triOf(r.Set.AdmitsRange(lo, hi))
}

// MCP1 reports whether the project can run mcp 1.x, where a handler that
// returns after a cancel crashes the server (or fastmcp < 4, which pulls it).
// The mcp resolution already follows fastmcp (< 4 pulls mcp 1.x, >= 4 mcp
// 2.x), so a project on mcp 2.x with no fastmcp is No, not Unknown.
func (p *Project) MCP1() Tri {
	if p == nil {
		return Unknown
	}
	if p.Resolution("mcp").Known {
		return p.MCPAdmits("1.0.0", "2.0.0")
	}
	return p.FastMCPAdmits("", "4.0.0")
}

// PinsAdmitMCP1 is MCP1 for every environment the project's files allow,
// not only a fresh install: a range open above (mcp>=1.0, fastmcp>=2) admits
// 1.x even though an installer picks 2.x today. No means the locks and
// declared ranges themselves exclude mcp 1.x.
func (p *Project) PinsAdmitMCP1() Tri {
	if p == nil {
		return Unknown
	}
	if r := p.pinnedResolution("mcp"); r.Known {
		return triOf(r.Set.AdmitsRange("1.0.0", "2.0.0"))
	}
	if r := p.pinnedResolution("fastmcp"); r.Known {
		return triOf(r.Set.AdmitsRange("", "4.0.0"))
	}
	return Unknown
}

// FastMCP3 reports whether the project can run PrefectHQ fastmcp 3.x.
func (p *Project) FastMCP3() Tri { return p.FastMCPAdmits("3.0.0", "4.0.0") }
