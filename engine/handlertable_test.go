package engine

import (
	"bytes"
	"encoding/gob"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mcplint/mcplint/handlers"
)

func TestHandlerTableRoundTrip(t *testing.T) {
	hs := []HandlerSummary{
		{Path: "a/server.py", Line: 8, Name: "server.f", Kind: "tool", Framework: handlers.OfficialFastMCP, Async: true},
		{Path: "a/server.py", Line: 12, Name: "server.g", Kind: "resource", Framework: handlers.OfficialFastMCP, Async: true},
		{Path: "a/tools/x.py", Line: 3, Name: "tools.x.Cls.h", Kind: "tool", Framework: handlers.OfficialFastMCP},
		{Path: "a/server.py", Line: 30, Name: "", Kind: "tool", Framework: handlers.OfficialLowLevel, Async: true},
		{Path: "a/tools/x.py", Line: 9, Name: "tools.x.é", Kind: "tool", Framework: handlers.OfficialFastMCP},
	}
	for _, in := range [][]HandlerSummary{hs, nil} {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(packHandlers(in)); err != nil {
			t.Fatal(err)
		}
		var tab handlerTable
		if err := gob.NewDecoder(&buf).Decode(&tab); err != nil {
			t.Fatal(err)
		}
		got, ok := tab.unpack()
		if !ok || !reflect.DeepEqual(got, in) {
			t.Errorf("unpack(pack(%v)) = %v, %v", in, got, ok)
		}
	}
	if tab := packHandlers(hs); len(tab.Paths) != 2 || len(tab.Sorts) != 4 {
		t.Errorf("%d paths, %d sorts; want each distinct one once (2, 4)", len(tab.Paths), len(tab.Sorts))
	}
}

// A table packHandlers cannot have made is refused, never a panic or
// handlers with another's fields.
func TestHandlerTableDamaged(t *testing.T) {
	hs := []HandlerSummary{
		{Path: "a.py", Line: 1, Name: "a.f", Kind: "tool"},
		{Path: "b.py", Line: 2, Name: "b.g", Kind: "prompt"},
	}
	for name, damage := range map[string]func(*handlerTable){
		"short column":       func(t *handlerTable) { t.Line = t.Line[:1] },
		"path out of range":  func(t *handlerTable) { t.Path[1] = 2 },
		"negative path":      func(t *handlerTable) { t.Path[0] = -1 },
		"sort out of range":  func(t *handlerTable) { t.Sort[0] = 5 },
		"name end backwards": func(t *handlerTable) { t.Ends[0], t.Ends[1] = t.Ends[1], t.Ends[0] },
		"name past the end":  func(t *handlerTable) { t.Ends[1]++ },
		"names left over":    func(t *handlerTable) { t.Names += "x" },
		"names, no handler":  func(t *handlerTable) { *t = handlerTable{Names: "x"} },
	} {
		tab := packHandlers(hs)
		damage(&tab)
		if got, ok := tab.unpack(); ok {
			t.Errorf("%s: unpack = %v, true; want refused", name, got)
		}
	}
}

// A cache entry whose handler table cannot be unpacked is analysed again,
// with the result of a run without the cache.
func TestCacheDamagedHandlerTableIsNotUsed(t *testing.T) {
	root := cacheTree(t)
	keyFile := filepath.Join(t.TempDir(), "key")
	opts := cacheOpts(".mcplint_cache", keyFile)
	cacheRun(t, root, opts)
	st := opts.Cache.state(opts.Cache.onlyDigest(t))
	damaged := 0
	for _, pe := range st.Projects {
		if len(pe.Handlers.Line) > 0 {
			pe.Handlers.Ends = pe.Handlers.Ends[1:]
			damaged++
		}
	}
	if damaged == 0 {
		t.Fatal("no cached project has handlers: the tree tests too little")
	}
	opts.Cache.save(opts.Cache.onlyDigest(t), st)
	res := cacheRun(t, root, cacheOpts(".mcplint_cache", keyFile))
	if res.Analysed != damaged || res.Reused != 3-damaged {
		t.Fatalf("%d analysed, %d reused; want the %d damaged entries analysed again", res.Analysed, res.Reused, damaged)
	}
}
