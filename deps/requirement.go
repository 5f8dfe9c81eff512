package deps

import (
	"fmt"
	"strings"

	"github.com/mcplint/mcplint/internal/escape"
)

// Requirement is one dependency on a package, as a file declares or locks it.
type Requirement struct {
	Name    string   // normalised (PEP 503): lower case, runs of -_. as "-"
	RawName string   // as written
	Extras  []string // normalised
	// Specifier is the version constraint as written ("" for none); for a
	// lock entry it is "==" and the locked version.
	Specifier string
	Clauses   []Clause
	Set       Set    // the versions the specifier admits
	Poetry    bool   // Specifier uses Poetry syntax (^, ~, *, bare versions)
	Marker    string // environment marker, "" for none
	URL       string // direct reference (name @ url, a VCS or path source)

	Path       string // the file it was read from
	Start, End int    // byte span of the requirement text in the file
	// VersionStart/End is the byte span of the version part (the specifier
	// without parentheses; in Poetry and Pipfile tables, the version string's
	// contents). VersionStart < 0 when the text cannot be edited in place (a
	// TOML string with escapes, a URL requirement). With no specifier,
	// VersionStart == VersionEnd is where one would be inserted.
	VersionStart, VersionEnd int

	Locked     bool   // read from a lock file (or pip-compile output)
	Version    string // the locked version, for lock entries
	Group      string // extra, dependency group or section ("" for the main dependencies)
	Section    string // where in the file: "project.dependencies", "tool.poetry.group.dev.dependencies", ...
	Constraint bool   // from a pip constraints file (-c): limits, does not require
	Editable   bool
	// Unknown is set when the version cannot be known statically (an
	// environment variable, a VCS or path source): Set then admits everything.
	Unknown bool
	// Source is the [tool.uv.sources] entry that replaces the version (a
	// git, path or URL source), or nil: the line to change to move the
	// package to another version.
	Source *Source
	// urlKind and urlRef are a Poetry table's source key (git, path, url,
	// file) and git tag, rev or branch (InstallSource).
	urlKind, urlRef string
	// Repeats are the places of the lines of its requirements file that
	// repeat this one's text exactly, past the copies kept as requirements
	// of their own (Options.KeepRepeats): each is the same requirement, a
	// finding of its own that the outputs fold (rules.Pass.Folded).
	Repeats []Span
}

// Span is a byte span of a file, for a repeated requirement (Requirement.
// Repeats): 8 bytes where a Requirement takes 280.
type Span struct{ Start, End int32 }

// Source is a [tool.uv.sources] entry, or a requirement's own direct
// reference (Direct): where a package is installed from.
type Source struct {
	Path       string
	Start, End int    // byte span of the "name = { ... }" key-value, or of the requirement
	Kind       string // git, path, url or workspace
	URL        string
	Ref        string // the git tag, rev or branch, "" for none
	Direct     bool   // the requirement itself names it: name @ url, a Poetry { git = ... } table
}

// InstallSource returns where r's package is installed from when no index
// decides its version: its [tool.uv.sources] entry (a workspace member
// aside), else its direct reference (name @ git+https://...@ref, a path,
// a URL), as a Source spanning the requirement. nil for an index package
// and for a lock entry (the lock records what the manifest's source gave).
func (r *Requirement) InstallSource() *Source {
	if r.Source != nil {
		if r.Source.Kind == "workspace" {
			return nil
		}
		return r.Source
	}
	if r.URL == "" || r.Locked {
		return nil
	}
	src := &Source{Path: r.Path, Start: r.Start, End: r.End, URL: r.URL, Direct: true}
	lower := strings.ToLower(r.URL)
	switch {
	case r.urlKind == "file":
		src.Kind = "path"
	case r.urlKind != "":
		src.Kind, src.Ref = r.urlKind, r.urlRef
	case strings.HasPrefix(lower, "git+"):
		src.Kind = "git"
		u, _, _ := strings.Cut(r.URL[len("git+"):], "#")
		src.URL = u
		if i := strings.LastIndexByte(u, '@'); i > strings.LastIndexByte(u, '/') {
			src.URL, src.Ref = u[:i], u[i+1:]
		}
	case strings.HasPrefix(lower, "file:") || !strings.Contains(lower, "://"):
		src.Kind = "path"
	default:
		src.Kind = "url"
	}
	return src
}

// String returns the requirement for messages, e.g. "mcp>=1.20,<2" or "mcp 1.25.0" (locked).
func (r *Requirement) String() string {
	s := r.RawName
	if len(r.Extras) > 0 {
		s += "[" + strings.Join(r.Extras, ",") + "]"
	}
	if r.Locked {
		return s + " " + r.Version
	}
	return s + r.Specifier
}

// NormalizeName returns the PEP 503 normalised form of a project name.
func NormalizeName(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c == '-' || c == '_' || c == '.' {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(c)
	}
	return b.String()
}

// pep508 is a parsed PEP 508 requirement string with offsets into it.
type pep508 struct {
	name               string
	nameStart, nameEnd int
	extras             []string
	spec               string
	specStart, specEnd int // without parentheses; at the insertion point if empty
	marker             string
	url                string
	end                int // end of the requirement text (trailing space trimmed)
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// parsePEP508 parses a dependency specification (PEP 508).
func parsePEP508(s string) (pep508, error) {
	var r pep508
	i := 0
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	skip()
	r.nameStart = i
	for i < len(s) && isNameChar(s[i]) {
		i++
	}
	r.nameEnd = i
	r.name = s[r.nameStart:r.nameEnd]
	if r.name == "" {
		return r, fmt.Errorf("expected a package name in %s", escape.Quote(s))
	}
	if !isAlnum(r.name[0]) || !isAlnum(r.name[len(r.name)-1]) {
		return r, fmt.Errorf("invalid package name %s", escape.Quote(r.name))
	}
	skip()
	if i < len(s) && s[i] == '[' {
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			return r, fmt.Errorf("unclosed extras in %s", escape.Quote(s))
		}
		for _, e := range strings.Split(s[i+1:i+j], ",") {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			for k := 0; k < len(e); k++ {
				if !isNameChar(e[k]) {
					return r, fmt.Errorf("invalid extra %s", escape.Quote(e))
				}
			}
			r.extras = append(r.extras, NormalizeName(e))
		}
		i += j + 1
		skip()
	}
	r.specStart = r.afterName(s)
	r.specEnd = r.specStart
	switch {
	case i < len(s) && s[i] == '@':
		i++
		skip()
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		r.url = s[i:j]
		if r.url == "" {
			return r, fmt.Errorf("missing URL after @ in %s", escape.Quote(s))
		}
		i = j
		r.specStart, r.specEnd = -1, -1
		skip()
		if i < len(s) && s[i] == ';' && !isSpace(s[i-1]) {
			return r, fmt.Errorf("a marker after a URL needs a space before ';'")
		}
	case i < len(s) && s[i] == '(':
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return r, fmt.Errorf("unclosed '(' in %s", escape.Quote(s))
		}
		r.specStart, r.specEnd = i+1, i+j
		r.spec = s[i+1 : i+j]
		i += j + 1
		// trim inner spaces from the editable span
		for r.specStart < r.specEnd && isSpace(s[r.specStart]) {
			r.specStart++
		}
		for r.specEnd > r.specStart && isSpace(s[r.specEnd-1]) {
			r.specEnd--
		}
		skip()
	case i < len(s) && s[i] != ';':
		j := i
		for j < len(s) && s[j] != ';' {
			j++
		}
		end := j
		for end > i && isSpace(s[end-1]) {
			end--
		}
		r.specStart, r.specEnd = i, end
		r.spec = s[i:end]
		i = j
	}
	r.end = i
	for r.end > 0 && isSpace(s[r.end-1]) {
		r.end--
	}
	if i < len(s) && s[i] == ';' {
		r.marker = strings.TrimSpace(s[i+1:])
		if r.marker == "" {
			return r, fmt.Errorf("empty marker after ';' in %s", escape.Quote(s))
		}
		if err := checkMarker(r.marker); err != nil {
			return r, err
		}
		r.end = len(strings.TrimRight(s, " \t"))
	} else if i < len(s) {
		return r, fmt.Errorf("unexpected %s in %s", escape.Quote(s[i:]), escape.Quote(s))
	}
	return r, nil
}

// afterName is where a specifier would be inserted: after the name and extras.
func (r pep508) afterName(s string) int {
	i := r.nameEnd
	j := i
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	if j < len(s) && s[j] == '[' {
		if k := strings.IndexByte(s[j:], ']'); k >= 0 {
			return j + k + 1
		}
	}
	return i
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// checkMarker checks that a marker is balanced and made of marker tokens;
// markers are not evaluated (a requirement applies under some environment).
func checkMarker(m string) error {
	depth := 0
	var quote byte
	for i := 0; i < len(m); i++ {
		c := m[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return fmt.Errorf("unbalanced ')' in marker %s", escape.Quote(m))
			}
		}
	}
	if quote != 0 || depth != 0 {
		return fmt.Errorf("unbalanced marker %s", escape.Quote(m))
	}
	return nil
}

// newRequirement builds a Requirement from a PEP 508 string found at offset
// base of file path; off maps offsets in s to file offsets (nil: base+i).
func newRequirement(path, s string, off func(int) int) (*Requirement, error) {
	return parseRequirement(s).place(path, off)
}

// parsedRequirement is a PEP 508 string read, before it is placed in a file:
// what a file that repeats a line needs only once (requirementCache).
type parsedRequirement struct {
	p       pep508
	name    string // normalised
	clauses []Clause
	set     Set
	unknown bool
	err     error
}

func parseRequirement(s string) *parsedRequirement {
	p, err := parsePEP508(s)
	if err != nil {
		return &parsedRequirement{err: err}
	}
	pr := &parsedRequirement{p: p, name: NormalizeName(p.name)}
	switch spec := strings.TrimSpace(p.spec); {
	case p.url != "":
		pr.set, pr.unknown = All(), true
		if v, ok := vcsTagVersion(p.url); ok {
			pr.set, pr.unknown = Point(v), false
		}
	case strings.Contains(spec, "${"):
		pr.set, pr.unknown = All(), true
	default:
		pr.clauses, pr.set, pr.err = ParseSpecifier(spec)
	}
	return pr
}

// place makes the Requirement of pr at off in file path. Requirements
// placed from one parsedRequirement share its slices and set, which no one
// changes in place.
func (pr *parsedRequirement) place(path string, off func(int) int) (*Requirement, error) {
	if pr.err != nil {
		return nil, pr.err
	}
	p := pr.p
	r := &Requirement{
		Name: pr.name, RawName: p.name, Extras: p.extras,
		Specifier: strings.TrimSpace(p.spec), Marker: p.marker, URL: p.url,
		Path: path, Start: off(p.nameStart), End: off(p.end-1) + 1,
		VersionStart: -1, VersionEnd: -1,
		Clauses: pr.clauses, Set: pr.set, Unknown: pr.unknown,
	}
	if p.specStart >= 0 {
		r.VersionStart, r.VersionEnd = off(p.specStart), off(p.specEnd)
		if p.specEnd > p.specStart {
			r.VersionEnd = off(p.specEnd-1) + 1
		}
	}
	return r, nil
}

// requirementCache keeps the parse of each requirement text a file repeats
// (a requirements file may hold the same line a million times), for a
// bounded number of distinct texts.
type requirementCache map[string]*parsedRequirement

const requirementCacheSize = 4096

func (c requirementCache) parse(s string) *parsedRequirement {
	if pr, ok := c[s]; ok {
		return pr
	}
	pr := parseRequirement(s)
	if len(c) < requirementCacheSize {
		c[s] = pr
	}
	return pr
}

// vcsTagVersion reads the version of a VCS reference that names a release
// tag: git+https://github.com/org/python-sdk@v1.25.0 is 1.25.0. A branch or a
// commit does not read as a version (ok false): the version is unknown.
func vcsTagVersion(url string) (Version, bool) {
	for _, scheme := range []string{"git+", "hg+", "svn+", "bzr+"} {
		if strings.HasPrefix(url, scheme) {
			if i := strings.IndexByte(url, '#'); i >= 0 {
				url = url[:i]
			}
			last := url[strings.LastIndexByte(url, '/')+1:]
			at := strings.LastIndexByte(last, '@')
			if at < 0 {
				return Version{}, false
			}
			ref := last[at+1:]
			if !strings.ContainsRune(ref, '.') {
				return Version{}, false // a commit or a branch, not a release tag
			}
			v, err := ParseVersion(ref)
			return v, err == nil
		}
	}
	return Version{}, false
}
