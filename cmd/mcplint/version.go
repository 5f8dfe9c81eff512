package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version is the release version; set with -ldflags "-X main.Version=v1.2.3".
var Version = "0.1.0-dev"

// version returns the version with the VCS revision when the binary has one.
func version() string {
	v := Version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += "+" + s.Value[:12]
			}
		}
	}
	return v
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "mcplint %s\n", version())
			return nil
		},
	}
}
