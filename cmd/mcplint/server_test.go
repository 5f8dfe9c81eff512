package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
)

// crashingServer is a FastMCP tool that awaits a worker thread: MCP101,
// whose safe fix adds a checkpoint after the await.
const crashingServer = `"""A server."""

from anyio import to_thread
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
async def work(n: int) -> int:
    return await to_thread.run_sync(sum, range(n))
`

func writeProject(t *testing.T, dir string) {
	t.Helper()
	for name, text := range map[string]string{
		"requirements.txt": "mcp==1.26.0\n",
		"server.py":        crashingServer,
		"pyproject.toml":   "[tool.mcplint]\nignore = [\"MCP001\"]\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestServerNeovim drives `mcplint server` with a real LSP client: Neovim,
// headless, scripted in Lua (testdata/nvim/server.lua): the diagnostic
// appears on open, the safe code action is applied and saved, and the
// diagnostic goes. The file then holds what `mcplint check --fix` writes.
// The project's [tool.mcplint] ignores MCP001, and the server must too.
func TestServerNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("MCPLINT_NO_SKIP") != "" {
			t.Fatal("nvim is needed (Debian's neovim; MCPLINT_NO_SKIP is set)")
		}
		t.Skip("nvim not installed (Debian's neovim)")
	}
	bin, err := exec.LookPath("mcplint") // this test binary, as testscript.Main puts it in $PATH
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("testdata/nvim/server.lua")
	if err != nil {
		t.Fatal(err)
	}
	dir, home := t.TempDir(), t.TempDir()
	writeProject(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = dir
	// Neovim's state (its LSP log) goes to a folder of the test's.
	cmd.Env = append(os.Environ(), "MCPLINT_BIN="+bin, "MCPLINT_DIR="+dir, "HOME="+home,
		"XDG_CONFIG_HOME="+home, "XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home, "XDG_DATA_HOME="+home)
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		log, _ := os.ReadFile(filepath.Join(home, "nvim", "lsp.log"))
		t.Fatalf("nvim: %v\n%s\nLSP log:\n%s", err, out.Bytes(), log)
	}

	// What the fixer writes for the same project.
	ref := t.TempDir()
	writeProject(t, ref)
	o, err := fix.Run([]string{ref}, engine.Options{Jobs: 1}, fix.Mode{})
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, f := range o.Files {
		if filepath.Base(f.Path) == "server.py" {
			want = f.New
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, "server.py"))
	if err != nil {
		t.Fatal(err)
	}
	if want == nil || !bytes.Equal(got, want) {
		t.Errorf("server.py after the code action:\n%s\nwant (the fixer's):\n%s", got, want)
	}
}
