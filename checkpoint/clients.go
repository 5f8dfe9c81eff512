package checkpoint

import (
	"slices"
	"strings"

	"github.com/mcplint/mcplint/pyast"
)

// Async database and network clients whose awaited methods do real I/O
// (a round trip to a server, or a wait for a worker thread), so that
// awaiting them yields to the event loop and observes a cancellation. The
// receiver's type comes from valueTypes: annotations, constructor calls,
// "async with X(...) as x", and the factories and methods below that make
// one client out of another (engine.connect(), pool.acquire(), ...).

// any marks a client whose every awaited method does I/O.
const anyMethod = "*"

func set(names ...string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
}

var (
	httpMethods = set("get", "post", "put", "patch", "delete", "head", "options", "request", "send")
	sqlaSession = set("execute", "scalar", "scalars", "get", "get_one", "commit", "rollback", "flush",
		"refresh", "stream", "stream_scalars", "merge", "delete", "run_sync", "connection")
	sqlaConn   = set("execute", "exec_driver_sql", "scalar", "scalars", "stream", "stream_scalars", "commit", "rollback", "run_sync", "start")
	asyncpgIO  = set("fetch", "fetchrow", "fetchval", "fetchmany", "execute", "executemany", "copy_from_table", "copy_from_query", "copy_to_table", "copy_records_to_table", "prepare")
	sqliteConn = set("execute", "executemany", "executescript", "execute_fetchall", "execute_insert", "commit", "rollback", "cursor", "backup", "iterdump")
	anyIO      = set(anyMethod)
)

// clientIO lists, by the qualified name of a client type, its methods whose
// await does I/O.
var clientIO = map[string]map[string]bool{
	"httpx.AsyncClient":                                   httpMethods,
	"aiohttp.ClientSession":                               set("get", "post", "put", "patch", "delete", "head", "options", "request", "ws_connect"),
	"aiohttp.client.ClientSession":                        set("get", "post", "put", "patch", "delete", "head", "options", "request", "ws_connect"),
	"aiohttp.ClientResponse":                              set("read", "text", "json"),
	"aiohttp.client_reqrep.ClientResponse":                set("read", "text", "json"),
	"aiohttp.ClientWebSocketResponse":                     set("receive", "receive_str", "receive_bytes", "receive_json", "ping"),
	"sqlalchemy.ext.asyncio.AsyncSession":                 sqlaSession,
	"sqlalchemy.ext.asyncio.session.AsyncSession":         sqlaSession,
	"sqlalchemy.ext.asyncio.async_scoped_session":         sqlaSession,
	"sqlalchemy.ext.asyncio.scoping.async_scoped_session": sqlaSession,
	"sqlalchemy.ext.asyncio.AsyncConnection":              sqlaConn,
	"sqlalchemy.ext.asyncio.engine.AsyncConnection":       sqlaConn,
	"sqlalchemy.ext.asyncio.AsyncEngine":                  set("connect", "begin", "dispose"),
	"sqlalchemy.ext.asyncio.engine.AsyncEngine":           set("connect", "begin", "dispose"),
	"asyncpg.Connection":                                  asyncpgIO,
	"asyncpg.connection.Connection":                       asyncpgIO,
	"asyncpg.pool.PoolConnectionProxy":                    asyncpgIO,
	"asyncpg.Pool":                                        asyncpgIO,
	"asyncpg.pool.Pool":                                   asyncpgIO,
	"aiosqlite.Connection":                                sqliteConn,
	"aiosqlite.core.Connection":                           sqliteConn,
	"aiosqlite.Cursor":                                    set("execute", "executemany", "executescript", "fetchone", "fetchmany", "fetchall"),
	"aiosqlite.cursor.Cursor":                             set("execute", "executemany", "executescript", "fetchone", "fetchmany", "fetchall"),
	"redis.asyncio.Redis":                                 anyIO,
	"redis.asyncio.StrictRedis":                           anyIO,
	"redis.asyncio.client.Redis":                          anyIO,
	"redis.asyncio.RedisCluster":                          anyIO,
	"redis.asyncio.cluster.RedisCluster":                  anyIO,
	"redis.asyncio.client.Pipeline":                       set("execute"),
	"motor.motor_asyncio.AsyncIOMotorClient":              anyIO,
	"motor.motor_asyncio.AsyncIOMotorDatabase":            anyIO,
	"motor.motor_asyncio.AsyncIOMotorCollection":          anyIO,
	"motor.motor_asyncio.AsyncIOMotorCursor":              anyIO,
	"asyncio.StreamReader":                                set("read", "readline", "readexactly", "readuntil"),
	"asyncio.streams.StreamReader":                        set("read", "readline", "readexactly", "readuntil"),
	// Playwright's async API (and its fork patchright): these methods send
	// a message to the driver process and wait for its answer.
	"playwright.async_api.Playwright":     playwrightIO,
	"playwright.async_api.BrowserType":    browserTypeIO,
	"playwright.async_api.Browser":        browserIO,
	"playwright.async_api.BrowserContext": contextIO,
	"playwright.async_api.Page":           pageIO,
	"patchright.async_api.Playwright":     playwrightIO,
	"patchright.async_api.BrowserType":    browserTypeIO,
	"patchright.async_api.Browser":        browserIO,
	"patchright.async_api.BrowserContext": contextIO,
	"patchright.async_api.Page":           pageIO,
}

var (
	// stop waits for the driver process to exit
	playwrightIO  = set("stop")
	browserTypeIO = set("launch", "launch_persistent_context", "connect", "connect_over_cdp")
	// Not close: Browser, BrowserContext and Page close return at once
	// when already closed (or closing), with no I/O.
	browserIO = set("new_context", "new_page")
	contextIO = set("new_page", "cookies", "add_cookies", "clear_cookies", "storage_state")
	pageIO    = set("goto", "reload", "content", "evaluate", "screenshot", "wait_for_selector")
)

// factories are functions whose call (or await of the call) makes a client.
var factories = map[string]string{
	"sqlalchemy.ext.asyncio.create_async_engine":        "sqlalchemy.ext.asyncio.AsyncEngine",
	"sqlalchemy.ext.asyncio.engine.create_async_engine": "sqlalchemy.ext.asyncio.AsyncEngine",
	"asyncpg.connect":                     "asyncpg.Connection",
	"asyncpg.create_pool":                 "asyncpg.Pool",
	"aiosqlite.connect":                   "aiosqlite.Connection",
	"redis.asyncio.from_url":              "redis.asyncio.Redis",
	"redis.asyncio.Redis.from_url":        "redis.asyncio.Redis",
	"redis.asyncio.client.Redis.from_url": "redis.asyncio.Redis",
	"anyio.connect_tcp":                   "anyio.abc.SocketStream",
	"anyio.connect_unix":                  "anyio.abc.UNIXSocketStream",
}

var aiohttpResponses = map[string]string{
	"get": "aiohttp.ClientResponse", "post": "aiohttp.ClientResponse", "put": "aiohttp.ClientResponse",
	"patch": "aiohttp.ClientResponse", "delete": "aiohttp.ClientResponse", "head": "aiohttp.ClientResponse",
	"options": "aiohttp.ClientResponse", "request": "aiohttp.ClientResponse", "ws_connect": "aiohttp.ClientWebSocketResponse",
}

// products makes one client out of another, by the first one's type:
// calling a method ("connect"), calling the value itself (""), or reading
// any attribute or item (".*", a motor client's databases and collections).
var products = map[string]map[string]string{
	"sqlalchemy.ext.asyncio.AsyncEngine":                {"connect": "sqlalchemy.ext.asyncio.AsyncConnection", "begin": "sqlalchemy.ext.asyncio.AsyncConnection"},
	"sqlalchemy.ext.asyncio.engine.AsyncEngine":         {"connect": "sqlalchemy.ext.asyncio.AsyncConnection", "begin": "sqlalchemy.ext.asyncio.AsyncConnection"},
	"sqlalchemy.ext.asyncio.async_sessionmaker":         {"": "sqlalchemy.ext.asyncio.AsyncSession", "begin": "sqlalchemy.ext.asyncio.AsyncSession"},
	"sqlalchemy.ext.asyncio.session.async_sessionmaker": {"": "sqlalchemy.ext.asyncio.AsyncSession", "begin": "sqlalchemy.ext.asyncio.AsyncSession"},
	"asyncpg.Pool":                               {"acquire": "asyncpg.pool.PoolConnectionProxy"},
	"asyncpg.pool.Pool":                          {"acquire": "asyncpg.pool.PoolConnectionProxy"},
	"aiosqlite.Connection":                       {"execute": "aiosqlite.Cursor", "cursor": "aiosqlite.Cursor"},
	"aiosqlite.core.Connection":                  {"execute": "aiosqlite.Cursor", "cursor": "aiosqlite.Cursor"},
	"redis.asyncio.Redis":                        {"pipeline": "redis.asyncio.client.Pipeline"},
	"redis.asyncio.client.Redis":                 {"pipeline": "redis.asyncio.client.Pipeline"},
	"aiohttp.ClientSession":                      aiohttpResponses,
	"aiohttp.client.ClientSession":               aiohttpResponses,
	"motor.motor_asyncio.AsyncIOMotorClient":     {".*": "motor.motor_asyncio.AsyncIOMotorDatabase"},
	"motor.motor_asyncio.AsyncIOMotorDatabase":   {".*": "motor.motor_asyncio.AsyncIOMotorCollection"},
	"motor.motor_asyncio.AsyncIOMotorCollection": {"find": "motor.motor_asyncio.AsyncIOMotorCursor", "aggregate": "motor.motor_asyncio.AsyncIOMotorCursor"},
}

// entersIO are calls whose "async with" entry does I/O, by the receiver
// type and method ("" for a plain function).
var entersIO = map[string]map[string]bool{
	"aiohttp.ClientSession":        set("get", "post", "put", "patch", "delete", "head", "options", "request", "ws_connect"),
	"aiohttp.client.ClientSession": set("get", "post", "put", "patch", "delete", "head", "options", "request", "ws_connect"),
	"httpx.AsyncClient":            set("stream"),
	"aiosqlite.connect":            set(""),
	"asyncpg.connect":              set(""),
	"asyncpg.create_pool":          set(""),
}

// ioMethod reports whether awaiting method attr of a value of type t does
// I/O. anyio streams (anyio.abc and anyio.streams types whose name ends in
// Stream) checkpoint in send and receive.
func ioMethod(t, attr string) bool {
	if ms, ok := clientIO[t]; ok {
		return ms[attr] || ms[anyMethod]
	}
	if strings.HasPrefix(t, "anyio.") && strings.HasSuffix(t, "Stream") {
		switch attr {
		case "send", "receive", "receive_exactly", "receive_until":
			return true
		}
	}
	return false
}

// isClientIO reports whether call (the awaited expression) is a method call
// that does I/O on a known client, or a factory that connects.
func (a *Analyzer) isClientIO(m *pyast.Module, call *pyast.Node) bool {
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil {
		return false
	}
	if callee.Kind() == "attribute" {
		attr := m.Text(callee.ChildByFieldName("attribute"))
		for _, t := range a.receiverTypes(m, callee.ChildByFieldName("object")) {
			if ioMethod(t, attr) {
				return true
			}
		}
	}
	return false
}

// enteringIO reports whether the with item expression e is a call whose
// "async with" entry does I/O (entersIO).
func (a *Analyzer) enteringIO(m *pyast.Module, e *pyast.Node) bool {
	e = pyast.Unparen(e)
	if e == nil || e.Kind() != "call" {
		return false
	}
	callee := pyast.Unparen(pyast.Callee(e))
	if callee == nil {
		return false
	}
	for _, q := range m.Resolve(callee) {
		if entersIO[q][""] {
			return true
		}
	}
	if callee.Kind() == "attribute" {
		attr := m.Text(callee.ChildByFieldName("attribute"))
		for _, t := range a.receiverTypes(m, callee.ChildByFieldName("object")) {
			if entersIO[t][attr] {
				return true
			}
		}
	}
	return false
}

// externals returns the library values the resolver's value-flow engine
// says e can be (Resolver.Externals), or none without a resolver.
func (a *Analyzer) externals(m *pyast.Module, e *pyast.Node) []string {
	if a == nil || a.resolver == nil || e == nil {
		return nil
	}
	return a.resolver.Externals(m, e)
}

// receiverTypes returns the qualified types of the value of e: what
// valueTypes finds in e's own module, and the types of the library values
// the resolver's value-flow engine says e can be (spelledTypes), which
// follow bindings made elsewhere: self.engine set in another method,
// a parameter its callers pass, what a project function returns.
func (a *Analyzer) receiverTypes(m *pyast.Module, e *pyast.Node) []string {
	ts := valueTypes(m, e, 0)
	for _, x := range a.externals(m, e) {
		for _, t := range spelledTypes(x, 0) {
			if !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		}
	}
	return ts
}

// spelledTypes returns the types of the client tables that library value x
// (spelled as Resolver.Externals spells it) has: a factory's product or a
// client class for a call of a qualified name, the product of calling a
// typed value or a method of one, and attribute products (motor's
// client.db); entering a client ("__enter__") gives the client itself.
func spelledTypes(x string, depth int) []string {
	if depth > maxTypeDepth || !strings.Contains(x, "()") {
		return nil
	}
	callee, called := strings.CutSuffix(x, "()")
	if !called {
		dot := strings.LastIndexByte(x, '.')
		var out []string
		for _, t := range spelledTypes(x[:dot], depth+1) {
			if p, ok := products[t][".*"]; ok {
				out = append(out, p)
			}
		}
		return out
	}
	if !strings.Contains(callee, "()") {
		if p, ok := factories[callee]; ok {
			return []string{p}
		}
		if isClientType(callee) {
			return []string{callee} // a constructor call
		}
		return nil
	}
	if strings.HasSuffix(callee, "()") {
		var out []string
		for _, t := range spelledTypes(callee, depth+1) {
			if p, ok := products[t][""]; ok {
				out = append(out, p) // calling a typed value: maker()
			}
		}
		return out
	}
	dot := strings.LastIndexByte(callee, '.')
	obj, attr := callee[:dot], callee[dot+1:]
	var out []string
	for _, t := range spelledTypes(obj, depth+1) {
		if attr == "__enter__" {
			out = append(out, t)
		} else if p, ok := products[t][attr]; ok {
			out = append(out, p)
		}
	}
	return out
}

// maxTypeDepth bounds valueTypes through bindings (x = y; y = z() ...).
const maxTypeDepth = 4

// valueTypes returns the qualified types of the value of expression e, as
// far as the client tables know them: Module.TypesOf (annotations,
// constructor calls, "with X() as x"), factories mapped to what they make;
// for a name, also what its bound values make (x = await asyncpg.connect(),
// "async with engine.connect() as conn", s = maker()); for a call, its
// factory or class, or the product of calling a typed value or a method of
// one; for obj.attr and obj[key], attribute products.
func valueTypes(m *pyast.Module, e *pyast.Node, depth int) []string {
	e = pyast.Unparen(e)
	if e == nil || depth > maxTypeDepth {
		return nil
	}
	var out []string
	add := func(ts ...string) {
		for _, t := range ts {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	switch e.Kind() {
	case "await":
		return valueTypes(m, e.NamedChild(0), depth+1)
	case "call":
		callee := pyast.Unparen(pyast.Callee(e))
		if callee == nil {
			return nil
		}
		if callee.Kind() == "identifier" || callee.Kind() == "attribute" {
			for _, q := range m.Resolve(callee) {
				if p, ok := factories[q]; ok {
					add(p)
				} else if isClientType(q) {
					add(q) // a constructor call
				}
			}
		}
		for _, t := range valueTypes(m, callee, depth+1) {
			if p, ok := products[t][""]; ok {
				add(p) // calling a typed value: maker()
			}
		}
		if callee.Kind() == "attribute" {
			attr := m.Text(callee.ChildByFieldName("attribute"))
			for _, t := range valueTypes(m, callee.ChildByFieldName("object"), depth+1) {
				if p, ok := products[t][attr]; ok {
					add(p)
				}
			}
		}
	case "identifier", "attribute":
		for _, t := range m.TypesOf(e) {
			if p, ok := factories[t]; ok {
				add(p) // x = create_async_engine(...): TypesOf names the factory
			} else {
				add(t)
			}
		}
		if e.Kind() == "identifier" {
			for _, b := range m.ScopeAt(e).Lookup(m.TextView(e)) {
				if v := pyast.Unparen(b.Value()); v != nil && !within(e, v) {
					switch v.Kind() {
					case "call", "await", "attribute", "subscript":
						add(valueTypes(m, v, depth+1)...)
					}
				}
			}
			break
		}
		for _, t := range valueTypes(m, e.ChildByFieldName("object"), depth+1) {
			if p, ok := products[t][".*"]; ok {
				add(p)
			}
		}
	case "subscript":
		for _, t := range valueTypes(m, e.ChildByFieldName("value"), depth+1) {
			if p, ok := products[t][".*"]; ok {
				add(p)
			}
		}
	case "binary_operator":
		// base / "name": an operator product (anyio.Path / str is a Path).
		op := e.ChildByFieldName("operator")
		if op == nil {
			break
		}
		for _, t := range valueTypes(m, e.ChildByFieldName("left"), depth+1) {
			if p, ok := products[t][m.Text(op)]; ok {
				add(p)
			}
		}
	}
	return out
}

// isClientType reports whether q names a client class of the tables.
func isClientType(q string) bool {
	if _, ok := clientIO[q]; ok {
		return true
	}
	if _, ok := products[q]; ok {
		return true
	}
	if isThreadObject(q) {
		return true
	}
	return strings.HasPrefix(q, "anyio.") && strings.HasSuffix(q, "Stream")
}
