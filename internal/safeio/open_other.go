//go:build !unix

package safeio

const openFlags = 0
