package engine

import (
	"bytes"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// importGraph is what a scan of a project's import lines (no parsing) says
// about which files can matter. Files are connected when one imports the
// other; a seed imports mcp, fastmcp or a configured registration decorator.
// Only the connected components that hold a seed can define, register or
// reach a handler: a server is created by code that imports the framework,
// a module that registers tools on it imports it (or is imported by code that
// passes it the server), and the code handlers call is imported by them.
type importGraph struct {
	files  []string
	index  map[string]int
	parent []int // union-find forest over files
	seed   map[string]bool
	comps  map[int][]string // root -> files, built on first use
}

// frameworkModules are the top-level packages whose import makes a seed.
var frameworkModules = []string{"mcp", "fastmcp"}

// newImportGraph builds the graph of files (those with bytes in srcs);
// lines returns the import lines of a file (importLines).
func newImportGraph(files []string, srcs map[string][]byte, names *moduleNames, decorators []string, lines func(f string) []string) *importGraph {
	g := &importGraph{index: map[string]int{}, seed: map[string]bool{}}
	for _, f := range files {
		if srcs[f] != nil {
			g.index[f] = len(g.files)
			g.files = append(g.files, f)
			g.parent = append(g.parent, len(g.parent))
		}
	}
	for i, f := range g.files {
		for _, ref := range lines(f) {
			if isSeedImport(ref, decorators) {
				g.seed[f] = true
			}
			// "import a.b.c" runs a and a.b too.
			for q := ref; q != ""; q = q[:max(strings.LastIndexByte(q, '.'), 0)] {
				for _, h := range names.files(q) {
					if j, ok := g.index[h]; ok {
						g.union(i, j)
					}
				}
			}
		}
	}
	return g
}

// isSeedImport reports whether an imported name is the MCP framework or
// leads to a configured registration decorator (a prefix of its qualified
// name, or a name inside it).
func isSeedImport(ref string, decorators []string) bool {
	for _, m := range frameworkModules {
		if ref == m || strings.HasPrefix(ref, m+".") {
			return true
		}
	}
	for _, d := range decorators {
		if ref == d || strings.HasPrefix(d, ref+".") || strings.HasPrefix(ref, d+".") {
			return true
		}
	}
	return false
}

func (g *importGraph) find(i int) int {
	for g.parent[i] != i {
		g.parent[i] = g.parent[g.parent[i]]
		i = g.parent[i]
	}
	return i
}

func (g *importGraph) union(i, j int) {
	if a, b := g.find(i), g.find(j); a != b {
		g.parent[a] = b
	}
}

// component returns the files connected to f (f included), in project order.
func (g *importGraph) component(f string) []string {
	i, ok := g.index[f]
	if !ok {
		return nil
	}
	if g.comps == nil {
		g.comps = map[int][]string{}
		for j, h := range g.files {
			r := g.find(j)
			g.comps[r] = append(g.comps[r], h)
		}
	}
	return g.comps[g.find(i)]
}

// importLines returns the modules (and, for from-imports, module.name) a
// file's import statements name, read line by line without parsing: a
// statement starting with "import " or "from " (indented ones included),
// continued over parentheses and backslashes. Relative imports are resolved
// against the file's module name. Text that only looks like an import (in a
// string) can add names; that only admits more files.
func importLines(src []byte, modName string, isPackage bool) []string {
	var out []string
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	for len(src) > 0 {
		var line []byte
		line, src = nextLine(src)
		l := bytes.TrimLeft(line, " \t\ufeff") // tree-sitter reads a stray BOM as a space
		isImport := bytes.HasPrefix(l, []byte("import "))
		if !isImport && !bytes.HasPrefix(l, []byte("from ")) {
			continue
		}
		// Join continuation lines: an open parenthesis or a trailing backslash.
		stmt := string(bytes.TrimRight(l, " \t"))
		for (strings.Contains(stmt, "(") && !strings.Contains(stmt, ")") || strings.HasSuffix(stmt, "\\")) && len(src) > 0 {
			var next []byte
			next, src = nextLine(src)
			stmt = strings.TrimSuffix(stmt, "\\") + " " + strings.TrimSpace(string(next))
		}
		if i := strings.IndexByte(stmt, '#'); i >= 0 {
			stmt = stmt[:i]
		}
		if isImport {
			for _, part := range strings.Split(strings.TrimPrefix(stmt, "import "), ",") {
				if f := strings.Fields(part); len(f) > 0 {
					out = append(out, f[0])
				}
			}
			continue
		}
		f := strings.Fields(strings.TrimPrefix(stmt, "from "))
		if len(f) < 3 || f[1] != "import" {
			continue
		}
		mod := f[0]
		if strings.HasPrefix(mod, ".") {
			dots := len(mod) - len(strings.TrimLeft(mod, "."))
			mod = pyast.RelativeModule(modName, isPackage, dots, strings.TrimLeft(mod, "."))
		}
		out = append(out, mod)
		for _, name := range strings.Split(strings.Join(f[2:], " "), ",") {
			if n := strings.Fields(strings.Trim(strings.TrimSpace(name), "()\\") + " x")[0]; n != "" && n != "x" && n != "*" {
				out = append(out, mod+"."+n)
			}
		}
	}
	return out
}

// nextLine splits src after its first line, which ends as CPython ends a
// line: at "\r\n", "\n" or a lone "\r". The line is returned without its end.
func nextLine(src []byte) (line, rest []byte) {
	i := bytes.IndexAny(src, "\r\n")
	if i < 0 {
		return src, nil
	}
	if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
		return src[:i], src[i+2:]
	}
	return src[:i], src[i+1:]
}
