package main

import (
	"sync"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/lsp"
	"github.com/mcplint/mcplint/rules"
	"github.com/spf13/cobra"
)

func init() { extraCommands = append(extraCommands, newServerCmd) }

// newServerCmd is `mcplint server`: the language server (package lsp) on
// standard input and output. Each analysis reads the configuration as
// `mcplint check ROOT` does for the workspace folder ROOT, with the
// command's selection flags on top.
func newServerCmd() *cobra.Command {
	f := &checkFlags{}
	var mu sync.Mutex // buildOptions and currentSelection write f
	c := &cobra.Command{
		Use:   "server",
		Short: "Run the language server (LSP over standard input and output) for editors",
		Long: `mcplint server speaks the Language Server Protocol on standard input and
output: diagnostics for the workspace as the buffers change, the fixes as
code actions (safe first, unsafe ones labelled), and a rule's documentation
on hover. The configuration is read as mcplint check reads it
([tool.mcplint], mcplint.toml). See docs/editors.md for editor setups.`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s := lsp.New(lsp.Options{
				Config: func(roots []string) (engine.Options, error) {
					mu.Lock()
					defer mu.Unlock()
					f.noCache = true // the server keeps its own cache, in memory
					return buildOptions(cmd, roots, f)
				},
				Explain: func(code string, roots []string) string {
					r := rules.Lookup(code)
					if r == nil {
						return ""
					}
					mu.Lock()
					defer mu.Unlock()
					cfg, sel, err := currentSelection(cmd, roots[:min(len(roots), 1)], f)
					if err != nil {
						return r.Markdown()
					}
					return explainText(r, cfg, sel)
				},
				Log:     cmd.ErrOrStderr(),
				Version: readBuildInfo().version,
			})
			return s.ServeStdio(cmd.Context())
		},
	}
	selectionFlags(c, f)
	return c
}
