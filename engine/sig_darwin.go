package engine

import (
	"io/fs"
	"syscall"
)

// sysSig adds the change time, inode and device to a signature: the change
// time moves on every write and cannot be set back, unlike the modification
// time.
func sysSig(st fs.FileInfo, s *fileSig) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		s.Ctime = sys.Ctimespec.Nano()
		s.Ino, s.Dev = sys.Ino, uint64(sys.Dev)
	}
}
