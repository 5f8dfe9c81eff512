package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestMergeBuildInfo(t *testing.T) {
	goLine := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	vcs := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-30T12:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name                  string
		version, commit, date string
		info                  *debug.BuildInfo
		want                  string
	}{
		{"release build (ldflags win)", "v0.2.0", "fedcba9876543210fedcba9876543210fedcba98", "2026-12-01T08:00:00Z", vcs,
			"mcplint 0.2.0 (commit fedcba987654, built 2026-12-01T08:00:00Z, " + goLine + ")"},
		{"git checkout build", "", "", "", vcs,
			"mcplint " + devVersion + " (commit 0123456789ab-dirty, committed 2026-11-30T12:00:00Z, " + goLine + ")"},
		{"go install @v0.3.1", "", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1"}},
			"mcplint 0.3.1 (commit unknown, build date unknown, " + goLine + ")"},
		{"no build info", "", "", "", nil,
			"mcplint " + devVersion + " (commit unknown, build date unknown, " + goLine + ")"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mergeBuildInfo(tc.version, tc.commit, tc.date, tc.info).String(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestVersionFlag builds mcplint the way the release workflow does (with
// -ldflags) and checks that --version and the version command agree.
func TestVersionFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcplint")
	}
	bin := filepath.Join(t.TempDir(), "mcplint")
	ld := "-s -w -X main.Version=9.8.7 -X main.Commit=abcdef1234567890 -X main.Date=2026-12-24T10:00:00Z"
	if out, err := exec.Command("go", "build", "-trimpath", "-ldflags", ld, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var outs []string
	for _, args := range [][]string{{"--version"}, {"version"}} {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("mcplint %v: %v\n%s", args, err, stderr.String())
		}
		outs = append(outs, stdout.String())
	}
	want := "mcplint 9.8.7 (commit abcdef123456, built 2026-12-24T10:00:00Z, "
	if !strings.HasPrefix(outs[0], want) || !strings.HasSuffix(outs[0], ")\n") || strings.Count(outs[0], "\n") != 1 {
		t.Errorf("--version = %q, want %q...", outs[0], want)
	}
	if outs[0] != outs[1] {
		t.Errorf("--version %q and version %q differ", outs[0], outs[1])
	}
}
