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
	}{
		{"anyio.Path.read_text", false},
		{"anyio.Path.exists", true},
		{"anyio.Path.write_bytes", false},
		{"anyio.Path.unlink", false},
		{"anyio.open_file", false},
		{"anyio.AsyncFile.read", false},
		{"anyio.AsyncFile.__anext__", false},
		{"anyio.open_file", false},
		{"anyio.AsyncFile.aclose", false},
		{"anyio.AsyncFile.seek", false},
		{"anyio.Path.glob", true},
		{"anyio.Path.walk", false},
		{"anyio.Path.home", false},
		{"fastapi.UploadFile.read", false},
		{"anyio.streams.file.FileReadStream.from_path", false},
		{"anyio.streams.file.FileReadStream.receive", false},
		{"trio.Path.stat", false},
		{"trio.open_file", false},
		{"trio.AsyncIOWrapper.read", false},
		{"trio.AsyncIOWrapper.aclose", true},
		{"aiofiles.threadpool.AsyncFile.read", true},
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
		if g.Func != w.fn || g.Cancellable != w.cancellable || g.Keyword != "" {
			t.Errorf("line %d: got %s cancellable=%v keyword=%q, want %s %v", line, g.Func, g.Cancellable, g.Keyword, w.fn, w.cancellable)
		}
	}
}
