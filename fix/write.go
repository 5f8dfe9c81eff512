package fix

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/mcplint/mcplint/internal/safeio"
	"github.com/mcplint/mcplint/internal/safewrite"
)

// Stamp is what a file held when the fixer read it: the fixes were computed
// from these bytes.
type Stamp struct {
	Size    int64
	ModTime time.Time
	Sum     [sha256.Size]byte
}

// stampOf stamps the contents b read from path.
func stampOf(path string, b []byte) (*Stamp, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	// The size is that of the bytes read: a file that grew since then
	// already differs.
	return &Stamp{Size: int64(len(b)), ModTime: st.ModTime(), Sum: sha256.Sum256(b)}, nil
}

// errChanged is the reason a file that changed since it was read is not
// written.
var errChanged = errors.New("not written: it changed since mcplint read it, and the change is kept (run mcplint again)")

// unchanged returns errChanged unless the file at path still has the
// size, modification time and contents of the stamp.
func (s *Stamp) unchanged(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return errChanged
	}
	if st.Size() != s.Size || !st.ModTime().Equal(s.ModTime) {
		return errChanged
	}
	// Only a regular file, and no more than the size it had: a longer one
	// has changed.
	b, err := safeio.ReadFile(path, safeio.Kind{Name: "fixed files", Max: s.Size})
	if err != nil || sha256.Sum256(b) != s.Sum {
		return errChanged
	}
	return nil
}

// WriteResult is what Write did.
type WriteResult struct {
	Written    []string  // files rewritten, in order
	NotWritten []Failure // files left as they are, and why
	// Failed is set when an I/O error (a full disk, a folder that cannot
	// be written) or an interrupt stopped the writes, as opposed to files
	// refused one by one (read-only, changed since read, ...).
	Failed bool
	// Interrupted is set when a signal stopped the writes (safewrite's
	// Interrupt): the signal handler says what was written.
	Interrupted bool
}

// beforeCommit, when set (by tests), runs after every temporary file is
// written and right before a file's last check and rename.
var beforeCommit func(path string)

// create is safewrite.Create but for tests, which inject I/O errors.
var create = safewrite.Create

// Write writes the changed files of o and returns what it wrote. A file a
// fix creates is written only when nothing exists at its path. A file is
// not written, and the others still are, when it is outside the scanned
// roots once symlinks are resolved, not a regular file, read-only for its
// owner, hard-linked, owned by someone whose ownership cannot be kept, or
// when it changed since it was read (checked right before its rename, so
// that an edit saved during the run is kept). The new contents of every file
// are written to temporary files first and renamed over their files only
// when all are written: an I/O error (a full disk) leaves every file as it
// was. The files one fix changes (FileResult.With: the guard module and the
// modules that import it) are written all or none: one of them refused, or
// changed since read, or failing to rename, leaves every other as it was.
// Files not written move from o.Files to o.Failures, so that the summary
// reports only what is on disk.
func Write(o *Outcome) *WriteResult {
	r := &WriteResult{}
	var files []*FileResult
	var pending []*safewrite.File
	notWritten := func(f *FileResult, reason string) {
		r.NotWritten = append(r.NotWritten, Failure{f.Path, reason})
	}
	targets := map[string]string{}
	var failed error
	var failedAt string
	for _, f := range o.Files {
		if failed != nil {
			notWritten(f, fmt.Sprintf("not written: writing %s failed, so no file was rewritten", failedAt))
			continue
		}
		target, reason := inside(o.Roots, f.Path, f.Created)
		if reason != "" {
			notWritten(f, reason)
			continue
		}
		if prev, ok := targets[target]; ok {
			notWritten(f, fmt.Sprintf("not written: it is the same file as %s (a link to it), fixed through that name", prev))
			continue
		}
		targets[target] = f.Path
		if f.Stamp == nil && !f.Created {
			notWritten(f, "not written: its contents were not read from disk")
			continue
		}
		stamp, path := f.Stamp, f.Path
		// A file a fix creates must still not exist: safewrite checks that
		// last, and links it into place so that it never replaces one.
		w, err := create(f.Path, safewrite.Options{MustExist: !f.Created, MustBeNew: f.Created, Verify: func(target string) error {
			if beforeCommit != nil {
				beforeCommit(path)
			}
			if stamp == nil {
				return nil
			}
			return stamp.unchanged(target)
		}})
		if err == nil {
			if _, err = w.Write(f.New); err == nil {
				err = w.Close()
			}
			if err != nil {
				w.Abort()
			}
		}
		var refused *safewrite.RefusedError
		switch {
		case errors.As(err, &refused):
			notWritten(f, "not written: it "+refused.Reason)
		case err != nil:
			failed, failedAt = err, f.Path
			r.Interrupted = errors.Is(err, safewrite.ErrInterrupted)
			notWritten(f, "not written: "+err.Error())
		default:
			files = append(files, f)
			pending = append(pending, w)
		}
	}
	if failed != nil {
		r.Failed = true
		for i, w := range pending {
			w.Abort()
			notWritten(files[i], fmt.Sprintf("not written: writing %s failed, so no file was rewritten", failedAt))
		}
	} else {
		// The files one fix changes are committed as a set: all or none.
		var sets [][]*safewrite.File
		var setFiles [][]*FileResult
		for _, idx := range writeSets(files) {
			if idx.missing != "" {
				for _, i := range idx.files {
					pending[i].Abort()
					notWritten(files[i], "not written: it goes with "+idx.missing+", which is not written (one fix changes both, "+
						"so they are written together or not at all)")
				}
				continue
			}
			var set []*safewrite.File
			var fs []*FileResult
			for _, i := range idx.files {
				set, fs = append(set, pending[i]), append(fs, files[i])
			}
			sets, setFiles = append(sets, set), append(setFiles, fs)
		}
		for k, errs := range safewrite.CommitSets(sets) {
			for i, err := range errs {
				f := setFiles[k][i]
				var refused *safewrite.RefusedError
				switch {
				case err == nil:
					r.Written = append(r.Written, f.Path)
				case errors.Is(err, errChanged):
					notWritten(f, err.Error())
				case errors.As(err, &refused):
					notWritten(f, "not written: it "+refused.Reason)
				default:
					r.Failed = true
					r.Interrupted = r.Interrupted || errors.Is(err, safewrite.ErrInterrupted)
					notWritten(f, "not written: "+err.Error())
				}
			}
		}
		sort.Strings(r.Written)
	}
	// In path order, the cause of a failure first.
	sort.SliceStable(r.NotWritten, func(i, j int) bool {
		a, b := r.NotWritten[i], r.NotWritten[j]
		if (a.Path == failedAt) != (b.Path == failedAt) {
			return a.Path == failedAt
		}
		return a.Path < b.Path
	})
	o.drop(r.NotWritten)
	return r
}

// writeSet is the indices (into the files ready to commit) of files that
// fixes change together; missing names one of their files that will not be
// written (refused before the commit), when there is one.
type writeSet struct {
	files   []int
	missing string
}

// writeSets groups the files ready to commit by FileResult.With, in order.
func writeSets(files []*FileResult) []writeSet {
	ready := map[string]int{}
	for i, f := range files {
		ready[f.Path] = i
	}
	var out []writeSet
	seen := map[int]bool{}
	for i, f := range files {
		if seen[i] {
			continue
		}
		set := writeSet{files: []int{i}}
		seen[i] = true
		// With is symmetric and lists the whole set.
		for _, p := range f.With {
			j, ok := ready[p]
			switch {
			case ok && !seen[j]:
				seen[j] = true
				set.files = append(set.files, j)
			case !ok && set.missing == "":
				set.missing = p // refused, or not in the outcome
			}
		}
		sort.Ints(set.files)
		out = append(out, set)
	}
	return out
}

// drop moves the files not written from o.Files to o.Failures.
func (o *Outcome) drop(nw []Failure) {
	if len(nw) == 0 {
		return
	}
	skip := map[string]bool{}
	for _, f := range nw {
		skip[f.Path] = true
	}
	kept := o.Files[:0]
	for _, f := range o.Files {
		if skip[f.Path] {
			o.Fixed -= f.Fixed
		} else {
			kept = append(kept, f)
		}
	}
	o.Files = kept
	o.Failures = append(o.Failures, nw...)
}

// inside returns the file path resolves to, or why it is not written: it
// must be inside one of roots once every symlink is resolved (a symlink in
// the scanned tree must not make --fix change a file elsewhere). For a file
// to create, its folder is checked.
func inside(roots []string, path string, create bool) (string, string) {
	p := filepath.FromSlash(path)
	if create {
		p = filepath.Dir(p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return "", "not written: " + err.Error()
	}
	if create {
		real = filepath.Join(real, filepath.Base(path))
	}
	for _, root := range roots {
		if safeio.Within(filepath.FromSlash(root), p) == nil {
			return real, ""
		}
	}
	return "", fmt.Sprintf("not written: it resolves to %s, outside the scanned %s", real, plural(len(roots), "root", "roots"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
