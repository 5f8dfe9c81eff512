package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// This file is mcplint's one way to find a repository and to run git: the
// search upward for .git (RepoTop), and the git runner (Git) that the
// tracked-files set, --new-from-rev and the other callers share.

// RepoTop returns the nearest folder at or above dir (an OS path) that
// holds a .git entry (the folder, or the file of a worktree or submodule,
// not followed if a symlink), made absolute; "" when there is none. It
// only looks: git does not run.
func RepoTop(dir string) string { return RepoTops{}.Of(dir) }

// RepoTops memoises RepoTop by folder, for folders that share ancestors
// (the projects of a monorepo): each folder is looked at once. Not safe
// for concurrent use.
type RepoTops map[string]string

// Of is RepoTop(dir).
func (t RepoTops) Of(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	var walked []string
	top := ""
	for d := abs; ; d = filepath.Dir(d) {
		if r, ok := t[d]; ok {
			top = r
			break
		}
		walked = append(walked, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, d := range walked {
		t[d] = top
	}
	return top
}

// InWorkTree tells whether dir is inside a git work tree (RepoTop).
func InWorkTree(dir string) bool { return RepoTop(dir) != "" }

// maxGitOutput bounds what git may print: 64 MiB is a million paths of 64
// bytes, far above real repositories (the Linux kernel's index lists about
// 80,000 files in 3 MiB).
const maxGitOutput = 64 << 20

// gitTimeout bounds one git command.
const gitTimeout = 2 * time.Minute

// Git runs git in dir with args and returns what it printed. It runs
// without a shell, for at most gitTimeout, its output bounded (a failure
// past maxGitOutput bytes) and its error output too; it reads nothing
// mcplint would not (no fsmonitor hook, which git would run as a command
// from the repository's configuration), writes no untracked cache and
// takes no optional lock, never prompts, and speaks English (LC_ALL=C).
// The error is git's message on one line.
func Git(dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var out, stderr limitedBuffer
	out.max, stderr.max = maxGitOutput, 4096
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	if out.over {
		return nil, fmt.Errorf("git %s printed more than %d bytes", subcommand(args), maxGitOutput)
	}
	if ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("git %s took longer than %v", subcommand(args), gitTimeout)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(strings.Join(strings.Fields(msg), " "))
	}
	return out.Bytes(), nil
}

// subcommand is the git command of args, past the options before it
// ("-c name=value").
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "-c" || args[i] == "-C":
			i++
		case !strings.HasPrefix(args[i], "-"):
			return args[i]
		}
	}
	return strings.Join(args, " ")
}

// limitedBuffer keeps at most max bytes; past them, a write fails (git
// then stops on a broken pipe).
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.over = true
		return 0, errors.New("output over the limit")
	}
	return b.Buffer.Write(p)
}
