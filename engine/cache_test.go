package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

// cacheTree is two projects with findings, a PEP 723 script, a file with a
// suppression and one with an unused one.
func cacheTree(t *testing.T) string {
	return testfs.Write(t, map[string]string{
		"a/requirements.txt": "mcp==1.26.0\n",
		"a/server.py":        offloadServer,
		"a/helpers.py":       "def work(): return 1\n",
		"a/quiet.py":         "from mcp.server.fastmcp import FastMCP\nimport anyio\nmcp = FastMCP('q')\n\n@mcp.tool()\nasync def q():\n    return await anyio.to_thread.run_sync(print)  # mcplint: ignore[MCP101] fast\n",
		"b/pyproject.toml":   "[project]\nname='b'\ndependencies=['mcp==1.25.0']\n",
		"b/server.py":        offloadServer,
		"b/helpers.py":       "def work(): return 1  # noqa: MCP104\n",
		"tool.py":            "# /// script\n# dependencies = ['mcp==1.26.0']\n# ///\n" + offloadServer,
	})
}

// cacheOpts are the options of the cache tests: every rule, and a cache in
// dir with its key in keyDir.
func cacheOpts(dir, keyFile string) Options {
	return Options{Jobs: 2, Rules: rules.All(), Cache: NewCache(CacheOptions{Dir: dir, Version: "test", KeyFile: keyFile}),
		Processors: []Processor{}}
}

// fingerprint is everything a renderer reads of a result.
func fingerprint(t *testing.T, res *Result) string {
	t.Helper()
	type proj struct {
		P    *ProjectSummary
		Deps string
	}
	var ps []proj
	for _, p := range res.Projects {
		ps = append(ps, proj{p, p.Deps().Describe("mcp")})
	}
	srcs := map[string]string{}
	for _, d := range res.Diagnostics {
		srcs[d.Path] = string(res.Source(d.Path))
	}
	b, err := json.Marshal(struct {
		D       []rules.Diagnostic
		P       []proj
		Parsed  int
		Files   int
		Sources map[string]string
	}{res.Diagnostics, ps, res.Parsed, res.Files, srcs})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cacheRun runs on root (from inside it, as the CLI does) and compares with
// a run without a cache.
func cacheRun(t *testing.T, root string, opts Options) *Result {
	t.Helper()
	t.Chdir(root)
	res := run(t, []string{"."}, opts)
	plain := opts
	plain.Cache = nil
	want := run(t, []string{"."}, plain)
	sameResult(t, res, want)
	return res
}

// sameResult fails the test when two results would render differently.
// The comments kept for the suppression stage may differ only where one
// result has none for a file (the stage then lexes the file itself).
func sameResult(t *testing.T, got, want *Result) {
	t.Helper()
	if g, w := fingerprint(t, got), fingerprint(t, want); g != w {
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		t.Fatalf("the cached run differs from a run without the cache, at byte %d:\n got ...%s\nwant ...%s", i, excerpt(g, i), excerpt(w, i))
	}
	for p, wc := range want.Comments {
		if gc, ok := got.Comments[p]; ok && fmt.Sprint(gc) != fmt.Sprint(wc) {
			t.Fatalf("comments of %s: %v, want %v", p, gc, wc)
		}
	}
}

func excerpt(s string, i int) string {
	return s[max(i-80, 0):min(i+80, len(s))]
}

// later makes the runs of f start late enough that files written now are
// no longer "racy": their stat signatures are trusted.
func later(t *testing.T) {
	old := now
	now = func() time.Time { return old().Add(time.Minute) }
	t.Cleanup(func() { now = old })
}

func TestCacheWarmRunParsesNothing(t *testing.T) {
	root := cacheTree(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	cold := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	if len(cold.Diagnostics) < 5 {
		t.Fatalf("%d findings: the tree tests too little", len(cold.Diagnostics))
	}
	if cold.Analysed != 3 || cold.Reused != 0 || cold.ParsedNow == 0 {
		t.Fatalf("cold run: %d analysed, %d reused, %d parsed; want 3 projects analysed (a, b, the script)", cold.Analysed, cold.Reused, cold.ParsedNow)
	}
	for _, name := range []string{"CACHEDIR.TAG", ".gitignore"} {
		if _, err := os.Lstat(filepath.Join(root, ".mcplint_cache", name)); err != nil {
			t.Errorf("cache folder: %v", err)
		}
	}
	if got := testfs.Read(t, filepath.Join(root, ".mcplint_cache", ".gitignore")); !strings.Contains(got, "\n*\n") {
		t.Errorf(".gitignore = %q, want a line *", got)
	}
	// Racy (just written) and trusted (stat unchanged) files alike.
	for _, l := range []bool{false, true} {
		if l {
			later(t)
			cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)) // records trusted signatures
		}
		warm := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
		if warm.Analysed != 0 || warm.Reused != 3 || warm.ParsedNow != 0 {
			t.Fatalf("warm run (trusted stats: %v): %d analysed, %d reused, %d parsed; want 3 reused, nothing parsed", l, warm.Analysed, warm.Reused, warm.ParsedNow)
		}
	}
}

func TestCacheEditsBetweenRuns(t *testing.T) {
	root := cacheTree(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	later(t)
	cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	// Same-size edits with the modification time set back: only the
	// change time (and the hash) can tell.
	edits := []struct{ path, old, new string }{
		{"a/server.py", "run_sync(work)", "run_sync(len) "},
		{"a/helpers.py", "return 1", "return 2"},
		{"b/server.py", "async def t", "async def u"},
		{"b/pyproject.toml", "mcp==1.25.0", "mcp==2.0.00"},
		{"a/requirements.txt", "mcp==1.26.0", "mcp==2.00.0"},
		{"a/quiet.py", "ignore[MCP101] fast", "ignore[MCP104] fast"},
		{"tool.py", "mcp==1.26.0", "mcp==2.0.0 "},
	}
	for _, ed := range edits {
		full := filepath.Join(root, filepath.FromSlash(ed.path))
		st, err := os.Stat(full)
		if err != nil {
			t.Fatal(err)
		}
		src := testfs.Read(t, full)
		if len(ed.old) != len(ed.new) {
			t.Fatalf("%s: not a same-size edit", ed.path)
		}
		if !strings.Contains(src, ed.old) {
			t.Fatalf("%s: no %q", ed.path, ed.old)
		}
		if err := os.WriteFile(full, []byte(strings.Replace(src, ed.old, ed.new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(full, st.ModTime(), st.ModTime()); err != nil {
			t.Fatal(err)
		}
		res := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
		if res.Analysed != 1 || res.Reused != 2 {
			t.Errorf("after editing %s: %d projects analysed, %d reused; want 1 analysed", ed.path, res.Analysed, res.Reused)
		}
	}
	// A file added, a file removed.
	if err := os.WriteFile(filepath.Join(root, "b", "extra.py"), []byte("import server\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)); res.Analysed != 1 {
		t.Errorf("after adding a file: %d projects analysed, want 1", res.Analysed)
	}
	if err := os.Remove(filepath.Join(root, "a", "helpers.py")); err != nil {
		t.Fatal(err)
	}
	if res := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)); res.Analysed != 1 {
		t.Errorf("after removing a file: %d projects analysed, want 1", res.Analysed)
	}
}

// An included requirements file outside the project is read by its
// analysis: a change to it must be seen.
func TestCacheIncludedFileChanges(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"svc/requirements.txt": "-r ../common/base.txt\n",
		"svc/server.py":        offloadServer,
		"svc/helpers.py":       "def work(): return 1\n",
		"common/base.txt":      "mcp==1.26.0\n",
	})
	keyFile := filepath.Join(t.TempDir(), "key")
	cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	if err := os.WriteFile(filepath.Join(root, "common", "base.txt"), []byte("mcp==2.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	if res.Reused != 0 {
		t.Errorf("a project whose include changed was taken from the cache")
	}
}

func TestCacheConfigurationChanges(t *testing.T) {
	root := cacheTree(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	variants := []func(*Options){
		func(o *Options) {},
		func(o *Options) { o.Rules = []*rules.Rule{rules.Lookup("MCP101")} },
		func(o *Options) { o.Rules = []*rules.Rule{rules.Lookup("MCP001")} },
		func(o *Options) { o.AssumeMCP = "1.20.0" },
		func(o *Options) { o.ReportUnreachable = true },
		func(o *Options) { o.HandlerDecorators = []string{"x.y"} },
		func(o *Options) { o.ShowSafe = true },
		func(o *Options) { l := DefaultLimits; l.Parse.Nodes = 20; o.Limits = &l },
		func(o *Options) {},
	}
	for i, v := range variants {
		opts := cacheOpts(".mcplint_cache", keyFile)
		v(&opts)
		res := cacheRun(t, root, opts)
		if i == len(variants)-1 && res.Reused != 3 {
			t.Errorf("back to the first configuration: %d reused, want 4", res.Reused)
		}
	}
}

// A damaged, truncated, foreign (another key) or planted cache is ignored
// with a note and rebuilt; never an error, never a wrong result.
func TestCacheDamagedOrForeign(t *testing.T) {
	root := cacheTree(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	files, _ := filepath.Glob(filepath.Join(root, ".mcplint_cache", "run-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files: %v", files)
	}
	cf := files[0]
	good, err := os.ReadFile(cf)
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func([]byte) []byte{
		"byte flipped in the payload": func(b []byte) []byte { b[len(b)-10] ^= 0x40; return b },
		"byte flipped in the MAC":     func(b []byte) []byte { b[12] ^= 1; return b },
		"byte flipped in the magic":   func(b []byte) []byte { b[0] ^= 1; return b },
		"truncated":                   func(b []byte) []byte { return b[:len(b)/2] },
		"truncated to nothing":        func(b []byte) []byte { return nil },
		"garbage":                     func(b []byte) []byte { return []byte(strings.Repeat("x", 100)) },
	}
	for name, f := range damage {
		if err := os.WriteFile(cf, f(append([]byte(nil), good...)), 0o644); err != nil {
			t.Fatal(err)
		}
		opts := cacheOpts(".mcplint_cache", keyFile)
		res := cacheRun(t, root, opts)
		if res.Reused != 0 {
			t.Errorf("%s: %d projects reused", name, res.Reused)
		}
		if notes := opts.Cache.Notes(); len(notes) != 1 || !strings.Contains(notes[0], "rebuilt") {
			t.Errorf("%s: notes %q, want one saying the cache was rebuilt", name, notes)
		}
		if res := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)); res.Reused != 3 {
			t.Errorf("%s: the rebuilt cache was not used (%d reused)", name, res.Reused)
		}
	}
	// A cache written with another key (another user, another machine, a
	// repository that ships one) is not trusted, even if its entries
	// match the contents: they could claim anything.
	opts := cacheOpts(".mcplint_cache", filepath.Join(t.TempDir(), "other-key"))
	if res := cacheRun(t, root, opts); res.Reused != 0 {
		t.Errorf("a cache under another key was used")
	}
	if notes := opts.Cache.Notes(); len(notes) != 1 {
		t.Errorf("foreign cache: notes %q, want one", notes)
	}
}

// A planted cache whose entry claims no findings for the project's real
// contents: without the key, it cannot pass.
func TestCachePlantedEntryIsNotUsed(t *testing.T) {
	root := cacheTree(t)
	attacker := filepath.Join(t.TempDir(), "attacker-key")
	// The attacker computes the entries for the real contents with its own
	// key, then empties them.
	opts := cacheOpts(".mcplint_cache", attacker)
	t.Chdir(root)
	run(t, []string{"."}, opts)
	st := opts.Cache.state(opts.Cache.onlyDigest(t))
	for _, pe := range st.Projects {
		pe.Diags = nil
	}
	opts.Cache.save(opts.Cache.onlyDigest(t), st)
	victim := cacheOpts(".mcplint_cache", filepath.Join(t.TempDir(), "key"))
	res := cacheRun(t, root, victim)
	if res.Reused != 0 {
		t.Fatalf("the planted cache was used")
	}
}

// onlyDigest returns the digest of the one configuration a cache holds.
func (c *Cache) onlyDigest(t *testing.T) string {
	t.Helper()
	if len(c.states) != 1 {
		t.Fatalf("%d configurations", len(c.states))
	}
	for d := range c.states {
		return d
	}
	return ""
}

// A cache folder that cannot be written, or that is a symlink or a file,
// is a note; the symlink is never followed.
func TestCacheUnwritableOrSymlinked(t *testing.T) {
	root := cacheTree(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, ".mcplint_cache")); err != nil {
		t.Fatal(err)
	}
	opts := cacheOpts(".mcplint_cache", keyFile)
	cacheRun(t, root, opts)
	if notes := opts.Cache.Notes(); len(notes) == 0 || !strings.Contains(strings.Join(notes, "\n"), "symlink") {
		t.Errorf("symlinked cache folder: notes %q", notes)
	}
	if left, _ := os.ReadDir(outside); len(left) != 0 {
		t.Errorf("the symlink was followed: %d files written in its target", len(left))
	}
	for name, dir := range map[string]string{
		"under a file":   "tool.py/cache",
		"a file":         "a/server.py",
		"missing parent": "no/such/folder",
	} {
		opts := cacheOpts(dir, keyFile)
		cacheRun(t, root, opts)
		if notes := opts.Cache.Notes(); len(notes) == 0 {
			t.Errorf("%s: no note", name)
		}
	}
	// A planted symlink in place of the cache file is replaced, not
	// followed.
	target := filepath.Join(outside, "victim")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, ".mcplint_cache")); err != nil {
		t.Fatal(err)
	}
	opts = cacheOpts(".mcplint_cache", keyFile)
	cacheRun(t, root, opts)
	files, _ := filepath.Glob(filepath.Join(root, ".mcplint_cache", "run-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files: %v", files)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, files[0]); err != nil {
		t.Fatal(err)
	}
	cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	if got := testfs.Read(t, target); got != "keep" {
		t.Errorf("the cache was written through a planted symlink: %q", got)
	}
}

// Runs that share a cache in memory (the fix rounds) analyse again only the
// project whose file the overlay changes.
func TestCacheInMemoryOverlay(t *testing.T) {
	root := cacheTree(t)
	t.Chdir(root)
	opts := Options{Jobs: 2, Rules: rules.All(), Cache: NewCache(CacheOptions{})}
	first := run(t, []string{"."}, opts)
	if first.Analysed != 3 {
		t.Fatalf("first run: %d analysed", first.Analysed)
	}
	opts.Overlay = map[string][]byte{"b/helpers.py": []byte("def work(): return 3\n")}
	res := run(t, []string{"."}, opts)
	if res.Analysed != 1 || res.Reused != 2 {
		t.Errorf("with one file changed in memory: %d analysed, %d reused; want 1, 2", res.Analysed, res.Reused)
	}
	plain := opts
	plain.Cache = nil
	sameResult(t, res, run(t, []string{"."}, plain))
	if _, err := os.Lstat(".mcplint_cache"); err == nil {
		t.Errorf("an in-memory cache wrote a cache folder")
	}
}

func TestFileSigTrusted(t *testing.T) {
	start := time.Unix(1000, 0)
	old := start.Add(-time.Hour).UnixNano()
	for _, c := range []struct {
		sig  fileSig
		want bool
	}{
		{fileSig{Mtime: old, Ctime: old}, true},
		{fileSig{Mtime: start.Add(-time.Second).UnixNano(), Ctime: old}, false}, // changed just before the run
		{fileSig{Mtime: old, Ctime: start.UnixNano()}, false},                   // mtime set back, ctime is now
		{fileSig{Mtime: start.Add(time.Second).UnixNano(), Ctime: old}, false},  // changed during the run
		{fileSig{}, false},
	} {
		if got := c.sig.trusted(start); got != c.want {
			t.Errorf("%+v trusted = %v, want %v", c.sig, got, c.want)
		}
	}
}

// The fixes follow style files found above the project (a parent folder's
// ruff.toml, deps' style search): one created after a cached run makes the
// next run analyse the project again, since the search asked for it and
// the cache recorded that it was missing.
func TestCacheSeesAStyleFileCreatedAboveTheProject(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"svc/requirements.txt": "mcp==1.26.0\n",
		"svc/helpers.py":       "def work(): return 1\n",
		"svc/server.py": strings.Replace(offloadServer, "anyio.to_thread.run_sync(work)",
			"anyio.to_thread.run_sync(work, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)", 1),
	})
	keyFile := filepath.Join(t.TempDir(), "key")
	edits := func(res *Result) string {
		var out []string
		for _, d := range res.Diagnostics {
			for _, f := range d.Fixes {
				for _, e := range f.Edits {
					out = append(out, e.New)
				}
			}
		}
		return strings.Join(out, "|")
	}
	before := edits(cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)))
	if err := os.WriteFile(filepath.Join(root, "ruff.toml"), []byte("line-length = 40\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	after := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	if edits(after) == before {
		t.Fatalf("the fixes did not change with the line length: %s", before)
	}
	if after.Analysed != 1 {
		t.Errorf("%d projects analysed, want the one whose style changed", after.Analysed)
	}
}

// Projects under one folder share its style files: a warm run checks each
// once (runner.extraRecord) and reuses every project, and a change to the
// shared file makes the next run analyse every project that read it.
func TestCacheSharedStyleFileAboveProjects(t *testing.T) {
	long := strings.Replace(offloadServer, "anyio.to_thread.run_sync(work)",
		"anyio.to_thread.run_sync(work, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)", 1)
	root := testfs.Write(t, map[string]string{
		"ruff.toml":              "line-length = 120\n",
		"svc/a/requirements.txt": "mcp==1.26.0\n",
		"svc/a/helpers.py":       "def work(): return 1\n",
		"svc/a/server.py":        long,
		"svc/b/requirements.txt": "mcp==1.26.0\n",
		"svc/b/helpers.py":       "def work(): return 1\n",
		"svc/b/server.py":        long,
	})
	keyFile := filepath.Join(t.TempDir(), "key")
	if cold := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)); cold.Analysed != 2 {
		t.Fatalf("cold run: %d projects analysed, want 2", cold.Analysed)
	}
	if warm := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)); warm.Analysed != 0 || warm.Reused != 2 {
		t.Fatalf("warm run: %d analysed, %d reused; want both reused", warm.Analysed, warm.Reused)
	}
	if err := os.WriteFile(filepath.Join(root, "ruff.toml"), []byte("line-length = 40\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if after := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)); after.Analysed != 2 || after.Reused != 0 {
		t.Errorf("after the shared ruff.toml changed: %d analysed, %d reused; want both analysed again", after.Analysed, after.Reused)
	}
}

// Runs on other roots share the entries of the projects they have in
// common; a root that is a file inside a project (its code unseen) is a
// project of another key.
func TestCacheAcrossRoots(t *testing.T) {
	root := cacheTree(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	t.Chdir(root)
	for i, roots := range [][]string{{"."}, {"a", "b"}, {"a"}, {"a/server.py"}, {"a/requirements.txt", "b"}, {"."}} {
		opts := cacheOpts(filepath.Join(root, "cache"), keyFile)
		res := run(t, roots, opts)
		plain := opts
		plain.Cache = nil
		sameResult(t, res, run(t, roots, plain))
		switch i {
		case 1: // the folder includes must stay in is now each project's own
			if res.Analysed != 2 || res.Reused != 0 {
				t.Errorf("roots %v: %d analysed, %d reused; want a and b analysed", roots, res.Analysed, res.Reused)
			}
		case 2, 5:
			if res.Analysed != 0 {
				t.Errorf("roots %v: %d projects analysed again, want every one reused", roots, res.Analysed)
			}
		case 3:
			if res.Reused != 0 {
				t.Errorf("roots %v: a project whose code the run does not see was taken from the cache", roots)
			}
		}
	}
}

// TestKeyCreatedOnce: processes that start at once with no key must all end
// up with the same key, the one in the file; otherwise the caches written by
// the first would read as forged to every later run (a rename let a second
// key replace one already in use).
func TestKeyCreatedOnce(t *testing.T) {
	for round := 0; round < 20; round++ {
		p := filepath.Join(t.TempDir(), "mcplint", "cache-key")
		const n = 16
		keys := make([][]byte, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				keys[i], errs[i] = loadKey(p)
			}(i)
		}
		wg.Wait()
		onDisk, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := range keys {
			if errs[i] != nil {
				t.Fatalf("round %d, caller %d: %v", round, i, errs[i])
			}
			if !bytes.Equal(keys[i], onDisk) {
				t.Fatalf("round %d: caller %d uses a key that is not the one kept in %s", round, i, p)
			}
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(p), ".tmp-*")); len(left) > 0 {
			t.Fatalf("temp files left: %v", left)
		}
	}
}

// cacheFiles returns the run files of a cache folder with their bytes.
func cacheFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "run-") {
			out[e.Name()] = testfs.Read(t, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// A warm run of an unchanged tree writes no cache file; an edit, or stamps
// half of keepUnused old, make the next run write it again.
func TestCacheWarmRunWritesNothing(t *testing.T) {
	root := cacheTree(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	dir := filepath.Join(root, ".mcplint_cache")
	cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	later(t)
	cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)) // records trusted signatures
	// backdate sets the cache files' mtime an hour back; written reports
	// whether a run has written one since.
	backdate := func() {
		for name := range cacheFiles(t, dir) {
			past := time.Now().Add(-time.Hour)
			if err := os.Chtimes(filepath.Join(dir, name), past, past); err != nil {
				t.Fatal(err)
			}
		}
	}
	written := func() bool {
		for name := range cacheFiles(t, dir) {
			if st, err := os.Stat(filepath.Join(dir, name)); err != nil || time.Since(st.ModTime()) < 30*time.Minute {
				return true
			}
		}
		return false
	}

	before := cacheFiles(t, dir)
	backdate()
	if warm := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)); warm.Analysed != 0 {
		t.Fatalf("warm run analysed %d projects", warm.Analysed)
	}
	if written() || fmt.Sprint(cacheFiles(t, dir)) != fmt.Sprint(before) {
		t.Errorf("a warm run of an unchanged tree wrote the cache")
	}

	// Stamps older than half of keepUnused: written again.
	old := now
	now = func() time.Time { return old().Add(keepUnused/2 + time.Hour) }
	cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	now = old
	if !written() {
		t.Errorf("a warm run with stamps %v old did not refresh them", keepUnused/2)
	}

	// An edit: written again.
	backdate()
	full := filepath.Join(root, "a", "server.py")
	if err := os.WriteFile(full, append([]byte(testfs.Read(t, full)), "\n# edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile)); res.Analysed == 0 {
		t.Fatalf("the edited project was not analysed again")
	}
	if !written() {
		t.Errorf("a run after an edit did not write the cache")
	}
}

// A content hash survives the cache file's encoding; one of another length
// fails the decoding (the file is then rebuilt), never a hash cut short.
func TestContentHashGob(t *testing.T) {
	in := readRecord{Path: "a.txt", Hash: sha256.Sum256([]byte("a"))}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(in); err != nil {
		t.Fatal(err)
	}
	var out readRecord
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil || out != in {
		t.Fatalf("decoded %+v, %v; want %+v", out, err, in)
	}
	for _, n := range []int{0, 31, 33} {
		h := contentHash{1}
		if err := h.GobDecode(make([]byte, n)); err == nil {
			t.Errorf("a %d-byte hash decoded as %x", n, h)
		}
	}
}

// A report of an analysis taken from the cache reads the versions without
// the formatter settings (Versions); Deps still reads them, for the fixes.
func TestCacheVersionsReadNoStyle(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"a/pyproject.toml": "[project]\nname='a'\ndependencies=['mcp==1.25.0']\n\n[tool.ruff]\nline-length = 100\n",
		"a/server.py":      offloadServer,
		"a/helpers.py":     "def work(): return 1\n",
	})
	keyFile := filepath.Join(t.TempDir(), "key")
	cold := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	warm := run(t, []string{"."}, cacheOpts(".mcplint_cache", keyFile)) // in root: cacheRun went there
	if len(cold.Projects) != 1 || len(warm.Projects) != 1 || warm.Reused != 1 {
		t.Fatalf("projects: cold %d, warm %d (%d reused); want 1 reused", len(cold.Projects), len(warm.Projects), warm.Reused)
	}
	c, w := cold.Projects[0], warm.Projects[0]
	if got := c.Versions().Style.LineLength; got != 100 {
		t.Errorf("analysed project: Versions is its Deps, line length %d, want 100", got)
	}
	if got := w.Versions().Style.LineLength; got != 0 {
		t.Errorf("cached project: Versions read the style (line length %d)", got)
	}
	if got, want := w.Versions().Describe("mcp"), c.Deps().Describe("mcp"); got != want || !strings.Contains(got, "==1.25.0") {
		t.Errorf("cached project: versions %q, want %q", got, want)
	}
	if got := w.Deps().Style.LineLength; got != 100 {
		t.Errorf("cached project: Deps line length %d, want 100 (the fixes read it)", got)
	}
}

// TestReusedEntryUnpacksItsHandlersOnce checks that a cache entry's
// handlers are unpacked once: an analysis reused from the memory cache
// (the fixer's rounds) gives the handlers its analysis found, and one read
// from the cache file the handlers its first reuse unpacked, each time; and
// that they are those of a run without the cache (cacheRun).
func TestReusedEntryUnpacksItsHandlersOnce(t *testing.T) {
	root := cacheTree(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	handlersOf := func(res *Result) map[string][]HandlerSummary {
		out := map[string][]HandlerSummary{}
		for _, p := range res.Projects {
			if len(p.Handlers) > 0 {
				out[p.Dir] = p.Handlers
			}
		}
		return out
	}
	same := func(what string, got, want map[string][]HandlerSummary) {
		t.Helper()
		if len(got) != 3 || len(got) != len(want) {
			t.Fatalf("%s: handlers of %d projects, want 3 (a, b and the script) as before (%d)", what, len(got), len(want))
		}
		for dir, hs := range want {
			if g := got[dir]; len(g) != len(hs) || &g[0] != &hs[0] {
				t.Errorf("%s: project %s's handlers were unpacked again", what, dir)
			}
		}
	}
	opts := cacheOpts("", keyFile) // in memory: the fixer's rounds
	first := cacheRun(t, root, opts)
	again := cacheRun(t, root, opts)
	if again.Reused != 3 {
		t.Fatalf("second run reused %d projects, want 3", again.Reused)
	}
	same("memory cache", handlersOf(again), handlersOf(first))
	// From the cache file: a new Cache reads it, then serves two runs.
	dir := filepath.Join(t.TempDir(), "cache")
	cacheRun(t, root, cacheOpts(dir, keyFile))
	opts = cacheOpts(dir, keyFile)
	warm := cacheRun(t, root, opts)
	if warm.Reused != 3 {
		t.Fatalf("warm run reused %d projects, want 3", warm.Reused)
	}
	same("cache file", handlersOf(cacheRun(t, root, opts)), handlersOf(warm))
}

// A warm run prints the versions its reports show from the cache entry: it
// reads no lock file that has no finding (here a 2 MB uv.lock, which a
// report parsed again for three versions), and its reports say what the
// cold run's said.
func TestCacheWarmRunReadsNoDependencyFile(t *testing.T) {
	var lock strings.Builder
	lock.WriteString("version = 1\nrequires-python = \">=3.10\"\n\n[[package]]\nname = \"a\"\nversion = \"0.1.0\"\nsource = { editable = \".\" }\ndependencies = [{ name = \"mcp\" }, { name = \"anyio\" }]\n\n[package.metadata]\nrequires-dist = [{ name = \"mcp\", specifier = \">=2,<3\" }, { name = \"anyio\", specifier = \">=4\" }]\n\n")
	lock.WriteString("[[package]]\nname = \"mcp\"\nversion = \"2.1.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n[[package]]\nname = \"anyio\"\nversion = \"4.9.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n")
	for i := 0; lock.Len() < 2<<20; i++ {
		fmt.Fprintf(&lock, "[[package]]\nname = \"filler-%d\"\nversion = \"1.0.%d\"\nsource = { registry = \"https://pypi.org/simple\" }\nsdist = { url = \"https://files.example/filler-%d.tar.gz\", hash = \"sha256:%x\", size = %d }\n\n", i, i, i, sha256.Sum256([]byte{byte(i), byte(i >> 8)}), 1000+i)
	}
	root := testfs.Write(t, map[string]string{
		"a/pyproject.toml": "[project]\nname='a'\ndependencies=['mcp>=2,<3', 'anyio>=4']\n",
		"a/uv.lock":        lock.String(),
		"a/server.py":      offloadServer,
		"a/helpers.py":     "def work(): return 1\n",
	})
	keyFile := filepath.Join(t.TempDir(), "key")
	later(t) // trusted signatures: the warm run hashes nothing again
	cold := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	if len(cold.Projects) != 1 || !strings.Contains(cold.Projects[0].Describe("mcp"), "==2.1.0 (uv.lock)") {
		t.Fatalf("cold run: %d projects, mcp %q; want one project with mcp locked in uv.lock", len(cold.Projects), cold.Projects[0].Describe("mcp"))
	}
	for _, d := range cold.Diagnostics {
		if d.Path == "a/uv.lock" || d.Path == "a/pyproject.toml" {
			t.Fatalf("a finding in %s (%s): its file is read for the finding, the test needs one without", d.Path, d.Code)
		}
	}
	var mu sync.Mutex
	reads := map[string]int{}
	t.Cleanup(func() { readDisk = ReadFile })
	readDisk = func(p string) ([]byte, error) {
		mu.Lock()
		reads[p]++
		mu.Unlock()
		return ReadFile(p)
	}
	warm := run(t, []string{"."}, cacheOpts(".mcplint_cache", keyFile))
	if warm.Reused != 1 || warm.Analysed != 0 {
		t.Fatalf("warm run: %d reused, %d analysed; want the project reused", warm.Reused, warm.Analysed)
	}
	// The project model reads pyproject.toml once (its workspaces and
	// packages decide what the projects are, before any cache lookup); the
	// reports read nothing.
	if reads["a/uv.lock"] != 0 || reads["a/pyproject.toml"] > 1 {
		t.Errorf("warm run read uv.lock %d times and pyproject.toml %d times, want 0 and at most 1 (the layout)", reads["a/uv.lock"], reads["a/pyproject.toml"])
	}
	c, w := cold.Projects[0], warm.Projects[0]
	for _, pkg := range []string{"mcp", "fastmcp", "anyio"} {
		if got, want := w.Describe(pkg), c.Describe(pkg); got != want {
			t.Errorf("warm run: %s %q, want %q", pkg, got, want)
		}
	}
	if got, want := fmt.Sprintf("%+v", w.VersionSources()), fmt.Sprintf("%+v", c.VersionSources()); got != want {
		t.Errorf("warm run: version sources %s, want %s", got, want)
	}
	if got, want := fmt.Sprintf("%q", w.DepNotes()), fmt.Sprintf("%q", c.DepNotes()); got != want {
		t.Errorf("warm run: notes %s, want %s", got, want)
	}
	if reads["a/uv.lock"] != 0 {
		return
	}
	// Deps, the whole reading (fixes), still reads the files when asked.
	if got := w.Deps().Describe("mcp"); got != c.Describe("mcp") {
		t.Errorf("warm run: Deps says mcp %q, want %q", got, c.Describe("mcp"))
	}
	if reads["a/uv.lock"] != 1 {
		t.Errorf("Deps read uv.lock %d times, want 1", reads["a/uv.lock"])
	}
}
