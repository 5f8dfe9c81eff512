//go:build unix

package safeio

import "syscall"

// openFlags: a named pipe opened for reading with O_NONBLOCK returns at
// once instead of waiting for a writer; on a regular file it changes nothing.
const openFlags = syscall.O_NONBLOCK
