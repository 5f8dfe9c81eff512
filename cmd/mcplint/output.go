package main

import (
	"fmt"
	"io"
	"os"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/spf13/cobra"
)

// writeOutputs renders the result in every requested format.
// (Placeholder text output; the report package replaces it.)
func writeOutputs(cmd *cobra.Command, f *checkFlags, res *engine.Result, outcome *fix.Outcome) error {
	var w io.Writer = cmd.OutOrStdout()
	if len(f.outputs) > 0 {
		file, err := os.Create(f.outputs[0])
		if err != nil {
			return err
		}
		defer file.Close()
		w = file
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(w, "%s:%d:%d: %s %s\n", d.Path, d.Start.Line, d.Start.Column, d.Code, d.Message)
	}
	return nil
}
