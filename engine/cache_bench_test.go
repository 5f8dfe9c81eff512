package engine

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcplint/mcplint/handlers"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// BenchmarkCacheLoad reads a cache file the size of the generated
// monorepo's (60 servers of 54 modules, 33,000 handlers, 780 findings): what
// a warm run of it spends before it looks at a file.
func BenchmarkCacheLoad(b *testing.B) {
	dir := b.TempDir()
	c := NewCache(CacheOptions{Dir: filepath.Join(dir, "cache"), Version: "bench", KeyFile: filepath.Join(dir, "key")})
	st := &cacheState{Files: map[string]*fileEntry{}, Projects: map[[32]byte]*projectEntry{}}
	for p := range 60 {
		var hs []HandlerSummary
		var diags []rules.Diagnostic
		for m := range 54 {
			mod := fmt.Sprintf("app.pkg%03d.mod%02d", p, m)
			path := fmt.Sprintf("monorepo/servers/srv%02d/app/pkg%03d/mod%02d.py", p, p, m)
			st.Files[path] = &fileEntry{Sig: fileSig{Size: 9000, Mtime: 1, Ctime: 1, Ino: uint64(p*100 + m)},
				Hash: sha256.Sum256([]byte(path)), Comments: [][2]int{{10, 40}}, HasComments: true, Seen: 1}
			for h := range 10 {
				name := fmt.Sprintf("%s.tool_%d_%d", mod, m, h)
				hs = append(hs, HandlerSummary{Path: path, Line: 240 + 7*h, Name: name, Kind: "tool", Framework: handlers.OfficialFastMCP, Async: true})
				if h == 0 && m < 13 {
					at := rules.Location{Path: path, Start: pyast.Position{Offset: 8049, Line: 242, Column: 20, Column16: 20}, End: pyast.Position{Offset: 8104, Line: 242, Column: 75, Column16: 75}}
					diags = append(diags, rules.Diagnostic{Code: "MCP101", Name: "uncancellable-thread-await", Location: at,
						Message: "`anyio.to_thread.run_sync` without `abandon_on_cancel=True` waits for its worker even after the request is cancelled",
						Related: []rules.Related{{Location: at, Message: "tool handler registered here"}},
						Fixes:   []rules.Fix{{Message: "pass abandon_on_cancel=True", Edits: []rules.Edit{{Path: path, Start: 8100, End: 8100, New: ", abandon_on_cancel=True"}}}},
						Anchor:  name, Project: fmt.Sprintf("monorepo/servers/srv%02d", p)})
				}
			}
		}
		st.Projects[sha256.Sum256([]byte{byte(p)})] = newProjectEntry(&projState{}, diags, &ProjectSummary{Handlers: hs, Modules: 54})
	}
	digest := fmt.Sprintf("%064x", 1)
	c.save(digest, st)
	if notes := c.Notes(); notes != nil {
		b.Fatal(notes)
	}
	fi, err := os.Stat(filepath.Join(c.dir, fileName(digest)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if c.load(digest) == nil {
			b.Fatal(c.Notes())
		}
	}
	b.ReportMetric(float64(fi.Size()), "file-bytes")
}
