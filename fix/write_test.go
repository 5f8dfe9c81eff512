//go:build unix

package fix

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/safewrite"
	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/rules"
)

// server is a handler with a safe fix (a checkpoint after the offload).
const server = `from anyio import to_thread
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
async def work(n: int) -> int:
    return await to_thread.run_sync(sum, range(n))
`

// project writes a project whose a.py and b.py both get a safe fix, and
// runs the fixer on it (nothing written yet).
func project(t *testing.T) (string, *Outcome) {
	t.Helper()
	root := testfs.Write(t, map[string]string{"a.py": server, "b.py": server})
	return root, run(t, root)
}

func run(t *testing.T, roots ...string) *Outcome {
	t.Helper()
	out, err := Run(roots, engine.Options{AssumeMCP: "1.26.0"}, Mode{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) == 0 {
		t.Fatal("nothing to fix: the test needs a fixable project")
	}
	return out
}

// fixed tells whether the file at path holds the fixed contents.
func fixed(t *testing.T, path string) bool {
	return strings.Contains(testfs.Read(t, path), "checkpoint_if_cancelled")
}

// notWritten returns the reason path was not written ("" when it was).
func notWritten(r *WriteResult, path string) string {
	for _, f := range r.NotWritten {
		if f.Path == path {
			return f.Reason
		}
	}
	return ""
}

func TestWriteKeepsAnEditSavedDuringTheRun(t *testing.T) {
	root, out := project(t)
	a, b := filepath.Join(root, "a.py"), filepath.Join(root, "b.py")
	// The user saves a.py after the analysis read it, before the write.
	edited := server + "\n# edited while mcplint ran\n"
	if err := os.WriteFile(a, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Write(out)
	if got := testfs.Read(t, a); got != edited {
		t.Fatalf("the edit was lost: a.py holds\n%s", got)
	}
	if !strings.Contains(notWritten(r, a), "changed since mcplint read it") {
		t.Errorf("a.py: reason %q, want changed since read", notWritten(r, a))
	}
	if !fixed(t, b) || len(r.Written) != 1 || r.Written[0] != b || r.Failed {
		t.Errorf("written %v, failed %v: b.py must still be fixed", r.Written, r.Failed)
	}
	if len(out.Files) != 1 || out.Files[0].Path != b || len(out.Failures) != 1 {
		t.Errorf("outcome files %d failures %v: a.py must move to the failures", len(out.Files), out.Failures)
	}
	testfs.NoTemps(t, root)
}

// The check runs as late as it can: after every temporary file is written,
// right before the file's rename.
func TestWriteChecksRightBeforeTheRename(t *testing.T) {
	for _, edit := range []struct {
		name string
		do   func(path string) error
	}{
		{"same size, same mtime", func(p string) error {
			st, err := os.Stat(p)
			if err != nil {
				return err
			}
			b, _ := os.ReadFile(p)
			b[0] ^= 1 // one byte flipped, size kept, mtime put back
			if err := os.WriteFile(p, b, 0o644); err != nil {
				return err
			}
			return os.Chtimes(p, st.ModTime(), st.ModTime())
		}},
		{"appended", func(p string) error {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("# late edit\n")
			return err
		}},
		{"replaced by rename", func(p string) error {
			if err := os.WriteFile(p+".new", []byte("# replaced\n"), 0o644); err != nil {
				return err
			}
			return os.Rename(p+".new", p)
		}},
	} {
		t.Run(edit.name, func(t *testing.T) {
			root, out := project(t)
			a := filepath.Join(root, "a.py")
			var want string
			beforeCommit = func(path string) {
				if path != a {
					return
				}
				left, _ := filepath.Glob(filepath.Join(root, ".*mcplint-tmp*"))
				if len(left) != 2 {
					t.Errorf("%d temporary files before the first rename, want 2 (all written first)", len(left))
				}
				if err := edit.do(a); err != nil {
					t.Fatal(err)
				}
				want = testfs.Read(t, a)
			}
			defer func() { beforeCommit = nil }()
			r := Write(out)
			if testfs.Read(t, a) != want {
				t.Fatalf("the late edit was lost")
			}
			if notWritten(r, a) == "" || !fixed(t, filepath.Join(root, "b.py")) {
				t.Errorf("not written %v, written %v", r.NotWritten, r.Written)
			}
			testfs.NoTemps(t, root)
		})
	}
}

func TestWriteKeepsModeAndOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	root := testfs.Write(t, map[string]string{"a.py": server})
	a := filepath.Join(root, "a.py")
	if err := os.Chown(a, 4321, 8765); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(a, 0o751); err != nil {
		t.Fatal(err)
	}
	r := Write(run(t, root))
	st, _ := os.Stat(a)
	s := st.Sys().(*syscall.Stat_t)
	if len(r.Written) != 1 || !fixed(t, a) || st.Mode().Perm() != 0o751 || s.Uid != 4321 || s.Gid != 8765 {
		t.Errorf("written %v, mode %v, owner %d:%d; want fixed, 0751, 4321:8765", r.Written, st.Mode().Perm(), s.Uid, s.Gid)
	}
}

func TestWriteRefusesReadOnlyAndHardLinkedFiles(t *testing.T) {
	root := testfs.Write(t, map[string]string{"a.py": server, "b.py": server, "c.py": server})
	a, b, c := filepath.Join(root, "a.py"), filepath.Join(root, "b.py"), filepath.Join(root, "c.py")
	if err := os.Chmod(a, 0o444); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "b-link.py")
	if err := os.Link(b, outside); err != nil {
		t.Fatal(err)
	}
	r := Write(run(t, root))
	if !strings.Contains(notWritten(r, a), "read-only") || fixed(t, a) {
		t.Errorf("read-only a.py: reason %q; it must be left alone, even as root", notWritten(r, a))
	}
	if !strings.Contains(notWritten(r, b), "2 hard links") || fixed(t, b) || fixed(t, outside) {
		t.Errorf("hard-linked b.py: reason %q", notWritten(r, b))
	}
	sb, _ := os.Stat(b)
	so, _ := os.Stat(outside)
	if !os.SameFile(sb, so) {
		t.Error("the hard link was split")
	}
	if !fixed(t, c) || r.Failed {
		t.Errorf("c.py must be written (refusals are per file): written %v", r.Written)
	}
	testfs.NoTemps(t, root)
}

func TestWriteRefusesASymlinkOutOfTheRoot(t *testing.T) {
	elsewhere := testfs.Write(t, map[string]string{"target.py": server, "in/inside.py": server})
	root := filepath.Join(elsewhere, "in")
	if err := os.Symlink(filepath.Join(elsewhere, "target.py"), filepath.Join(root, "out.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("inside.py", filepath.Join(root, "alias.py")); err != nil {
		t.Fatal(err)
	}
	out := run(t, root)
	target, link := filepath.Join(elsewhere, "target.py"), filepath.Join(root, "out.py")
	// The engine does not read a symlink out of the tree; Write refuses it
	// all the same (the tree may change between the read and the write).
	if _, ok := findFile(out, link); !ok {
		src := []byte(server)
		stamp, err := stampOf(link, src)
		if err != nil {
			t.Fatal(err)
		}
		out.Files = append(out.Files, &FileResult{Path: link, Old: src, New: []byte(server + "# fixed\n"), Fixed: 1, Stamp: stamp})
	}
	r := Write(out)
	if fixed(t, target) || !strings.Contains(notWritten(r, link), "outside the scanned root") {
		t.Errorf("out.py: reason %q; the file outside the root must not change", notWritten(r, link))
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced")
	}
	// A link to a file inside the root: the file is fixed once, through
	// one of its names, and the link stays a link.
	inside, alias := filepath.Join(root, "inside.py"), filepath.Join(root, "alias.py")
	if !fixed(t, inside) {
		t.Errorf("inside.py was not fixed: %v", r.NotWritten)
	}
	if st, err := os.Lstat(alias); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Error("the inner symlink was replaced")
	}
	if strings.Count(testfs.Read(t, inside), "checkpoint_if_cancelled") != 1 {
		t.Errorf("inside.py fixed twice:\n%s", testfs.Read(t, inside))
	}
}

// An I/O error on one file (a full disk) leaves every file as it was, and
// says so for each.
func TestWriteFailureRewritesNothing(t *testing.T) {
	root, out := project(t)
	a, b := filepath.Join(root, "a.py"), filepath.Join(root, "b.py")
	create = func(path string, opts safewrite.Options) (*safewrite.File, error) {
		if path == b {
			return nil, &os.PathError{Op: "write", Path: b, Err: syscall.ENOSPC}
		}
		return safewrite.Create(path, opts)
	}
	defer func() { create = safewrite.Create }()
	r := Write(out)
	if !r.Failed || len(r.Written) != 0 || len(r.NotWritten) != 2 {
		t.Fatalf("failed %v written %v not written %v: want failed, none written, both listed", r.Failed, r.Written, r.NotWritten)
	}
	if fixed(t, a) || fixed(t, b) {
		t.Error("a file was rewritten although another could not be")
	}
	if r.NotWritten[0].Path != b {
		t.Errorf("the failing file %s is not listed first: %v", b, r.NotWritten)
	}
	if !strings.Contains(notWritten(r, b), "no space left") || !strings.Contains(notWritten(r, a), "writing "+b+" failed") {
		t.Errorf("reasons: %v", r.NotWritten)
	}
	if out.Fixed != 0 || len(out.Files) != 0 {
		t.Errorf("outcome still claims %d fixed in %d files", out.Fixed, len(out.Files))
	}
	testfs.NoTemps(t, root)
}

func TestWriteAfterAnInterruptWritesNothing(t *testing.T) {
	safewrite.Reset()
	defer safewrite.Reset()
	root, out := project(t)
	safewrite.Interrupt()
	r := Write(out)
	if !r.Failed || !r.Interrupted || len(r.Written) != 0 || fixed(t, filepath.Join(root, "a.py")) {
		t.Errorf("failed %v written %v", r.Failed, r.Written)
	}
	if len(r.NotWritten) == 0 || !strings.Contains(r.NotWritten[0].Reason, "interrupted") {
		t.Errorf("reason %q", r.NotWritten[0].Reason)
	}
	testfs.NoTemps(t, root)
}

func findFile(o *Outcome, path string) (*FileResult, bool) {
	for _, f := range o.Files {
		if f.Path == path {
			return f, true
		}
	}
	return nil, false
}

// saver reports every handler not yet renamed, with a safe fix that
// renames it, and saves path with new contents (an editor) the first time
// it runs: the analysis has read the old bytes, the disk holds new ones.
func saver(path, saved string) *rules.Rule {
	done := false
	return &rules.Rule{
		Code: "MCP997", Name: "test-saver", Kind: rules.CodeRule, Severity: rules.SeverityError,
		Run: func(p *rules.Pass) {
			for _, h := range p.Handlers.Handlers {
				n := h.Func.Node.ChildByFieldName("name")
				if strings.HasSuffix(string(h.Module.Src[n.StartByte():n.EndByte()]), "_renamed") {
					continue
				}
				p.ReportNode(h.Module, n, "test", nil, rules.Fix{
					Message: "rename", Applicability: rules.Safe,
					Edits: []rules.Edit{{Path: h.Module.Path, Start: int(n.EndByte()), End: int(n.EndByte()), New: "_renamed"}},
				})
			}
			if !done {
				done = true
				if err := os.WriteFile(path, []byte(saved), 0o644); err != nil {
					panic(err)
				}
			}
		},
	}
}

// A file saved during the analysis itself: the fixes were computed from
// the bytes the analysis parsed, so the file is not written.
func TestWriteKeepsAnEditSavedDuringTheAnalysis(t *testing.T) {
	root := testfs.Write(t, map[string]string{"a.py": server})
	a := filepath.Join(root, "a.py")
	saved := "# saved by an editor during the analysis\n" + server
	out, err := Run([]string{root}, engine.Options{AssumeMCP: "1.26.0", Rules: []*rules.Rule{saver(a, saved)}}, Mode{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Failures) != 0 || len(out.Files) != 1 {
		t.Fatalf("failures %v files %d: the fix must be computed and checked on the bytes the analysis read", out.Failures, len(out.Files))
	}
	if got := string(out.Files[0].Old); got != server {
		t.Fatalf("the fix was computed from bytes the analysis never parsed:\n%s", got)
	}
	r := Write(out)
	if got := testfs.Read(t, a); got != saved {
		t.Fatalf("the edit was lost: a.py holds\n%s", got)
	}
	if !strings.Contains(notWritten(r, a), "changed since mcplint read it") {
		t.Errorf("reason %q, want changed since read", notWritten(r, a))
	}
}

// A file a fix creates that appears at the last instant is not replaced.
func TestWriteDoesNotReplaceAFileCreatedMeanwhile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "guard.py")
	o := &Outcome{Roots: []string{dir}, Files: []*FileResult{{Path: p, New: []byte("ours = 1\n"), Created: true, Fixed: 1}}, Fixed: 1}
	beforeCommit = func(string) {
		if err := os.WriteFile(p, []byte("theirs = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { beforeCommit = nil }()
	r := Write(o)
	if testfs.Read(t, p) != "theirs = 1\n" || len(r.Written) != 0 || !strings.Contains(notWritten(r, p), "created by something else") {
		t.Errorf("content %q, written %v, not written %v", testfs.Read(t, p), r.Written, r.NotWritten)
	}
	testfs.NoTemps(t, dir)
}

// guardProject writes a project whose MCP001 fix alternative is the
// respond/cancel guard (a new module and an import of it in server.py) and
// runs the fixer with that alternative (nothing written yet).
func guardProject(t *testing.T) (root, serverPy, guardPy string, out *Outcome) {
	t.Helper()
	root = testfs.Write(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"weather\"\ndependencies = [\"mcp>=1.27,<2\"]\n",
		"server.py":      server + "\n\nif __name__ == \"__main__\":\n    mcp.run()\n",
	})
	serverPy, guardPy = filepath.Join(root, "server.py"), filepath.Join(root, rules.GuardModuleName+".py")
	createsFile := func(d *rules.Diagnostic) *rules.Fix {
		for i := range d.Fixes {
			for _, e := range d.Fixes[i].Edits {
				if e.Create {
					return &d.Fixes[i]
				}
			}
		}
		return nil
	}
	out, err := Run([]string{root}, engine.Options{Rules: []*rules.Rule{rules.Lookup("MCP001")}}, Mode{Pick: createsFile, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Files) != 2 || len(out.Failures) != 0 {
		t.Fatalf("files %d failures %v: want the guard module and server.py", len(out.Files), out.Failures)
	}
	for _, f := range out.Files {
		if len(f.With) != 1 {
			t.Fatalf("%s: With = %v, want the other file of the fix", f.Path, f.With)
		}
	}
	return root, serverPy, guardPy, out
}

// The guard fix writes a module and imports it: when one of its files
// cannot be written, neither is, so that no import of a missing module
// (and no module nothing imports) is left behind.
func TestWriteGuardFixAllOrNothing(t *testing.T) {
	for _, c := range []struct {
		name      string
		before    func(t *testing.T, serverPy, guardPy string) // after the analysis, before Write
		hook      func(t *testing.T, serverPy, guardPy, path string)
		refused   string // the file refused on its own
		guardWant string // what the guard path holds after Write ("" none)
		serverMod bool   // server.py was changed by the test itself
	}{
		{name: "the module's path taken before the write",
			before: func(t *testing.T, _, guardPy string) {
				if err := os.WriteFile(guardPy, []byte("theirs = 1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}, refused: "guard", guardWant: "theirs = 1\n"},
		{name: "the module's path taken at the last instant",
			hook: func(t *testing.T, _, guardPy, path string) {
				if path == guardPy {
					if err := os.WriteFile(guardPy, []byte("theirs = 1\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}, refused: "guard", guardWant: "theirs = 1\n"},
		{name: "the module's path taken after the other file was checked",
			hook: func(t *testing.T, serverPy, guardPy, path string) {
				if path == serverPy {
					if err := os.WriteFile(guardPy, []byte("theirs = 1\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}, refused: "guard", guardWant: "theirs = 1\n"},
		{name: "the importing file edited at the last instant",
			hook: func(t *testing.T, serverPy, _, path string) {
				if path == serverPy {
					if err := os.WriteFile(serverPy, []byte(server+"# edited\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}, refused: "server", serverMod: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, serverPy, guardPy, out := guardProject(t)
			oldServer := testfs.Read(t, serverPy)
			if c.before != nil {
				c.before(t, serverPy, guardPy)
			}
			if c.hook != nil {
				beforeCommit = func(path string) { c.hook(t, serverPy, guardPy, path) }
				defer func() { beforeCommit = nil }()
			}
			r := Write(out)
			if len(r.Written) != 0 || r.Failed {
				t.Errorf("written %v failed %v: want nothing written, files refused", r.Written, r.Failed)
			}
			got, err := os.ReadFile(guardPy)
			if c.guardWant == "" && !os.IsNotExist(err) || c.guardWant != "" && string(got) != c.guardWant {
				t.Errorf("guard path holds %q (err %v), want %q", got, err, c.guardWant)
			}
			if !c.serverMod && testfs.Read(t, serverPy) != oldServer {
				t.Errorf("server.py was written without its guard module:\n%s", testfs.Read(t, serverPy))
			}
			alone, other := guardPy, serverPy
			if c.refused == "server" {
				alone, other = serverPy, guardPy
			}
			if notWritten(r, alone) == "" || strings.Contains(notWritten(r, alone), "goes with") {
				t.Errorf("%s: reason %q, want its own", alone, notWritten(r, alone))
			}
			if !strings.Contains(notWritten(r, other), "goes with "+alone) {
				t.Errorf("%s: reason %q, want that it goes with %s", other, notWritten(r, other), alone)
			}
			if out.Fixed != 0 || len(out.Files) != 0 {
				t.Errorf("outcome still claims %d fixed in %d files", out.Fixed, len(out.Files))
			}
			testfs.NoTemps(t, root)
		})
	}
}
