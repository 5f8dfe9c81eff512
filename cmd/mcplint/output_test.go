package main

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/config"
	"github.com/spf13/cobra"
)

func TestOutputSpecs(t *testing.T) {
	for _, tc := range []struct {
		formats, outputs []string
		want             []outputSpec
		err              string
	}{
		{nil, nil, []outputSpec{{"full", ""}}, ""},
		{nil, []string{"out.txt"}, []outputSpec{{"full", "out.txt"}}, ""},
		{[]string{"sarif", "github"}, []string{"a.sarif"}, []outputSpec{{"sarif", "a.sarif"}, {"github", ""}}, ""},
		{[]string{"json", "text"}, []string{"a.json", "-"}, []outputSpec{{"json", "a.json"}, {"full", ""}}, ""},
		{[]string{"JSON"}, nil, []outputSpec{{"json", ""}}, ""},
		{[]string{"json", "text"}, nil, nil, "both write to stdout"},
		{[]string{"json", "sarif"}, []string{"x", "./x"}, nil, "both write to ./x"},
		{[]string{"json"}, []string{"a", "b"}, nil, "2 --output for 1 --output-format"},
		{[]string{"yaml"}, nil, nil, `unknown --output-format "yaml"`},
	} {
		got, err := outputSpecs(tc.formats, tc.outputs)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("outputSpecs(%q, %q) error = %v, want %q", tc.formats, tc.outputs, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("outputSpecs(%q, %q) = %v, %v; want %v", tc.formats, tc.outputs, got, err, tc.want)
		}
	}
}

// MCPLINT_OUTPUT_FORMAT is the format when no flag gives one.
func TestOutputFormatEnv(t *testing.T) {
	t.Setenv(outputFormatEnv, "concise")
	if got, err := outputSpecs(nil, nil); err != nil || !reflect.DeepEqual(got, []outputSpec{{"concise", ""}}) {
		t.Errorf("with %s=concise: %v, %v", outputFormatEnv, got, err)
	}
	if got, err := outputSpecs([]string{"json"}, nil); err != nil || !reflect.DeepEqual(got, []outputSpec{{"json", ""}}) {
		t.Errorf("the flag beats %s: %v, %v", outputFormatEnv, got, err)
	}
	t.Setenv(outputFormatEnv, "yml")
	if _, err := outputSpecs(nil, nil); err == nil || !strings.Contains(err.Error(), "unknown "+outputFormatEnv+` "yml"`) {
		t.Errorf("a bad %s: %v", outputFormatEnv, err)
	}
}

func TestUseColor(t *testing.T) {
	cmd := func(color string) *cobra.Command {
		c := newRootCmd()
		if color != "" {
			if err := c.Flags().Set("color", color); err != nil {
				t.Fatal(err)
			}
		}
		return c
	}
	for _, env := range []string{"NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"} {
		t.Setenv(env, "")
	}
	if useColor(cmd(""), &bytes.Buffer{}, false) {
		t.Error("color on a buffer")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if useColor(cmd(""), f, false) {
		t.Error("color on a regular file")
	}
	for _, tc := range []struct {
		color   string
		env     []string
		noColor bool
		want    bool
	}{
		{"always", nil, false, true},
		{"always", []string{"NO_COLOR", "1"}, false, true}, // the flag beats the environment
		{"always", nil, true, false},                       // --no-color is --color never
		{"never", []string{"FORCE_COLOR", "1"}, false, false},
		{"", []string{"FORCE_COLOR", "1"}, false, true},
		{"", []string{"CLICOLOR_FORCE", "1"}, false, true},
		{"", []string{"FORCE_COLOR", "0"}, false, false},
		{"", []string{"FORCE_COLOR", "1", "NO_COLOR", "1"}, false, false},
	} {
		for i := 0; i < len(tc.env); i += 2 {
			t.Setenv(tc.env[i], tc.env[i+1])
		}
		if got := useColor(cmd(tc.color), &bytes.Buffer{}, tc.noColor); got != tc.want {
			t.Errorf("--color %q, env %q, --no-color %v: color = %v, want %v", tc.color, tc.env, tc.noColor, got, tc.want)
		}
		for _, env := range []string{"NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"} {
			t.Setenv(env, "")
		}
	}
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return // no terminal here: the cases above are what can be checked
	}
	defer tty.Close()
	if !useColor(cmd(""), tty, false) {
		t.Error("no color on a terminal")
	}
	if useColor(cmd(""), tty, true) {
		t.Error("color with --no-color")
	}
	t.Setenv("NO_COLOR", "1")
	if useColor(cmd(""), tty, false) {
		t.Error("color with NO_COLOR")
	}
}

// The audit's progress goes only to a terminal: a log or a pipe gets none.
func TestAuditProgressNotOnAPipe(t *testing.T) {
	var b bytes.Buffer
	p := auditProgress(&b, 3)
	p(0, "a")
	p(3, "")
	if b.Len() != 0 {
		t.Errorf("progress on a buffer: %q", b.String())
	}
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return // no terminal here: the case above is what can be checked
	}
	defer tty.Close()
	if !isTerminal(tty) {
		t.Error("/dev/tty is not a terminal")
	}
}

// rules --output-format json quotes the configuration (Why) that a
// repository writes: no raw bidi control or NEL reaches it, as in every
// other JSON output.
func TestRulesJSONEscapes(t *testing.T) {
	var b bytes.Buffer
	sel := map[string]config.Decision{"MCP101": {On: false, Why: "ignore = [\"MCP101\"] in a\u202egnp.toml\u0085"}}
	if err := writeRulesJSON(&b, nil, sel); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); strings.ContainsAny(s, "\u202e\u0085") || !strings.Contains(s, `\u202e`) {
		t.Errorf("raw controls in the rules JSON, or the escape missing:\n%.300s", s)
	}
}
