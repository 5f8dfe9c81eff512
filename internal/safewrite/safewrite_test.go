//go:build unix

package safewrite

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
)

func write(t *testing.T, path, s string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func refused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

func TestCreatesANewFileWithTheUmaskMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	if err := WriteFile(p, []byte("{}"), Options{}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	if testfs.Read(t, p) != "{}" || st.Mode().Perm() != 0o644 {
		t.Errorf("content %q mode %v", testfs.Read(t, p), st.Mode().Perm())
	}
	if err := WriteFile(filepath.Join(dir, "new.py"), nil, Options{MustExist: true}); !refused(err) {
		t.Errorf("MustExist created a file: %v", err)
	}
	testfs.NoTemps(t, dir)
}

func TestKeepsModeAndOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "server.py")
	write(t, p, "old", 0o644)
	if err := os.Chown(p, 1234, 5678); err != nil {
		t.Fatal(err)
	}
	// After the chown, which clears set-id bits.
	if err := os.Chmod(p, 0o750|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), Options{MustExist: true}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	s := st.Sys().(*syscall.Stat_t)
	if testfs.Read(t, p) != "new" || st.Mode()&(os.ModePerm|os.ModeSetgid) != 0o750|os.ModeSetgid || s.Uid != 1234 || s.Gid != 5678 {
		t.Errorf("content %q mode %v owner %d:%d, want new, 0750 setgid, 1234:5678", testfs.Read(t, p), st.Mode(), s.Uid, s.Gid)
	}
	testfs.NoTemps(t, dir)
}

func TestFollowsASymlinkAndKeepsIt(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	write(t, real, "old", 0o640)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), Options{}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced")
	}
	st, _ := os.Stat(real)
	if testfs.Read(t, real) != "new" || st.Mode().Perm() != 0o640 {
		t.Errorf("target %q mode %v", testfs.Read(t, real), st.Mode().Perm())
	}
	dangling := filepath.Join(dir, "dangling.json")
	if err := os.Symlink("nowhere.json", dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dangling, []byte("x"), Options{}); !refused(err) {
		t.Errorf("dangling symlink: %v, want refused", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere.json")); err == nil {
		t.Error("the dangling symlink's target was created")
	}
	testfs.NoTemps(t, dir)
}

// An output (Options.Output) is never written through a symlink, dangling
// or not, and replaces an existing file by a new one: the old file's mode
// (an executable bit a repository committed) is not kept, and the old
// inode is not written (issue 29).
func TestOutputRefusesASymlinkAndReplacesAsANewFile(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "action.sh")
	write(t, script, "#!/bin/sh\necho ok\n", 0o755)
	for _, name := range []string{"mcplint.sarif", "dangling.sarif"} {
		link := filepath.Join(dir, name)
		to := "action.sh"
		if name == "dangling.sarif" {
			to = "nowhere.sarif"
		}
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		for _, check := range []func() error{
			func() error { return Check(link, Options{Output: true}) },
			func() error { return WriteFile(link, []byte("$(id>/tmp/PWNED)"), Options{Output: true}) },
		} {
			err := check()
			if !refused(err) || !strings.Contains(err.Error(), "is a symlink, refused: mcplint never writes an output through one") {
				t.Errorf("%s: %v, want refused as a symlink", name, err)
			}
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the symlink was replaced", name)
		}
	}
	if testfs.Read(t, script) != "#!/bin/sh\necho ok\n" {
		t.Errorf("the symlink's target was written: %q", testfs.Read(t, script))
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere.sarif")); err == nil {
		t.Error("the dangling symlink's target was created")
	}

	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	out := filepath.Join(dir, "out.sarif")
	write(t, out, "old", 0o755)
	before, _ := os.Stat(out)
	if err := WriteFile(out, []byte("new"), Options{Output: true}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(out)
	if testfs.Read(t, out) != "new" || st.Mode().Perm() != 0o644 || os.SameFile(before, st) {
		t.Errorf("content %q mode %v same inode %v, want new, 0644, a new file", testfs.Read(t, out), st.Mode().Perm(), os.SameFile(before, st))
	}
	testfs.NoTemps(t, dir)
}

func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	toNull := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", toNull); err != nil {
		t.Fatal(err)
	}
	targets := []string{fifo, sub, toNull}
	// A device node of our own, so that a failure cannot harm /dev.
	dev := filepath.Join(dir, "full")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|7); err == nil {
		targets = append(targets, dev)
	} else {
		t.Logf("mknod: %v: the device case is covered through the /dev/null symlink only", err)
	}
	for _, p := range targets {
		err := WriteFile(p, []byte("{}"), Options{})
		if !refused(err) {
			t.Errorf("%s: %v, want refused", p, err)
		}
		if Check(p, Options{}) == nil {
			t.Errorf("Check(%s) passed", p)
		}
	}
	for _, c := range []struct {
		p    string
		mode os.FileMode
	}{{fifo, os.ModeNamedPipe}, {sub, os.ModeDir}, {toNull, os.ModeSymlink}, {dev, os.ModeCharDevice}} {
		if len(targets) == 3 && c.p == dev {
			continue
		}
		st, err := os.Lstat(c.p)
		if err != nil || st.Mode()&c.mode == 0 {
			t.Errorf("%s was replaced: %v", c.p, st.Mode())
		}
	}
	if st, err := os.Stat("/dev/null"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("/dev/null is no longer a device")
	}
	testfs.NoTemps(t, dir)
}

func TestRefusesReadOnlyAndHardLinkedFiles(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro.py")
	write(t, ro, "old", 0o444)
	if err := WriteFile(ro, []byte("new"), Options{MustExist: true}); !refused(err) {
		t.Errorf("read-only file: %v, want refused (even as root)", err)
	}
	a, b := filepath.Join(dir, "a.py"), filepath.Join(dir, "b.py")
	write(t, a, "old", 0o644)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(a, []byte("new"), Options{MustExist: true}); !refused(err) {
		t.Errorf("hard-linked file: %v, want refused", err)
	}
	if testfs.Read(t, ro) != "old" || testfs.Read(t, a) != "old" || testfs.Read(t, b) != "old" {
		t.Error("a refused file was changed")
	}
	sa, _ := os.Stat(a)
	sb, _ := os.Stat(b)
	if !os.SameFile(sa, sb) {
		t.Error("the hard link was split")
	}
	testfs.NoTemps(t, dir)
}

func TestCommitChecksTheTargetAgain(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.py")
	write(t, p, "old", 0o644)

	// Verify runs last and can veto.
	f, err := Create(p, Options{Verify: func(string) error { return errors.New("changed") }})
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if err := f.Commit(); err == nil || err.Error() != "changed" {
		t.Errorf("Commit: %v, want the Verify error", err)
	}

	// The file replaced meanwhile (an editor saving by rename).
	f, err = Create(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	write(t, p+".swp", "edited", 0o644)
	if err := os.Rename(p+".swp", p); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); !refused(err) {
		t.Errorf("Commit over a replaced file: %v, want refused", err)
	}

	// A new file that someone else created meanwhile.
	n := filepath.Join(dir, "new.json")
	f, err = Create(n, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("ours"))
	write(t, n, "theirs", 0o644)
	if err := f.Commit(); !refused(err) {
		t.Errorf("Commit over a file created meanwhile: %v, want refused", err)
	}
	if testfs.Read(t, p) != "edited" || testfs.Read(t, n) != "theirs" {
		t.Errorf("contents %q %q: a refused commit wrote", testfs.Read(t, p), testfs.Read(t, n))
	}
	testfs.NoTemps(t, dir)
}

func TestInterruptRemovesTemporaryFiles(t *testing.T) {
	Reset()
	defer Reset()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.py"), filepath.Join(dir, "b.py")
	write(t, a, "old a", 0o644)
	write(t, b, "old b", 0o644)
	if err := WriteFile(a, []byte("new a"), Options{}); err != nil {
		t.Fatal(err)
	}
	f, err := Create(b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new b"))
	got := Interrupt()
	if len(got) != 1 || got[0] != a {
		t.Errorf("Interrupt reports %v written, want [%s]", got, a)
	}
	testfs.NoTemps(t, dir)
	if err := f.Commit(); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Commit after Interrupt: %v", err)
	}
	if _, err := Create(a, Options{}); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Create after Interrupt: %v", err)
	}
	if testfs.Read(t, b) != "old b" {
		t.Error("a file was written after Interrupt")
	}
	testfs.NoTemps(t, dir)
}

func TestSweepRemovesTheTemporaryFilesOfDeadProcesses(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.py")
	write(t, p, "old", 0o644)
	// PIDs above the kernel's maximum (2^22) never run; PID 1 always does.
	dead := filepath.Join(dir, ".a.py.mcplint-tmp-99999999-0a1b2c")
	live := filepath.Join(dir, ".a.py.mcplint-tmp-1-0a1b2c")
	other := filepath.Join(dir, ".a.py.mcplint-99999999")
	for _, q := range []string{dead, live, other} {
		write(t, q, "partial", 0o600)
	}
	if err := WriteFile(p, []byte("new"), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Error("the temporary file of a dead process was kept")
	}
	for _, q := range []string{live, other} {
		if _, err := os.Stat(q); err != nil {
			t.Errorf("%s was removed", filepath.Base(q))
		}
	}
	if !tempPattern.MatchString(filepath.Base(tempName("a.py"))) || !tempPattern.MatchString(".x.mcplint-tmp-"+strconv.Itoa(os.Getpid())+"-ff") {
		t.Error("tempName does not match the sweep's pattern")
	}
}

// start creates a write of contents to path.
func start(t *testing.T, path, contents string, opts Options) *File {
	t.Helper()
	f, err := Create(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte(contents)); err != nil {
		t.Fatal(err)
	}
	return f
}

// A set is written whole or not at all: an I/O error on its last rename
// puts back the files of the set already in place, whatever the cause
// (a full disk, a folder made read-only during the run).
func TestCommitSetsAllOrNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault func(old, new string) (linkErr, renameErr error)
		cause string // the file whose placing fails
	}{
		{"the last replacement fails", func(old, new string) (error, error) {
			if filepath.Base(new) == "b.py" && strings.HasPrefix(filepath.Base(old), ".b.py.mcplint-tmp-") {
				return nil, &os.LinkError{Op: "rename", Old: old, New: new, Err: syscall.EIO}
			}
			return nil, nil
		}, "b.py"},
		{"the new file's folder turns read-only", func(old, new string) (error, error) {
			if filepath.Base(new) == "guard.py" {
				err := &os.LinkError{Op: "link", Old: old, New: new, Err: syscall.EACCES}
				return err, err
			}
			return nil, nil
		}, "guard.py"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			a, b, g := filepath.Join(dir, "a.py"), filepath.Join(dir, "b.py"), filepath.Join(dir, "guard.py")
			write(t, a, "a = 1\n", 0o644)
			write(t, b, "b = 1\n", 0o644)
			set := []*File{
				start(t, a, "import guard\na = 1\n", Options{MustExist: true}),
				start(t, b, "import guard\nb = 1\n", Options{MustExist: true}),
				start(t, g, "guarded = True\n", Options{MustBeNew: true}),
			}
			alone := start(t, filepath.Join(dir, "other.py"), "other = 1\n", Options{})
			link = func(old, new string) error {
				if err, _ := c.fault(old, new); err != nil {
					return err
				}
				return os.Link(old, new)
			}
			rename = func(old, new string) error {
				if _, err := c.fault(old, new); err != nil {
					return err
				}
				return os.Rename(old, new)
			}
			defer func() { link, rename = os.Link, os.Rename }()
			errs := CommitSets([][]*File{set, {alone}})
			if testfs.Read(t, a) != "a = 1\n" || testfs.Read(t, b) != "b = 1\n" {
				t.Errorf("a set was partly written: a.py %q, b.py %q", testfs.Read(t, a), testfs.Read(t, b))
			}
			if _, err := os.Lstat(g); !os.IsNotExist(err) {
				t.Errorf("guard.py exists after its set failed: %v", err)
			}
			for i, f := range set {
				base := filepath.Base(f.path)
				if base == c.cause {
					if errs[0][i] == nil || refused(errs[0][i]) {
						t.Errorf("%s: %v, want the I/O error", base, errs[0][i])
					}
				} else if !refused(errs[0][i]) || !strings.Contains(errs[0][i].Error(), "goes with "+filepath.Join(dir, c.cause)) {
					t.Errorf("%s: %v, want that it goes with %s", base, errs[0][i], c.cause)
				}
			}
			if errs[1][0] != nil || testfs.Read(t, filepath.Join(dir, "other.py")) != "other = 1\n" {
				t.Errorf("another set was not written: %v", errs[1][0])
			}
			testfs.NoTemps(t, dir)
		})
	}
}

// Without a fault, every file of a set is written and no temporary name
// (the kept old contents included) is left.
func TestCommitSetsWritesAWholeSet(t *testing.T) {
	dir := t.TempDir()
	a, g := filepath.Join(dir, "a.py"), filepath.Join(dir, "guard.py")
	write(t, a, "a = 1\n", 0o640)
	errs := CommitSets([][]*File{{
		start(t, a, "import guard\na = 1\n", Options{MustExist: true}),
		start(t, g, "guarded = True\n", Options{MustBeNew: true}),
	}})
	if errs[0][0] != nil || errs[0][1] != nil {
		t.Fatalf("errors %v", errs[0])
	}
	st, _ := os.Stat(a)
	if testfs.Read(t, a) != "import guard\na = 1\n" || testfs.Read(t, g) != "guarded = True\n" || st.Mode().Perm() != 0o640 {
		t.Errorf("a.py %q (mode %v), guard.py %q", testfs.Read(t, a), st.Mode().Perm(), testfs.Read(t, g))
	}
	if n := links(st); n != 1 {
		t.Errorf("a.py has %d links after the commit, want 1", n)
	}
	testfs.NoTemps(t, dir)
}
