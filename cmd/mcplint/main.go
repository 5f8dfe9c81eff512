// Command mcplint finds the code and dependency pins that make a Python MCP
// server crash when a client cancels a request, and fixes them.
//
// The commands are thin: flags and configuration become engine.Options
// (options.go), the engine analyses, the fixer edits, and the renderers
// write (output.go).
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/memlimit"
	"github.com/spf13/cobra"
)

// Exit codes (SPEC section 6).
const (
	exitClean    = 0 // nothing reported
	exitFindings = 1 // something reported
	exitError    = 2 // usage or internal error
)

// exitError carries an exit code through cobra.
type exitCode struct{ code int }

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", e.code) }

func main() {
	memlimit.Start()
	handleSignals(os.Stderr, os.Exit)
	os.Exit(run(os.Args[1:]))
}

// run executes the command line and returns the exit code.
func run(args []string) int {
	root := newRootCmd()
	root.SetArgs(args)
	err := root.Execute()
	var ec exitCode
	switch {
	case err == nil:
		return exitClean
	case errors.As(err, &ec):
		return ec.code
	}
	fmt.Fprintf(os.Stderr, "mcplint: %s\n", escape.VisibleKeepNewlines(err.Error()))
	return exitError
}

func newRootCmd() *cobra.Command {
	f := &checkFlags{}
	root := &cobra.Command{
		Use:   "mcplint [check] [PATH...]",
		Short: "Find what makes a Python MCP server crash when a client cancels a request",
		Long: `mcplint is a static analyzer for Python MCP servers. It finds handler code and
dependency pins that crash a server (mcp 1.x) when a client cancels an
in-flight request, and offers fixes. It never runs the code it reads.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := unknownCommand(cmd, args); err != nil {
				return err
			}
			return runCheck(cmd, args, f)
		},
	}
	f.register(root)
	check := &cobra.Command{
		Use:           "check [PATH...]",
		Short:         "Analyse paths (the default command)",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd, args, f)
		},
	}
	f.register(check)
	root.AddCommand(check, newRulesCmd(), newExplainCmd(), newVersionCmd())
	setVersionFlag(root)
	for _, extra := range extraCommands {
		root.AddCommand(extra())
	}
	root.SetFlagErrorFunc(flagError)
	root.SuggestionsMinimumDistance = 2 // cobra's default, which SuggestionsFor alone does not apply
	return root
}

// extraCommands are added by other files of this package (audit, ...).
var extraCommands []func() *cobra.Command

// usageError is a command-line mistake: exit code 2 with the message.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
