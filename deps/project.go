// Package deps reads Python dependency files and resolves, per project, which
// versions of mcp, fastmcp (and fastmcp-slim) and anyio the project can run.
//
// CONTRACT (used by rules, engine and workspace; keep these names):
//   - IsDependencyFile(name) tells the workspace which files make a directory
//     a project root.
//   - Load(dir, files, opts) reads a project's dependency files.
//   - Project.MCP / FastMCP / Anyio answer version questions as a Tri.
package deps

import "github.com/mcplint/mcplint/pyast"

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

// File is one dependency file read for a project.
type File struct {
	Path  string // slash path as the workspace gives it
	Src   []byte
	Lines *pyast.LineIndex
}

// Project is one directory with dependency files and what they resolve to.
type Project struct {
	Dir   string  // slash path of the project root ("." for the scan root)
	Files []*File // dependency files read
}

// Options for Load.
type Options struct {
	AssumeMCP     string // a version to assume for mcp where nothing declares it
	AssumeFastMCP string
	// ReadFile, when set, is how Load and LoadScript read every file
	// (includes too): the fixer passes its overlay of edited contents so a
	// fix can be checked before anything is written. Nil means os.ReadFile.
	ReadFile func(path string) ([]byte, error)
}

// IsDependencyFile reports whether a file name marks a project root.
func IsDependencyFile(name string) bool {
	switch name {
	case "pyproject.toml", "setup.cfg", "setup.py", "Pipfile", "Pipfile.lock", "uv.lock", "poetry.lock", "pdm.lock", "pylock.toml":
		return true
	}
	return isRequirementsName(name)
}

func isRequirementsName(name string) bool {
	return len(name) > len("requirements") && name[:len("requirements")] == "requirements"
}

// Load reads the dependency files of the project rooted at dir. Errors in one
// file do not stop the others: they are returned alongside.
func Load(dir string, files []string, opts Options) (*Project, []error) {
	return &Project{Dir: dir}, nil
}

// MCPAdmits reports whether the project can run an mcp version in [lo, hi)
// ("" for an open end), e.g. MCPAdmits("1.12.3", "2.0.0").
func (p *Project) MCPAdmits(lo, hi string) Tri { return Unknown }

// FastMCPAdmits is MCPAdmits for fastmcp (and fastmcp-slim).
func (p *Project) FastMCPAdmits(lo, hi string) Tri { return Unknown }

// AnyioAdmits is MCPAdmits for anyio.
func (p *Project) AnyioAdmits(lo, hi string) Tri { return Unknown }

// MCP1 reports whether the project can run mcp 1.x, where a handler that
// returns after a cancel crashes the server (or fastmcp < 4, which pulls it).
func (p *Project) MCP1() Tri {
	return p.MCPAdmits("1.0.0", "2.0.0").Or(p.FastMCPAdmits("2.0.0", "4.0.0"))
}

// FastMCP3 reports whether the project can run PrefectHQ fastmcp 3.x.
func (p *Project) FastMCP3() Tri { return p.FastMCPAdmits("3.0.0", "4.0.0") }
