package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const offloadServer = `import anyio
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
async def work() -> str:
    def f() -> str:
        return "x"
    return await anyio.to_thread.run_sync(f)
`

// File names that hold a newline and a workflow command: with more findings
// than GitHub annotates, the overflow list printed them raw and the runner
// would have run "::error title=pwned::..." and "::stop-commands::...".
func TestGitHubFormatHostileFileNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte("mcp==1.20.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		name := fmt.Sprintf("s%02d\n::error title=pwned::owned\n::stop-commands::tok\x1b[2J.py", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(offloadServer), 0o644); err != nil {
			t.Skip("this file system refuses the name:", err)
		}
	}
	for _, format := range []string{"github", "text", "markdown"} {
		var out bytes.Buffer
		root := newRootCmd()
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs([]string{"check", "--no-color", "--format", format, dir})
		_ = root.Execute() // findings: an exit code error
		annotations := 0
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(line, "::") {
				annotations++
				if !strings.HasPrefix(line, "::error file=") && !strings.HasPrefix(line, "::warning file=") {
					t.Errorf("%s: a workflow command from a file name: %q", format, line)
				}
			}
			if strings.ContainsAny(line, "\x1b\r") {
				t.Errorf("%s: a raw escape in %q", format, line)
			}
		}
		if format == "github" && (annotations == 0 || annotations > 10 || !strings.Contains(out.String(), `\n::error title=pwned::owned\n::stop-commands::tok\x1b[2J.py:11:18: error MCP101`)) {
			t.Errorf("github: %d annotations, or the overflow list is missing:\n%s", annotations, out.String())
		}
		if format != "github" && annotations != 0 {
			t.Errorf("%s: %d lines start with ::", format, annotations)
		}
	}
}
