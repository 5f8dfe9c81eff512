package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

// RepoTops answers as RepoTop does, for folders asked in any order: a
// folder whose ancestor was walked for another takes the memoised answer,
// and a .git file (a worktree's) counts as a .git folder does.
func TestRepoTops(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"repo/.git", "repo/a/b", "repo/a/c", "repo/sub/.git", "repo/sub/x", "loose/y"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "repo/a/c/.git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"repo/a/b":   "repo",
		"repo/a":     "repo",
		"repo":       "repo",
		"repo/a/c":   "repo/a/c",
		"repo/sub/x": "repo/sub",
		"repo/sub":   "repo/sub",
		"loose/y":    "",
		"loose":      "",
	}
	tops := RepoTops{}
	for _, order := range [][]string{{"repo/a/b", "repo/a", "repo", "repo/a/c", "repo/sub/x", "repo/sub", "loose/y", "loose"}, {"loose", "repo", "repo/sub", "repo/a/c", "repo/a/b"}} {
		for _, d := range order {
			w := want[d]
			if w != "" {
				w = filepath.Join(root, w)
			}
			if got := tops.Of(filepath.Join(root, d)); got != w {
				t.Errorf("RepoTops.Of(%s) = %q, want %q", d, got, w)
			}
			if got := RepoTop(filepath.Join(root, d)); got != w {
				t.Errorf("RepoTop(%s) = %q, want %q", d, got, w)
			}
		}
	}
}
