//go:build unix

package safewrite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// links is the number of hard links of a file.
func links(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 1
}

// keepOwner gives tmp the owner and group of old when they differ (root
// can; a user can change the group to one of theirs). A file whose owner
// cannot be kept is not replaced: the rename would hand it to whoever runs
// mcplint.
func keepOwner(tmp *os.File, old fs.FileInfo) error {
	want, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	st, err := tmp.Stat()
	if err != nil {
		return err
	}
	have, ok := st.Sys().(*syscall.Stat_t)
	if !ok || have.Uid == want.Uid && have.Gid == want.Gid {
		return nil
	}
	if err := tmp.Chown(int(want.Uid), int(want.Gid)); err != nil {
		return fmt.Errorf("is owned by %d:%d, which mcplint cannot keep (%v)", want.Uid, want.Gid, errors.Unwrap(err))
	}
	return nil
}

// alive tells whether a process with this PID runs (or may: a process of
// another user answers EPERM).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
