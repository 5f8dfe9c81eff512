package checkpoint

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// awaitOn returns the first await on the line carrying "# here".
func awaitOn(t *testing.T, m *pyast.Module) *pyast.Node {
	t.Helper()
	var found *pyast.Node
	pyast.Walk(m.Root, func(n *pyast.Node) bool {
		if found != nil {
			return false
		}
		if n.Kind() == "await" && strings.Contains(m.Lines.LineText(m.Pos(int(n.StartByte())).Line), "# here") {
			found = n
		}
		return found == nil
	})
	if found == nil {
		t.Fatal("no await on a '# here' line")
	}
	return found
}

// awaitCase is a module whose await on the "# here" line is, or is not, a
// checkpoint.
type awaitCase struct {
	name, src string
	want      bool
}

// checkAwaits checks IsCheckpointAwait on each case.
func checkAwaits(t *testing.T, cases []awaitCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := parse(t, c.src)
			if got := New(nil).IsCheckpointAwait(m, awaitOn(t, m)); got != c.want {
				t.Errorf("IsCheckpointAwait = %v, want %v", got, c.want)
			}
		})
	}
}

func TestClientIOCheckpoints(t *testing.T) {
	cases := []awaitCase{
		{"session annotation", `
from sqlalchemy.ext.asyncio import AsyncSession
async def f(session: AsyncSession):
    await session.execute(q)  # here
`, true},
		{"session constructor in async with", `
from sqlalchemy.ext.asyncio import AsyncSession
async def f(engine):
    async with AsyncSession(engine) as s:
        await s.commit()  # here
`, true},
		{"session close is not I/O we count", `
from sqlalchemy.ext.asyncio import AsyncSession
async def f(engine):
    async with AsyncSession(engine) as s:
        await s.close()  # here
`, false},
		{"sessionmaker call", `
from sqlalchemy.ext.asyncio import async_sessionmaker
Session = async_sessionmaker(engine)
async def f():
    async with Session() as s:
        await s.scalars(q)  # here
`, true},
		{"engine factory then connect", `
import sqlalchemy.ext.asyncio as sa_async
async def f(url):
    engine = sa_async.create_async_engine(url)
    async with engine.connect() as conn:
        await conn.run_sync(g)  # here
`, true},
		{"self attribute engine", `
from sqlalchemy.ext.asyncio import create_async_engine
class S:
    def __init__(self, url):
        self.engine = create_async_engine(url)
    async def f(self):
        conn = await self.engine.connect()  # here
`, true},
		{"engine begin is a connection", `
from sqlalchemy.ext.asyncio import AsyncEngine
async def f(engine: AsyncEngine):
    async with engine.begin() as conn:
        await conn.execute(q)  # here
`, true},
		{"asyncpg connect result", `
import asyncpg
async def f(dsn):
    conn = await asyncpg.connect(dsn)
    return await conn.fetchrow("SELECT 1")  # here
`, true},
		{"asyncpg pool acquire", `
from asyncpg import Pool
async def f(pool: Pool):
    async with pool.acquire() as conn:
        await conn.copy_records_to_table("t", records=[])  # here
`, true},
		{"asyncpg unknown method", `
import asyncpg
async def f(conn: asyncpg.Connection):
    await conn.reset_type_codec("x")  # here
`, false},
		{"aiosqlite cursor", `
import aiosqlite
async def f(path):
    async with aiosqlite.connect(path) as db:
        async with db.execute("SELECT 1") as cur:
            await cur.fetchall()  # here
`, true},
		{"redis from_url any command", `
from redis import asyncio as aioredis
async def f(url):
    r = aioredis.Redis.from_url(url)
    await r.hgetall("k")  # here
`, true},
		{"redis pipeline execute", `
import redis.asyncio
async def f(r: redis.asyncio.Redis):
    p = r.pipeline()
    await p.execute()  # here
`, true},
		{"motor collection chain", `
from motor.motor_asyncio import AsyncIOMotorClient
async def f():
    client = AsyncIOMotorClient()
    await client.db["users"].find_one({})  # here
`, true},
		{"motor cursor to_list", `
from motor.motor_asyncio import AsyncIOMotorCollection
async def f(c: AsyncIOMotorCollection):
    await c.find({}).to_list(10)  # here
`, true},
		{"aiohttp response body", `
import aiohttp
async def f(url):
    async with aiohttp.ClientSession() as s:
        async with s.get(url) as resp:
            await resp.text()  # here
`, true},
		{"httpx client", `
import httpx
async def f(url):
    async with httpx.AsyncClient() as c:
        await c.get(url)  # here
`, true},
		{"anyio stream send", `
from anyio.abc import ObjectSendStream
async def f(s: ObjectSendStream[int]):
    await s.send(1)  # here
`, true},
		{"anyio memory stream receive", `
from anyio.streams.memory import MemoryObjectReceiveStream
async def f(s: MemoryObjectReceiveStream[int]):
    await s.receive()  # here
`, true},
		{"anyio connect_tcp stream", `
import anyio
async def f():
    stream = await anyio.connect_tcp("h", 1)
    await stream.receive()  # here
`, true},
		{"asyncio reader", `
import asyncio
async def f(r: asyncio.StreamReader):
    await r.readline()  # here
`, true},
		{"asyncio writer drain is not", `
import asyncio
async def f(w: asyncio.StreamWriter):
    await w.drain()  # here
`, false},
		{"same name, unknown type", `
async def f(session):
    await session.execute(q)  # here
`, false},
		{"project class with the same method names", `
class AsyncSession:
    async def execute(self, q):
        return q
async def f(s: AsyncSession):
    await s.execute(q)  # here
`, false},
	}
	checkAwaits(t, cases)
}

func TestEnteringClientIO(t *testing.T) {
	cases := []struct {
		name, src string
		want      bool
	}{
		{"aiohttp request", `
import aiohttp
async def f(s: aiohttp.ClientSession):
    async with s.post(url) as r:  # here
        pass
    return 1
`, true},
		{"httpx stream", `
import httpx
async def f(c: httpx.AsyncClient):
    async with c.stream("GET", url) as r:  # here
        pass
    return 1
`, true},
		{"aiosqlite connect", `
import aiosqlite
async def f(p):
    async with aiosqlite.connect(p) as db:  # here
        pass
    return 1
`, true},
		{"sqlalchemy session entry does no I/O", `
from sqlalchemy.ext.asyncio import AsyncSession
async def f(e):
    async with AsyncSession(e) as s:  # here
        pass
    return 1
`, false},
		{"project asynccontextmanager that connects first", `
import contextlib
from sqlalchemy.ext.asyncio import create_async_engine
engine = create_async_engine(URL)
async def f():
    async with db() as conn:  # here
        pass
    return 1
@contextlib.asynccontextmanager
async def db():
    try:
        conn = await engine.connect()
    finally:
        record()
    try:
        yield conn
    finally:
        await conn.close()
`, true},
		{"project asynccontextmanager, checkpoint in a with before the yield", `
from contextlib import asynccontextmanager
from sqlalchemy.ext.asyncio import AsyncSession
async def f():
    async with cm() as db:  # here
        pass
    return 1
@asynccontextmanager
async def cm():
    async with AsyncSession(e) as s:
        await s.execute(q)
        yield s
`, true},
		{"project async generator without the decorator", `
from sqlalchemy.ext.asyncio import AsyncSession
async def f():
    async with cm() as db:  # here
        pass
    return 1
async def cm():
    async with AsyncSession(e) as s:
        await s.execute(q)
        yield s
`, false},
		{"project asynccontextmanager that may yield first", `
import contextlib
import anyio
async def f():
    async with cm(True) as db:  # here
        pass
    return 1
@contextlib.asynccontextmanager
async def cm(fast):
    if fast:
        yield None
        return
    await anyio.sleep(0)
    yield 1
`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := parse(t, c.src)
			var fn *pyast.Function
			for _, f := range m.Funcs {
				if f.Name == "f" {
					fn = f
				}
			}
			var with *pyast.Node
			pyast.Walk(fn.Body, func(n *pyast.Node) bool {
				if with == nil && n.Kind() == "with_statement" {
					with = n
				}
				return with == nil
			})
			if got := New(sameModule{}).StatementCheckpoints(m, with); got != c.want {
				t.Errorf("StatementCheckpoints(async with) = %v, want %v", got, c.want)
			}
		})
	}
}

// asyncio.wait_for of a checkpoint call is one; Playwright's driver calls are
// I/O, also through an attribute annotated in __init__ and a local copy.
func TestWaitForAndPlaywright(t *testing.T) {
	cases := []awaitCase{
		{"wait_for of client I/O", `
import asyncio, httpx
client = httpx.AsyncClient()
async def f():
    await asyncio.wait_for(client.get("/"), timeout=5)  # here
`, true},
		{"wait_for of an unknown coroutine", `
import asyncio
async def f(x):
    await asyncio.wait_for(x.close(), timeout=5)  # here
`, false},
		{"wait_for of an offload", `
from asyncio import wait_for
import anyio
async def f(g):
    await wait_for(anyio.to_thread.run_sync(g), 5)  # here
`, true},
		{"playwright context from an annotated attribute", `
import asyncio
from patchright.async_api import BrowserContext
class M:
    def __init__(self):
        self._context: BrowserContext | None = None
    async def close(self):
        context = self._context
        await asyncio.wait_for(context.new_page(), timeout=5)  # here
`, true},
		{"playwright close returns at once when already closed", `
import asyncio
from playwright.async_api import Browser, BrowserContext, Page
async def f(b: Browser, c: BrowserContext, p: Page):
    await p.close()
    await c.close()
    await asyncio.wait_for(b.close(), timeout=5)  # here
`, false},
		{"playwright stop, annotated parameter", `
from playwright.async_api import Playwright
async def f(p: Playwright):
    await p.stop()  # here
`, true},
		{"an unannotated attribute", `
class M:
    def __init__(self, c):
        self._context = c
    async def close(self):
        await self._context.close()  # here
`, false},
		{"a page method not in the table", `
from playwright.async_api import Page
async def f(page: Page):
    await page.wait_for_timeout(0)  # here
`, false},
	}
	checkAwaits(t, cases)
}

// A method awaited on a value that may be None raises AttributeError before
// it yields unless a test of that value encloses it.
func TestNoneReceiverNotACheckpoint(t *testing.T) {
	const head = `
from typing import Optional
import asyncio
import httpx
`
	checkAwaits(t, []awaitCase{
		{"optional self attribute", head + `
class S:
    def __init__(self):
        self.client: Optional[httpx.AsyncClient] = None
    async def close(self):
        await self.client.get("/")  # here
`, false},
		{"union with None, assigned None elsewhere", head + `
class S:
    def __init__(self, c: httpx.AsyncClient):
        self.client = c
    def reset(self):
        self.client = None
    async def close(self):
        await self.client.get("/")  # here
`, false},
		{"optional parameter", head + `
async def f(client: httpx.AsyncClient | None):
    await client.get("/")  # here
`, false},
		{"under is not None", head + `
class S:
    def __init__(self):
        self.client: Optional[httpx.AsyncClient] = None
    async def close(self):
        if self.client is not None:
            await self.client.get("/")  # here
`, true},
		{"under a truth test and-ed", head + `
async def f(client: Optional[httpx.AsyncClient], ok):
    if ok and client:
        await client.get("/")  # here
`, true},
		{"in the else of the test", head + `
async def f(client: Optional[httpx.AsyncClient]):
    if client is not None:
        pass
    else:
        await client.get("/")  # here
`, false},
		{"a local copy tested, inside wait_for", head + `
class S:
    def __init__(self):
        self.client: Optional[httpx.AsyncClient] = None
    async def close(self):
        client = self.client
        if client is not None:
            await asyncio.wait_for(client.get("/"), timeout=5)  # here
`, true},
		{"not optional", head + `
class S:
    def __init__(self):
        self.client: httpx.AsyncClient = httpx.AsyncClient()
    async def close(self):
        await self.client.get("/")  # here
`, true},
		{"after an assert of not None", head + `
async def f(client: Optional[httpx.AsyncClient]):
    assert client is not None, "not open"
    await client.get("/")  # here
`, true},
		{"after an early raise on None, or-ed", head + `
async def f(client: Optional[httpx.AsyncClient], ok):
    if not ok or client is None:
        raise RuntimeError("not open")
    await client.get("/")  # here
`, true},
		{"after an early return on not x, in a loop body", head + `
async def f(client: Optional[httpx.AsyncClient], n):
    for _ in range(n):
        if not client:
            continue
        await client.get("/")  # here
`, true},
		{"after an assert of another name", head + `
async def f(client: Optional[httpx.AsyncClient], other):
    assert other is not None
    await client.get("/")  # here
`, false},
		{"early exit that does not leave", head + `
async def f(client: Optional[httpx.AsyncClient]):
    if client is None:
        print("not open")
    await client.get("/")  # here
`, false},
		{"early exit with an else", head + `
async def f(client: Optional[httpx.AsyncClient]):
    if client is None:
        raise RuntimeError("not open")
    else:
        pass
    await client.get("/")  # here
`, false},
		{"is None tested the wrong way", head + `
async def f(client: Optional[httpx.AsyncClient]):
    if client is not None:
        return
    await client.get("/")  # here
`, false},
		{"an assert after the call", head + `
async def f(client: Optional[httpx.AsyncClient]):
    await client.get("/")  # here
    assert client is not None
`, false},
	})
}

// spelledTypes types the library values the engine gives a receiver, in
// the spelling of Resolver.Externals.
func TestSpelledTypes(t *testing.T) {
	for _, c := range []struct {
		x    string
		want []string
	}{
		{"sqlalchemy.ext.asyncio.create_async_engine()", []string{"sqlalchemy.ext.asyncio.AsyncEngine"}},
		{"sqlalchemy.ext.asyncio.create_async_engine().connect()", []string{"sqlalchemy.ext.asyncio.AsyncConnection"}},
		{"sqlalchemy.ext.asyncio.create_async_engine().connect().__enter__()", []string{"sqlalchemy.ext.asyncio.AsyncConnection"}},
		{"httpx.AsyncClient()", []string{"httpx.AsyncClient"}},
		{"sqlalchemy.ext.asyncio.async_sessionmaker()()", []string{"sqlalchemy.ext.asyncio.AsyncSession"}},
		{"sqlalchemy.ext.asyncio.create_async_engine", nil},       // the factory itself, not called
		{"sqlalchemy.ext.asyncio.create_async_engine().url", nil}, // an attribute with no product
		{"json.loads()", nil},
		{"httpx.AsyncClient().get().json()", nil},
	} {
		if got := spelledTypes(c.x, 0); !slices.Equal(got, c.want) {
			t.Errorf("spelledTypes(%q) = %q, want %q", c.x, got, c.want)
		}
	}
}
