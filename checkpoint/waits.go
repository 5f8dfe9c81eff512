package checkpoint

import "github.com/mcplint/mcplint/pyast"

// Wait is a place where a function waits for an offload.
type Wait struct {
	Offload OffloadInfo
	// At is the await expression, or the "async for" / "async with"
	// statement whose last step waits for iterate_in_threadpool /
	// contextmanager_in_threadpool. UncoveredAfter(m, fn, At, Extra{})
	// tells which ways out of fn some path reaches from it with no
	// checkpoint; for a wait that Leaves (the exit of "async with" of a
	// thread-backed file), UncoveredLeaving does.
	At *pyast.Node
}

// Waits returns the offload waits in fn's own code (nested functions and
// lambdas excluded), cancellable ones included, in source order: awaits of an
// offload call, awaits of a variable assigned an offload call in the same
// scope (coro = run_sync(f); await coro), either of those awaited through
// asyncio.wait_for (on Python 3.12+ it awaits its argument in the same task,
// so the offload's wait is what the await does), "async for" over
// iterate_in_threadpool (and the other IterOffload iterators: an anyio
// AsyncFile, anyio.Path.walk) and "async with" of contextmanager_in_threadpool
// (and anyio.TemporaryFile, NamedTemporaryFile, TemporaryDirectory).
func Waits(m *pyast.Module, fn *pyast.Function) []Wait {
	if fn == nil || fn.Body == nil {
		return nil
	}
	var out []Wait
	pyast.WalkCode(fn.Body, func(n *pyast.Node) bool {
		switch n.Kind() {
		case "await":
			e := pyast.Unparen(n.NamedChild(0))
			if inner := TimedAwaitable(m, e); inner != nil {
				e = inner // await asyncio.wait_for(offload(...), t)
			}
			if e == nil {
				return true
			}
			if e.Kind() == "identifier" {
				for _, b := range m.ScopeAt(e).Lookup(m.TextView(e)) {
					if v := b.Value(); b.Kind == pyast.BindValue && v != nil && v.Kind() == "call" {
						if info, ok := Offload(m, v); ok && !info.Iterates && !info.Enters {
							out = append(out, Wait{Offload: info, At: n})
							break
						}
					}
				}
				return true
			}
			if info, ok := Offload(m, e); ok && !info.Iterates && !info.Enters {
				out = append(out, Wait{Offload: info, At: n})
			}
		case "for_statement":
			if pyast.HasChildKind(n, "async") {
				if info, ok := IterOffload(m, n.ChildByFieldName("right")); ok {
					out = append(out, Wait{Offload: info, At: n})
				}
			}
		case "with_statement":
			if pyast.HasChildKind(n, "async") {
				for _, e := range pyast.WithItems(n) {
					if info, ok := Offload(m, e); ok && info.Enters {
						out = append(out, Wait{Offload: info, At: n})
					} else if info, ok := LeavingFile(m, e); ok {
						out = append(out, Wait{Offload: info, At: n})
					}
				}
			}
		}
		return true
	})
	return out
}

// TimedAwaitable returns the awaitable argument of call when call is
// asyncio.wait_for(aw, timeout) (timedWaits), else nil.
func TimedAwaitable(m *pyast.Module, call *pyast.Node) *pyast.Node {
	if call == nil || call.Kind() != "call" {
		return nil
	}
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil || callee.Kind() != "identifier" && callee.Kind() != "attribute" {
		return nil
	}
	for _, q := range m.Resolve(callee) {
		if timedWaits[q] {
			pos, kw := m.Args(call)
			if len(pos) > 0 {
				return pyast.Unparen(pos[0])
			}
			return pyast.Unparen(kw["fut"]) // wait_for(fut=aw, timeout=t)
		}
	}
	return nil
}
