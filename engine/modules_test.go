package engine

import "testing"

// TestModuleNamesProjectFolderPackage: an __init__.py in the project's own
// folder makes the folder a package only when its name is an identifier
// Python can import; web-eval-agent's modules are named as its code
// imports them (webEvalAgent.mcp_server), never after the checkout folder.
func TestModuleNamesProjectFolderPackage(t *testing.T) {
	for _, tc := range []struct {
		dir, want string
	}{
		{"work/web-eval-agent", "webEvalAgent.mcp_server"},
		{"work/Operative-Sh+web-eval-agent", "webEvalAgent.mcp_server"},
		{"work/2024", "webEvalAgent.mcp_server"},
		{"work/evalagent", "evalagent.webEvalAgent.mcp_server"},
	} {
		pr := &project{dir: tc.dir, pyFiles: []string{
			tc.dir + "/__init__.py", tc.dir + "/webEvalAgent/__init__.py", tc.dir + "/webEvalAgent/mcp_server.py",
		}}
		names := newModuleNames(pr)
		if got := names.name(tc.dir + "/webEvalAgent/mcp_server.py"); got != tc.want {
			t.Errorf("%s: name %q, want %q", tc.dir, got, tc.want)
		}
		if got := names.files("webEvalAgent.mcp_server"); len(got) != 1 {
			t.Errorf("%s: webEvalAgent.mcp_server names %v", tc.dir, got)
		}
	}
}
