package suppress

import (
	"bytes"
	"path"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/pyast"
	"github.com/pelletier/go-toml/v2/unstable"
)

// comment is the byte range of one comment, from its '#' (or ';') to the end
// of its line, without the line ending.
type comment struct{ start, end int }

// syntax is how a file writes comments.
type syntax int

const (
	noComments   syntax = iota // JSON lock files, unknown files
	python                     // tree-sitter comment nodes
	toml                       // the TOML lexer's comments
	requirements               // pip: '#' at line start or after whitespace
	ini                        // setup.cfg: '#' or ';' first on a line
)

// syntaxOf tells how the file at p writes comments, from its name.
func syntaxOf(p string) syntax {
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, ".py"):
		return python
	case strings.HasSuffix(base, ".toml"), base == "Pipfile", base == "uv.lock", base == "poetry.lock", base == "pdm.lock":
		return toml
	case base == "setup.cfg":
		return ini
	case base == "Pipfile.lock", strings.HasSuffix(base, ".json"):
		return noComments
	case strings.HasSuffix(base, ".txt"), strings.HasSuffix(base, ".in"), deps.IsDependencyFile(base):
		return requirements
	}
	return noComments
}

// comments returns the comments of src, in order, read by the real lexing
// rules of the file's syntax: a '#' inside a Python or TOML string is not a
// comment. A Python file is parsed within lim, the run's parse limits.
func comments(p string, src []byte, lim pyast.Limits) []comment {
	switch syntaxOf(p) {
	case python:
		return pythonComments(p, src, lim)
	case toml:
		return tomlComments(src)
	case requirements:
		return requirementsComments(src)
	case ini:
		return iniComments(src)
	}
	return nil
}

// pythonComments returns tree-sitter's comment nodes (which never lie in a
// string), also in a file with syntax errors. A file over the parse limits
// yields none: the engine reports it (MCP000), and its directives are not
// read, as its findings are not.
func pythonComments(p string, src []byte, lim pyast.Limits) []comment {
	m, err := pyast.ParseLimits(p, "", src, lim)
	if err != nil {
		return nil
	}
	var out []comment
	for n := range m.Nodes("comment") {
		out = append(out, comment{int(n.StartByte()), int(n.EndByte())})
	}
	return out
}

// tomlComments returns the comments go-toml's lexer finds (top level, after
// a key-value or a table header, inside arrays and inline tables). A file
// that does not parse yields the comments before the error.
func tomlComments(src []byte) []comment {
	p := unstable.Parser{KeepComments: true}
	p.Reset(src)
	var out []comment
	var visit func(n *unstable.Node)
	visit = func(n *unstable.Node) {
		if n.Kind == unstable.Comment {
			start := int(n.Raw.Offset)
			out = append(out, comment{start, start + int(n.Raw.Length)})
		}
		for it := n.Children(); it.Next(); {
			visit(it.Node())
		}
	}
	for p.NextExpression() {
		for n := p.Expression(); n != nil && n.Valid(); n = n.Next() {
			visit(n)
		}
	}
	// Comments attached as siblings can be visited twice; the offsets say.
	return dedupe(out)
}

func dedupe(cs []comment) []comment {
	seen := map[int]bool{}
	out := cs[:0]
	for _, c := range cs {
		if !seen[c.start] {
			seen[c.start] = true
			out = append(out, c)
		}
	}
	// Source order (the tree gives them per expression, but nested comments
	// can come before a sibling's).
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].start < out[j-1].start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// requirementsComments applies pip's rule (req_file.COMMENT_RE,
// `(^|\s+)#.*$`): a '#' at the start of a line or after whitespace starts a
// comment; one inside a token (a URL fragment `#egg=`) does not.
func requirementsComments(src []byte) []comment {
	var out []comment
	forEachLine(src, func(start, end int) {
		line := src[start:end]
		for i, c := range line {
			if c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
				out = append(out, comment{start + i, end})
				return
			}
		}
	})
	return out
}

// iniComments applies configparser's rule as setuptools uses it: a line
// whose first non-blank character is '#' or ';' is a comment; there are no
// inline comments.
func iniComments(src []byte) []comment {
	var out []comment
	forEachLine(src, func(start, end int) {
		line := src[start:end]
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) > 0 && (trimmed[0] == '#' || trimmed[0] == ';') {
			out = append(out, comment{end - len(trimmed), end})
		}
	})
	return out
}

// forEachLine calls f with the range of every line, without its "\n" or
// "\r\n".
func forEachLine(src []byte, f func(start, end int)) {
	for start := 0; start <= len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		next := 0
		if end < 0 {
			end, next = len(src), len(src)+1
		} else {
			end += start
			next = end + 1
		}
		e := end
		if e > start && src[e-1] == '\r' {
			e--
		}
		if e > start || end < len(src) {
			f(start, e)
		}
		start = next
	}
}
