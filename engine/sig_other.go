//go:build !linux && !darwin

package engine

import "io/fs"

// sysSig has nothing to add where the change time and inode are not known
// (the size, the modification time and the racy-file rule remain).
func sysSig(st fs.FileInfo, s *fileSig) {}
