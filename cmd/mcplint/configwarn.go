package main

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/mcplint/mcplint/config"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
	"github.com/spf13/cobra"
)

// Warnings about the configuration file (a limit it may not loosen, a
// selection that leaves no rule on) are said twice: on stderr as the run
// starts ("mcplint: warning: FILE:LINE:COL: ..."), and in every output as an
// MCP000 note at the file's line (anchored rules.ConfigIgnoredAnchor or
// rules.ConfigSilencedAnchor), so that a program reading JSON or SARIF sees
// them too. They do not set the exit code: the run reports what it found,
// and says what it did not check.

// configRun is what the configuration's warnings need after the run.
type configRun struct {
	cfg      *config.Config
	sel      map[string]config.Decision
	warnings []config.Warning // said before the run
	quiet    bool
	stderr   io.Writer
}

// warnConfig says the warnings of the configuration cfg under the selection
// sel that are known before the run (a limit ignored, no rule on at all) on
// stderr (unless --quiet: the outputs still list them) and keeps them, with
// what addConfigWarnings needs, in f.configRun.
func warnConfig(cmd *cobra.Command, f *checkFlags, cfg *config.Config, sel map[string]config.Decision) {
	ws := append([]config.Warning(nil), cfg.Warnings...)
	if cfg.Path != "" {
		if without, err := config.Selection(flagLayer(cmd, f)); err == nil {
			ws = append(ws, cfg.Silenced(sel, without)...)
		}
	}
	f.configRun = &configRun{cfg: cfg, sel: sel, warnings: ws, quiet: f.quiet, stderr: cmd.ErrOrStderr()}
	f.configRun.say(ws)
}

func (c *configRun) say(ws []config.Warning) {
	if c.quiet {
		return
	}
	for _, w := range ws {
		fmt.Fprintf(c.stderr, "mcplint: warning: %s\n", escape.Visible(w.String()))
	}
}

// addConfigWarnings adds the configuration's warnings to the result as
// MCP000 notes (see the top of this file), with those only the run's files
// tell (per-file-ignores that leave a file no rule), which it says on
// stderr first.
func addConfigWarnings(res *engine.Result, c *configRun) {
	if c == nil || res == nil || c.cfg.Path == "" {
		return
	}
	late := c.cfg.SilencedFiles(c.sel, res.Paths)
	c.say(late)
	ws := append(append([]config.Warning(nil), c.warnings...), late...)
	if len(ws) == 0 {
		return
	}
	for _, w := range ws {
		src, _ := res.Read(w.Path) // read and parsed already; a frame is a bonus
		li := pyast.NewLineIndex(src)
		off := li.LineStart(w.Line)
		for k := 1; k < w.Column && off < len(src) && src[off] != '\n'; k++ {
			_, size := utf8.DecodeRune(src[off:])
			off += size
		}
		end := off
		for end < len(src) && src[end] != '\n' && src[end] != '\r' {
			end++
		}
		anchor := rules.ConfigIgnoredAnchor
		if w.Silences {
			anchor = rules.ConfigSilencedAnchor
		}
		res.Diagnostics = append(res.Diagnostics, rules.Diagnostic{
			Code: rules.FileErrorCode, Name: rules.FileError.Name, Severity: rules.SeverityNote, Message: w.Msg,
			Location: rules.Location{Path: w.Path, Start: li.Position(off), End: li.Position(end)},
			Anchor:   anchor,
		})
	}
	engine.SortDiagnostics(res.Diagnostics)
}
