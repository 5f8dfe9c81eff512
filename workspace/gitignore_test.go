package workspace

import (
	"fmt"
	"math/rand"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigValue(t *testing.T) {
	for _, c := range []struct {
		src, want string
		found     bool
	}{
		{"[core]\n\texcludesFile = /a/b\n", "/a/b", true},
		{"[CORE]\nEXCLUDESFILE=x ; comment\n", "x", true},
		{"[core] excludesfile = \"a b\" # c\n", "a b", true},
		{"[core]\nexcludesfile = a  \tb \n", "a   b", true},
		{"[core]\nexcludesfile = \"a\\\\b\\\"c\"\n", `a\b"c`, true},
		{"[core]\nexcludesfile = a\\\nb\n", "ab", true},
		{"[core]\nexcludesfile = first\n[core]\nexcludesfile = second\n", "second", true},
		{"[core \"sub\"]\nexcludesfile = no\n", "", false},
		{"[core.sub]\nexcludesfile = no\n", "", false},
		{"[user]\nexcludesfile = no\n[core]\nbare = yes\n", "", false},
		{"[core]\n# excludesfile = no\n;excludesfile = no\nexcludesfile\n", "", false},
		{"[core]\nexcludesfile =\n", "", true},
	} {
		got, found := configValue(c.src, "core", "excludesfile")
		if got != c.want || found != c.found {
			t.Errorf("%q: got %q %v, want %q %v", c.src, got, found, c.want, c.found)
		}
	}
}

// Walk honours core.excludesFile (the repository's config, else the
// global default) and a worktree's exclude files.
func TestWalkExcludesFile(t *testing.T) {
	dir := tree(t, ".git/config=[core]\n\texcludesFile = ../excl\n", "app.py=", "scratch.py=", "sub/notes.py=", "global.py=")
	writeFile(t, filepath.Join(filepath.Dir(dir), "excl"), "scratch.py\nsub/\n")
	home := t.TempDir()
	isolateGit(t, home, filepath.Join(home, "xdg"))
	if got := walk(t, dir, Options{}); got != "app.py global.py" {
		t.Errorf("core.excludesFile: %s", got)
	}
	// Without the key, $XDG_CONFIG_HOME/git/ignore is the default.
	writeFile(t, filepath.Join(dir, ".git", "config"), "[core]\n")
	writeFile(t, filepath.Join(home, "xdg", "git", "ignore"), "global.py\n")
	if got := walk(t, dir, Options{}); got != "app.py scratch.py sub/notes.py" {
		t.Errorf("default excludes file: %s", got)
	}
}

// TestGitignoreDeepMatchesGit compares with git on chains 60 folders deep
// with side branches, ignore files at random levels and patterns aimed at
// random sub-paths: the state kept per folder must give the same answers
// as matching each path afresh.
func TestGitignoreDeepMatchesGit(t *testing.T) {
	git := requireGit(t)
	rounds := 20
	if testing.Short() {
		rounds = 5
	}
	total := 0
	for round := 0; round < rounds && !t.Failed(); round++ {
		r := rand.New(rand.NewSource(int64(1000 + round)))
		tmp := t.TempDir()
		top := filepath.Join(tmp, "repo")
		isolateGit(t, filepath.Join(tmp, "home"), filepath.Join(tmp, "xdg"))
		gitInit(t, git, top)
		var dirs, all []string
		p := ""
		for depth := 0; depth < 60; depth++ {
			p = path.Join(p, []string{"a", "b", "d", "src", "build"}[r.Intn(5)])
			dirs = append(dirs, p)
			all = append(all, p, p+"/x.py")
			writeFile(t, filepath.Join(top, filepath.FromSlash(p), "x.py"), "")
			if r.Intn(4) == 0 {
				side := p + "/side"
				all = append(all, side, side+"/y.py")
				writeFile(t, filepath.Join(top, filepath.FromSlash(side), "y.py"), "")
			}
		}
		written := map[string]string{}
		for _, d := range append([]string{""}, dirs...) {
			if r.Intn(6) == 0 || d == "" {
				// Patterns of at most 6 folders: longer ones with
				// several "**" make git 2.39 itself crash, or
				// answer from freed memory, in these trees.
				var windows []string
				for _, p := range under(all, d) {
					c := strings.Split(p, "/")
					if len(c) > 6 {
						k := r.Intn(len(c) - 5)
						c = c[k : k+6]
					}
					windows = append(windows, strings.Join(c, "/"))
				}
				content := genIgnoreFile(r, windows)
				writeFile(t, filepath.Join(top, filepath.FromSlash(d), ".gitignore"), content)
				written[d] = content
			}
		}
		total += compareWithGit(t, git, top, func() string {
			var b strings.Builder
			for d, c := range written {
				fmt.Fprintf(&b, "  %s/.gitignore: %q\n", d, c)
			}
			return b.String()
		})
	}
	t.Logf("%d paths compared with git check-ignore in %d trees 60 deep (%d answers of --stdin differed from git's on the path alone; git crashed on %d paths, not compared)",
		total, rounds, gitBatchWrong, gitCrashes)
}
