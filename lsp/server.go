// Package lsp is `mcplint server`: a Language Server Protocol server that
// shows mcplint's findings in an editor while the code is written.
//
// The protocol's types and method dispatch are github.com/tliron/glsp's
// (protocol_3_16); the JSON-RPC connection is github.com/sourcegraph/jsonrpc2,
// the transport glsp itself uses, driven here directly so that one code path
// serves standard input and output and the tests' in-process pipes (glsp's
// own server package fixes os.Stdin and os.Stdout and brings a logging
// framework and a websocket library the server does not need).
//
// What the server does is what `mcplint check` does, on the folders of the
// workspace with the editor's unsaved buffers overlaid (engine.Options.Overlay):
// a change in one module re-analyses the project, so the findings of every
// module whose handlers reach it are published again, and a file that no
// longer has findings is cleared. Analyses run one at a time on a worker;
// changes are debounced, opens and saves are analysed at once. Code actions
// are the findings' fixes (rules.Fix, byte-offset edits) as workspace edits,
// safe ones first, unsafe ones labelled; hover on a finding shows its
// rule's `mcplint explain` text.
package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aymanbagabas/go-udiff"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/rules"
	"github.com/mcplint/mcplint/workspace"
	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// DefaultDebounce is how long the server waits after the last change of a
// buffer before it analyses again.
const DefaultDebounce = 300 * time.Millisecond

// cacheRuns bounds the runs one in-memory analysis cache serves: the cache
// keeps an entry per project contents for a week (engine.Cache), and an
// editor makes new contents at every pause in typing, so the server starts
// a fresh one after this many runs.
const cacheRuns = 200

// Options configure a Server.
type Options struct {
	// Config returns the engine options for a run on roots, read from the
	// configuration the way `mcplint check ROOTS` reads it ([tool.mcplint]
	// and its rule selection, excludes, limits, ...). Called before every
	// analysis, so
	// an edited configuration file takes effect at the next one. The
	// server sets Overlay and Cache.
	Config func(roots []string) (engine.Options, error)
	// Explain returns the Markdown shown on hover for a rule's code (the
	// text of `mcplint explain CODE`); "" shows nothing.
	Explain func(code string, roots []string) string
	// Debounce is the pause after a change before the analysis; 0 means
	// DefaultDebounce.
	Debounce time.Duration
	// Log receives the server's log (standard error for `mcplint server`);
	// nil discards it.
	Log io.Writer
	// Version is the server's version, told to the client.
	Version string
}

// Server is one language server connection's state.
type Server struct {
	opts    Options
	log     *log.Logger
	handler protocol.Handler
	conn    *jsonrpc2.Conn
	ctx     context.Context

	mu        sync.Mutex
	cond      *sync.Cond
	roots     []string        // absolute workspace folders
	docs      map[string]*doc // by absolute path
	published map[string]bool // absolute paths whose diagnostics are non-empty in the client
	last      *analysis       // the latest finished analysis
	asked     uint64          // analyses asked for (each open, change, save)
	done      uint64          // the value of asked that the latest finished analysis covers
	timer     *time.Timer
	kick      chan struct{}
	closed    bool
	canCreate bool // the client applies documentChanges with "create" operations
	lastErr   string

	cache *engine.Cache
	runs  int
}

// doc is an open buffer.
type doc struct {
	path    string // display path, as the engine reports it
	version int32
	text    []byte
}

// analysis is the result of one run, as the server answers requests from
// it.
type analysis struct {
	res *engine.Result
	// texts are the open buffers' contents the run read (absolute path ->
	// bytes): a code action or hover answers from the run only for a buffer
	// that still holds them.
	texts map[string][]byte
	// byFile are the findings of each file (absolute path).
	byFile map[string][]rules.Diagnostic
	roots  []string
	// overlay is the run's engine.Options.Overlay (display path -> bytes).
	overlay map[string][]byte
}

// New returns a server with opts.
func New(opts Options) *Server {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	w := opts.Log
	if w == nil {
		w = io.Discard
	}
	s := &Server{opts: opts, log: log.New(w, "mcplint server: ", log.LstdFlags), docs: map[string]*doc{}, published: map[string]bool{}, kick: make(chan struct{}, 1)}
	s.cond = sync.NewCond(&s.mu)
	s.handler = protocol.Handler{
		Initialize:             s.initialize,
		Initialized:            func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown:               func(*glsp.Context) error { return nil },
		Exit:                   func(*glsp.Context) error { return nil },
		SetTrace:               func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:    s.didOpen,
		TextDocumentDidChange:  s.didChange,
		TextDocumentDidSave:    s.didSave,
		TextDocumentDidClose:   s.didClose,
		TextDocumentCodeAction: s.codeAction,
		TextDocumentHover:      s.hover,
		WorkspaceDidChangeWorkspaceFolders: func(_ *glsp.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
			s.mu.Lock()
			for _, f := range p.Event.Removed {
				if dir, err := uriPath(f.URI); err == nil {
					s.roots = without(s.roots, dir)
				}
			}
			for _, f := range p.Event.Added {
				if dir, err := uriPath(f.URI); err == nil {
					s.roots = append(s.roots, dir)
				}
			}
			s.mu.Unlock()
			s.schedule(0)
			return nil
		},
	}
	return s
}

// ServeStdio serves one client on standard input and output until it
// exits or closes them.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.Serve(ctx, stdio{})
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return errors.Join(os.Stdin.Close(), os.Stdout.Close()) }

// Serve serves one client on rwc until it exits or closes the stream.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctx = ctx
	s.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(s.handle).SuppressErrClosed(), jsonrpc2.SetLogger(s.log))
	worker := make(chan struct{})
	go func() {
		defer close(worker)
		s.work(ctx)
	}()
	select {
	case <-s.conn.DisconnectNotify():
	case <-ctx.Done():
		s.conn.Close()
	}
	s.mu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.cond.Broadcast()
	s.mu.Unlock()
	cancel()
	<-worker
	return nil
}

// handle dispatches one message to glsp's handler, as glsp's server does.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	gc := &glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { s.notify(method, params) },
		Call: func(method string, params, result any) {
			if err := conn.Call(ctx, method, params, result); err != nil {
				s.log.Printf("%s: %v", method, err)
			}
		},
	}
	if req.Params != nil {
		gc.Params = *req.Params
	}
	r, validMethod, validParams, err := s.handler.Handle(gc)
	if req.Method == protocol.MethodExit {
		return nil, conn.Close()
	}
	switch {
	case !validMethod:
		if req.Notif && strings.HasPrefix(req.Method, "$/") {
			return nil, nil // optional notifications may be ignored
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := "invalid parameters"
		if err != nil {
			msg = err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(s.ctx, method, params); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		s.log.Printf("%s: %v", method, err)
	}
}

func (s *Server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range p.WorkspaceFolders {
		if dir, err := uriPath(f.URI); err == nil {
			s.roots = append(s.roots, dir)
		}
	}
	if len(s.roots) == 0 && p.RootURI != nil {
		if dir, err := uriPath(*p.RootURI); err == nil {
			s.roots = append(s.roots, dir)
		}
	}
	if len(s.roots) == 0 && p.RootPath != nil && *p.RootPath != "" {
		if dir, err := filepath.Abs(*p.RootPath); err == nil {
			s.roots = append(s.roots, dir)
		}
	}
	if ws := p.Capabilities.Workspace; ws != nil && ws.WorkspaceEdit != nil {
		we := ws.WorkspaceEdit
		if we.DocumentChanges != nil && *we.DocumentChanges {
			for _, k := range we.ResourceOperations {
				if k == protocol.ResourceOperationKindCreate {
					s.canCreate = true
				}
			}
		}
	}
	full := protocol.TextDocumentSyncKindFull
	yes := true
	version := s.opts.Version
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &full, Save: protocol.SaveOptions{IncludeText: &yes}},
			HoverProvider:    true,
			CodeActionProvider: protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, KindFixAll},
			},
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{Supported: &yes, ChangeNotifications: &protocol.BoolOrString{Value: true}},
			},
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: "mcplint", Version: &version},
	}, nil
}

func (s *Server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	abs, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.docs[abs] = &doc{path: workspace.DisplayPath(abs), version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	if !s.underRoot(abs) {
		// A file outside every workspace folder (or a client that gave
		// none) is scanned itself, with the project the engine finds
		// around it; not its folder, which may be a home directory.
		s.roots = append(s.roots, abs)
	}
	s.mu.Unlock()
	s.schedule(0)
	return nil
}

func (s *Server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	abs, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	d := s.docs[abs]
	if d == nil {
		s.mu.Unlock()
		return fmt.Errorf("didChange of %s, which is not open", p.TextDocument.URI)
	}
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			d.text = []byte(c.Text)
		case protocol.TextDocumentContentChangeEvent:
			if c.Range == nil {
				d.text = []byte(c.Text)
				continue
			}
			// The server asks for full syncs; a client that sends ranges
			// anyway gets them applied.
			d.text = applyChange(d.text, *c.Range, c.Text)
		}
	}
	d.version = p.TextDocument.Version
	s.mu.Unlock()
	s.schedule(s.opts.Debounce)
	return nil
}

func (s *Server) didSave(_ *glsp.Context, p *protocol.DidSaveTextDocumentParams) error {
	abs, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if d := s.docs[abs]; d != nil && p.Text != nil {
		d.text = []byte(*p.Text)
	}
	s.mu.Unlock()
	s.schedule(0)
	return nil
}

func (s *Server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	abs, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.docs, abs)
	s.mu.Unlock()
	s.schedule(0) // the disk's contents count again
	return nil
}

// underRoot tells whether abs is in a workspace folder. Called with s.mu
// held.
func (s *Server) underRoot(abs string) bool {
	for _, r := range s.roots {
		if rel, err := filepath.Rel(r, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// schedule asks for an analysis after delay; a later call replaces an
// earlier one that has not started (the debounce).
func (s *Server) schedule(delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked++
	if s.timer != nil {
		s.timer.Stop()
	}
	s.timer = time.AfterFunc(delay, func() {
		select {
		case s.kick <- struct{}{}:
		default: // an analysis is already due: it reads the latest buffers
		}
	})
}

// fresh waits until an analysis has read the current buffers (one is
// started at once if one is pending), at most timeout, and returns the
// latest analysis.
func (s *Server) fresh(timeout time.Duration) *analysis {
	s.mu.Lock()
	pending := s.done < s.asked
	s.mu.Unlock()
	if pending {
		s.schedule(0)
	}
	deadline := time.AfterFunc(timeout, func() {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	defer deadline.Stop()
	start := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.done < s.asked && !s.closed && time.Since(start) < timeout {
		s.cond.Wait()
	}
	return s.last
}

// work runs the analyses one at a time until ctx ends.
func (s *Server) work(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		}
		s.analyse()
	}
}

// analyse runs the engine on the workspace folders with the open buffers
// overlaid and publishes what changed.
func (s *Server) analyse() {
	s.mu.Lock()
	asked := s.asked
	roots := append([]string(nil), s.roots...)
	if len(roots) == 0 { // no folder, and no file open yet
		s.done = asked
		s.cond.Broadcast()
		s.mu.Unlock()
		return
	}
	overlay := map[string][]byte{}
	texts := map[string][]byte{}
	versions := map[string]int32{}
	for abs, d := range s.docs {
		texts[abs] = d.text
		versions[abs] = d.version
		if _, ok := workspace.Classify(d.path); ok {
			overlay[d.path] = d.text
		}
	}
	if s.cache == nil || s.runs >= cacheRuns {
		s.cache, s.runs = engine.NewCache(engine.CacheOptions{}), 0
	}
	s.runs++
	cache := s.cache
	s.mu.Unlock()

	a, err := s.run(roots, overlay, cache)
	if err != nil {
		s.reportError(err)
	} else {
		a.texts = texts
		s.publish(a, versions)
	}
	s.mu.Lock()
	if a != nil {
		s.last = a
	}
	s.done = asked
	s.cond.Broadcast()
	s.mu.Unlock()
}

func (s *Server) run(roots []string, overlay map[string][]byte, cache *engine.Cache) (a *analysis, err error) {
	defer func() {
		// A bug in an analysis must not end the editor's session: it is
		// reported like a configuration error, and the server goes on.
		if r := recover(); r != nil {
			s.log.Printf("panic: %v\n%s", r, debug.Stack())
			a, err = nil, fmt.Errorf("internal error (the server's log has the details; please report it): %v", r)
		}
	}()
	if s.opts.Config == nil {
		return nil, errors.New("no configuration")
	}
	opts, err := s.opts.Config(roots)
	if err != nil {
		return nil, err
	}
	opts.Overlay, opts.Cache = overlay, cache
	res, err := engine.Run(roots, opts)
	if err != nil {
		return nil, err
	}
	a = &analysis{res: res, byFile: map[string][]rules.Diagnostic{}, roots: roots, overlay: overlay}
	for _, d := range res.Diagnostics {
		if d.Suppression != nil {
			continue
		}
		abs := absPath(d.Path)
		a.byFile[abs] = append(a.byFile[abs], d)
	}
	s.mu.Lock()
	s.lastErr = ""
	s.mu.Unlock()
	return a, nil
}

// reportError tells the user once about an analysis that could not run (a
// configuration error, say); the findings shown stay those of the last run.
func (s *Server) reportError(err error) {
	msg := err.Error()
	s.log.Print(msg)
	s.mu.Lock()
	repeated := msg == s.lastErr
	s.lastErr = msg
	s.mu.Unlock()
	if !repeated {
		s.notify(protocol.ServerWindowShowMessage, protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: "mcplint: " + msg})
	}
}

// publish sends the findings of every file that has some, and clears the
// files that had some and no longer do.
func (s *Server) publish(a *analysis, versions map[string]int32) {
	s.mu.Lock()
	var clear []string
	for abs := range s.published {
		if _, ok := a.byFile[abs]; !ok {
			clear = append(clear, abs)
		}
	}
	s.published = map[string]bool{}
	for abs := range a.byFile {
		s.published[abs] = true
	}
	s.mu.Unlock()
	sort.Strings(clear)
	files := make([]string, 0, len(a.byFile))
	for abs := range a.byFile {
		files = append(files, abs)
	}
	sort.Strings(files)
	send := func(abs string, diags []protocol.Diagnostic) {
		p := protocol.PublishDiagnosticsParams{URI: pathURI(abs), Diagnostics: diags}
		if v, ok := versions[abs]; ok && v >= 0 {
			uv := protocol.UInteger(v)
			p.Version = &uv
		}
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, p)
	}
	for _, abs := range clear {
		send(abs, []protocol.Diagnostic{})
	}
	for _, abs := range files {
		out := make([]protocol.Diagnostic, 0, len(a.byFile[abs]))
		for i := range a.byFile[abs] {
			out = append(out, toDiagnostic(&a.byFile[abs][i]))
		}
		send(abs, out)
	}
}

// current returns the analysis and the findings of abs when the analysis
// read the buffer as it is now (nil otherwise).
func (s *Server) current(abs string) (*analysis, []rules.Diagnostic) {
	a := s.fresh(30 * time.Second)
	if a == nil {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[abs]; d != nil && !bytes.Equal(d.text, a.texts[abs]) {
		return nil, nil // changed since: the findings' offsets are stale
	}
	return a, a.byFile[abs]
}

func (s *Server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	if s.opts.Explain == nil {
		return nil, nil
	}
	abs, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	a, diags := s.current(abs)
	var parts []string
	seen := map[string]bool{}
	var rng *protocol.Range
	for i := range diags {
		r := toRange(diags[i].Location)
		if !contains(r, p.Position) || seen[diags[i].Code] {
			continue
		}
		seen[diags[i].Code] = true
		if text := s.opts.Explain(diags[i].Code, a.roots); text != "" {
			parts = append(parts, text)
			if rng == nil {
				rng = &r
			}
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n---\n\n")}, Range: rng}, nil
}

// KindFixAll is the code action that applies every safe fix of a
// document, as `mcplint check --fix` would (ruff's source.fixAll.ruff).
const KindFixAll = protocol.CodeActionKindSource + ".fixAll.mcplint"

func (s *Server) codeAction(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	quick := len(p.Context.Only) == 0 || wants(p.Context.Only, protocol.CodeActionKindQuickFix)
	all := len(p.Context.Only) > 0 && wants(p.Context.Only, KindFixAll) // asked for by name only: it runs the fixer
	if !quick && !all {
		return []protocol.CodeAction{}, nil
	}
	abs, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	a, diags := s.current(abs)
	s.mu.Lock()
	canCreate := s.canCreate
	versions := map[string]int32{}
	for abs, d := range s.docs {
		versions[abs] = d.version
	}
	s.mu.Unlock()
	if !quick {
		diags = nil
	}
	var safe, unsafe []protocol.CodeAction
	if all && a != nil {
		act, err := s.fixAll(abs, a, versions, canCreate)
		if err != nil {
			s.log.Printf("fix all: %v", err)
		} else if act != nil {
			safe = append(safe, *act)
		}
	}
	for i := range diags {
		d := &diags[i]
		if !onLines(toRange(d.Location), p.Range) {
			continue
		}
		preferred := false
		for k := range d.Fixes {
			f := &d.Fixes[k]
			if len(f.Edits) == 0 || f.Applicability == rules.DisplayOnly {
				continue
			}
			edit, err := workspaceEdit(f, a.res.Read, versions, canCreate)
			if err != nil {
				s.log.Printf("%s: fix %q: %v", d.Path, f.Message, err)
				continue
			}
			kind := protocol.CodeActionKindQuickFix
			act := protocol.CodeAction{Title: actionTitle(d, f), Kind: &kind, Diagnostics: []protocol.Diagnostic{toDiagnostic(d)}, Edit: edit}
			if f.Applicability == rules.Safe {
				if !preferred {
					yes := true
					act.IsPreferred, preferred = &yes, true
				}
				safe = append(safe, act)
			} else {
				unsafe = append(unsafe, act)
			}
		}
	}
	return append(append([]protocol.CodeAction{}, safe...), unsafe...), nil
}

// actionTitle names a fix in the editor's menu: the rule's code, the fix's
// own message, and "(unsafe)" for a fix --fix would not apply.
func actionTitle(d *rules.Diagnostic, f *rules.Fix) string {
	t := fmt.Sprintf("mcplint %s: %s", d.Code, f.Message)
	if f.Applicability == rules.Unsafe {
		t += " (unsafe: may change behaviour; --unsafe-fixes)"
	}
	return t
}

func wants(only []protocol.CodeActionKind, kind protocol.CodeActionKind) bool {
	for _, k := range only {
		if k == kind || strings.HasPrefix(kind, k+".") {
			return true
		}
	}
	return false
}

func without(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// fixAll is the KindFixAll action of the document abs: the edits `mcplint
// check --fix` would make to it, and to the files its fixes change with it
// (fix.FileResult.With), checked as the fixer checks them (each changed
// file re-parses, each fixed finding is gone). nil when nothing is fixed.
func (s *Server) fixAll(abs string, a *analysis, versions map[string]int32, canCreate bool) (*protocol.CodeAction, error) {
	opts, err := s.opts.Config(a.roots)
	if err != nil {
		return nil, err
	}
	opts.Overlay = a.overlay
	out, err := fix.Run(a.roots, opts, fix.Mode{})
	if err != nil {
		return nil, err
	}
	byPath := map[string]*fix.FileResult{}
	for _, f := range out.Files {
		byPath[f.Path] = f
	}
	var mine *fix.FileResult
	for _, f := range out.Files {
		if absPath(f.Path) == abs {
			mine = f
		}
	}
	if mine == nil {
		return nil, nil
	}
	// The whole-file changes as one fix of byte-offset edits, which
	// workspaceEdit turns into text edits as it does the rules' fixes.
	var whole rules.Fix
	for _, f := range append([]*fix.FileResult{mine}, withFiles(mine, byPath)...) {
		if f.Created {
			whole.Edits = append(whole.Edits, rules.Edit{Path: f.Path, New: string(f.New), Create: true})
			continue
		}
		for _, e := range udiff.Bytes(f.Old, f.New) {
			whole.Edits = append(whole.Edits, rules.Edit{Path: f.Path, Start: e.Start, End: e.End, New: e.New})
		}
	}
	read := func(p string) ([]byte, error) {
		if f := byPath[p]; f != nil {
			return f.Old, nil
		}
		return a.res.Read(p)
	}
	edit, err := workspaceEdit(&whole, read, versions, canCreate)
	if err != nil {
		return nil, err
	}
	kind := KindFixAll
	return &protocol.CodeAction{Title: fmt.Sprintf("mcplint: fix all (%d safe fix%s, as --fix)", mine.Fixed, map[bool]string{true: "", false: "es"}[mine.Fixed == 1]), Kind: &kind, Edit: edit}, nil
}

// withFiles are the results of the files a fix applied to f also changes.
func withFiles(f *fix.FileResult, byPath map[string]*fix.FileResult) []*fix.FileResult {
	var out []*fix.FileResult
	for _, p := range f.With {
		if w := byPath[p]; w != nil && w != f {
			out = append(out, w)
		}
	}
	return out
}
