package scripts

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The repository's documentation: README.md and every Markdown file outside
// testdata folders (fixtures may hold any text).
func docFiles(t *testing.T) []string {
	t.Helper()
	root := repoRoot(t)
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found %d Markdown files under %s: the docs moved?", len(files), root)
	}
	return files
}

var (
	fence      = regexp.MustCompile("^\\s*(```|~~~)")
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	heading    = regexp.MustCompile(`^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	htmlID     = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	scheme     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// prose returns a Markdown file's lines outside fenced code blocks, with
// inline code spans blanked out, and each line's number.
func prose(text string) (lines []string, numbers []int) {
	in := false
	for i, l := range strings.Split(text, "\n") {
		if fence.MatchString(l) {
			in = !in
			continue
		}
		if !in {
			lines = append(lines, codeSpan.ReplaceAllString(l, "``"))
			numbers = append(numbers, i+1)
		}
	}
	return lines, numbers
}

// slug is GitHub's anchor for a heading: the rendered text lowercased,
// everything but letters, digits, spaces, hyphens and underscores dropped,
// spaces made hyphens.
func slug(h string) string {
	h = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(h, "$1") // a link's text
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors a Markdown file defines: its headings' slugs,
// GitHub's -1, -2 suffixes for repeated ones, and HTML ids.
func anchors(text string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	lines, _ := prose(text)
	for _, l := range lines {
		if m := heading.FindStringSubmatch(l); m != nil {
			s := slug(strings.ReplaceAll(m[2], "``", ""))
			if n := seen[s]; n > 0 {
				out[s+"-"+strconv.Itoa(n)] = true
			} else {
				out[s] = true
			}
			seen[s]++
		}
		for _, m := range htmlID.FindAllStringSubmatch(l, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// TestDocLinksResolve: every relative link of the documentation leads to a
// file or folder of the repository, and its #anchor to a heading there.
func TestDocLinksResolve(t *testing.T) {
	cache := map[string]map[string]bool{}
	anchorsOf := func(p string) map[string]bool {
		if a, ok := cache[p]; ok {
			return a
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cache[p] = anchors(string(b))
		return cache[p]
	}
	root := repoRoot(t)
	links := 0
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		lines, numbers := prose(string(b))
		for i, l := range lines {
			var targets []string
			for _, m := range inlineLink.FindAllStringSubmatch(l, -1) {
				targets = append(targets, m[1])
			}
			if m := refLink.FindStringSubmatch(l); m != nil {
				targets = append(targets, m[1])
			}
			for _, target := range targets {
				if scheme.MatchString(target) || strings.HasPrefix(target, "//") {
					continue // another site: not checked here
				}
				links++
				path, frag, _ := strings.Cut(target, "#")
				dest := f
				if path != "" {
					dest = filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
					if !strings.HasPrefix(dest, root+string(filepath.Separator)) && dest != root {
						t.Errorf("%s:%d: link %q leads out of the repository", rel, numbers[i], target)
						continue
					}
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s:%d: link %q: %v", rel, numbers[i], target, err)
						continue
					}
				}
				if frag != "" && strings.HasSuffix(dest, ".md") && !anchorsOf(dest)[frag] {
					t.Errorf("%s:%d: link %q: no heading with anchor #%s in %s", rel, numbers[i], target, frag, filepath.Base(dest))
				}
			}
		}
	}
	if links < 30 {
		t.Errorf("checked %d relative links: the link pattern no longer matches?", links)
	}
}

func TestSlug(t *testing.T) {
	for h, want := range map[string]string{
		"The respond/cancel guard (staying on mcp 1.x)":                           "the-respondcancel-guard-staying-on-mcp-1x",
		"What a pull request can make mcplint read: never the workflow's secrets": "what-a-pull-request-can-make-mcplint-read-never-the-workflows-secrets",
		"Audits: `mcplint audit`":                                                 "audits-mcplint-audit",
		"JSON output (`--output-format json`)":                                    "json-output---output-format-json",
		"Starlette (0.37.2 to 0.47.3) and FastAPI (0.141.1)":                      "starlette-0372-to-0473-and-fastapi-01411",
		"See [the docs](docs/x.md) now":                                           "see-the-docs-now",
	} {
		if got := slug(h); got != want {
			t.Errorf("slug(%q) = %q, want %q", h, got, want)
		}
	}
	a := anchors("# A\n## A\n```\n# not a heading\n```\n## A\n<a id=\"x\"></a>\n")
	for _, want := range []string{"a", "a-1", "a-2", "x"} {
		if !a[want] {
			t.Errorf("anchors lack %q: %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Errorf("a line in a code block made an anchor: %v", a)
	}
}

// TestReadmeFirstCommands: the README starts with the two commands that work
// on a fresh machine with Go, the example run and the tests, and .ci/run runs
// the same test command.
func TestReadmeFirstCommands(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	start := -1
	for i, l := range lines {
		if fence.MatchString(l) {
			start = i
			break
		}
	}
	if start < 0 || start > 6 {
		t.Fatalf("the README's first code block starts at line %d, want within its first lines", start+1)
	}
	var cmds []string
	for _, l := range lines[start+1:] {
		if fence.MatchString(l) {
			break
		}
		cmd, _, _ := strings.Cut(l, "#")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	want := []string{"go run ./cmd/mcplint check testdata/examples/weather", "go test ./..."}
	if strings.Join(cmds, "\n") != strings.Join(want, "\n") {
		t.Errorf("the README's first code block runs %q, want %q", cmds, want)
	}
	ci, err := os.ReadFile(filepath.Join(repoRoot(t), ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)&& MCPLINT_NO_SKIP=1 go test \./\.\.\.\)$`).Match(ci) {
		t.Errorf(".ci/run does not run the README's %q", want[1])
	}
}

// TestReadmeShort: the README is what a newcomer reads first; the rest is in
// docs/.
func TestReadmeShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 200 {
		t.Errorf("README.md has %d lines, want at most 200: move the details to docs/", n)
	}
	if !regexp.MustCompile("(?s)```mermaid\\s*\\nsequenceDiagram\\n.*Request cancelled.*AssertionError.*```").Match(b) {
		t.Errorf("README.md lacks the sequence diagram of the cancel race")
	}
}

// TestDocsReferToNothingOutside: the documentation cites only what a reader
// of the repository can open.
func TestDocsReferToNothingOutside(t *testing.T) {
	outside := regexp.MustCompile(`(?i)\b(project brief|the brief|SPEC section|SPEC\.md|DESIGN\.md|issues? #?\d+|/work/)`)
	root := repoRoot(t)
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for i, l := range strings.Split(string(b), "\n") {
			if m := outside.FindString(l); m != "" {
				t.Errorf("%s:%d: %q refers to something outside the repository", rel, i+1, m)
			}
		}
	}
}
