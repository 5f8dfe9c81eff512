package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/workspace"
)

// BenchmarkChange measures what a pause in typing costs: one analysis of
// the workspace with one buffer edited (a different edit each time, so the
// project of the edited file is analysed again and the others are taken
// from the in-memory cache). The tree is MCPLINT_BENCH_TREE (bench/gen
// writes large ones: -kind monorepo, -kind project -files N), else the
// weather example.
//
//	go run ./bench/gen -kind monorepo -out /tmp/mono
//	MCPLINT_BENCH_TREE=/tmp/mono go test -run '^$' -bench Change ./lsp/
func BenchmarkChange(b *testing.B) {
	tree := os.Getenv("MCPLINT_BENCH_TREE")
	if tree == "" {
		tree = "../testdata/examples/weather"
	}
	tree, err := filepath.Abs(tree)
	if err != nil {
		b.Fatal(err)
	}
	var edited string
	filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err == nil && edited == "" && strings.HasSuffix(p, ".py") {
			edited = p
		}
		return nil
	})
	src, err := os.ReadFile(edited)
	if err != nil {
		b.Fatal(err)
	}
	s := New(Options{Config: func([]string) (engine.Options, error) { return engine.Options{}, nil }})
	cache := engine.NewCache(engine.CacheOptions{})
	key := workspace.DisplayPath(edited)
	if _, err := s.run([]string{tree}, nil, cache); err != nil { // the cache warm, as after the first open
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		text := append(append([]byte(nil), src...), strings.Repeat("\n", i%64+1)...)
		if _, err := s.run([]string{tree}, map[string][]byte{key: text}, cache); err != nil {
			b.Fatal(err)
		}
	}
}
