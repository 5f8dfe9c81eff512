package main

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestOutputSpecs(t *testing.T) {
	for _, tc := range []struct {
		formats, outputs []string
		want             []outputSpec
		err              string
	}{
		{nil, nil, []outputSpec{{"text", ""}}, ""},
		{nil, []string{"out.txt"}, []outputSpec{{"text", "out.txt"}}, ""},
		{[]string{"sarif", "github"}, []string{"a.sarif"}, []outputSpec{{"sarif", "a.sarif"}, {"github", ""}}, ""},
		{[]string{"json", "text"}, []string{"a.json", "-"}, []outputSpec{{"json", "a.json"}, {"text", ""}}, ""},
		{[]string{"JSON"}, nil, []outputSpec{{"json", ""}}, ""},
		{[]string{"json", "text"}, nil, nil, "both write to stdout"},
		{[]string{"json", "sarif"}, []string{"x", "./x"}, nil, "both write to ./x"},
		{[]string{"json"}, []string{"a", "b"}, nil, "2 --output for 1 --format"},
		{[]string{"yaml"}, nil, nil, `unknown --format "yaml"`},
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

func TestUseColor(t *testing.T) {
	if useColor(&bytes.Buffer{}, false) {
		t.Error("color on a buffer")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if useColor(f, false) {
		t.Error("color on a regular file")
	}
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return // no terminal here: the cases above are what can be checked
	}
	defer tty.Close()
	t.Setenv("NO_COLOR", "")
	if !useColor(tty, false) {
		t.Error("no color on a terminal")
	}
	if useColor(tty, true) {
		t.Error("color with --no-color")
	}
	t.Setenv("NO_COLOR", "1")
	if useColor(tty, false) {
		t.Error("color with NO_COLOR")
	}
}
