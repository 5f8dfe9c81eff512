package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/safewrite"
)

// writeFixes writes the fixed files of outcome. When a file is not
// written it says on stderr which files were not written and why, and which
// were; the findings then reported are those of the files as they are on
// disk, analysed again. It returns the result to report and the status to
// end with once the outputs are written: exit 2 when an I/O error or an
// interrupt stopped the writes, exit 1 (unless --exit-zero) when a file was
// refused (read-only, changed since read, ...), since its fix was not
// applied.
func writeFixes(stderr io.Writer, outcome *fix.Outcome, roots []string, opts engine.Options, exitZero bool) (*engine.Result, error, error) {
	sweepFixFolders(outcome)
	wr := fix.Write(outcome)
	if len(wr.NotWritten) == 0 {
		return outcome.Result, nil, nil
	}
	if wr.Interrupted {
		// The signal handler says what was written and ends the process.
		if ch := signalExited.Load(); ch != nil {
			<-*ch
		}
		return nil, nil, exitCode{130}
	}
	for _, nw := range wr.NotWritten {
		fmt.Fprintf(stderr, "mcplint: %s: %s\n", escape.Visible(nw.Path), escape.Visible(nw.Reason))
	}
	if len(wr.Written) == 0 {
		fmt.Fprintf(stderr, "mcplint: no file was written\n")
	} else {
		fmt.Fprintf(stderr, "mcplint: written: %s\n", escape.Visible(strings.Join(wr.Written, ", ")))
	}
	for _, p := range wr.Written {
		opts.Walk.Tracked.Allow(p) // this run's own output (--tracked-only)
	}
	res, err := engine.Run(roots, opts)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case wr.Failed:
		return res, exitCode{exitError}, nil
	case !exitZero:
		return res, exitCode{exitFindings}, nil
	}
	return res, nil, nil
}

// sweepFixFolders removes the temporary files that a --fix killed with -9
// (or a power cut) left beside the files this run could fix: the folders of
// every file the scan read, and of every file a fix creates. A write sweeps
// only its own folder, so without this the leftovers of a run that wrote
// thousands of files stayed when the next --fix wrote nothing or wrote
// elsewhere. The cost is one listing per folder, each a folder the scan
// listed already; a run without --fix removes nothing.
func sweepFixFolders(outcome *fix.Outcome) {
	seen := map[string]bool{}
	sweep := func(path string) {
		if d := filepath.Dir(path); !seen[d] {
			seen[d] = true
			safewrite.Sweep(d)
		}
	}
	if outcome.Result != nil {
		for _, p := range outcome.Result.Paths {
			sweep(p)
		}
	}
	for _, f := range outcome.Files {
		sweep(f.Path)
	}
}

// checkWriteTargets refuses, before the analysis, an --output or
// --write-baseline path that mcplint would not write (a symlink, a device,
// a named pipe, a directory, a read-only or hard-linked file).
func checkWriteTargets(f *checkFlags) error {
	specs, err := outputSpecs(f.formats, f.outputs)
	if err != nil {
		return usageError{err}
	}
	for _, s := range specs {
		if s.path == "" {
			continue
		}
		if err := checkTarget("--output", s.path); err != nil {
			return err
		}
	}
	if f.writeBaseline != "" {
		return checkTarget("--write-baseline", f.writeBaseline)
	}
	return nil
}

func checkTarget(flag, path string) error {
	err := safewrite.Check(path, safewrite.Options{Output: true})
	var refused *safewrite.RefusedError
	if errors.As(err, &refused) {
		return usageError{fmt.Errorf("%s %s: not written: %s", flag, path, refusedHint(flag, refused))}
	}
	return nil // other errors (a missing folder) show when writing
}

// refusedHint is a refusal's message, with the way to stdout where it helps.
func refusedHint(flag string, r *safewrite.RefusedError) string {
	msg := r.Error()
	if flag == "--output" && strings.Contains(r.Reason, "only regular files") {
		msg += " (use - for stdout)"
	}
	return msg
}

// signalExited is closed once the signal handler has ended the process
// (which only tests' exit returns from); writeFixes waits on it when a
// signal stopped the writes, so that the handler alone reports them.
var signalExited atomic.Pointer[chan struct{}]

// handleSignals makes SIGINT and SIGTERM remove the temporary files of the
// writes in progress and say which files were written before the process
// ends (with 128 + the signal's number, as a shell reports it). The renames
// of a --fix are taken together: a signal comes before all of them or after
// all of them. kill -9 cannot be caught: its temporary files are removed by
// the next --fix of those folders (sweepFixFolders) or the next write into
// them. exit is os.Exit but for tests; stop undoes the handling.
func handleSignals(stderr io.Writer, exit func(code int)) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done, exited := make(chan struct{}), make(chan struct{})
	signalExited.Store(&exited)
	go func() {
		defer close(exited)
		select {
		case sig := <-ch:
			written := safewrite.Interrupt()
			if len(written) == 0 {
				fmt.Fprintf(stderr, "mcplint: interrupted (%v): no file was written\n", sig)
			} else {
				fmt.Fprintf(stderr, "mcplint: interrupted (%v) after writing %s; no other file was changed\n", sig, escape.Visible(strings.Join(written, ", ")))
			}
			code := 130
			if s, ok := sig.(syscall.Signal); ok {
				code = 128 + int(s)
			}
			exit(code)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
