package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Set by the release build (.github/workflows/release.yml):
//
//	go build -ldflags "-X main.Version=0.2.0 -X main.Commit=<sha> -X main.Date=<RFC 3339>"
//
// Left empty, they come from the binary's build information: the module
// version for `go install ...@v0.2.0`, the VCS revision and commit time for
// a build in a git checkout.
var (
	Version string
	Commit  string
	Date    string
)

// devVersion is the version of a build that has none (go test, go run).
const devVersion = "0.1.0-dev"

// buildInfo describes the running binary.
type buildInfo struct {
	version, commit, date string
	dateIsCommit          bool // date is the commit's time, not the build's
	goVersion, platform   string
}

// readBuildInfo merges the -ldflags values with debug.ReadBuildInfo.
func readBuildInfo() buildInfo {
	info, _ := debug.ReadBuildInfo()
	return mergeBuildInfo(Version, Commit, Date, info)
}

func mergeBuildInfo(version, commit, date string, info *debug.BuildInfo) buildInfo {
	b := buildInfo{version: version, commit: commit, date: date, goVersion: runtime.Version(), platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info != nil {
		if b.version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.version = info.Main.Version
		}
		var modified bool
		var vcsTime string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.commit == "" {
					b.commit = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			case "vcs.time":
				vcsTime = s.Value
			}
		}
		if commit == "" && b.commit != "" && modified {
			b.commit += "-dirty"
		}
		if b.date == "" && vcsTime != "" {
			b.date, b.dateIsCommit = vcsTime, true
		}
		if info.GoVersion != "" {
			b.goVersion = info.GoVersion
		}
	}
	if b.version == "" {
		b.version = devVersion
	}
	b.version = strings.TrimPrefix(b.version, "v")
	return b
}

// String is what `mcplint --version` and `mcplint version` print:
//
//	mcplint 0.2.0 (commit 0123456789ab, built 2026-11-30T17:00:00Z, go1.26.8 linux/amd64)
func (b buildInfo) String() string {
	commit := b.commit
	if commit == "" {
		commit = "unknown"
	} else if len(commit) > 12 && !strings.HasSuffix(commit, "-dirty") {
		commit = commit[:12]
	} else if len(commit) > 18 {
		commit = commit[:12] + "-dirty"
	}
	date := "built " + b.date
	switch {
	case b.date == "":
		date = "build date unknown"
	case b.dateIsCommit:
		date = "committed " + b.date
	}
	return fmt.Sprintf("mcplint %s (commit %s, %s, %s %s)", b.version, commit, date, b.goVersion, b.platform)
}

// version is the version alone, for reports (SARIF, JSON).
func version() string { return readBuildInfo().version }

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the commit and the build date (same as --version)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), readBuildInfo())
			return nil
		},
	}
}

// setVersionFlag gives the root command --version, printing what
// `mcplint version` prints.
func setVersionFlag(root *cobra.Command) {
	root.Version = readBuildInfo().String()
	root.SetVersionTemplate("{{.Version}}\n")
}
