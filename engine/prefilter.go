package engine

import (
	"bytes"
	"strings"

	"github.com/mcplint/mcplint/handlers"
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
	doubt  map[string]bool  // seeds only because their import lines are in doubt
	comps  map[int][]string // root -> files, built on first use
}

// frameworkModules are the top-level packages whose import makes a seed:
// those of the server classes mcplint knows (mcp, fastmcp, fastapi_mcp).
var frameworkModules = handlers.ServerPackages()

// newImportGraph builds the graph of files (those with bytes in srcs);
// lines returns the import lines of a file (importLines). A file whose
// import lines are in doubt is a seed: it is parsed.
func newImportGraph(files []string, srcs map[string][]byte, names *moduleNames, decorators []string, lines func(f string) ([]string, bool)) *importGraph {
	g := &importGraph{index: map[string]int{}, seed: map[string]bool{}, doubt: map[string]bool{}}
	for _, f := range files {
		if srcs[f] != nil {
			g.index[f] = len(g.files)
			g.files = append(g.files, f)
			g.parent = append(g.parent, len(g.parent))
		}
	}
	for i, f := range g.files {
		refs, ok := lines(f)
		if !ok {
			g.seed[f], g.doubt[f] = true, true
		}
		for _, ref := range refs {
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
// file's import statements name, found without parsing but as Python's
// tokenizer delimits statements: a statement starts a logical line, follows
// a ";" or the ":" of a compound statement's header on the same line
// ("if x: import mcp", "try: from mcp import y"), at any indentation; a
// logical line goes on over brackets and backslash continuations; spaces,
// tabs and form feeds separate tokens; strings and comments are skipped.
// Relative imports are resolved against the file's module name.
//
// It may name more than the file imports, never less: a physical line
// that starts with the import keyword is read as an import wherever it is
// (so an unclosed bracket above it hides nothing), and a file the scan cannot
// follow to its end (an unterminated triple-quoted string or an unclosed
// bracket) is reported as doubtful (ok false), and the caller parses it.
func importLines(src []byte, modName string, isPackage bool) (out []string, ok bool) {
	ok = eachImport(src, func(toks []string) {
		out = appendImported(out, toks, modName, isPackage)
	})
	return out, ok
}

// appendImported appends what an import statement's tokens (importTokens)
// name: each module of "import a.b as c, d", the module and module.name of
// each name of "from .m import (x, y as z)".
func appendImported(out []string, toks []string, modName string, isPackage bool) []string {
	i := 1
	// dotted reads NAME ("." NAME)* at i.
	dotted := func() string {
		var q []string
		for i < len(toks) && isName(toks[i]) && toks[i] != "import" {
			q = append(q, toks[i])
			i++
			if i+1 < len(toks) && toks[i] == "." && isName(toks[i+1]) {
				i++
				continue
			}
			break
		}
		return strings.Join(q, ".")
	}
	if toks[0] == "import" {
		for i < len(toks) {
			if q := dotted(); q != "" {
				out = append(out, q)
			}
			for i < len(toks) && toks[i] != "," { // "as name"
				i++
			}
			i++
		}
		return out
	}
	dots := 0
	for i < len(toks) && toks[i] == "." {
		dots++
		i++
	}
	mod := dotted()
	if i >= len(toks) || toks[i] != "import" || dots == 0 && mod == "" {
		return out
	}
	i++
	if dots > 0 {
		mod = pyast.RelativeModule(modName, isPackage, dots, mod)
	}
	out = append(out, mod)
	for ; i < len(toks); i++ {
		if t := toks[i]; isName(t) && t != "as" && toks[i-1] != "as" {
			out = append(out, mod+"."+t)
		}
	}
	return out
}

// isName reports whether a token is a name (not punctuation).
func isName(t string) bool { return t != "" && isIdentByte(t[0]) }

// isIdentByte reports whether c can be part of a Python identifier.
func isIdentByte(c byte) bool { return byteClass[c] == cName }

// eachImport calls f with the tokens (names and the punctuation ". , ( ) *")
// of each import statement of src, delimited as Python's tokenizer does
// (see importLines), and reports whether it could follow the file to its
// end (no unterminated triple-quoted string or unclosed bracket).
func eachImport(src []byte, f func(toks []string)) bool {
	sc := importScanner{src: bytes.TrimPrefix(src, utf8BOM)}
	src = sc.src
	// The loop keeps its state in locals (the scanner's fields only for
	// the calls that read strings, comments and statements): it reads
	// every byte of every Python file of a scan.
	i, depth, stmt, line, doubt := 0, 0, true, true, false
	for i < len(src) {
		c := src[i]
		switch byteClass[c] {
		case cSpace:
			i++
		case cName:
			j := i + 1
			for j < len(src) && byteClass[src[j]] == cName {
				j++
			}
			w := src[i:j] // compared without a copy: most names are no keyword
			if c == 0xEF && bytes.HasPrefix(src[i:], utf8BOM) {
				i += len(utf8BOM) // tree-sitter reads a stray BOM as a space
				continue
			}
			isImport := string(w) == "import"
			// A line that starts with "import" is a statement even inside
			// brackets (the keyword can be nothing else): an unclosed
			// bracket above must not hide it.
			if (isImport || string(w) == "from") && (stmt || line && isImport) {
				if depth > 0 {
					doubt, depth = true, 0
				}
				sc.i = i
				f(sc.statement())
				i = sc.i
			} else {
				i = j
			}
			stmt, line = false, false
		case cNewline:
			sc.i = i
			sc.newline()
			i = sc.i
			if depth == 0 {
				stmt = true
			}
			line = true
		case cBackslash:
			sc.i = i + 1
			sc.newline() // a continuation: the logical line goes on
			i = sc.i
		case cComment:
			sc.i = i
			sc.comment()
			i = sc.i
		case cQuote:
			sc.i = i
			if !sc.str() {
				return false
			}
			i = sc.i
			stmt, line = false, false
		case cOpen:
			depth++
			i++
			stmt, line = false, false
		case cClose:
			depth = max(depth-1, 0)
			i++
			stmt, line = false, false
		case cSemicolon:
			i++
			stmt, line = depth == 0, false
		case cColon:
			// The header of a compound statement ends: a statement can
			// follow on the same line ("if x: import y"). An annotation
			// or a lambda is never followed by an import.
			stmt = depth == 0 && (i+1 >= len(src) || src[i+1] != '=')
			i++
			line = false
		default:
			i++
			stmt, line = false, false
		}
	}
	return depth == 0 && !doubt
}

// Byte classes of eachImport.
const (
	cOther = iota
	cSpace
	cName
	cNewline
	cBackslash
	cComment
	cQuote
	cOpen
	cClose
	cSemicolon
	cColon
)

var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80:
			t[c] = cName // bytes of a non-ASCII character too: CPython accepts letters of all of Unicode
		case c == ' ' || c == '\t' || c == '\f':
			t[c] = cSpace
		}
	}
	t['\n'], t['\r'], t['\\'], t['#'] = cNewline, cNewline, cBackslash, cComment
	t['\''], t['"'] = cQuote, cQuote
	t['('], t['['], t['{'] = cOpen, cOpen, cOpen
	t[')'], t[']'], t['}'] = cClose, cClose, cClose
	t[';'], t[':'] = cSemicolon, cColon
	return t
}()

var utf8BOM = []byte("\ufeff")

// importScanner reads strings, comments and statements for eachImport.
type importScanner struct {
	src []byte
	i   int
}

// newline steps over a line end at i ("\r\n", "\n" or a lone "\r", as
// CPython ends lines), if there is one.
func (sc *importScanner) newline() {
	switch {
	case sc.i >= len(sc.src):
	case sc.src[sc.i] == '\r':
		sc.i++
		if sc.i < len(sc.src) && sc.src[sc.i] == '\n' {
			sc.i++
		}
	case sc.src[sc.i] == '\n':
		sc.i++
	}
}

// comment steps to the end of a comment's line.
func (sc *importScanner) comment() {
	rest := sc.src[sc.i:]
	j := bytes.IndexByte(rest, '\n')
	if j < 0 {
		j = len(rest)
	}
	if k := bytes.IndexByte(rest[:j], '\r'); k >= 0 { // "\r\n", or a lone "\r"
		j = k
	}
	sc.i += j
}

// str steps over the string literal whose quote is at i (a prefix, r or f
// or b, was read as a name before it: a backslash escapes the next
// character for the tokenizer in every kind). A one-line string ends at its
// line's end; it reports false when a triple-quoted one never ends.
func (sc *importScanner) str() bool {
	q := sc.src[sc.i]
	triple := bytes.HasPrefix(sc.src[sc.i:], []byte{q, q, q})
	if triple {
		sc.i += 3
	} else {
		sc.i++
	}
	for sc.i < len(sc.src) {
		switch c := sc.src[sc.i]; {
		case c == '\\':
			sc.i += 2
		case c == q && (!triple || bytes.HasPrefix(sc.src[sc.i:], []byte{q, q, q})):
			if triple {
				sc.i += 3
			} else {
				sc.i++
			}
			return true
		case !triple && (c == '\n' || c == '\r'):
			return true // unterminated: the tokenizer stops the string at the line's end
		default:
			sc.i++
		}
	}
	return !triple
}

// statement reads the import statement whose keyword is at i, to its end
// (a line end outside brackets, a ";" outside them, or the end of the
// file), and returns its tokens: names, ".", ",", "(", ")" and "*".
func (sc *importScanner) statement() []string {
	var toks []string
	depth := 0
	for sc.i < len(sc.src) {
		c := sc.src[sc.i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			sc.i++
		case c == '\\':
			sc.i++
			sc.newline()
		case c == '\n' || c == '\r':
			if depth == 0 {
				return toks // the caller reads the line end
			}
			sc.newline()
		case c == '#':
			sc.comment()
		case c == ';' && depth == 0:
			return toks
		case c == '\'' || c == '"':
			sc.str() // not in an import; skipped
		case isIdentByte(c):
			j := sc.i
			for j < len(sc.src) && isIdentByte(sc.src[j]) {
				j++
			}
			toks = append(toks, string(sc.src[sc.i:j]))
			sc.i = j
		default:
			switch c {
			case '(':
				depth++
			case ')':
				depth = max(depth-1, 0)
			}
			if c == '.' || c == ',' || c == '(' || c == ')' || c == '*' {
				toks = append(toks, string(c))
			}
			sc.i++
		}
	}
	return toks
}
