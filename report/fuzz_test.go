package report

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzRenderers renders findings whose path, message and source come from
// the fuzzer in every format of this package: text, github and markdown
// print nothing a terminal or a runner would act on (no control character
// but newlines, no workflow command but the annotations), every markdown
// table row keeps its cells, and JSON stays valid.
func FuzzRenderers(f *testing.F) {
	for _, p := range hostilePaths {
		f.Add(p, hostileMessage, hostileSource)
	}
	f.Add("server.py", "plain message", "x = 1\n")
	f.Add("a|b`c", "`x` [y](z) <b>", "```\n~~~\n")
	f.Fuzz(func(t *testing.T, path, msg, src string) {
		if !strings.Contains(src, "anyio.to_thread") {
			src += "\nanyio.to_thread\n"
		}
		res := hostileResult([]string{path, path + "2"})
		for _, p := range []string{path, path + "2"} {
			res.Sources[p] = []byte(src)
		}
		for i := range res.Diagnostics {
			res.Diagnostics[i].Message = msg
			res.Diagnostics[i].Start.Offset, res.Diagnostics[i].End.Offset = 0, 0
			res.Diagnostics[i].Fixes[0].Edits[0].Start, res.Diagnostics[i].Fixes[0].Edits[0].End = 0, 0
		}
		text := render(t, Text, res, Options{})
		printable(t, "text", text)
		gh := renderGitHub(t, res, GitHubLimits{PerLevel: 1, PerJob: 1})
		printable(t, "github", gh)
		commands := 0
		for _, line := range strings.Split(gh, "\n") {
			// The runner trims leading white space before it looks for "::".
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
				commands++
				if !strings.HasPrefix(line, "::error file=") {
					t.Fatalf("github: a workflow command from the input: %q", line)
				}
			}
		}
		if commands != 1 {
			t.Fatalf("github: %d workflow commands, want 1", commands)
		}
		md := render(t, Markdown, res, Options{})
		printable(t, "markdown", md)
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "|") {
				if cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1; cells != 7 && cells != 4 {
					t.Fatalf("markdown: a table row with %d cells: %q", cells, line)
				}
			}
		}
		if js := render(t, JSON, res, Options{}); !json.Valid([]byte(js)) {
			t.Fatal("json: invalid")
		}
	})
}
