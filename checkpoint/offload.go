package checkpoint

import (
	"github.com/mcplint/mcplint/pyast"
)

// OffloadInfo describes a call that runs work in a worker thread, process or
// interpreter and waits for it (SPEC section 1).
type OffloadInfo struct {
	// Func is the qualified name of the offload function, as resolved
	// ("anyio.to_thread.run_sync", "asyncer.asyncify", ...).
	Func string
	// Call is the call whose await waits for the worker: the offload call
	// itself, the outer call of asyncify(f)(...), or the call of a
	// functools.partial object.
	Call *pyast.Node
	// Cancellable reports whether the wait observes cancellation (abandons
	// the worker). A keyword whose value is not a literal counts as
	// cancellable: mcplint cannot tell, and stays quiet.
	Cancellable bool
	// Keyword is the keyword that makes the offload cancellable
	// ("abandon_on_cancel" or "cancellable"), "" when the offload has none
	// (to_interpreter, run_in_threadpool and friends).
	Keyword string
	// KeywordArg is the keyword_argument already written (abandon_on_cancel=
	// or cancellable=, e.g. "=False"), or nil.
	KeywordArg *pyast.Node
	// KeywordCall is the call a missing keyword belongs in: the offload call,
	// the inner asyncify(f) call, or the functools.partial(...) call.
	KeywordCall *pyast.Node
	// Iterates is set for iterate_in_threadpool (waited by "async for") and
	// Enters for contextmanager_in_threadpool (waited by "async with").
	Iterates, Enters bool
	// Leaves is set for a thread-backed file whose "async with" exit waits
	// (LeavingFile); its wait ends where the with statement's body leaves
	// (Analyzer.UncoveredLeaving).
	Leaves bool
}

type offloadKind struct {
	keyword  string // "" when there is none
	legacy   string // a second accepted keyword (pre-4.1 anyio "cancellable")
	iterates bool
	enters   bool
	// wrapper: calling it only makes the offloading function, whose call
	// is the wait (asyncify(f)(...), sync_to_async(f)(...)).
	wrapper bool
	// cancellable: the wait hands the cancellation back at once, whatever
	// the arguments (sync_to_async).
	cancellable bool
}

// offloads are the offloads of SPEC section 1 and the MCP101 catalogue, by
// qualified name: non-cancellable unless the keyword says so (or
// cancellable is set). The MCP101 doc cites the source line of each.
var offloads = map[string]offloadKind{
	"anyio.to_thread.run_sync":                         {keyword: "abandon_on_cancel", legacy: "cancellable"},
	"anyio.to_process.run_sync":                        {keyword: "cancellable"},
	"anyio.to_interpreter.run_sync":                    {},
	"starlette.concurrency.run_in_threadpool":          {},
	"starlette.concurrency.iterate_in_threadpool":      {iterates: true},
	"fastapi.concurrency.run_in_threadpool":            {},
	"fastapi.concurrency.iterate_in_threadpool":        {iterates: true},
	"fastapi.concurrency.contextmanager_in_threadpool": {enters: true},
	"asyncer.asyncify":                                 {keyword: "abandon_on_cancel", legacy: "cancellable", wrapper: true},
	// trio: abandon_on_cancel=False by default (0.23.0+), cancellable=False
	// before (accepted, deprecated, until 0.25.0).
	"trio.to_thread.run_sync": {keyword: "abandon_on_cancel", legacy: "cancellable"},
	// anyio's and trio's file API (fileio.go has the methods): no keyword.
	"anyio.open_file":   {},
	"anyio.Path.cwd":    {},
	"anyio.Path.home":   {},
	"anyio.mkstemp":     {},
	"anyio.mkdtemp":     {},
	"anyio.gettempdir":  {},
	"anyio.gettempdirb": {},
	"anyio.streams.file.FileReadStream.from_path":  {},
	"anyio.streams.file.FileWriteStream.from_path": {},
	// "async with" enters and leaves in a worker thread.
	"anyio.TemporaryFile":      {enters: true},
	"anyio.NamedTemporaryFile": {enters: true},
	"anyio.TemporaryDirectory": {enters: true},
	"trio.open_file":           {},
	"trio.Path.cwd":            {},
	"trio.Path.home":           {},
	// asgiref: run_in_executor awaited through asyncio.shield; on a cancel
	// it cancels the executor future and awaits it, which raises at once.
	"asgiref.sync.sync_to_async": {wrapper: true, cancellable: true},
	"asgiref.sync.SyncToAsync":   {wrapper: true, cancellable: true},
}

// cancellableWaits are offloads and waits that observe cancellation: they
// are no finding of MCP101, and awaiting them is a checkpoint.
var cancellableWaits = map[string]bool{
	"asyncio.to_thread": true,
	"asyncio.shield":    true,
	// aiofiles: loop.run_in_executor (aiofiles/threadpool/__init__.py,
	// os.py, ospath.py wrap, 24.1.0)
	"aiofiles.open": true, "aiofiles.threadpool.open": true,
}

func init() {
	for _, f := range []string{"stat", "rename", "renames", "replace", "remove", "unlink", "mkdir", "makedirs",
		"rmdir", "removedirs", "symlink", "readlink", "listdir", "scandir", "access", "getcwd", "link",
		"sendfile", "statvfs"} {
		cancellableWaits["aiofiles.os."+f] = true
	}
	for _, f := range []string{"exists", "isfile", "isdir", "islink", "ismount", "getsize", "getmtime",
		"getatime", "getctime", "samefile", "sameopenfile", "abspath"} {
		cancellableWaits["aiofiles.os.path."+f] = true
		cancellableWaits["aiofiles.ospath."+f] = true
	}
}

// Offload reports whether call (a call node) starts a non-cancellable-by-
// default offload of SPEC section 1, resolving names through imports and
// aliases: anyio.to_thread.run_sync, anyio.to_process.run_sync,
// anyio.to_interpreter.run_sync, starlette/fastapi run_in_threadpool,
// iterate_in_threadpool, contextmanager_in_threadpool, asyncer.asyncify(f)(...)
// (call is the outer call), and a functools.partial object of one of those
// (partial(...)(...) or p = partial(...); p(...)). Cancellable offloads are
// returned too, with Cancellable set.
func Offload(m *pyast.Module, call *pyast.Node) (OffloadInfo, bool) {
	call = pyast.Unparen(call)
	if call == nil || call.Kind() != "call" {
		return OffloadInfo{}, false
	}
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil {
		return OffloadInfo{}, false
	}
	// The keyword may be passed at the final call in every form.
	calls := []*pyast.Node{call}
	var name string
	var kind offloadKind
	switch callee.Kind() {
	case "identifier", "attribute":
		if n, k, ok := offloadName(m, callee); ok {
			if k.wrapper {
				return OffloadInfo{}, false // asyncify(f) only makes the function
			}
			name, kind = n, k
			break
		}
		if info, ok := methodOffload(m, call, callee); ok {
			return info, true // f.read(), anyio.Path(p).read_text()
		}
		// p(...) where p = functools.partial(offload, ...) or
		// p = asyncify(f).
		if callee.Kind() != "identifier" {
			return OffloadInfo{}, false
		}
		for _, b := range m.ScopeAt(call).Lookup(m.TextView(callee)) {
			v := b.Value()
			if b.Kind != pyast.BindValue || v == nil || v.Kind() != "call" {
				continue
			}
			if n, k, inner, ok := wrapperCall(m, v); ok {
				name, kind = n, k
				calls = append(calls, inner...)
				break
			}
		}
		if name == "" {
			return OffloadInfo{}, false
		}
	case "call":
		n, k, inner, ok := wrapperCall(m, callee)
		if !ok {
			return OffloadInfo{}, false
		}
		name, kind = n, k
		calls = append(calls, inner...)
	default:
		return OffloadInfo{}, false
	}
	info := OffloadInfo{Func: name, Call: call, Keyword: kind.keyword, Iterates: kind.iterates, Enters: kind.enters}
	info.KeywordCall = calls[len(calls)-1]
	if kind.cancellable {
		info.Cancellable = true
		return info, true
	}
	if kind.keyword == "" {
		return info, true
	}
	for _, c := range calls {
		for _, kw := range []string{kind.keyword, kind.legacy} {
			if kw == "" {
				continue
			}
			if a := pyast.KeywordArg(m, c, kw); a != nil {
				info.KeywordArg = a
				info.Cancellable = !falsy(m, a.ChildByFieldName("value"))
			}
		}
	}
	return info, true
}

// wrapperCall recognises asyncify(f, ...) and functools.partial(offload, ...)
// (also partial(asyncify(f))). It returns the offload and the calls, outermost
// last, that may carry the cancellation keyword.
func wrapperCall(m *pyast.Module, c *pyast.Node) (string, offloadKind, []*pyast.Node, bool) {
	callee := pyast.Unparen(pyast.Callee(c))
	if callee == nil {
		return "", offloadKind{}, nil, false
	}
	names := m.Resolve(callee)
	for _, q := range names {
		if k := offloads[q]; k.wrapper {
			return q, k, []*pyast.Node{c}, true
		}
	}
	if has(names, "functools.partial") {
		pos, _ := m.Args(c)
		if len(pos) == 0 {
			return "", offloadKind{}, nil, false
		}
		first := pyast.Unparen(pos[0])
		switch first.Kind() {
		case "identifier", "attribute":
			if n, k, ok := offloadName(m, first); ok && !k.wrapper {
				return n, k, []*pyast.Node{c}, true
			}
		case "call":
			if n, k, inner, ok := wrapperCall(m, first); ok {
				return n, k, append(inner, c), true
			}
		}
	}
	return "", offloadKind{}, nil, false
}

// offloadName resolves a name expression to a known offload function.
func offloadName(m *pyast.Module, n *pyast.Node) (string, offloadKind, bool) {
	for _, q := range m.Resolve(n) {
		if k, ok := offloads[q]; ok {
			return q, k, true
		}
	}
	return "", offloadKind{}, false
}

// falsy reports whether a keyword value is a literal that disables the
// option: False, None or 0.
func falsy(m *pyast.Module, v *pyast.Node) bool {
	v = pyast.Unparen(v)
	if v == nil {
		return false
	}
	switch v.Kind() {
	case "false", "none":
		return true
	case "integer":
		return m.Text(v) == "0"
	}
	return false
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
