package rules

import (
	"strings"
	"testing"
)

// The fix is chosen by what the body does and who calls the function.
func TestMCP103FixChoice(t *testing.T) {
	server := `import time

from fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool
def names() -> list[str]:
    return sorted(["b", "a"])


@mcp.tool(description="Sleep.")
def nap(seconds: float, *, label: str = "x") -> str:
    """Sleep a while."""
    time.sleep(seconds)
    return label


@mcp.tool
def work(n: int) -> int:
    time.sleep(n)
    return n
`
	tests := `from server import nap


def test_nap():
    assert nap(0, label="y") == "y"
`
	fake := `from fastmcp import FastMCP

fake = FastMCP("fake")


@fake.tool
def probe() -> str:
    return open("x").read()
`
	files := map[string]string{"server.py": server, "tests/test_server.py": tests, "tests/conftest.py": fake}
	diags := projectRun(t, mcp103, files)
	byName := map[string][]Fix{}
	for _, d := range diags {
		for _, n := range []string{"names", "nap", "work", "probe"} {
			if strings.Contains(d.Message, " "+n+" ignores") {
				byName[n] = d.Fixes
			}
		}
	}
	if len(byName) != 4 {
		t.Fatalf("findings: %+v", diags)
	}
	// No blocking call: run_in_thread=False first (unsafe: fastmcp version
	// unknown here), then async def in place, with no thread.
	if f := byName["names"]; len(f) != 2 || !strings.Contains(f[0].Message, "run_in_thread=False") || !strings.Contains(f[1].Message, "async def") || len(f[1].Edits) != 1 {
		t.Errorf("names: %+v", f)
	}
	// Blocking and called from a test: the def stays, a wrapper registers.
	f := byName["nap"]
	if len(f) != 2 || !strings.Contains(f[0].Message, "keep nap a sync def for its direct callers (tests/test_server.py:5)") {
		t.Fatalf("nap: %+v", f)
	}
	got := applyFix(t, server, f[0])
	want := `import time

import anyio
from fastmcp import FastMCP

mcp = FastMCP("demo")


@mcp.tool
def names() -> list[str]:
    return sorted(["b", "a"])


def nap(seconds: float, *, label: str = "x") -> str:
    """Sleep a while."""
    time.sleep(seconds)
    return label


@mcp.tool(description="Sleep.", name="nap")
async def _nap_async(seconds: float, *, label: str = "x") -> str:
    """Sleep a while."""
    return await anyio.to_thread.run_sync(
        lambda: nap(seconds, label=label), abandon_on_cancel=True
    )


@mcp.tool
def work(n: int) -> int:
    time.sleep(n)
    return n
`
	if got != want {
		t.Errorf("nap wrapper:\n%s\nwant:\n%s", got, want)
	}
	files2 := map[string]string{"server.py": got, "tests/test_server.py": tests}
	for _, d := range projectRun(t, mcp103, files2) {
		if strings.Contains(d.Message, " nap runs") || strings.Contains(d.Message, "_nap_async") {
			t.Errorf("finding not gone after the wrapper fix: %s", d.Message)
		}
	}
	// Blocking, no direct caller: rewritten in place.
	if f := byName["work"]; len(f) != 2 || !strings.Contains(f[0].Message, "make work async def and run its body") {
		t.Errorf("work: %+v", f)
	}
	// Defined in test code: advice only.
	for _, fx := range byName["probe"] {
		if fx.Applicability != DisplayOnly || !strings.Contains(fx.Message, "defined in test code") {
			t.Errorf("probe: %+v", fx)
		}
	}
}

// A registration call that serves several sync handlers (a loop over a
// registry of decorator wrappers) gets no run_in_thread=False edit: it would
// move every handler of the loop onto the event loop. A loop that serves one
// sync handler keeps the edit.
func TestMCP103FixSharedRegistration(t *testing.T) {
	files := map[string]string{
		"registry.py": `import functools

SHARED = []
SOLO = []


def shared_tool(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    SHARED.append((func.__name__, wrapper))
    return wrapper


def solo_tool(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    SOLO.append(wrapper)
    return wrapper


def register(mcp):
    for _, w in SHARED:
        mcp.tool()(w)
    for w in SOLO:
        mcp.tool()(w)
`,
		"tools.py": `from registry import shared_tool, solo_tool


@shared_tool
def add(a: int, b: int) -> int:
    return a + b


@shared_tool
def read_note(path: str) -> str:
    return open(path).read()


@solo_tool
def ping() -> str:
    return "pong"
`,
		"server.py": `from fastmcp import FastMCP

import tools
from registry import register

mcp = FastMCP("x")
register(mcp)
`,
	}
	diags := projectRun(t, mcp103, files)
	byName := map[string][]Fix{}
	for _, d := range diags {
		for _, n := range []string{"add", "read_note", "ping"} {
			if strings.Contains(d.Message, " "+n+" ignores") {
				byName[n] = d.Fixes
			}
		}
	}
	if len(byName) != 3 {
		t.Fatalf("findings: %+v", diags)
	}
	for name, other := range map[string]string{"add": "read_note", "read_note": "add"} {
		for _, fx := range byName[name] {
			if len(fx.Edits) > 0 {
				t.Errorf("%s: fix %q edits the shared registration", name, fx.Message)
			}
		}
		if fs := byName[name]; len(fs) == 0 || fs[0].Applicability != DisplayOnly || !strings.Contains(fs[0].Message, "also registers "+other) {
			t.Errorf("%s: fixes %+v, want a display-only fix naming %s", name, fs, other)
		}
	}
	if fs := byName["ping"]; len(fs) == 0 || len(fs[0].Edits) != 1 || !strings.Contains(fs[0].Edits[0].New, "run_in_thread=False") || fs[0].Applicability == Safe {
		t.Errorf("ping: fixes %+v, want an unsafe run_in_thread=False edit", fs)
	}
}
