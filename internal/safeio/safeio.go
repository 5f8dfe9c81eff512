// Package safeio reads the files mcplint is given or finds in a scanned
// repository, which may be hostile: only regular files (a named pipe, a
// device such as /dev/zero or /dev/stdin, a socket or a directory is
// refused, also through a symlink, before it is opened for reading), at most
// a size limit per kind of file, checked against the size the file reports
// and again while reading (a file can grow, and /proc files report 0). Within
// tells whether a path named inside a scanned file (an include) stays inside
// the scanned tree once symlinks are resolved.
//
// Every file mcplint reads goes through ReadFile: Python sources, dependency
// files and their includes, configuration, baselines and .gitignore files.
// It never reads version-control internals (vcs.go): a CI checkout keeps the
// job's token in .git/config.
package safeio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Kind is a kind of file and the most bytes mcplint reads of one.
type Kind struct {
	Name string // plural, for messages: "Python files"
	Max  int64
	// VCSInternals lets a path that names a version-control folder
	// (.git/info/exclude) be read: mcplint's own lookups of git's files, and a
	// configuration file the user names. Without it such a path is refused;
	// with or without it, a symlink never leads into one (VCSInternalError).
	VCSInternals bool
}

// The limits (documented in docs/configuration.md, "What mcplint reads, and its limits"). They are far
// above real files of each kind: the largest uv.lock or poetry.lock of big
// projects are a few MiB, and Python files over 8 MiB are generated data.
var (
	Python     = Kind{Name: "Python files", Max: 8 << 20}
	Dependency = Kind{Name: "dependency files", Max: 16 << 20}
	Config     = Kind{Name: "configuration files", Max: 4 << 20, VCSInternals: true} // mcplint.toml, pyproject.toml searched for [tool.mcplint], .gitignore, .git/info/exclude
	Baseline   = Kind{Name: "baselines", Max: 64 << 20}
)

// ErrNotRegular is the error (inside an *os.PathError) for a path that is
// not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError says what a refused file is.
type NotRegularError struct{ What string }

func (e *NotRegularError) Error() string   { return "not a regular file (" + e.What + ")" }
func (e *NotRegularError) Is(t error) bool { return t == ErrNotRegular }

// TooLargeError is a file over its kind's limit.
type TooLargeError struct {
	Size int64 // the size the file reported; 0 when unknown (it grew while read)
	Kind Kind
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("file is %d bytes, over the %d-byte limit for %s", e.Size, e.Kind.Max, e.Kind.Name)
	}
	return fmt.Sprintf("file is over the %d-byte limit for %s", e.Kind.Max, e.Kind.Name)
}

// Describe names a file type that is not regular ("a named pipe"); safewrite
// names the targets it refuses with it too.
func Describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "an irregular file"
}

// ReadFile reads the regular file at path (an OS path), following
// symlinks, and at most k.Max bytes of it. Nothing inside a version-control
// folder (.git, .hg, .svn) is read: not when path names one (unless k allows
// it), never when a symlink leads there. Errors are *os.PathError, with
// *NotRegularError, *TooLargeError or *VCSInternalError inside for a
// refused file.
func ReadFile(path string, k Kind) ([]byte, error) {
	if err := namedVCS(path, k); err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: path, Err: &NotRegularError{Describe(st.Mode())}}
	}
	if st.Size() > k.Max {
		return nil, &os.PathError{Op: "read", Path: path, Err: &TooLargeError{st.Size(), k}}
	}
	// The file may have been replaced since the stat: open without
	// blocking (a named pipe would block until a writer comes) and check
	// again what was opened.
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: path, Err: &NotRegularError{Describe(st.Mode())}}
	}
	if st.Size() > k.Max {
		return nil, &os.PathError{Op: "read", Path: path, Err: &TooLargeError{st.Size(), k}}
	}
	if err := openedVCS(path, f); err != nil {
		return nil, err
	}
	buf := make([]byte, 0, st.Size()+1)
	b, err := readAll(io.LimitReader(f, k.Max+1), buf)
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(b)) > k.Max {
		return nil, &os.PathError{Op: "read", Path: path, Err: &TooLargeError{0, k}}
	}
	return b, nil
}

// readAll is io.ReadAll into buf.
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// OutsideError is a path named inside a scanned file that leads outside
// the scanned tree.
type OutsideError struct{ Root string }

func (e *OutsideError) Error() string { return "outside the scanned tree: not read" }

// Within returns nil when path (an OS path, relative to the working
// directory or absolute) is root or under it once every symlink in both is
// resolved, an *os.PathError with an *OutsideError inside when it is not,
// and the resolution's error when path does not exist. The check is lexical
// first, so a path outside root is refused whether or not it exists.
func Within(root, path string) error { return NewRoot(root).Within(path) }

// Root is a root folder resolved once for many Within checks (a style
// search checks a few dozen paths against one root, and resolving the root
// and the working directory each time was most of a warm run's system
// calls). It keeps the working directory it saw first (it asks for it
// only to make a relative path absolute): use it for one burst of checks,
// not across a change of directory.
type Root struct {
	root      string
	cwdOnce   sync.Once
	cwd       string
	cwdErr    error
	abs, real string // root made absolute, and with its symlinks resolved
	absErr    error
	realErr   error
}

// getwd is os.Getwd (a test counts the calls).
var getwd = os.Getwd

// NewRoot resolves root for Within.
func NewRoot(root string) *Root {
	r := &Root{root: root}
	if r.abs, r.absErr = r.absolute(root); r.absErr == nil {
		r.real, r.realErr = filepath.EvalSymlinks(r.abs)
	}
	return r
}

// absolute is filepath.Abs with the working directory r saw first.
func (r *Root) absolute(path string) (string, error) {
	if filepath.IsAbs(path) {
		return filepath.Clean(path), nil
	}
	r.cwdOnce.Do(func() { r.cwd, r.cwdErr = getwd() })
	if r.cwdErr != nil {
		return "", r.cwdErr
	}
	return filepath.Join(r.cwd, path), nil
}

// Within is the package's Within(root, path) for r's root.
func (r *Root) Within(path string) error {
	if r.absErr != nil {
		return r.absErr
	}
	abs, err := r.absolute(path)
	if err != nil {
		return err
	}
	if !under(r.abs, abs) {
		return &os.PathError{Op: "open", Path: path, Err: &OutsideError{r.root}}
	}
	if r.realErr != nil {
		return r.realErr
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	if !under(r.real, real) {
		return &os.PathError{Op: "open", Path: path, Err: &OutsideError{r.root}}
	}
	return nil
}

// under tells whether p is root or below it (both absolute and clean).
func under(root, p string) bool {
	if p == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(p, root)
}
