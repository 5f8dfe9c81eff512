package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var (
	docFence    = regexp.MustCompile("^\\s*(```|~~~)")
	docCodeSpan = regexp.MustCompile("`([^`]+)`")
	// An mcplint command line: the word mcplint (also ./cmd/mcplint,
	// bin/mcplint) followed by its arguments, up to a comment, a pipe, a
	// command separator or the end of a $(...).
	docInvocation = regexp.MustCompile(`(?:^|[\s/(])mcplint((?:[ \t]+[^\s|;&#)]+)*)`)
)

// flagOf reports whether name (without its dashes) is a flag of c, its
// aliases and inherited flags included.
func flagOf(c *cobra.Command, name string, short bool) bool {
	for _, fs := range []*pflag.FlagSet{c.Flags(), c.InheritedFlags()} {
		if short && len(name) == 1 && fs.ShorthandLookup(name) != nil || !short && fs.Lookup(name) != nil {
			return true
		}
	}
	return false
}

// docFlags returns every flag a command line gives mcplint, with the
// subcommand it goes to.
func docFlags(root *cobra.Command, line string) (flags []string, cmds []*cobra.Command) {
	for _, m := range docInvocation.FindAllStringSubmatch(line, -1) {
		words := strings.Fields(m[1])
		c := root
		if len(words) > 0 {
			for _, sub := range root.Commands() {
				if sub.Name() == words[0] {
					c = sub
				}
			}
		}
		for _, w := range words {
			if strings.HasPrefix(w, "-") && w != "-" && w != "--" {
				name, _, _ := strings.Cut(w, "=")
				flags, cmds = append(flags, name), append(cmds, c)
			}
		}
	}
	return flags, cmds
}

// TestDocsUseTheCLIsFlags: every flag the README and docs/ give an mcplint
// command exists on that command, and every flag the README names alone
// (`--isolated`) exists on some command.
func TestDocsUseTheCLIsFlags(t *testing.T) {
	root := newRootCmd()
	root.InitDefaultHelpFlag()
	root.InitDefaultVersionFlag()
	for _, c := range root.Commands() {
		c.InitDefaultHelpFlag()
	}
	known := func(c *cobra.Command, flag string) bool {
		if strings.HasPrefix(flag, "--") {
			return flagOf(c, flag[2:], false)
		}
		return flagOf(c, flag[1:], true)
	}
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in := false
		for i, l := range strings.Split(string(b), "\n") {
			if docFence.MatchString(l) {
				in = !in
				continue
			}
			var segments []string
			if in {
				cmd, _, _ := strings.Cut(l, " #")
				segments = append(segments, cmd)
			} else {
				for _, m := range docCodeSpan.FindAllStringSubmatch(l, -1) {
					segments = append(segments, m[1])
					// The README names mcplint's flags alone, as `--isolated`.
					if filepath.Base(f) == "README.md" && strings.HasPrefix(m[1], "--") {
						flag, _, _ := strings.Cut(strings.Fields(m[1])[0], "=")
						checked++
						found := false
						for _, c := range append(root.Commands(), root) {
							found = found || known(c, flag)
						}
						if !found {
							t.Errorf("%s:%d: `%s` is no flag of any mcplint command", f, i+1, flag)
						}
					}
				}
			}
			for _, s := range segments {
				if strings.Contains(s, "go test ") {
					continue // the package's tests, not the CLI
				}
				flags, cmds := docFlags(root, s)
				for k, flag := range flags {
					checked++
					if !known(cmds[k], flag) {
						t.Errorf("%s:%d: %s is no flag of `%s` (in %q)", f, i+1, flag, cmds[k].CommandPath(), strings.TrimSpace(s))
					}
				}
			}
		}
	}
	if checked < 40 {
		t.Errorf("checked %d flags in %v: the docs' command lines no longer match?", checked, files)
	}
}

// TestReadmeSampleOutput: the output the README shows for the built-in
// example is what mcplint prints for it, in the full and concise formats.
func TestReadmeSampleOutput(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("NO_COLOR", "1")
	t.Setenv("MCPLINT_OUTPUT_FORMAT", "")
	t.Chdir("../..")
	var outputs []string
	for _, format := range []string{"full", "concise"} {
		code, out := runCLI(t, "check", "--no-cache", "--output-format", format, "testdata/examples/weather")
		if code != exitFindings {
			t.Fatalf("mcplint check --output-format %s testdata/examples/weather: exit %d, want %d:\n%s", format, code, exitFindings, out)
		}
		outputs = append(outputs, out)
	}
	samples := 0
	for _, m := range regexp.MustCompile("(?s)```text\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		if !strings.HasPrefix(m[1], "testdata/examples/weather/") {
			continue
		}
		samples++
		if !strings.Contains(outputs[0], m[1]) && !strings.Contains(outputs[1], m[1]) {
			t.Errorf("the README shows output mcplint no longer prints for testdata/examples/weather:\n%s\n--- full\n%s\n--- concise\n%s", m[1], outputs[0], outputs[1])
		}
	}
	if samples < 2 {
		t.Errorf("found %d samples of the example's output in the README, want the full and the concise one", samples)
	}
}
