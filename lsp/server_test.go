package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/rules"
	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// The protocol tests drive a Server in process over a pipe with a
// JSON-RPC client, and read what it publishes.

const (
	requirements = "mcp==1.26.0\n"
	serverPy     = `from mcp.server.fastmcp import FastMCP

from helpers import crunch

mcp = FastMCP("x")


@mcp.tool()
async def work(n: int) -> int:
    return await crunch(n)
`
	helpersPy = `from anyio import to_thread


async def crunch(n: int) -> int:
    return await to_thread.run_sync(sum, range(n))
`
)

// wireDiag is a published diagnostic as the client reads it.
type wireDiag struct {
	Range struct {
		Start struct{ Line, Character int }
		End   struct{ Line, Character int }
	}
	Severity int
	Code     string
	Source   string
	Message  string
	Related  []struct {
		Location struct {
			URI   string
			Range struct{ Start struct{ Line, Character int } }
		}
		Message string
	} `json:"relatedInformation"`
}

type client struct {
	t    *testing.T
	conn *jsonrpc2.Conn
	dir  string

	mu      sync.Mutex
	diags   map[string][]wireDiag // by URI, the latest publication
	counts  map[string]int        // publications per URI
	changed chan struct{}
	msgs    []string // window/showMessage
	version map[string]int
}

func newClient(t *testing.T, files map[string]string) *client {
	t.Helper()
	return newClientWith(t, files, map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}}}})
}

// newClientWith starts a server on a project made of files for a client
// with capabilities.
func newClientWith(t *testing.T, files map[string]string, capabilities map[string]any) *client {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return newClientConfig(t, dir, capabilities, func([]string) (engine.Options, error) { return engine.Options{Jobs: 1}, nil })
}

// newClientConfig starts a server with config on the project in dir.
func newClientConfig(t *testing.T, dir string, capabilities map[string]any, config func([]string) (engine.Options, error)) *client {
	t.Helper()
	srv := New(Options{
		Config:   config,
		Explain:  func(code string, _ []string) string { return rules.Lookup(code).Markdown() },
		Debounce: 50 * time.Millisecond,
	})
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(ctx, a)
	}()
	c := &client{t: t, dir: dir, diags: map[string][]wireDiag{}, counts: map[string]int{}, changed: make(chan struct{}, 1), version: map[string]int{}}
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(c.handle))
	t.Cleanup(func() {
		c.conn.Close()
		cancel()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	var init json.RawMessage
	c.call("initialize", map[string]any{
		"processId": nil, "rootUri": pathURI(dir),
		"capabilities": capabilities,
	}, &init)
	c.notify("initialized", map[string]any{})
	return c
}

func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p struct {
			URI         string
			Diagnostics []wireDiag
		}
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			c.t.Errorf("publishDiagnostics: %v", err)
			return nil, nil
		}
		c.diags[p.URI] = p.Diagnostics
		c.counts[p.URI]++
		select {
		case c.changed <- struct{}{}:
		default:
		}
	case "window/showMessage":
		c.msgs = append(c.msgs, string(*req.Params))
		select {
		case c.changed <- struct{}{}:
		default:
		}
	}
	return nil, nil
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) uri(name string) string { return pathURI(filepath.Join(c.dir, name)) }

func (c *client) open(name, text string) {
	c.mu.Lock()
	c.version[name] = 1
	c.mu.Unlock()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": c.uri(name), "languageId": "python", "version": 1, "text": text}})
}

func (c *client) change(name, text string) {
	c.mu.Lock()
	c.version[name]++
	v := c.version[name]
	c.mu.Unlock()
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri(name), "version": v}, "contentChanges": []any{map[string]any{"text": text}}})
}

// codes returns the codes published for a file.
func (c *client) codes(name string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, d := range c.diags[c.uri(name)] {
		out = append(out, d.Code)
	}
	return out
}

// await waits (bounded) until cond holds on what was published.
func (c *client) await(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.After(30 * time.Second)
	for !cond() {
		select {
		case <-c.changed:
		case <-deadline:
			c.mu.Lock()
			c.t.Fatalf("timed out waiting for %s; published: %+v; messages: %v", what, c.diags, c.msgs)
		}
	}
}

func has(codes []string, code string) bool {
	for _, c := range codes {
		if c == code {
			return true
		}
	}
	return false
}

func project() map[string]string {
	return map[string]string{"requirements.txt": requirements, "server.py": serverPy, "helpers.py": helpersPy}
}

// TestChangeNotifications: a change is analysed (after the debounce) and
// its findings replace the last ones; a file whose findings are gone is
// cleared.
func TestChangeNotifications(t *testing.T) {
	c := newClient(t, project())
	c.open("helpers.py", helpersPy)
	c.await("MCP101 in helpers.py and MCP001 in requirements.txt", func() bool {
		return has(c.codes("helpers.py"), "MCP101") && has(c.codes("requirements.txt"), "MCP001")
	})
	c.mu.Lock()
	d := c.diags[c.uri("helpers.py")][0]
	c.mu.Unlock()
	if d.Source != "mcplint" || d.Range.Start.Line != 4 || d.Range.Start.Character != 17 || d.Severity != 1 {
		t.Errorf("diagnostic = %+v, want source mcplint, error, at line 4 character 17 (0-based)", d)
	}
	if len(d.Related) == 0 || d.Related[0].Location.URI != c.uri("server.py") || !strings.Contains(d.Related[0].Message, "work") {
		t.Errorf("related = %+v, want the handler work in server.py", d.Related)
	}

	// An unsaved change that removes the thread call clears helpers.py.
	c.change("helpers.py", strings.Replace(helpersPy, "await to_thread.run_sync(sum, range(n))", "sum(range(n))", 1))
	c.await("helpers.py cleared", func() bool { return len(c.codes("helpers.py")) == 0 })
	// And one that brings it back, on another line, publishes it there.
	c.change("helpers.py", "\n\n"+helpersPy)
	c.await("MCP101 back on line 6", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		ds := c.diags[c.uri("helpers.py")]
		return len(ds) == 1 && ds[0].Range.Start.Line == 6
	})
}

// TestCrossModule: editing the module with the handler updates the findings
// of the module it reaches, which is not open.
func TestCrossModule(t *testing.T) {
	c := newClient(t, project())
	c.open("server.py", serverPy)
	c.await("MCP101 in helpers.py", func() bool { return has(c.codes("helpers.py"), "MCP101") })
	if len(c.codes("server.py")) != 0 {
		t.Errorf("server.py: %v, want nothing", c.codes("server.py"))
	}
	// No handler any more: nothing reaches crunch.
	c.change("server.py", strings.Replace(serverPy, "@mcp.tool()\n", "", 1))
	c.await("helpers.py cleared", func() bool { return len(c.codes("helpers.py")) == 0 })
	c.change("server.py", serverPy)
	c.await("MCP101 in helpers.py again", func() bool { return has(c.codes("helpers.py"), "MCP101") })
}

// TestHover: hovering a finding shows its rule's documentation; elsewhere,
// nothing.
func TestHover(t *testing.T) {
	c := newClient(t, project())
	c.open("helpers.py", helpersPy)
	c.await("MCP101", func() bool { return has(c.codes("helpers.py"), "MCP101") })
	var h struct {
		Contents struct{ Kind, Value string }
		Range    *struct{ Start struct{ Line, Character int } }
	}
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": c.uri("helpers.py")}, "position": map[string]any{"line": 4, "character": 25}}, &h)
	if want := rules.Lookup("MCP101").Markdown(); h.Contents.Kind != "markdown" || h.Contents.Value != want {
		t.Errorf("hover = %q (%s), want MCP101's explain text", h.Contents.Value, h.Contents.Kind)
	}
	if h.Range == nil || h.Range.Start.Line != 4 {
		t.Errorf("hover range = %+v, want the finding's", h.Range)
	}
	var none json.RawMessage
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": c.uri("helpers.py")}, "position": map[string]any{"line": 0, "character": 0}}, &none)
	if string(none) != "null" {
		t.Errorf("hover off a finding = %s, want null", none)
	}
}

// TestCodeActions: every fix of a finding is offered, safe ones first (the
// first preferred), unsafe ones labelled; applying the safe one's edits
// gives what the fixer writes.
func TestCodeActions(t *testing.T) {
	c := newClient(t, project())
	c.open("helpers.py", helpersPy)
	c.await("MCP101", func() bool { return has(c.codes("helpers.py"), "MCP101") })
	var acts []struct {
		Title       string
		Kind        string
		IsPreferred bool
		Edit        struct {
			DocumentChanges []struct {
				TextDocument struct {
					URI     string
					Version *int
				}
				Edits []struct {
					Range struct {
						Start struct{ Line, Character int }
						End   struct{ Line, Character int }
					}
					NewText string
				}
			}
		}
	}
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": c.uri("helpers.py")},
		"range":        map[string]any{"start": map[string]any{"line": 4, "character": 0}, "end": map[string]any{"line": 4, "character": 0}},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &acts)
	if len(acts) != 2 {
		t.Fatalf("actions = %+v, want MCP101's two fixes", acts)
	}
	if !acts[0].IsPreferred || strings.Contains(acts[0].Title, "unsafe") || acts[0].Kind != "quickfix" {
		t.Errorf("first action = %+v, want the safe fix, preferred", acts[0])
	}
	if acts[1].IsPreferred || !strings.Contains(acts[1].Title, "(unsafe") {
		t.Errorf("second action = %q, want the unsafe fix, labelled", acts[1].Title)
	}
	// The safe action's edits, applied to the buffer, give the fixer's result.
	dc := acts[0].Edit.DocumentChanges
	if len(dc) != 1 || dc[0].TextDocument.URI != c.uri("helpers.py") || dc[0].TextDocument.Version == nil || *dc[0].TextDocument.Version != 1 {
		t.Fatalf("document changes = %+v, want helpers.py at version 1", dc)
	}
	src := []byte(helpersPy)
	for i := len(dc[0].Edits) - 1; i >= 0; i-- { // from the end: earlier offsets stay valid
		e := dc[0].Edits[i]
		src = applyChange(src, rangeOf(e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Line, e.Range.End.Character), e.NewText)
	}
	out, err := fix.Run([]string{c.dir}, engine.Options{Jobs: 1}, fix.Mode{})
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for _, f := range out.Files {
		if filepath.Base(f.Path) == "helpers.py" {
			want = string(f.New)
		}
	}
	if want == "" || string(src) != want {
		t.Errorf("the safe action gives\n%s\nthe fixer writes\n%s", src, want)
	}
}

// TestStaleActions: a buffer changed since the last analysis gets its
// actions from a new analysis of what it holds, never offsets of the old
// text.
func TestStaleActions(t *testing.T) {
	c := newClient(t, project())
	c.open("helpers.py", helpersPy)
	c.await("MCP101", func() bool { return has(c.codes("helpers.py"), "MCP101") })
	c.change("helpers.py", "\n\n\n"+helpersPy) // the finding moves to line 7
	var acts []struct {
		Edit struct {
			DocumentChanges []struct {
				TextDocument struct{ Version *int }
			}
		}
	}
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": c.uri("helpers.py")},
		"range":        map[string]any{"start": map[string]any{"line": 7, "character": 0}, "end": map[string]any{"line": 7, "character": 0}},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &acts)
	if len(acts) == 0 || *acts[0].Edit.DocumentChanges[0].TextDocument.Version != 2 {
		t.Fatalf("actions = %+v, want fixes for version 2", acts)
	}
}

func rangeOf(l1, c1, l2, c2 int) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: uint32(l1), Character: uint32(c1)}, End: protocol.Position{Line: uint32(l2), Character: uint32(c2)}}
}

// action is a code action as the client reads it.
type action struct {
	Title       string
	IsPreferred bool
	Edit        struct {
		Changes         map[string][]json.RawMessage
		DocumentChanges []struct {
			Kind         string
			URI          string
			TextDocument struct{ URI string }
		}
	}
}

func (c *client) actions(name string, line int) []action {
	c.t.Helper()
	var acts []action
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": c.uri(name)},
		"range":        map[string]any{"start": map[string]any{"line": line, "character": 0}, "end": map[string]any{"line": line, "character": 0}},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &acts)
	return acts
}

// TestCreateFileAction: the guard fix, which writes a new module, is a
// "create" operation for a client that applies them, and is not offered
// to one that does not; the other fixes are plain changes there.
func TestCreateFileAction(t *testing.T) {
	guard := func(acts []action) *action {
		for i := range acts {
			if strings.Contains(acts[i].Title, "add a guard") {
				return &acts[i]
			}
		}
		return nil
	}
	c := newClient(t, project())
	c.open("requirements.txt", requirements)
	c.await("MCP001", func() bool { return has(c.codes("requirements.txt"), "MCP001") })
	acts := c.actions("requirements.txt", 0)
	g := guard(acts)
	if g == nil {
		t.Fatalf("actions = %+v, want the guard", acts)
	}
	created := false
	for _, dc := range g.Edit.DocumentChanges {
		if dc.Kind == "create" && strings.HasSuffix(dc.URI, "/mcp_respond_guard.py") {
			created = true
		}
	}
	if !created || !strings.Contains(g.Title, "(unsafe") || g.IsPreferred {
		t.Errorf("guard action = %+v, want an unsafe create of mcp_respond_guard.py", g)
	}
	if !acts[0].IsPreferred || strings.Contains(acts[0].Title, "unsafe") {
		t.Errorf("first action = %q, want MCP001's safe floor raise", acts[0].Title)
	}

	plain := newClientWith(t, project(), map[string]any{})
	plain.open("requirements.txt", requirements)
	plain.await("MCP001", func() bool { return has(plain.codes("requirements.txt"), "MCP001") })
	acts = plain.actions("requirements.txt", 0)
	if g := guard(acts); g != nil {
		t.Errorf("a client without create operations is offered %q", g.Title)
	}
	if len(acts) == 0 || len(acts[0].Edit.Changes[plain.uri("requirements.txt")]) == 0 {
		t.Errorf("actions = %+v, want the floor raise as plain changes", acts)
	}
}

// TestAnalysisError: an analysis that fails (an invalid configuration) or
// panics is shown to the user once, and the server goes on serving.
func TestAnalysisError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "helpers.py"), []byte(helpersPy), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := 0
	c := newClientConfig(t, dir, map[string]any{}, func([]string) (engine.Options, error) {
		calls++
		if calls == 1 {
			panic("boom")
		}
		return engine.Options{}, errors.New("pyproject.toml: bad")
	})
	messages := func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.msgs)
	}
	c.open("helpers.py", helpersPy)
	c.await("the panic reported", func() bool { return messages() >= 1 })
	c.change("helpers.py", helpersPy+"\n")
	c.await("the error reported", func() bool { return messages() >= 2 })
	c.change("helpers.py", helpersPy+"\n\n") // the same error again: not repeated
	var h json.RawMessage
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": c.uri("helpers.py")}, "position": map[string]any{"line": 4, "character": 25}}, &h)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.msgs) != 2 || !strings.Contains(c.msgs[0], "internal error") || !strings.Contains(c.msgs[0], "boom") || !strings.Contains(c.msgs[1], "pyproject.toml: bad") {
		t.Errorf("messages = %q, want the panic, then the configuration error once", c.msgs)
	}
	if string(h) != "null" {
		t.Errorf("hover = %s, want null (no analysis)", h)
	}
}

// TestOutsideWorkspace: a file opened outside the workspace folders is
// analysed too (as a scan root of its own, not its folder, which may be a
// home directory: a sibling is not read).
func TestOutsideWorkspace(t *testing.T) {
	c := newClient(t, map[string]string{"requirements.txt": requirements})
	other := t.TempDir()
	for _, name := range []string{"tool.py", "sibling.py"} {
		if err := os.WriteFile(filepath.Join(other, name), []byte(crashingTool), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uri := pathURI(filepath.Join(other, "tool.py"))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "python", "version": 1, "text": crashingTool}})
	codes := func(uri string) []string {
		c.mu.Lock()
		defer c.mu.Unlock()
		var out []string
		for _, d := range c.diags[uri] {
			out = append(out, d.Code)
		}
		return out
	}
	c.await("MCP101 in tool.py", func() bool { return has(codes(uri), "MCP101") })
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.counts[pathURI(filepath.Join(other, "sibling.py"))]; n != 0 {
		t.Errorf("sibling.py, in the folder of a file outside the workspace, was analysed")
	}
}

const crashingTool = `from anyio import to_thread
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
async def work(n: int) -> int:
    return await to_thread.run_sync(sum, range(n))
`

// TestCloseAndSave: closing a buffer makes the disk's contents count again;
// a save with the text analyses what was saved.
func TestCloseAndSave(t *testing.T) {
	c := newClient(t, project())
	clean := strings.Replace(helpersPy, "await to_thread.run_sync(sum, range(n))", "sum(range(n))", 1)
	c.open("helpers.py", clean)
	c.await("the published project", func() bool { return has(c.codes("requirements.txt"), "MCP001") })
	if codes := c.codes("helpers.py"); len(codes) != 0 {
		t.Fatalf("helpers.py as the buffer holds it: %v, want nothing", codes)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": c.uri("helpers.py")}})
	c.await("MCP101 from the disk's helpers.py", func() bool { return has(c.codes("helpers.py"), "MCP101") })

	c.open("helpers.py", helpersPy)
	if err := os.WriteFile(filepath.Join(c.dir, "helpers.py"), []byte(clean), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": c.uri("helpers.py")}, "text": clean})
	c.await("helpers.py cleared on save", func() bool { return len(c.codes("helpers.py")) == 0 })
}

// TestFixAll: asked for by kind, source.fixAll.mcplint gives what --fix
// writes to the document; the quick fixes do not include it.
func TestFixAll(t *testing.T) {
	c := newClient(t, project())
	c.open("helpers.py", helpersPy)
	c.await("MCP101", func() bool { return has(c.codes("helpers.py"), "MCP101") })
	var acts []struct {
		Title string
		Kind  string
		Edit  struct {
			DocumentChanges []struct {
				TextDocument struct{ URI string }
				Edits        []protocol.TextEdit
			}
		}
	}
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": c.uri("helpers.py")},
		"range":        map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}},
		"context":      map[string]any{"diagnostics": []any{}, "only": []string{"source.fixAll"}},
	}, &acts)
	if len(acts) != 1 || acts[0].Kind != KindFixAll || len(acts[0].Edit.DocumentChanges) != 1 {
		t.Fatalf("actions = %+v, want one %s on helpers.py", acts, KindFixAll)
	}
	got := applyEdits([]byte(helpersPy), acts[0].Edit.DocumentChanges[0].Edits)
	out, err := fix.Run([]string{c.dir}, engine.Options{Jobs: 1}, fix.Mode{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range out.Files {
		if filepath.Base(f.Path) == "helpers.py" {
			found = true
			if string(f.New) != string(got) {
				t.Errorf("fix all gives\n%s\n--fix writes\n%s", got, f.New)
			}
		}
	}
	if !found || string(got) == helpersPy {
		t.Errorf("fix all changed nothing (--fix changes helpers.py: %v)", found)
	}
	for _, a := range c.actions("helpers.py", 4) {
		if strings.Contains(a.Title, "fix all") {
			t.Errorf("the quick fixes include %q", a.Title)
		}
	}
}
