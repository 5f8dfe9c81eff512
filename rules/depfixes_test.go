package rules_test

import (
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/rules/rulestest"
)

// The fixes of the dependency rules say why a bump is not applied, and
// which lock entries need a re-lock (issue 10 items 2 and 7; issue 9 items 4
// and 12). The fixture harness checks locations and goldens; this checks
// the words.
func TestDependencyFixMessages(t *testing.T) {
	type want struct {
		file string
		line int
		// per fix alternative: its applicability and words it must say
		fixes []fixWant
		msg   []string // words of the finding's message
	}
	cases := []struct {
		dir   string
		codes []string
		wants []want
	}{
		{"MCP001/bump-blocked-fastmcp", []string{"MCP001"}, []want{{file: "pyproject.toml", line: 3, fixes: []fixWant{
			{rules.DisplayOnly, []string{"not applied", "would not start", "McpError (errors.py:1)", "mcp.server.fastmcp (server.py:1)"}},
			{rules.Unsafe, []string{"guard"}}, // the applicable complete remedy, before the partial floor
			{rules.Safe, []string{"raise the floor: mcp>=1.27.0,<2"}},
		}}}},
		{"MCP001/bump-blocked-lowlevel", []string{"MCP001"}, []want{{file: "requirements.txt", line: 1, fixes: []fixWant{
			{rules.DisplayOnly, []string{"low-level decorator @server.call_tool() (server.py:7)", "@server.list_tools() (server.py:12)"}},
			{rules.Unsafe, []string{"guard"}},
			{rules.Safe, []string{"pin mcp==1.27.0, 1.27.0 being the first release with the transport-close fix"}},
		}}}},
		{"MCP001/bump-blocked-fastmcp3", []string{"MCP001"}, []want{{file: "requirements.txt", line: 2, fixes: []fixWant{
			{rules.DisplayOnly, []string{"fastmcp below 4 requires mcp 1.x", "fastmcp to >=4,<5"}},
			{rules.Safe, []string{"raise the floor: mcp>=1.27.0,<2"}},
		}}}},
		{"MCP001/pin-comment", []string{"MCP001"}, []want{
			{file: "requirements.txt", line: 4, fixes: []fixWant{
				{rules.DisplayOnly, []string{"a comment there pins it deliberately", "Keep mcp on 1.x"}},
				{rules.DisplayOnly, []string{"a comment there pins it deliberately"}},
			}},
			{file: "requirements-dev.txt", line: 1, fixes: []fixWant{
				{rules.DisplayOnly, []string{"pins it deliberately", "staging cluster"}},
				{rules.DisplayOnly, []string{"pins it deliberately"}},
			}},
			{file: "requirements-ci.txt", line: 3, fixes: []fixWant{{rules.Unsafe, nil}, {rules.Safe, []string{"mcp~=1.27"}}}},
		}},
		{"MCP001/relock", []string{"MCP001"}, []want{{file: "pyproject.toml", line: 4, fixes: []fixWant{
			{rules.Unsafe, []string{"re-lock: uv.lock pins mcp 1.20.0, which >=2,<3 excludes"}},
			{rules.Safe, []string{"pin mcp==1.27.0", "re-lock: uv.lock pins mcp 1.20.0, which ==1.27.0 excludes"}},
		}}}},
		{"MCP001/requirements", []string{"MCP001"}, []want{
			{file: "requirements.txt", line: 4, fixes: []fixWant{
				{rules.DisplayOnly, []string{"--hash"}}, {rules.DisplayOnly, []string{"--hash"}},
			}},
			{file: "base.txt", line: 2, msg: []string{"python-sdk@v1.25.0` admits only mcp 1.x"}, fixes: []fixWant{
				{rules.DisplayOnly, []string{"point the reference at a 2.x release"}},
			}},
		}},
		{"MCP001/git-source", []string{"MCP001"}, []want{{file: "pyproject.toml", line: 7,
			msg:   []string{"installed from git https://github.com/modelcontextprotocol/python-sdk at 3f0d1a2", "uv.lock resolves it to mcp 1.26.1.dev3+g3f0d1a2"},
			fixes: []fixWant{{rules.DisplayOnly, []string{"point the source at a 2.x release", "re-lock"}}}}}},
		{"MCP001/noserver-client", []string{"MCP001"}, []want{{file: "pyproject.toml", line: 5,
			msg: []string{"not an MCP server", "no handler is registered and no server constructed"}}}},
		{"MCP002/fastmcp2-pin", []string{"MCP002"}, []want{{file: "requirements.txt", line: 1,
			msg:   []string{"fastmcp 2.x runs sync def handlers inline"},
			fixes: []fixWant{{rules.DisplayOnly, []string{"two breaking migrations, not applied"}}}}}},
		{"MCP002/fastmcp2-lock", []string{"MCP002"}, []want{{file: "pyproject.toml", line: 4,
			fixes: []fixWant{{rules.DisplayOnly, []string{"two breaking migrations", "re-lock: uv.lock pins fastmcp 2.12.0"}}}}}},
		// fastmcp 4 requires mcp 2: the mcp pin beside it moves in the same
		// fix; code that imports what mcp 2 removed (a test too) blocks it.
		{"MCP002/bump-moves-mcp", []string{"MCP002"}, []want{{file: "requirements.txt", line: 1, fixes: []fixWant{
			{rules.Unsafe, []string{"with it, as fastmcp 4 requires: `mcp == 1.28.1` to mcp>=2,<3"}},
		}}}},
		{"MCP002/bump-blocked-tests", []string{"MCP002"}, []want{{file: "requirements.txt", line: 1, fixes: []fixWant{
			{rules.DisplayOnly, []string{"not applied, fastmcp 4 runs on mcp 2", "McpError (tests/test_errors.py:1)"}},
		}}}},
		// A manifest moved to mcp 2 beside a stale lock: re-lock, no guard.
		{"MCP001/stalelock-guard", []string{"MCP001"}, []want{{file: "uv.lock", line: 12,
			msg:   []string{"the lock is stale"},
			fixes: []fixWant{{rules.DisplayOnly, []string{"re-lock"}}}}}},
		{"MCP002/relock-after-bump", []string{"MCP002"}, []want{{file: "uv.lock", line: 12,
			fixes: []fixWant{{rules.DisplayOnly, []string{"re-lock"}}, {rules.Unsafe, []string{"guard"}}}}}},
		{"MCP002/pin-comment", []string{"MCP002"}, []want{{file: "requirements.txt", line: 1,
			fixes: []fixWant{{rules.DisplayOnly, []string{"pins it deliberately"}}}}}},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			dir := "../testdata/rules/" + c.dir
			opts := rulestest.Options(t, c.codes...)
			opts.ShowSafe = true
			res, err := engine.Run([]string{dir}, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.wants {
				var d *rules.Diagnostic
				for i := range res.Diagnostics {
					if res.Diagnostics[i].Path == dir+"/"+w.file && res.Diagnostics[i].Start.Line == w.line {
						d = &res.Diagnostics[i]
					}
				}
				if d == nil {
					t.Errorf("%s:%d: no finding", w.file, w.line)
					continue
				}
				for _, s := range w.msg {
					if !strings.Contains(d.Message, s) {
						t.Errorf("%s:%d: message lacks %q: %s", w.file, w.line, s, d.Message)
					}
				}
				if len(d.Fixes) != len(w.fixes) {
					t.Errorf("%s:%d: %d fixes, want %d: %+v", w.file, w.line, len(d.Fixes), len(w.fixes), d.Fixes)
					continue
				}
				for i, fw := range w.fixes {
					f := d.Fixes[i]
					if f.Applicability != fw.app || (fw.app == rules.DisplayOnly) != (len(f.Edits) == 0) {
						t.Errorf("%s:%d fix %d: %s with %d edits, want %s", w.file, w.line, i+1, f.Applicability, len(f.Edits), fw.app)
					}
					for _, s := range fw.words {
						if !strings.Contains(f.Message, s) {
							t.Errorf("%s:%d fix %d lacks %q: %s", w.file, w.line, i+1, s, f.Message)
						}
					}
				}
			}
		})
	}
}

type fixWant struct {
	app   rules.Applicability
	words []string
}
