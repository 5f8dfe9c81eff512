package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
)

// cacheDirName is the cache folder's name at the scan root (ruff's
// .ruff_cache convention).
const cacheDirName = ".mcplint_cache"

// openCache returns the run's cache: nil with --no-cache; else in
// --cache-dir, $MCPLINT_CACHE_DIR, or .mcplint_cache in the scan root (in
// the working directory when there are several roots, the root is a file,
// or for the pre-commit hook, whose roots change with each commit).
func openCache(paths []string, f *checkFlags) *engine.Cache {
	if f.noCache {
		return nil
	}
	dir := f.cacheDir
	if dir == "" {
		dir = os.Getenv("MCPLINT_CACHE_DIR")
	}
	if dir == "" {
		dir = cacheDirName
		if len(paths) == 1 && !f.cacheAtTop {
			if st, err := os.Stat(paths[0]); err == nil && st.IsDir() {
				dir = filepath.Join(paths[0], cacheDirName)
			}
		}
	}
	return engine.NewCache(engine.CacheOptions{Dir: dir, Version: cacheVersion()})
}

// cacheVersion identifies the build for the cache: a release by its
// version and commit; a build with no commit, or from a modified checkout,
// also by the binary's size and modification time (a rebuild with other
// rules must not reuse the findings of the last).
func cacheVersion() string {
	b := readBuildInfo()
	v := strings.Join([]string{b.version, b.commit, b.goVersion, b.platform}, " ")
	if b.commit == "" || strings.HasSuffix(b.commit, "-dirty") {
		exe, err := os.Executable()
		if err != nil {
			return v + " unknown-binary"
		}
		st, err := os.Stat(exe)
		if err != nil {
			return v + " unknown-binary"
		}
		v += fmt.Sprintf(" %s %d %d", exe, st.Size(), st.ModTime().UnixNano())
	}
	return v
}

// printCacheNotes says on stderr what the cache had to say.
func printCacheNotes(w io.Writer, c *engine.Cache) {
	for _, n := range c.Notes() {
		fmt.Fprintf(w, "mcplint: note: %s\n", escape.Visible(n))
	}
}
