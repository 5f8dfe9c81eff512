// Package newfromrev keeps only the findings a change introduced: those
// whose enclosing function, or whose dependency line, has a line that
// changed since a git revision (--new-from-rev) or in a unified diff
// (--new-from-patch). A whole function counts as changed when any of its
// lines did, because a finding often sits on an unchanged line of a changed
// handler (the def line of a function whose body now blocks). Files that are
// new or untracked count as changed throughout.
//
// Git is run as the `git` command (what CI images have), never through a
// library, so its configuration, worktrees and shallow clones behave as the
// user's own commands do.
package newfromrev

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/workspace"
)

// Changes are the changed lines of each file, keyed by absolute path.
type Changes struct {
	files map[string]*fileChanges
}

type fileChanges struct {
	whole  bool     // a new or untracked file
	ranges [][2]int // 1-based inclusive line ranges of the new side
	sorted bool
}

func newChanges() *Changes { return &Changes{files: map[string]*fileChanges{}} }

func (c *Changes) file(abs string) *fileChanges {
	fc := c.files[abs]
	if fc == nil {
		fc = &fileChanges{}
		c.files[abs] = fc
	}
	return fc
}

// Files returns the changed files (absolute paths), sorted.
func (c *Changes) Files() []string {
	out := make([]string, 0, len(c.files))
	for p := range c.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Touches tells whether lines lo..hi (inclusive) of the file at abs changed.
func (c *Changes) Touches(abs string, lo, hi int) bool {
	fc := c.files[abs]
	if fc == nil {
		return false
	}
	if fc.whole {
		return true
	}
	for _, r := range fc.ranges {
		if r[0] <= hi && lo <= r[1] {
			return true
		}
	}
	return false
}

// Changed tells whether the file at abs changed at all.
func (c *Changes) Changed(abs string) bool { return c.files[abs] != nil }

// ParsePatch reads a unified diff (git's, or diff -u's); paths in it are
// relative to base. Only the new side matters: added and changed lines, and
// the line before a deletion.
func ParsePatch(r io.Reader, base string) (*Changes, error) {
	c := newChanges()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var (
		cur     *fileChanges
		oldPath string
	)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "--- "):
			oldPath = diffPath(line[4:])
			cur = nil
		case strings.HasPrefix(line, "+++ "):
			p := diffPath(line[4:])
			newFile := oldPath == "/dev/null"
			if p == "/dev/null" {
				cur = nil // deleted
				continue
			}
			if strings.HasPrefix(p, "b/") && (strings.HasPrefix(oldPath, "a/") || oldPath == "/dev/null") {
				p = p[2:]
			}
			abs := p
			if !filepath.IsAbs(p) {
				abs = filepath.Join(base, filepath.FromSlash(p))
			}
			cur = c.file(filepath.Clean(abs))
			if newFile {
				cur.whole = true
			}
		case strings.HasPrefix(line, "@@ "):
			if cur == nil {
				continue
			}
			start, n, err := hunkNew(line)
			if err != nil {
				return nil, fmt.Errorf("bad hunk header %s: %w", escape.Quote(line), err)
			}
			if n == 0 {
				// A pure deletion after line start: the code around it changed.
				cur.ranges = append(cur.ranges, [2]int{max(start, 1), max(start, 1)})
			} else {
				cur.ranges = append(cur.ranges, [2]int{start, start + n - 1})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read diff: %w", err)
	}
	return c, nil
}

// diffPath reads the path of a ---/+++ line: quoted (git's C quoting) or
// plain, without a trailing tab and timestamp.
func diffPath(s string) string {
	if strings.HasPrefix(s, `"`) {
		if end := strings.LastIndexByte(s, '"'); end > 0 {
			if u, err := strconv.Unquote(s[:end+1]); err == nil {
				return u
			}
		}
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, " ")
}

// hunkNew parses "@@ -a,b +c,d @@" and returns c and d (d defaults to 1).
func hunkNew(line string) (start, n int, err error) {
	i := strings.Index(line, " +")
	if i < 0 {
		return 0, 0, errors.New("no new range")
	}
	rest := line[i+2:]
	if j := strings.IndexByte(rest, ' '); j >= 0 {
		rest = rest[:j]
	}
	n = 1
	if k := strings.IndexByte(rest, ','); k >= 0 {
		if n, err = strconv.Atoi(rest[k+1:]); err != nil {
			return 0, 0, err
		}
		rest = rest[:k]
	}
	start, err = strconv.Atoi(rest)
	return start, n, err
}

// FromRev runs git in the repository holding dir and returns what changed
// between rev and the working tree (committed, staged and unstaged changes,
// and untracked files not ignored).
func FromRev(dir, rev string) (*Changes, error) {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev needs a git repository: %w", err)
	}
	top = strings.TrimSpace(top)
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("bad revision %q", rev)
	}
	if _, err := git(top, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		shallow, _ := git(top, "rev-parse", "--is-shallow-repository")
		hint := FetchHint(rev, remotes(top), strings.TrimSpace(shallow) == "true")
		if strings.TrimSpace(shallow) == "true" {
			return nil, fmt.Errorf("revision %q is not in this shallow clone: %s; with actions/checkout, fetch-depth: 0 fetches everything", rev, hint)
		}
		return nil, fmt.Errorf("unknown revision %q: %s", rev, hint)
	}
	out, err := git(top, "-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", "--unified=0", rev, "--")
	if err != nil {
		return nil, err
	}
	c, err := ParsePatch(strings.NewReader(out), top)
	if err != nil {
		return nil, err
	}
	untracked, err := git(top, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	for _, p := range strings.Split(untracked, "\x00") {
		if p != "" {
			c.file(filepath.Join(top, filepath.FromSlash(p))).whole = true
		}
	}
	return c, nil
}

// remotes lists the repository's remotes ("origin" first when it is one).
func remotes(top string) []string {
	out, err := git(top, "remote")
	if err != nil {
		return nil
	}
	var rs []string
	for _, r := range strings.Fields(out) {
		if r == "origin" {
			rs = append([]string{r}, rs...)
		} else {
			rs = append(rs, r)
		}
	}
	return rs
}

// FetchHint says how to fetch a revision that is not in the repository,
// with a refspec that creates the ref rev names: origin/main is
// refs/remotes/origin/main, which `git fetch origin origin/main` does not
// fetch (the remote has no branch of that name) but
// `git fetch origin +refs/heads/main:refs/remotes/origin/main` does, even in
// a clone that fetches one branch only (actions/checkout's). A commit hash
// is fetched by itself; a revision relative to another (HEAD~3, main^) needs
// more history in a shallow clone; a bare name is taken as the remote's
// branch, to be named remote/name after the fetch.
func FetchHint(rev string, remotes []string, shallow bool) string {
	remote := "origin"
	if len(remotes) > 0 {
		remote = remotes[0]
	}
	name := strings.TrimPrefix(rev, "refs/remotes/")
	for _, r := range remotes {
		if branch, ok := strings.CutPrefix(name, r+"/"); ok && branch != "" {
			return fmt.Sprintf("fetch it with git fetch %s +refs/heads/%s:refs/remotes/%s/%s", r, branch, r, branch)
		}
	}
	switch {
	case strings.ContainsAny(rev, "~^@:{"):
		if shallow {
			return "fetch more history first (git fetch --deepen=N, or git fetch --unshallow)"
		}
		return "check that the revision it is relative to exists (git rev-parse " + rev + ")"
	case isHex(rev) && len(rev) >= 7:
		return fmt.Sprintf("fetch it with git fetch %s %s (a full 40-character hash: servers fetch no abbreviated one)", remote, rev)
	}
	branch := strings.TrimPrefix(strings.TrimPrefix(rev, "refs/heads/"), "heads/")
	return fmt.Sprintf("to compare with %s's branch %s, fetch it with git fetch %s +refs/heads/%s:refs/remotes/%s/%s and give --new-from-rev %s/%s",
		remote, branch, remote, branch, remote, branch, remote, branch)
}

func isHex(s string) bool {
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// git runs a git command in dir and returns its standard output, through
// the runner every git command of mcplint takes (workspace.Git: bounded in
// time and output, no fsmonitor hook).
func git(dir string, args ...string) (string, error) {
	out, err := workspace.Git(dir, args...)
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// Filter is the processor that keeps only findings in changed code.
type Filter struct {
	name    string
	changes *Changes
}

// NewFilter makes the processor; name is the Result.Dropped key
// ("new-from-rev" or "new-from-patch").
func NewFilter(name string, c *Changes) *Filter { return &Filter{name: name, changes: c} }

// Name implements engine.Processor.
func (f *Filter) Name() string { return f.name }

// Process implements engine.Processor.
func (f *Filter) Process(res *engine.Result, diags []rules.Diagnostic) ([]rules.Diagnostic, error) {
	out := diags[:0:0]
	for _, d := range diags {
		// Each finding folded into d (Diagnostic.More) by its own anchor.
		if d, ok := res.Refold(d, func(x *rules.Diagnostic) bool {
			if f.keep(res, *x) {
				return true
			}
			res.Dropped[f.name]++
			return false
		}); ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// keep tells whether d's anchor (its function or requirement line) changed.
// A finding about a whole file (MCP000) counts when the file changed.
func (f *Filter) keep(res *engine.Result, d rules.Diagnostic) bool {
	abs, err := filepath.Abs(filepath.FromSlash(d.Path))
	if err != nil || !f.changes.Changed(abs) {
		return false
	}
	if d.Code == rules.FileErrorCode {
		return true
	}
	lo, hi := d.Start.Line, d.End.Line
	if d.AnchorEnd > d.AnchorStart {
		if src, err := res.Read(d.Path); err == nil {
			li := pyast.NewLineIndex(src)
			lo = li.Position(d.AnchorStart).Line
			end := d.AnchorEnd
			if end > d.AnchorStart && end <= len(src) && src[end-1] == '\n' {
				end-- // a range that ends with its line's newline
			}
			hi = li.Position(end).Line
		}
	}
	if hi < lo {
		hi = lo
	}
	return f.changes.Touches(abs, lo, hi)
}
