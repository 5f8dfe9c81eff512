package safeio

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// vcsDirs are the folders where version-control systems keep their own
// data. A CI checkout writes the job's token there (actions/checkout puts
// an "extraheader = AUTHORIZATION: basic ..." line in .git/config), so no
// file under one is ever read as a scanned file, and a symlink never leads
// mcplint into one.
var vcsDirs = []string{".git", ".hg", ".svn"}

// VCSInternalError is a path that is, or leads through a symlink, inside a
// version-control folder. Its message names the folder, never content.
type VCSInternalError struct {
	Dir    string // the folder's name: ".git"
	Target string // the path with its symlinks resolved, when a symlink led there ("" otherwise)
}

func (e *VCSInternalError) Error() string {
	if e.Target != "" {
		return "a symlink into version-control internals (" + e.Dir + "): not read"
	}
	return "inside version-control internals (" + e.Dir + "): not read"
}

// VCSDir returns the version-control folder name (".git") that is a
// component of path (an OS path), or "". The comparison ignores case: on a
// case-insensitive file system .GIT/config is .git/config.
func VCSDir(path string) string {
	for _, c := range strings.FieldsFunc(path, isSeparator) {
		for _, d := range vcsDirs {
			if strings.EqualFold(c, d) {
				return d
			}
		}
	}
	return ""
}

func isSeparator(r rune) bool { return r == '/' || r == filepath.Separator }

// namedVCS refuses path when it names version-control internals, unless
// k allows that (mcplint's own lookup of .git/info/exclude, a --config the
// user named).
func namedVCS(path string, k Kind) error {
	if d := VCSDir(path); d != "" && !k.VCSInternals {
		return &os.PathError{Op: "read", Path: path, Err: &VCSInternalError{Dir: d}}
	}
	return nil
}

// openedVCS refuses the file f opened for path when its real path (every
// symlink resolved, asked of the open file so that nothing can swap a link
// in between) is inside version-control internals that path does not name
// itself: whatever the kind, a symlink never leads there.
func openedVCS(path string, f *os.File) error {
	real, err := realPath(f)
	if err != nil {
		return err
	}
	if d := VCSDir(real); d != "" && VCSDir(absOrSelf(path)) == "" {
		return &os.PathError{Op: "read", Path: path, Err: &VCSInternalError{Dir: d, Target: real}}
	}
	return nil
}

// realPath is the path of the open file f with every symlink resolved: on
// Linux what /proc/self/fd says of it (one system call, and the file that
// was opened), else EvalSymlinks of its name.
func realPath(f *os.File) (string, error) {
	if rc, err := f.SyscallConn(); err == nil {
		var p string
		var lerr error
		// (Control, not Fd: Fd would put the file in blocking mode)
		if err := rc.Control(func(fd uintptr) { p, lerr = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10)) }); err == nil && lerr == nil && filepath.IsAbs(p) {
			return p, nil
		}
	}
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

func absOrSelf(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
