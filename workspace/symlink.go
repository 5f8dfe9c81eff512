package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcplint/mcplint/deps"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/safeio"
)

// ErrSymlinkNotFollowed is the error (in a *PathError, inside a
// *NotFollowedError) for a symlink whose target is not what mcplint would
// have read by its own name: a requirements file that leads to .git/config, a
// credentials JSON or a .netrc, a .py that leads to a file that is no Python
// source. Nothing of the target is read.
var ErrSymlinkNotFollowed = errors.New("symlink not followed")

// NotFollowedError says what a symlink that is not followed leads to (the
// target's name, never its content).
type NotFollowedError struct {
	Link, Target string // base names
	Kind         Kind   // the link's, as classified by its path
}

func (e *NotFollowedError) Error() string {
	what := "a Python file (.py)"
	if e.Kind == Dependency {
		what = "a dependency file of the same format"
	}
	return "symlink not followed: it leads to " + escape.Quote(e.Target) + ", not " + what
}

func (e *NotFollowedError) Is(t error) bool { return t == ErrSymlinkNotFollowed }

// Refused tells whether err (from Walk) is a file that must not be read at
// all: a symlink out of its tree, into version-control internals, or to a
// file of another kind.
func Refused(err error) bool {
	var ve *safeio.VCSInternalError
	return errors.Is(err, ErrSymlinkOutside) || errors.Is(err, ErrSymlinkNotFollowed) || errors.As(err, &ve)
}

// symlinkRefusal checks a symlink to a file, p (an OS path) found in or
// given as tree, before anything reads it. A symlink is followed only to
// what mcplint would have read by its own name, in the tree: never into a
// version-control folder (a CI checkout keeps the job's token in
// .git/config), never outside tree (unless tree is nil), and only to a file
// that Classify puts in the link's kind, and for a dependency file in its
// format (deps.FormatOf): requirements-dev.txt may lead to another
// requirements file, not to config, .env, a JSON or .netrc. The tree is
// resolved once (safeio.NewRoot) for all the symlinks of a walk.
func symlinkRefusal(p string, tree *safeio.Root) error {
	abs, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	if d := safeio.VCSDir(real); d != "" && safeio.VCSDir(abs) == "" {
		return &safeio.VCSInternalError{Dir: d, Target: real}
	}
	if tree != nil && tree.Within(p) != nil {
		return ErrSymlinkOutside
	}
	link, target := filepath.Base(abs), filepath.Base(real)
	// Classified by path: requirements/prod.txt is a requirements file by
	// its folder (deps.IsDependencyPath), prod.txt elsewhere is none.
	lk, _ := Classify(filepath.ToSlash(abs))
	tk, ok := Classify(filepath.ToSlash(real))
	if !ok || tk != lk || lk == Dependency && deps.FormatOf(link) != deps.FormatOf(target) {
		return &NotFollowedError{Link: link, Target: target, Kind: lk}
	}
	return nil
}

// rootTree is the tree an explicit root that is a symlink must lead into:
// the working directory when the link is under it, else the link's own
// folder. A root given on the command line of a CI job can be a symlink the
// pull request committed (pre-commit's --all-files passes every file):
// /proc/self/environ or the runner's home is not the repository.
func rootTree(root string) string {
	if wd, err := os.Getwd(); err == nil {
		if abs, err := filepath.Abs(root); err == nil {
			if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return wd
			}
		}
	}
	return filepath.Dir(root)
}
