// Package safewrite writes the files mcplint writes (fixed sources,
// baselines, report outputs) so that a write never replaces something that
// is not a plain file, keeps what it does not mean to change, and never
// leaves a half-written file:
//
//   - The target is a regular file, or a new file. A device, a named pipe, a
//     socket or a directory is refused (as root, `--write-baseline /dev/full`
//     once turned the device node into a JSON file).
//   - A symlink at the path of a file mcplint edits (a --fix of the user's
//     own source) is followed and its target written; the link itself is
//     never replaced. A dangling symlink is refused. A symlink at the path of
//     an output the run generates (Options.Output: a report, a baseline) is
//     refused, never followed: the path may come from the repository being
//     read, and a pull request that commits mcplint.sarif as a symlink to
//     the GitHub Action's own script (or to a cached binary) would otherwise
//     have the runner write it, with a line of its choosing quoted in the
//     SARIF. An output replaces the file at its path as a new file (the
//     umask's mode, the writer's owner): an existing file is never written
//     in place, and none of its mode is kept (a planted executable file is
//     replaced by one that is not). Only the last component is checked: the folders of the
//     path are the caller's to choose.
//   - An existing file whose owner has no write permission is refused, even
//     when running as root: the user made it read-only.
//   - An existing file with more than one hard link is refused: replacing it
//     would split the links (the other names would keep the old contents),
//     and rewriting it in place would not be atomic (an interrupted write
//     would leave a truncated file under every name).
//   - The new contents go to a temporary file in the target's folder, which
//     is synced, given the target's mode and owner (a file whose owner cannot
//     be kept is refused), and renamed over the target. A new file is linked
//     into place instead, so that a file created meanwhile is not replaced.
//   - Temporary files are named ".NAME.mcplint-tmp-PID-RANDOM": a leading dot
//     and no .py ending, so that nothing scans them. Interrupt removes every
//     one this process holds (the CLI calls it on SIGINT and SIGTERM); a
//     later write into the same folder, or a Sweep of it, removes those of
//     processes that no longer run (left by kill -9 or a power cut).
//   - Files that must change together (a fix that creates a module and
//     imports it) are committed as a set (CommitSets): all are renamed into
//     place, or none is; a rename that fails puts back those of the set
//     already in place.
//
// Commits take a lock that Interrupt also takes, so a signal either comes
// before a batch of renames (nothing of it is written) or after it.
package safewrite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"

	"github.com/mcplint/mcplint/internal/safeio"
)

// RefusedError is a target safewrite will not write, and why. It is not an
// I/O failure: the other files of a batch can still be written.
type RefusedError struct {
	Path   string // as given
	Reason string // a predicate: "is read-only (...)"
}

func (e *RefusedError) Error() string { return e.Path + " " + e.Reason }

// ErrInterrupted is returned for every write after Interrupt.
var ErrInterrupted = errors.New("interrupted")

// Options of a write.
type Options struct {
	// MustExist refuses to create the file (a fix that edits a file).
	MustExist bool
	// MustBeNew refuses to replace anything (a fix that creates a file).
	MustBeNew bool
	// Output marks a file the run generates (a report, a baseline) rather
	// than a file of the user's that mcplint edits: a symlink at the path
	// is refused instead of followed, and a file it replaces keeps none of
	// its mode and owner (see the package doc).
	Output bool
	// Verify, when set, is called under the commit lock right before the
	// rename, with the target's path; an error leaves the target as it is
	// and is returned by Commit. The fixer checks there that the file still
	// holds what its fixes were computed from.
	Verify func(target string) error
}

// File is a write in progress: the new contents go to a temporary file
// until Commit renames it over the target.
type File struct {
	path    string // as given
	target  string // the file replaced (symlinks resolved)
	old     fs.FileInfo
	opts    Options
	tmp     *os.File
	tmpName string
	closed  bool
	werr    error
	linked  bool   // placed by a link: tmpName is still a name of the target
	backup  string // a temporary name of the replaced file's old contents
	done    bool   // committed
}

var (
	mu          sync.Mutex
	pending     = map[*File]bool{}
	written     []string
	interrupted bool
	swept       = map[string]bool{}
)

// Check tells whether path could be written (the checks of Create, with
// no temporary file made), so that a command can refuse a bad output path
// before it spends time on the analysis.
func Check(path string, opts Options) error {
	_, _, err := resolve(path, opts)
	return err
}

// resolve returns the file a write to path replaces and its current state
// (nil when it is new), or why it is refused.
func resolve(path string, opts Options) (string, fs.FileInfo, error) {
	refuse := func(format string, a ...any) error {
		return &RefusedError{Path: path, Reason: fmt.Sprintf(format, a...)}
	}
	target := path
	lst, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if opts.MustExist {
			return "", nil, refuse("does not exist")
		}
		return path, nil, nil
	case err != nil:
		return "", nil, err
	case opts.MustBeNew:
		return "", nil, refuse("exists; a file mcplint creates never replaces one")
	case lst.Mode()&fs.ModeSymlink != 0 && opts.Output:
		return "", nil, refuse("is a symlink, refused: mcplint never writes an output through one (remove it, or choose another path)")
	case lst.Mode()&fs.ModeSymlink != 0:
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", nil, refuse("is a symlink to a file that does not exist")
			}
			return "", nil, err
		}
		target = real
	}
	st, err := os.Stat(target)
	if err != nil {
		return "", nil, err
	}
	if why := Writable(st); why != "" {
		if target != path {
			why = "leads to " + target + ", which " + why
		}
		return "", nil, refuse("%s", why)
	}
	return target, st, nil
}

// Writable says why an existing file is not replaced ("" when it may be):
// not a regular file, read-only for its owner, or hard-linked.
func Writable(st fs.FileInfo) string {
	m := st.Mode()
	if !m.IsRegular() {
		return "is " + safeio.Describe(m) + "; only regular files are written"
	}
	if m.Perm()&0o200 == 0 {
		return "is read-only (its owner has no write permission)"
	}
	if n := links(st); n > 1 {
		return fmt.Sprintf("has %d hard links: replacing it would split them, and rewriting it in place would not be atomic", n)
	}
	return ""
}

// Create starts a write to path: it checks the target and opens a
// temporary file beside it. Write the contents, then Commit (or Abort).
// Errors are *RefusedError for a refused target, ErrInterrupted after
// Interrupt, or the I/O error.
func Create(path string, opts Options) (*File, error) {
	target, old, err := resolve(path, opts)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	Sweep(dir)
	f := &File{path: path, target: target, old: old, opts: opts}
	perm := os.FileMode(0o600)
	if old == nil || opts.Output {
		perm = 0o666 // a new file gets the umask's mode, as any program's
	}
	mu.Lock()
	defer mu.Unlock()
	if interrupted {
		return nil, ErrInterrupted
	}
	for try := 0; ; try++ {
		f.tmpName = filepath.Join(dir, tempName(base))
		f.tmp, err = os.OpenFile(f.tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || try == 10 {
			return nil, err
		}
	}
	pending[f] = true
	return f, nil
}

// tempName is the name of a temporary file for base.
func tempName(base string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "." + base + ".mcplint-tmp-" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
}

// tempPattern matches the temporary files of any mcplint process.
var tempPattern = regexp.MustCompile(`^\..+\.mcplint-tmp-([0-9]+)-[0-9a-f]+$`)

// Sweep removes, once per folder and process, the temporary files of
// mcplint processes that no longer run. A process that is alive (or a PID
// reused since) keeps its files. Create sweeps the folder it writes in; a
// --fix run sweeps the folders of every file it could fix, so that the
// files a run killed with -9 left are removed by the next --fix even when
// it writes nothing. The cost is one listing of each folder, folders the
// scan listed already.
func Sweep(dir string) {
	dir = filepath.Clean(dir)
	mu.Lock()
	done := swept[dir]
	swept[dir] = true
	mu.Unlock()
	if done {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := tempPattern.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() || alive(pid) {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
}

// Target is the file that Commit replaces (symlinks resolved).
func (f *File) Target() string { return f.target }

// Write appends to the new contents.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.tmp.Write(p)
	if err != nil && f.werr == nil {
		f.werr = err
	}
	return n, err
}

// Close finishes the temporary file: it syncs it, gives it the target's
// owner and mode, and closes it; the target is not touched yet. An error
// (a full disk) leaves the temporary file for Abort to remove.
func (f *File) Close() error {
	if f.closed {
		return f.werr
	}
	f.closed = true
	err := f.werr
	if err == nil {
		err = f.tmp.Sync()
	}
	if err == nil && f.old != nil && !f.opts.Output {
		if err = keepOwner(f.tmp, f.old); err != nil {
			err = &RefusedError{Path: f.path, Reason: err.Error()}
		} else {
			// After the chown, which clears the set-id bits.
			err = f.tmp.Chmod(f.old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
		}
	}
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	f.werr = err
	return err
}

// Abort removes the temporary file; the target is left as it was.
func (f *File) Abort() {
	mu.Lock()
	defer mu.Unlock()
	f.abortLocked()
}

func (f *File) abortLocked() {
	if !f.closed {
		f.closed = true
		f.werr = ErrInterrupted
		_ = f.tmp.Close()
	}
	if pending[f] {
		delete(pending, f)
		_ = os.Remove(f.tmpName)
	}
}

// Commit closes the file if needed and renames it over the target. On an
// error the temporary file is removed and the target left as it was.
func (f *File) Commit() error { return CommitAll([]*File{f})[0] }

// CommitAll commits files under one lock, so that an Interrupt comes before
// or after the whole batch. It returns one error (or nil) per file; each
// file is committed on its own (one refused leaves the others written).
func CommitAll(files []*File) []error {
	sets := make([][]*File, len(files))
	for i, f := range files {
		sets[i] = []*File{f}
	}
	errs := make([]error, len(files))
	for i, e := range CommitSets(sets) {
		errs[i] = e[0]
	}
	return errs
}

// CommitSets commits sets of files under one lock: the files of a set are
// all renamed into place, or none is (one fix that changes several files:
// an import of a module the fix creates must not be written without the
// module). Every file of a set is checked first (its target unchanged in
// kind and identity, the Verify callback); then new files are linked into
// place (a name taken meanwhile refuses the set before anything is
// replaced), then existing files are replaced, each kept under a temporary
// name until the whole set is in place, so that a rename that fails puts
// back every file of the set already written. It returns one error (or nil)
// per file; the files of a set that failed because of another file get a
// *RefusedError that names it.
func CommitSets(sets [][]*File) [][]error {
	errs := make([][]error, len(sets))
	for i, set := range sets {
		errs[i] = make([]error, len(set))
		for j, f := range set {
			if !f.closed {
				errs[i][j] = f.Close()
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i, set := range sets {
		commitSetLocked(set, errs[i])
	}
	return errs
}

// commitSetLocked commits one set; errs holds the errors of Close.
func commitSetLocked(set []*File, errs []error) {
	for j, f := range set {
		if errs[j] == nil {
			errs[j] = f.checkLocked()
		}
	}
	failed := -1
	for j := range set {
		if errs[j] != nil {
			failed = j
			break
		}
	}
	// New files first: undoing one is removing it.
	order := make([]int, 0, len(set))
	for pass := 0; pass < 2 && failed < 0; pass++ {
		for j, f := range set {
			if (f.old == nil) == (pass == 0) {
				order = append(order, j)
			}
		}
	}
	var placed []int
	for _, j := range order {
		if errs[j] = set[j].placeLocked(len(set) > 1); errs[j] != nil {
			failed = j
			break
		}
		placed = append(placed, j)
	}
	if failed >= 0 {
		for k := len(placed) - 1; k >= 0; k-- {
			if set[placed[k]].undoLocked() != nil {
				// It could not be put back: it stays written, and says so.
				set[placed[k]].finishLocked()
			}
		}
		for j, f := range set {
			if errs[j] == nil && !f.done {
				errs[j] = &RefusedError{Path: f.path, Reason: "goes with " + set[failed].path +
					", which was not written: they are written together or not at all"}
			}
			if !f.done {
				f.abortLocked()
			}
		}
		return
	}
	for _, j := range placed {
		set[j].finishLocked()
	}
}

// checkLocked checks that the target is still what Create checked (not
// replaced by a symlink, a device or another file meanwhile), then runs
// Verify.
func (f *File) checkLocked() error {
	if interrupted || !pending[f] {
		return ErrInterrupted
	}
	if f.werr != nil {
		return f.werr
	}
	st, err := os.Lstat(f.target)
	switch {
	case f.old == nil && err == nil:
		return &RefusedError{Path: f.path, Reason: "was created by something else while mcplint wrote it"}
	case f.old == nil && !errors.Is(err, fs.ErrNotExist):
		return err
	case f.old != nil && err != nil:
		return &RefusedError{Path: f.path, Reason: "was removed or moved while mcplint wrote it"}
	case f.old != nil && !os.SameFile(st, f.old):
		return &RefusedError{Path: f.path, Reason: "was replaced by another file while mcplint wrote it"}
	case f.old != nil:
		if why := Writable(st); why != "" {
			return &RefusedError{Path: f.path, Reason: why}
		}
	}
	if f.opts.Verify != nil {
		if err := f.opts.Verify(f.target); err != nil {
			return err
		}
	}
	return nil
}

// Seams for tests, which inject I/O errors into the commit.
var (
	link   = os.Link
	rename = os.Rename
)

// placeLocked puts the new contents in place. A new file is linked (the
// link fails when the name exists: a file created in the last instant is
// not replaced; filesystems without hard links rename), and its temporary
// name kept until finishLocked, so that undoLocked removes only this file.
// With keep, a replaced file's old contents are first linked to a
// temporary name, for undoLocked.
func (f *File) placeLocked(keep bool) error {
	if f.old == nil {
		if err := link(f.tmpName, f.target); err == nil {
			f.linked = true
		} else if errors.Is(err, fs.ErrExist) {
			return &RefusedError{Path: f.path, Reason: "was created by something else while mcplint wrote it"}
		} else if err := rename(f.tmpName, f.target); err != nil {
			return err
		}
		return nil
	}
	if keep {
		dir, base := filepath.Split(f.target)
		backup := filepath.Join(dir, tempName(base))
		if link(f.target, backup) == nil {
			f.backup = backup
		}
	}
	if err := rename(f.tmpName, f.target); err != nil {
		f.dropBackup()
		return err
	}
	return nil
}

// undoLocked takes back a placed file: a new file is removed (when it is
// still the one linked), a replaced one gets its old contents back. It
// fails when that is not possible (a filesystem without hard links).
func (f *File) undoLocked() error {
	if f.old == nil {
		if f.linked {
			a, errA := os.Lstat(f.target)
			b, errB := os.Lstat(f.tmpName)
			if errA != nil || errB != nil || !os.SameFile(a, b) {
				return fmt.Errorf("%s is no longer the file mcplint created", f.path)
			}
		}
		return os.Remove(f.target)
	}
	if f.backup == "" {
		return fmt.Errorf("%s has no copy of its old contents", f.path)
	}
	if err := rename(f.backup, f.target); err != nil {
		return err
	}
	f.backup = ""
	return nil
}

// finishLocked ends a commit that stays: the temporary names go.
func (f *File) finishLocked() {
	if f.linked {
		_ = os.Remove(f.tmpName)
	}
	f.dropBackup()
	f.done = true
	delete(pending, f)
	written = append(written, f.path)
}

func (f *File) dropBackup() {
	if f.backup != "" {
		_ = os.Remove(f.backup)
		f.backup = ""
	}
}

// WriteFile writes data to path through Create, Write and Commit.
func WriteFile(path string, data []byte, opts Options) error {
	f, err := Create(path, opts)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// Interrupt removes every temporary file of this process and makes every
// later Create and Commit fail with ErrInterrupted. It waits for a batch of
// commits in progress, and returns the files written so far (as given), so
// that the caller can say exactly what changed before it exits.
func Interrupt() []string {
	mu.Lock()
	defer mu.Unlock()
	interrupted = true
	for f := range pending {
		delete(pending, f)
		_ = os.Remove(f.tmpName)
	}
	return append([]string(nil), written...)
}

// Reset forgets an Interrupt and the files written (tests run several
// commands in one process).
func Reset() {
	mu.Lock()
	defer mu.Unlock()
	interrupted = false
	written = nil
	swept = map[string]bool{}
}
