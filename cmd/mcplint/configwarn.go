package main

import (
	"fmt"
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

// warnConfig collects the warnings of the configuration cfg under the
// selection sel into f.configWarnings and prints them on stderr (unless
// --quiet: the outputs still list them).
func warnConfig(cmd *cobra.Command, f *checkFlags, cfg *config.Config, sel map[string]config.Decision) {
	ws := append([]config.Warning(nil), cfg.Warnings...)
	if cfg.Path != "" {
		if without, err := config.Selection(flagLayer(cmd, f)); err == nil {
			ws = append(ws, cfg.Silenced(sel, without)...)
		}
	}
	f.configWarnings = ws
	if f.quiet {
		return
	}
	for _, w := range ws {
		fmt.Fprintf(cmd.ErrOrStderr(), "mcplint: warning: %s\n", escape.Visible(w.String()))
	}
}

// addConfigWarnings adds the configuration's warnings to the result as
// MCP000 notes (see the top of this file).
func addConfigWarnings(res *engine.Result, ws []config.Warning) {
	if len(ws) == 0 || res == nil {
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
