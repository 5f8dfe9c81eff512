package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/mcplint/mcplint/rules"
	"github.com/spf13/cobra"
)

func newRulesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rules",
		Short: "List the rules",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "CODE\tNAME\tFIX\tDEFAULT\tSUMMARY")
			for _, r := range rules.All() {
				fix := map[rules.FixAvailability]string{rules.FixNone: "-", rules.FixSometimes: "sometimes", rules.FixAlways: "yes"}[r.Fix]
				on := "on"
				if r.DefaultOff {
					on = "off"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", r.Code, r.Name, fix, on, r.Doc.Summary)
			}
			return w.Flush()
		},
	}
}

func newExplainCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "explain CODE",
		Short: "Show a rule's documentation",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := rules.Lookup(args[0])
			if r == nil {
				return usageError{fmt.Errorf("unknown rule %q (see `mcplint rules`)", args[0])}
			}
			fmt.Fprint(cmd.OutOrStdout(), r.Markdown())
			return nil
		},
	}
}
