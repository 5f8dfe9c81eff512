package action

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The end-to-end test of review: suggestions (issue 26): real reviewdog,
// built by the action's own `reviewdog` step (go install of the pinned
// version from the Go module proxy), posts to a fake GitHub API (an
// httptest server serving the pull request's diff and recording what is
// posted), fed by the action's run step with mcplint built from this
// repository.

const (
	reviewBase = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("demo")


def work(x):
    return x * 2
`
	// The pull request adds two tools, each with a finding whose fix is
	// safe (a checkpoint after the thread's await).
	reviewAdded = `

@mcp.tool()
async def double(x: int) -> int:
    y = await anyio.to_thread.run_sync(work, x)
    return y


@mcp.tool()
async def triple(x: int) -> int:
    z = await anyio.to_thread.run_sync(work, x)
    return z + x
`
	// old.py is the same before and after: its finding is on no line of
	// the diff.
	reviewOld = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("old")


def work(x):
    return x


@mcp.tool()
async def old(x: int) -> int:
    v = await anyio.to_thread.run_sync(work, x)
    return v
`
)

// fakeGitHub is the part of GitHub's REST API reviewdog's github-pr-review
// reporter uses: the repository, the pull request's diff, its review
// comments (listed, created by a review, deleted).
type fakeGitHub struct {
	t        *testing.T
	diff     string
	readOnly bool // the token cannot write: creating a review is 403

	mu         sync.Mutex
	comments   []map[string]any // what a list returns
	reviews    []reviewRequest
	deleted    []string
	unexpected []string
	nextID     int
}

type reviewRequest struct {
	CommitID string `json:"commit_id"`
	Event    string `json:"event"`
	Body     string `json:"body"`
	Comments []struct {
		Path      string `json:"path"`
		Side      string `json:"side"`
		Body      string `json:"body"`
		Line      int    `json:"line"`
		StartLine int    `json:"start_line"`
	} `json:"comments"`
}

func (g *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer the-token" {
		http.Error(w, `{"message": "Bad credentials"}`, http.StatusUnauthorized)
		g.unexpected = append(g.unexpected, "no token: "+r.Method+" "+r.URL.Path)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch p := r.URL.Path; {
	case r.Method == "GET" && p == "/repos/o/r":
		fmt.Fprint(w, `{"id": 1, "name": "r", "full_name": "o/r", "html_url": "https://github.example/o/r"}`)
	case r.Method == "GET" && p == "/repos/o/r/pulls/1" && strings.Contains(r.Header.Get("Accept"), "diff"):
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, g.diff)
	case r.Method == "GET" && p == "/repos/o/r/pulls/1/comments":
		_ = json.NewEncoder(w).Encode(g.comments)
	case r.Method == "POST" && p == "/repos/o/r/pulls/1/reviews":
		if g.readOnly {
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"message": "Resource not accessible by integration"}`)
			return
		}
		var rev reviewRequest
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &rev); err != nil {
			g.t.Errorf("a review that is not JSON: %v\n%s", err, b)
		}
		g.reviews = append(g.reviews, rev)
		for _, c := range rev.Comments {
			g.nextID++
			g.comments = append(g.comments, map[string]any{"id": g.nextID, "path": c.Path, "line": c.Line, "body": c.Body})
		}
		fmt.Fprint(w, `{"id": 1}`)
	case r.Method == "DELETE" && strings.HasPrefix(p, "/repos/o/r/pulls/comments/"):
		g.deleted = append(g.deleted, p)
		w.WriteHeader(http.StatusNoContent)
	default:
		g.unexpected = append(g.unexpected, r.Method+" "+r.URL.String())
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message": "Not Found"}`)
	}
}

var (
	reviewdogOnce sync.Once
	reviewdogDir  string // removed when the tests end (TestMain)
	reviewdogBin  string
	reviewdogErr  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if reviewdogDir != "" {
		os.RemoveAll(reviewdogDir)
	}
	os.Exit(code)
}

// buildReviewdog builds reviewdog with the action's own step (once per
// test binary). Without go the test is skipped, and fails when
// MCPLINT_NO_SKIP is set (.ci/run sets it).
func buildReviewdog(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("MCPLINT_NO_SKIP") != "" {
			t.Fatal("go is needed to build reviewdog (MCPLINT_NO_SKIP is set)")
		}
		t.Skip("go is needed to build reviewdog")
	}
	reviewdogOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcplint-reviewdog-")
		reviewdogDir = dir
		if err != nil {
			reviewdogErr = err.Error()
			return
		}
		runner := filepath.Join(dir, "runner")
		_ = os.MkdirAll(runner, 0o755)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", script(t), "reviewdog")
		cmd.Env = append(os.Environ(), "RUNNER_TEMP="+runner, "GITHUB_OUTPUT="+filepath.Join(dir, "out"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			reviewdogErr = fmt.Sprintf("the action's reviewdog step: %v\n%s", err, out)
			return
		}
		b, _ := os.ReadFile(filepath.Join(dir, "out"))
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "bin="); ok {
				reviewdogBin = v
			}
		}
		if !strings.Contains(string(out), "0.21.0") || reviewdogBin == "" {
			reviewdogErr = fmt.Sprintf("the step built no reviewdog 0.21.0:\n%s\noutputs:\n%s", out, b)
		}
	})
	if reviewdogErr != "" {
		t.Fatal(reviewdogErr)
	}
	return reviewdogBin
}

// reviewRepo makes the pull request's repository in s.work: a base commit
// and a head commit that adds lines to server.py. It returns the diff as
// GitHub serves it and the added lines of each file.
func reviewRepo(t *testing.T, s *sim, headRequirements string) (diff string, added map[string]map[int]bool) {
	t.Helper()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(s.work, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, s.work, "init", "-q", "-b", "main")
	write("requirements.txt", "mcp==1.26.0\n")
	write("server.py", reviewBase)
	write("old.py", reviewOld)
	git(t, s.work, "add", ".")
	git(t, s.work, "commit", "-qm", "base")
	git(t, s.work, "checkout", "-qb", "feature")
	write("server.py", reviewBase+reviewAdded)
	if headRequirements != "" {
		write("requirements.txt", headRequirements)
	}
	git(t, s.work, "commit", "-qam", "two tools")
	diff = git(t, s.work, "diff", "main", "feature")
	added = map[string]map[int]bool{}
	hunk := regexp.MustCompile(`(?m)^@@ -\S+ \+(\d+)(?:,(\d+))? @@`)
	var file string
	for _, l := range strings.Split(git(t, s.work, "diff", "-U0", "main", "feature"), "\n") {
		if f, ok := strings.CutPrefix(l, "+++ b/"); ok {
			file = f
			added[file] = map[int]bool{}
		}
		if m := hunk.FindStringSubmatch(l); m != nil {
			start, _ := strconv.Atoi(m[1])
			n := 1
			if m[2] != "" {
				n, _ = strconv.Atoi(m[2])
			}
			for i := start; i < start+n; i++ {
				added[file][i] = true
			}
		}
	}
	return diff, added
}

func (s *sim) reviewEnv(api, headRepo string) []string {
	event := filepath.Join(s.dir, "event.json")
	head := git(s.t, s.work, "rev-parse", "HEAD")
	ev := fmt.Sprintf(`{"pull_request": {"number": 1, "head": {"sha": %q, "ref": "feature", "repo": {"full_name": %q, "owner": {"id": 2}}},
		"base": {"ref": "main", "repo": {"full_name": "o/r", "owner": {"id": 1}}}},
		"repository": {"name": "r", "owner": {"login": "o"}}}`, head, headRepo)
	if err := os.WriteFile(event, []byte(ev), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return []string{
		"GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH=" + event, "GITHUB_SHA=" + head,
		"GITHUB_REPOSITORY=o/r", "PR_HEAD_REPO=" + headRepo,
		"GITHUB_API=" + api + "/", "GITHUB_API_URL=" + api,
		"INPUT_REVIEW=suggestions", "INPUT_GITHUB_TOKEN=the-token",
		"INPUT_FORMAT=github", "INPUT_FAIL_ON=never",
	}
}

// mcplintFindings returns the lines of the findings mcplint reports in
// the workspace, by file.
func mcplintFindings(t *testing.T, mcplint, dir string) map[string][]int {
	t.Helper()
	cmd := exec.Command(mcplint, "check", "--exit-zero", "--no-cache", "--output-format", "json", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcplint: %v", err)
	}
	var rep struct {
		Diagnostics []struct {
			Path  string
			Start struct{ Line int }
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatal(err)
	}
	found := map[string][]int{}
	for _, d := range rep.Diagnostics {
		found[d.Path] = append(found[d.Path], d.Start.Line)
	}
	return found
}

var suggestionBlock = regexp.MustCompile("(?s)```suggestion\n(.*?)```")

func TestReviewSuggestions(t *testing.T) {
	reviewdog := buildReviewdog(t)
	mcplint := buildMcplint(t)
	s := newSim(t, mcplint)
	diff, added := reviewRepo(t, s, "")
	gh := &fakeGitHub{t: t, diff: diff}
	srv := httptest.NewServer(gh)
	defer srv.Close()
	env := append(s.reviewEnv(srv.URL, "o/r"), "REVIEWDOG="+reviewdog)

	// What the review must hold: a comment for each finding on an added
	// line, and none for the others (old.py, requirements.txt).
	found := mcplintFindings(t, mcplint, s.work)
	want := map[string]bool{}
	elsewhere := 0
	for path, lines := range found {
		for _, l := range lines {
			if added[path][l] {
				want[fmt.Sprintf("%s:%d", path, l)] = true
			} else {
				elsewhere++
			}
		}
	}
	if len(want) < 2 || elsewhere < 1 {
		t.Fatalf("the fixture should have findings on added lines and elsewhere: %v (added %v)", found, added)
	}

	out, err := s.run(env...)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if len(gh.reviews) != 1 {
		t.Fatalf("%d reviews posted, want 1 (unexpected requests %q)\n%s", len(gh.reviews), gh.unexpected, out)
	}
	rev := gh.reviews[0]
	if len(rev.Comments) != len(want) {
		t.Errorf("%d review comments, want one per finding on an added line (%v)", len(rev.Comments), want)
	}
	// Each suggestion replaces lines of the diff with the fix's lines;
	// all of them applied make server.py as `mcplint check --diff` does.
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	for _, c := range rev.Comments {
		start := c.StartLine
		if start == 0 {
			start = c.Line
		}
		covered := false
		for l := start; l <= c.Line; l++ {
			covered = covered || want[fmt.Sprintf("%s:%d", c.Path, l)]
			if !added[c.Path][l] {
				t.Errorf("comment on %s:%d-%d: line %d is not an added line", c.Path, start, c.Line, l)
			}
		}
		if !covered {
			t.Errorf("comment on %s:%d-%d covers no finding on an added line: %v", c.Path, start, c.Line, want)
		}
		m := suggestionBlock.FindAllStringSubmatch(c.Body, -1)
		if len(m) != 1 || c.Path != "server.py" || strings.Contains(c.Body, "suggestion error") {
			t.Fatalf("comment on %s:%d: want one suggestion, body:\n%s", c.Path, c.Line, c.Body)
		}
		t.Logf("comment on %s:%d-%d:\n%s", c.Path, start, c.Line, c.Body)
		edits = append(edits, edit{start, c.Line, m[0][1]})
	}
	// Applied bottom up, as GitHub applies a suggestion: the lines
	// start..end become the block's lines (none for an empty block).
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	lines := strings.Split(reviewBase+reviewAdded, "\n")
	for i, e := range edits {
		if i > 0 && e.end >= edits[i-1].start {
			t.Fatalf("suggestions overlap: %+v", edits)
		}
		var repl []string
		if e.text != "" {
			repl = strings.Split(strings.TrimSuffix(e.text, "\n"), "\n")
		}
		lines = slices.Concat(lines[:e.start-1], repl, lines[e.end:])
	}
	got := strings.Join(lines, "\n")
	fixed := fixedByDiff(t, mcplint, s.work, "server.py")
	if got != fixed {
		t.Errorf("the suggestions make\n%s\nmcplint check --diff makes\n%s", got, fixed)
	}
	// The other findings are annotations, as without review.
	if !strings.Contains(out, "::error file=old.py,line=") {
		t.Errorf("no annotation for old.py's finding:\n%s", out)
	}

	// A second run (a new push with the same findings): the comments are
	// there, reviewdog posts no other and deletes none.
	out2, err := s.run(env...)
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, out2)
	}
	if len(gh.reviews) != 1 || len(gh.deleted) != 0 {
		t.Errorf("second run: %d reviews (want 1), deleted %q\n%s", len(gh.reviews), gh.deleted, out2)
	}
	if len(gh.unexpected) != 0 {
		t.Errorf("unexpected requests: %q", gh.unexpected)
	}
}

// fixedByDiff returns file as `mcplint check --diff` makes it: the diff
// applied with git apply in a clone.
func fixedByDiff(t *testing.T, mcplint, work, file string) string {
	t.Helper()
	cmd := exec.Command(mcplint, "check", "--exit-zero", "--no-cache", "--diff", file)
	cmd.Dir = work
	patch, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcplint --diff: %v", err)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, work, "clone", "-q", work, clone)
	p := filepath.Join(t.TempDir(), "fix.patch")
	if err := os.WriteFile(p, patch, 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, clone, "apply", "--include="+file, p)
	b, err := os.ReadFile(filepath.Join(clone, file))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) == reviewBase+reviewAdded {
		t.Fatalf("mcplint --diff changes nothing in %s:\n%s", file, patch)
	}
	return string(b)
}

// A fork's pull request gets a read-only token: no review is attempted,
// a notice says so, and every finding is an annotation.
func TestReviewForkAnnotationsOnly(t *testing.T) {
	reviewdog := buildReviewdog(t)
	mcplint := buildMcplint(t)
	s := newSim(t, mcplint)
	diff, _ := reviewRepo(t, s, "")
	gh := &fakeGitHub{t: t, diff: diff, readOnly: true}
	srv := httptest.NewServer(gh)
	defer srv.Close()
	out, err := s.run(append(s.reviewEnv(srv.URL, "fork/r"), "REVIEWDOG="+reviewdog)...)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if len(gh.reviews) != 0 || len(gh.comments) != 0 {
		t.Errorf("a review was posted for a fork: %+v", gh.reviews)
	}
	if !strings.Contains(out, "::notice title=mcplint::review: suggestions: a pull request from a fork gets a read-only token") {
		t.Errorf("no notice of the fork:\n%s", out)
	}
	for _, f := range []string{"server.py", "old.py"} {
		if !strings.Contains(out, "::error file="+f+",line=") {
			t.Errorf("no annotation for %s:\n%s", f, out)
		}
	}
}

// A token that cannot write reviews on the repository's own pull request
// (pull-requests: read): reviewdog gets a 403 and says so; the action
// gives a notice and the annotations stay.
func TestReviewReadOnlyToken(t *testing.T) {
	reviewdog := buildReviewdog(t)
	mcplint := buildMcplint(t)
	s := newSim(t, mcplint)
	diff, _ := reviewRepo(t, s, "")
	gh := &fakeGitHub{t: t, diff: diff, readOnly: true}
	srv := httptest.NewServer(gh)
	defer srv.Close()
	out, err := s.run(append(s.reviewEnv(srv.URL, "o/r"), "REVIEWDOG="+reviewdog)...)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if len(gh.reviews) != 0 {
		t.Errorf("a review was recorded: %+v", gh.reviews)
	}
	if !strings.Contains(out, "::notice title=mcplint::review: suggestions: the token cannot write reviews") {
		t.Errorf("no notice of the read-only token:\n%s", out)
	}
	if !strings.Contains(out, "::error file=server.py,line=") {
		t.Errorf("no annotations:\n%s", out)
	}
}

// With --unsafe-fixes, a pin whose fix is the respond/cancel guard (an
// unsafe fix that creates mcp_respond_guard.py and edits server.py): no
// suggestion can express it, so the comment on the pin's added line says
// the fix is unsafe and holds its diff, the created file as
// `mcplint check --diff --unsafe-fixes` shows it.
func TestReviewUnsafeGuardAsDiff(t *testing.T) {
	reviewdog := buildReviewdog(t)
	mcplint := buildMcplint(t)
	s := newSim(t, mcplint)
	diff, _ := reviewRepo(t, s, "mcp>=1.27,<2\n")
	gh := &fakeGitHub{t: t, diff: diff}
	srv := httptest.NewServer(gh)
	defer srv.Close()
	out, err := s.run(append(s.reviewEnv(srv.URL, "o/r"), "REVIEWDOG="+reviewdog, "INPUT_ARGS=--unsafe-fixes")...)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if len(gh.reviews) != 1 {
		t.Fatalf("%d reviews posted, want 1\n%s", len(gh.reviews), out)
	}
	cmd := exec.Command(mcplint, "check", "--exit-zero", "--no-cache", "--unsafe-fixes", "--diff", ".")
	cmd.Dir = s.work
	patch, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var pin, suggestions int
	for _, c := range gh.reviews[0].Comments {
		if c.Path != "requirements.txt" {
			if strings.Contains(c.Body, "```suggestion\n") {
				suggestions++
			}
			continue
		}
		pin++
		t.Logf("comment on the pin:\n%s", c.Body)
		if strings.Contains(c.Body, "```suggestion") || !strings.Contains(c.Body, "The fix is unsafe") {
			t.Errorf("the guard fix is a suggestion, or not said to be unsafe:\n%s", c.Body)
		}
		// The created file's part of the diff, as --diff shows it.
		_, created, ok := strings.Cut(c.Body, "--- /dev/null\n")
		created, _, _ = strings.Cut(created, "\n```")
		created, _, _ = strings.Cut(created, "\n--- a/") // the next file's
		if !ok || !strings.Contains(created, "+++ b/mcp_respond_guard.py") || !strings.Contains(string(patch), "--- /dev/null\n"+created) {
			t.Errorf("the comment's diff of mcp_respond_guard.py is not --diff's:\n%s\n--diff:\n%s", c.Body, patch)
		}
	}
	if pin != 1 || suggestions < 2 {
		t.Errorf("%d comments on the pin (want 1), %d suggestions elsewhere (want 2)", pin, suggestions)
	}
}
