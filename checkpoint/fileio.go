package checkpoint

import (
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Thread-backed objects: awaiting one of their methods waits for a worker
// thread. The tables say, per method, whether that wait observes
// cancellation; each row was read in the library's source (the MCP101 doc
// cites file and line). A method missing from its type's table is no
// offload (anyio.Path.as_posix, joinpath, ... run inline).
//
// The receiver's type comes from valueTypes (clients.go): annotations,
// constructor calls (anyio.Path(p)), "async with X as f", the factories
// below (f = await anyio.open_file(p)) and the products of a typed value
// (await p.open(), p.joinpath(...)).

// A methodWait says how awaiting a method waits.
type methodWait struct {
	cancellable bool // the worker is abandoned on cancel (abandon_on_cancel=True)
	iterates    bool // an async iterator: each "async for" step waits
}

var (
	waits     = methodWait{}
	abandons  = methodWait{cancellable: true}
	iterWaits = methodWait{iterates: true}
	iterAbans = methodWait{iterates: true, cancellable: true}
)

// anyio's AsyncFile (anyio/_core/_fileio.py, 4.0.0 to 4.14.2): every
// method awaits to_thread.run_sync without abandon_on_cancel.
var anyioFile = map[string]methodWait{
	"aclose": waits, "read": waits, "read1": waits, "readline": waits, "readlines": waits,
	"readinto": waits, "readinto1": waits, "write": waits, "writelines": waits,
	"truncate": waits, "seek": waits, "tell": waits, "flush": waits,
}

// anyio.Path (anyio/_core/_fileio.py, 4.0.0 to 4.14.2): the metadata
// queries pass abandon_on_cancel=True, the rest do not; glob, rglob and
// iterdir step with abandon_on_cancel=True, walk (Python 3.12+) without.
var anyioPath = map[string]methodWait{
	// without abandon_on_cancel
	"absolute": waits, "chmod": waits, "copy": waits, "copy_into": waits, "hardlink_to": waits,
	"is_junction": waits, "lchmod": waits, "mkdir": waits, "move": waits, "move_into": waits,
	"open": waits, "read_bytes": waits, "read_text": waits, "readlink": waits, "rename": waits,
	"replace": waits, "rmdir": waits, "symlink_to": waits, "touch": waits, "unlink": waits,
	"write_bytes": waits, "write_text": waits, "walk": iterWaits,
	// with abandon_on_cancel=True
	"exists": abandons, "expanduser": abandons, "group": abandons, "is_block_device": abandons,
	"is_char_device": abandons, "is_dir": abandons, "is_fifo": abandons, "is_file": abandons,
	"is_mount": abandons, "is_socket": abandons, "is_symlink": abandons, "lstat": abandons,
	"owner": abandons, "resolve": abandons, "samefile": abandons, "stat": abandons,
	"glob": iterAbans, "rglob": iterAbans, "iterdir": iterAbans,
}

// trio.Path (trio/_path.py, 0.26.0 to 0.34.0: _wrap_method and friends)
// and trio's asynchronous file object (trio/_file_io.py AsyncIOWrapper):
// trio.to_thread.run_sync without abandon_on_cancel, except aclose, which
// closes in a shielded scope and then checkpoints (checkpoint_if_cancelled).
var trioPath = map[string]methodWait{
	"stat": waits, "chmod": waits, "exists": waits, "glob": waits, "rglob": waits, "is_dir": waits,
	"is_file": waits, "is_symlink": waits, "is_socket": waits, "is_fifo": waits,
	"is_block_device": waits, "is_char_device": waits, "is_junction": waits, "iterdir": waits,
	"lchmod": waits, "lstat": waits, "mkdir": waits, "owner": waits, "group": waits,
	"is_mount": waits, "readlink": waits, "rename": waits, "replace": waits, "resolve": waits,
	"rmdir": waits, "symlink_to": waits, "hardlink_to": waits, "touch": waits, "unlink": waits,
	"absolute": waits, "expanduser": waits, "read_bytes": waits, "read_text": waits,
	"samefile": waits, "write_bytes": waits, "write_text": waits, "open": waits,
}

var trioFile = map[string]methodWait{
	"flush": waits, "read": waits, "read1": waits, "readall": waits, "readinto": waits,
	"readline": waits, "readlines": waits, "seek": waits, "tell": waits, "truncate": waits,
	"write": waits, "writelines": waits, "readinto1": waits, "peek": waits, "detach": waits,
	"aclose": abandons,
}

// Starlette's UploadFile (starlette/datastructures.py, 0.37.2 to 0.47.3):
// read, write, seek and close await run_in_threadpool once the spooled
// file has rolled to disk (and run inline, with no checkpoint, before).
var uploadFile = map[string]methodWait{"read": waits, "write": waits, "seek": waits, "close": waits}

// anyio's file streams (anyio/streams/file.py): to_thread.run_sync without
// abandon_on_cancel.
var (
	fileReadStream  = map[string]methodWait{"receive": waits, "seek": waits, "tell": waits, "aclose": waits}
	fileWriteStream = map[string]methodWait{"send": waits, "aclose": waits}
)

// aiofiles (aiofiles/threadpool/utils.py, 24.1.0: _make_delegate_method)
// awaits loop.run_in_executor: a cancel comes back at once (the thread runs
// on), so these are checkpoints, no finding.
var aiofilesFile = map[string]methodWait{
	"close": abandons, "flush": abandons, "isatty": abandons, "read": abandons, "read1": abandons,
	"readinto": abandons, "readline": abandons, "readlines": abandons, "seek": abandons,
	"seekable": abandons, "tell": abandons, "truncate": abandons, "writable": abandons,
	"write": abandons, "writelines": abandons, "readall": abandons,
}

// threadObjects lists, by the qualified name of a type, its thread-backed
// methods.
var threadObjects = map[string]map[string]methodWait{
	"anyio.AsyncFile":                            anyioFile,
	"anyio.SpooledTemporaryFile":                 anyioFile, // in memory: checkpoint_if_cancelled; rolled: AsyncFile's
	"anyio.TemporaryFile":                        anyioFile, // "async with anyio.TemporaryFile() as f": an AsyncFile
	"anyio.NamedTemporaryFile":                   anyioFile,
	"anyio.Path":                                 anyioPath,
	"anyio.streams.file.FileReadStream":          fileReadStream,
	"anyio.streams.file.FileWriteStream":         fileWriteStream,
	"trio.Path":                                  trioPath,
	"trio.PosixPath":                             trioPath,
	"trio.WindowsPath":                           trioPath,
	"trio._file_io.AsyncIOWrapper":               trioFile,
	"starlette.datastructures.UploadFile":        uploadFile,
	"fastapi.UploadFile":                         uploadFile,
	"fastapi.datastructures.UploadFile":          uploadFile,
	"anyio._core._fileio.AsyncFile":              anyioFile,
	"anyio._core._fileio.Path":                   anyioPath,
	"anyio._core._tempfile.SpooledTemporaryFile": anyioFile,
	"aiofiles.threadpool.AsyncFile":              aiofilesFile,
}

// iteratedFiles are the thread-backed objects that are async iterators
// themselves: "async for line in f" awaits readline in a worker thread at
// each step (anyio AsyncFile.__aiter__, trio AsyncIOWrapper.__anext__).
var iteratedFiles = map[string]bool{
	"anyio.AsyncFile": true, "anyio.SpooledTemporaryFile": true, "anyio.TemporaryFile": true,
	"anyio.NamedTemporaryFile": true, "anyio._core._fileio.AsyncFile": true,
	"trio._file_io.AsyncIOWrapper": true,
}

// threadMethods are the method names of threadObjects' tables.
var threadMethods = map[string]bool{}

func init() {
	for _, ms := range threadObjects {
		for name := range ms {
			threadMethods[name] = true
		}
	}
	// What file factories and path methods make, for valueTypes.
	for q, t := range map[string]string{
		"anyio.open_file": "anyio.AsyncFile",
		"anyio.wrap_file": "anyio.AsyncFile",
		"anyio.Path.cwd":  "anyio.Path",
		"anyio.Path.home": "anyio.Path",
		"anyio.streams.file.FileReadStream.from_path":  "anyio.streams.file.FileReadStream",
		"anyio.streams.file.FileWriteStream.from_path": "anyio.streams.file.FileWriteStream",
		"trio.open_file":                         "trio._file_io.AsyncIOWrapper",
		"trio.wrap_file":                         "trio._file_io.AsyncIOWrapper",
		"trio.Path.cwd":                          "trio.Path",
		"trio.Path.home":                         "trio.Path",
		"aiofiles.open":                          "aiofiles.threadpool.AsyncFile",
		"aiofiles.threadpool.open":               "aiofiles.threadpool.AsyncFile",
		"aiofiles.tempfile.TemporaryFile":        "aiofiles.threadpool.AsyncFile",
		"aiofiles.tempfile.NamedTemporaryFile":   "aiofiles.threadpool.AsyncFile",
		"aiofiles.tempfile.SpooledTemporaryFile": "aiofiles.threadpool.AsyncFile",
	} {
		factories[q] = t
	}
	pathProducts := func(path, file string) map[string]string {
		out := map[string]string{"open": file, "/": path}
		for _, m := range []string{"joinpath", "with_name", "with_stem", "with_suffix", "with_segments",
			"relative_to", "absolute", "resolve", "expanduser", "readlink", "rename", "replace"} {
			out[m] = path
		}
		return out
	}
	products["anyio.Path"] = pathProducts("anyio.Path", "anyio.AsyncFile")
	products["trio.Path"] = pathProducts("trio.Path", "trio._file_io.AsyncIOWrapper")
}

// methodOffload recognises an awaited call of a thread-backed method:
// obj.method(...) where obj is a value of one of threadObjects' types.
func methodOffload(m *pyast.Module, call, callee *pyast.Node) (OffloadInfo, bool) {
	if callee == nil || callee.Kind() != "attribute" {
		return OffloadInfo{}, false
	}
	attr := m.Text(callee.ChildByFieldName("attribute"))
	if !threadMethods[attr] {
		return OffloadInfo{}, false // most calls: no type lookup
	}
	for _, t := range valueTypes(m, callee.ChildByFieldName("object"), 0) {
		if w, ok := threadObjects[t][attr]; ok {
			return OffloadInfo{Func: displayType(t) + "." + attr, Call: call, Cancellable: w.cancellable, Iterates: w.iterates}, true
		}
	}
	return OffloadInfo{}, false
}

// IterOffload reports whether "async for ... in e" waits for a worker at
// each step: e is a call of an iterating offload (iterate_in_threadpool,
// anyio.Path.walk, glob, ...) or a thread-backed file that is its own async
// iterator (an anyio AsyncFile, a trio file object). Info.Call is e.
func IterOffload(m *pyast.Module, e *pyast.Node) (OffloadInfo, bool) {
	e = pyast.Unparen(e)
	if e == nil {
		return OffloadInfo{}, false
	}
	if info, ok := Offload(m, e); ok {
		return info, info.Iterates
	}
	switch e.Kind() {
	case "identifier", "attribute", "await", "call":
	default:
		return OffloadInfo{}, false
	}
	for _, t := range valueTypes(m, e, 0) {
		if iteratedFiles[t] {
			return OffloadInfo{Func: displayType(t) + ".__anext__", Call: e, Iterates: true}, true
		}
	}
	return OffloadInfo{}, false
}

// displayType is the public name of a type of the tables.
func displayType(t string) string {
	for _, p := range []string{"anyio._core._fileio.", "anyio._core._tempfile.", "trio._file_io."} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			return strings.SplitN(p, ".", 2)[0] + "." + rest
		}
	}
	return t
}

// isThreadObject reports whether q names a type of threadObjects (a
// constructor call makes one).
func isThreadObject(q string) bool {
	_, ok := threadObjects[q]
	return ok
}

// exitMethods: leaving "async with f" of a thread-backed file awaits this
// method (anyio AsyncResource.__aexit__ and trio's file object: aclose;
// aiofiles' context manager: close).
var exitMethods = map[string]string{
	"anyio.AsyncFile": "aclose", "anyio._core._fileio.AsyncFile": "aclose",
	"anyio.SpooledTemporaryFile": "aclose", "anyio._core._tempfile.SpooledTemporaryFile": "aclose",
	"anyio.streams.file.FileReadStream": "aclose", "anyio.streams.file.FileWriteStream": "aclose",
	"trio._file_io.AsyncIOWrapper":  "aclose",
	"aiofiles.threadpool.AsyncFile": "close",
}

// LeavingFile reports whether leaving "async with e" waits for a worker
// thread: e is a thread-backed file (async with await anyio.open_file(p) as
// f, async with f). Info.Leaves is set, Info.Call is e; Cancellable says
// whether that wait hands the cancellation back (trio's shielded close then
// checkpoint, aiofiles' run_in_executor). Either way leaving starts (or
// ends) with a checkpoint, so it covers the body. anyio.TemporaryFile and
// the other entering offloads are Offload's, not this.
func LeavingFile(m *pyast.Module, e *pyast.Node) (OffloadInfo, bool) {
	e = pyast.Unparen(e)
	if e == nil {
		return OffloadInfo{}, false
	}
	if info, ok := Offload(m, e); ok && info.Enters {
		return OffloadInfo{}, false
	}
	for _, t := range valueTypes(m, e, 0) {
		if meth, ok := exitMethods[t]; ok {
			w := threadObjects[t][meth]
			return OffloadInfo{Func: displayType(t) + "." + meth, Call: e, Cancellable: w.cancellable, Leaves: true}, true
		}
	}
	return OffloadInfo{}, false
}
