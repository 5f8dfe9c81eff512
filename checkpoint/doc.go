// Package checkpoint is mcplint's cancellation-flow analysis: which calls
// wait for work that cannot observe a cancellation (offloads), which awaits
// are real checkpoints, and whether every path from a point of a function to
// its normal return passes one. Rules MCP101 (offloads), MCP102 (shielded
// scopes) and MCP104 share it.
//
// It reads pyast trees and resolves names with Module.Resolve and
// Module.TypesOf, never by spelling. It does not import handlers: calls of
// project functions are resolved through the Resolver interface, which
// handlers.Index implements.
//
// # Offloads (Offload)
//
// Non-cancellable unless the keyword says otherwise (a literal False, None or 0
// counts as missing; a non-literal value counts as set):
//
//   - anyio.to_thread.run_sync: abandon_on_cancel= (pre-4.1 name cancellable=)
//   - anyio.to_process.run_sync: cancellable=
//   - anyio.to_interpreter.run_sync: no keyword
//   - starlette.concurrency.run_in_threadpool, iterate_in_threadpool and the
//     fastapi.concurrency re-exports, fastapi.concurrency.contextmanager_in_threadpool:
//     no keyword (iterate_ waits in "async for", contextmanager_ in "async with")
//   - asyncer.asyncify(f, abandon_on_cancel=)(...): the outer call; also
//     g = asyncify(f); await g(...)
//   - functools.partial(offload, ...)(...) and p = functools.partial(offload, ...);
//     await p(...), the keyword on either call
//   - trio.to_thread.run_sync: abandon_on_cancel= (before trio 0.23 cancellable=)
//   - anyio.open_file, anyio.Path.cwd / home, mkstemp, mkdtemp, gettempdir,
//     gettempdirb, FileReadStream / FileWriteStream.from_path, trio.open_file,
//     trio.Path.cwd / home: no keyword; "async with" anyio.TemporaryFile,
//     NamedTemporaryFile, TemporaryDirectory (entering and leaving)
//   - methods by the receiver's type (fileio.go, through valueTypes): anyio
//     AsyncFile (every method, and "async for line in f"), the anyio.Path
//     methods that pass no abandon_on_cancel (read_text, write_bytes, mkdir,
//     unlink, open, walk ...), anyio file streams, trio.Path and trio file
//     objects, Starlette / FastAPI UploadFile read, write, seek, close
//   - leaving "async with" of an anyio AsyncFile or file stream (LeavingFile:
//     its aclose); the exit starts with a checkpoint, so it covers the body,
//     and its own wait ends where the body leaves (UncoveredLeaving: after
//     the statement, and where its return, raise, break, continue go)
//
// Cancellable, so no finding and a checkpoint: the anyio.Path queries that
// pass abandon_on_cancel=True (exists, stat, is_*, resolve, glob, iterdir
// steps ...), trio file aclose and leaving its "async with" (shielded
// close, then a checkpoint),
// asgiref.sync.sync_to_async(f)(...) (asyncio.shield of run_in_executor, then
// a cancel of that future), aiofiles files and aiofiles.os functions
// (run_in_executor). docs/offloads.md cites the source line of each.
//
// Awaiting any of them, cancellable or not, is a checkpoint: an offload starts
// with one.
//
// # Checkpoints (Analyzer.IsCheckpointAwait)
//
// An await is a checkpoint when it awaits a call of:
//
//   - anyio.lowlevel.checkpoint, anyio.lowlevel.checkpoint_if_cancelled
//     (not cancel_shielded_checkpoint), anyio.sleep, sleep_until, sleep_forever,
//     asyncio.sleep, trio.sleep, sleep_until, sleep_forever,
//     trio.lowlevel.checkpoint, checkpoint_if_cancelled
//   - entering an async with whose __aenter__ (a project class's) checkpoints
//     on every path, and leaving one whose __aexit__ does
//   - the head of an async for over instances of project classes whose
//     __anext__ checkpoints on every path, StopAsyncIteration's included
//     (stepsProjectIter); a yield of an async generator whose only
//     consumers are async for loops after whose body start every path
//     checkpoints (Extra.Yield)
//   - a task t awaited in an except clause of a try whose body awaits
//     asyncio.shield(t): the shield raised because the awaiting task was
//     cancelled, so t is still running and awaiting it yields
//   - an offload (above), asyncio.to_thread, asyncio.shield,
//     loop.run_in_executor on
//     asyncio.get_running_loop() / get_event_loop() / new_event_loop()
//   - ctx.info, debug, warning, error, critical, log, report_progress, where ctx
//     is typed (annotation or constructor) as an mcp.* or fastmcp.* Context,
//     comes from a get_context() call, is an untyped parameter named ctx or
//     context, or is one as the value-flow engine says (Resolver.Externals:
//     self.ctx set from a handler's Context in another method)
//   - session.send_*(...) where the object is named session, is an attribute
//     .session (ctx.session, ctx.request_context.session) or is typed as an
//     mcp.* *Session, in its module or as the engine says
//   - a server-to-client request (ServerRequest: ctx.elicit, sample,
//     list_roots, session.create_message, ...)
//   - network and process I/O: asyncio.open_connection, open_unix_connection,
//     create_subprocess_exec, create_subprocess_shell, anyio.connect_tcp,
//     connect_unix, run_process, open_process, getaddrinfo; asyncpg.connect,
//     asyncpg.create_pool, aiosqlite.connect
//   - the I/O methods of async database and network clients (clients.go),
//     by the receiver's type:
//     httpx.AsyncClient and aiohttp.ClientSession: get, post, put, patch,
//     delete, head, options, request (httpx also send, aiohttp ws_connect);
//     aiohttp ClientResponse: read, text, json; ClientWebSocketResponse:
//     receive*, ping;
//     sqlalchemy.ext.asyncio AsyncSession (and async_scoped_session): execute,
//     scalar, scalars, get, get_one, commit, rollback, flush, refresh, stream,
//     stream_scalars, merge, delete, run_sync, connection; AsyncConnection:
//     execute, exec_driver_sql, scalar, scalars, stream, stream_scalars,
//     commit, rollback, run_sync, start; AsyncEngine: connect, begin, dispose;
//     asyncpg Connection, Pool and pool connections: fetch, fetchrow,
//     fetchval, fetchmany, execute, executemany, prepare, copy_from_table,
//     copy_from_query, copy_to_table, copy_records_to_table;
//     aiosqlite Connection: execute, executemany, executescript,
//     execute_fetchall, execute_insert, commit, rollback, cursor, backup,
//     iterdump; Cursor: execute, executemany, executescript, fetchone,
//     fetchmany, fetchall;
//     redis.asyncio Redis / StrictRedis / RedisCluster: every method;
//     Pipeline: execute;
//     motor AsyncIOMotorClient, Database, Collection, Cursor: every method;
//     anyio streams (anyio.abc and anyio.streams types named *Stream): send,
//     receive, receive_exactly, receive_until;
//     asyncio.StreamReader: read, readline, readexactly, readuntil;
//     Playwright's async API (playwright.async_api and its fork
//     patchright.async_api), calls that wait for the driver's answer:
//     Playwright.stop, BrowserType launch, launch_persistent_context,
//     connect, connect_over_cdp; Browser new_context, new_page;
//     BrowserContext new_page, cookies, add_cookies, clear_cookies,
//     storage_state; Page goto, reload, content, evaluate, screenshot,
//     wait_for_selector.
//     Not StreamWriter.drain (it returns at once unless the transport is
//     paused), AsyncSession.close, nor Playwright's Browser, BrowserContext
//     and Page close (they return at once when already closed). Some listed calls can finish without
//     I/O (AsyncSession.get on an identity-map hit, a commit with nothing to
//     do, a read of already buffered data); they are listed because in
//     request code they nearly always do I/O.
//     The receiver's type comes from annotations, constructor calls and
//     "async with X(...) as x" (Module.TypesOf), from what a factory or
//     method makes (create_async_engine() is an AsyncEngine, its connect() /
//     begin() an AsyncConnection, an async_sessionmaker's call an
//     AsyncSession, asyncpg.connect() a Connection, pool.acquire() a pool
//     connection, aiosqlite's execute() / cursor() a Cursor,
//     redis.asyncio.from_url() a Redis, motor client.db.coll and
//     client["db"]["coll"] a collection), and from the values a name is bound
//     to, including "x = await factory(...)"; an attribute of self takes
//     the types of its annotation in the class's methods ("self.x: T | None
//     = None"); and the library values the value-flow engine says the
//     receiver can be (Resolver.Externals), which follow bindings made
//     elsewhere: self.engine = create_async_engine(...) in another method,
//     a connection its callers pass as an argument, what a project function
//     returns
//   - asyncio.wait_for(aw, timeout) when awaiting aw is a checkpoint (it
//     awaits aw; the timeout adds a cancellation of its own)
//   - entering "async with" of a call whose entry does I/O: an aiohttp
//     ClientSession request or ws_connect, httpx AsyncClient.stream,
//     aiosqlite.connect, asyncpg.connect and create_pool; and of a project
//     @contextlib.asynccontextmanager function whose code before its yield
//     checkpoints on every path (EntersCheckpoint)
//   - a project async function that checkpoints on every path to a normal
//     return (AlwaysCheckpoints, through the Resolver; recursion counts as no);
//     a path that a checkpoint of a try body sends into an except clause
//     catching the cancellation (asyncio.CancelledError, BaseException, bare
//     except, anyio.get_cancelled_exc_class(), trio.Cancelled) must
//     checkpoint again in that clause, so a helper that swallows the cancel
//     is no checkpoint; going round a loop into the same try body is no such
//     checkpoint (the wait it retries can end without suspending, as
//     await asyncio.shield(task) does once the task is done)
//
// Anything else is not a checkpoint: an unknown coroutine, a task, a future,
// asyncio.gather, asyncio.wait_for of anything else, entering or leaving an "async with" (except
// contextmanager_in_threadpool, an offload, and the entries above), "async
// for" steps (except iterate_in_threadpool). An await inside a shielded cancel scope
// (ShieldedScope) is not a checkpoint either, nor a method call on a name or
// self attribute that may be None (annotated Optional[...] or X | None, or
// bound to None) outside an `if x is not None:` or `if x:` test of that same
// name and not after an `assert x is not None` or an `if x is None: raise`
// (return, break, continue) of its block (none.go): while it is None the
// call raises AttributeError before anything yields.
//
// # Flow (Analyzer.Covered)
//
// Structural, over statements: sequences; if/elif/else; match (a case _ or
// capture pattern makes it total); while and for with else, break and
// continue (while True has no exit but break); try/except/else/finally (a
// finally that checkpoints covers every way out of the try; raise statements
// in a try body go to its handlers; other implicit exceptions are ignored);
// with and async with (bodies of shielded scopes do not checkpoint); return and
// raise. Within an expression only unconditionally evaluated awaits
// count: not the right operand of and/or, not the branches of a conditional
// expression, not lambdas or comprehensions. A checkpoint that raises the
// cancellation into an except that swallows it is MCP104's business: here it
// covers.
//
// A branch on an awaited project function's result counts what the callee
// did before giving that result (returns.go): for `if [not] await f(...)`
// (also an elif), and `x = await f(...)` right before `if [not] x:`, the
// branch taken on a falsy (truthy) result is covered when every path of f
// that can return a falsy (truthy) value passes a real checkpoint first
// (ReturnsChecked). A return gives a known truth only for a constant (True,
// False, None, a decimal integer, a string with no interpolation) or a local
// name bound only by plain assignments (then its assignments are what
// count); anything else may have either truth. That question follows
// implicit exceptions (a failing call may enter any except clause of the try
// around it, or be suppressed by a with statement), unless the try or with
// body starts with an await of a real checkpoint whose arguments are
// names, attributes, constants or the coroutine of another checkpoint (an
// attribute argument is taken to run no code: a property that raises is not
// seen): an exception from awaited real I/O is taken to come after it
// yielded.
//
// # Ways out (Exits)
//
// After an unobserved cancellation a handler crashes mcp 1.x whether it
// returns or raises an exception other than the cancellation (the SDK turns
// that into an error response, a second response too). So the questions ask
// about both ways out of a function, ExitReturn and ExitRaise, one run each
// (UncoveredAfter, UncoveredFrom; Covered is "neither"):
//
//   - a raise of the cancellation (Reraises: a bare raise or raise of the
//     caught name in an except clause that can catch it, a raise of
//     asyncio.CancelledError, trio.Cancelled or anyio's class) counts like a
//     checkpoint: the SDK expects it. A bare raise in `except TimeoutError:`
//     raises that other exception;
//   - any other raise goes to the except clauses of the try statements
//     around it: only to them when one names its class (raisesCaught, by
//     name, no subclasses) or catches everything (bare, Exception,
//     BaseException), else also on past the try; out of the function it is
//     an ExitRaise;
//   - an awaited project async function that can raise unchecked
//     (RaisesUnchecked: its own ExitRaise summary) raises out of the
//     statement that awaits it, as a raise statement there would (its class
//     is not known, so only a catch-all keeps it in the try); awaiting it is
//     a checkpoint for the paths after the call when AlwaysCheckpoints (its
//     ExitReturn summary) holds.
//
// Callers follow a function's way out through its call sites: a return goes
// on after the call (UncoveredAfter), an exception from the call through the
// caller's except clauses (UncoveredRaising). Implicit exceptions (a call
// that fails) are not followed, as before.
//
// MCP104 asks the same question from the start of an except body or a jump
// in finally: (CoveredFrom), with two adjustments (Extra): awaits in the try
// body whose cancellation is swallowed do not count (a loop back into it
// raises into the same except), and a statement may count as a checkpoint
// (`if cancelled: raise CancelledError` after the except set the flag).
package checkpoint
