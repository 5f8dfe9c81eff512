//go:build unix

package safeio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A CI checkout keeps the job's token in .git/config: no scanned file is
// read from a version-control folder, by its name or through a symlink (or
// a chain of them, or a symlinked folder), and the error quotes nothing.
func TestReadFileRefusesVCSInternals(t *testing.T) {
	dir := t.TempDir()
	const secret = "extraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX0ZBS0U="
	for _, d := range []string{".git", ".hg", ".svn", "sub"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, d, "config"), []byte(secret+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	refused := []string{
		filepath.Join(dir, ".git", "config"),
		filepath.Join(dir, ".hg", "config"),
		filepath.Join(dir, ".svn", "config"),
		filepath.Join(dir, "sub", "..", ".git", "config"),
		link(".git/config", "requirements-dev.txt"),
		link(filepath.Join(dir, ".hg", "config"), "requirements-abs.txt"),
		link("requirements-dev.txt", "requirements-chain.txt"), // a link to a link to .git/config
		filepath.Join(link(".git", "notgit"), "config"),        // a symlinked folder
		link(".svn/config", "uv.lock"),
	}
	for _, k := range []Kind{Python, Dependency, Baseline, Config} {
		for _, p := range refused {
			if k.VCSInternals && VCSDir(p) != "" {
				continue // named as such: see below
			}
			b, err := ReadFile(p, k)
			var ve *VCSInternalError
			if !errors.As(err, &ve) || b != nil {
				t.Errorf("ReadFile(%s, %s) = %q, %v; want a refusal", p, k.Name, b, err)
				continue
			}
			if strings.Contains(err.Error(), "AUTHORIZATION") || !strings.Contains(err.Error(), "version-control internals") {
				t.Errorf("ReadFile(%s): message %q", p, err)
			}
		}
	}
	// The configuration kind reads a path that names git's own files
	// (.git/info/exclude; a --config the user named), never one a symlink
	// leads to.
	if b, err := ReadFile(filepath.Join(dir, ".git", "config"), Config); err != nil || string(b) != secret+"\n" {
		t.Errorf("Config kind, named .git path: %q, %v", b, err)
	}
	// A file beside them and a symlink to it are read.
	ok := filepath.Join(dir, "sub", "config")
	for _, p := range []string{ok, link("sub/config", "requirements-ok.txt"), filepath.Join(dir, "sub", ".gitkeep-not-a-dir")} {
		if strings.HasSuffix(p, "not-a-dir") {
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := ReadFile(p, Dependency); err != nil {
			t.Errorf("ReadFile(%s) = %v, want it read", p, err)
		}
	}
}

func TestVCSDir(t *testing.T) {
	for p, want := range map[string]string{
		".git/config": ".git", "a/.GIT/HEAD": ".git", "/r/.hg/hgrc": ".hg", `.svn/entries`: ".svn",
		"a/.gitignore": "", "a/.github/workflows/x.yml": "", "git/config": "", "a.git/config": "",
	} {
		if got := VCSDir(p); got != want {
			t.Errorf("VCSDir(%q) = %q, want %q", p, got, want)
		}
	}
}
