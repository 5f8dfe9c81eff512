package checkpoint

import "testing"

// TestThreadObjectForms: which awaits of the thread-backed file API are
// waits, cancellable or not, by the receiver's type however it is known.
func TestThreadObjectForms(t *testing.T) {
	src := `
import anyio
import trio
from anyio import Path, open_file, wrap_file
from anyio.streams.file import FileReadStream
from fastapi import UploadFile
import aiofiles
import pathlib

async def h(path, fp, up: UploadFile, typed: anyio.Path, maybe: "anyio.Path | None"):
    await anyio.Path(path).read_text()
    p = Path(path)
    await p.exists()
    await typed.write_bytes(b"")
    await p.joinpath("x").unlink()
    async with await anyio.open_file(path) as f:
        await f.read()
        async for line in f:
            pass
    g = await open_file(path)
    await g.aclose()
    w = wrap_file(fp)
    await w.seek(0)
    async for x in p.glob("*"):
        pass
    async for x in p.walk():
        pass
    await anyio.Path.home()
    await up.read()
    s = await FileReadStream.from_path(path)
    await s.receive()
    await trio.Path(path).stat()
    async with await trio.open_file(path) as tf:
        await tf.read()
    await tf.aclose()
    async with aiofiles.open(path) as af:
        await af.read()
    await pathlib.Path(path).read_text()
    await p.as_posix()
    await other.read_text()
`
	want := []struct {
		fn          string
		cancellable bool
		leaves      bool
	}{
		{"anyio.Path.read_text", false, false},
		{"anyio.Path.exists", true, false},
		{"anyio.Path.write_bytes", false, false},
		{"anyio.Path.unlink", false, false},
		{"anyio.AsyncFile.aclose", false, true}, // leaving the async with
		{"anyio.open_file", false, false},
		{"anyio.AsyncFile.read", false, false},
		{"anyio.AsyncFile.__anext__", false, false},
		{"anyio.open_file", false, false},
		{"anyio.AsyncFile.aclose", false, false},
		{"anyio.AsyncFile.seek", false, false},
		{"anyio.Path.glob", true, false},
		{"anyio.Path.walk", false, false},
		{"anyio.Path.home", false, false},
		{"fastapi.UploadFile.read", false, false},
		{"anyio.streams.file.FileReadStream.from_path", false, false},
		{"anyio.streams.file.FileReadStream.receive", false, false},
		{"trio.Path.stat", false, false},
		{"trio.AsyncIOWrapper.aclose", true, true}, // shielded close, then a checkpoint
		{"trio.open_file", false, false},
		{"trio.AsyncIOWrapper.read", false, false},
		{"trio.AsyncIOWrapper.aclose", true, false},
		{"aiofiles.threadpool.AsyncFile.close", true, true},
		{"aiofiles.threadpool.AsyncFile.read", true, false},
	}
	m := parse(t, src)
	got := waitsOf(m)
	if len(got) != len(want) {
		for _, w := range got {
			t.Logf("found %s at line %d", w.Offload.Func, m.Pos(int(w.At.StartByte())).Line)
		}
		t.Fatalf("found %d waits, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i].Offload
		line := m.Pos(int(got[i].At.StartByte())).Line
		if g.Func != w.fn || g.Cancellable != w.cancellable || g.Leaves != w.leaves || g.Keyword != "" {
			t.Errorf("line %d: got %s cancellable=%v leaves=%v keyword=%q, want %s %v %v", line, g.Func, g.Cancellable, g.Leaves, g.Keyword, w.fn, w.cancellable, w.leaves)
		}
	}
}
