package pyast

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// benchFiles returns up to n Python files of a large real tree: $MCPLINT_BENCH_TREE
// or the standard library of the python3 on PATH.
func benchFiles(b *testing.B, n int) [][]byte {
	b.Helper()
	tree := os.Getenv("MCPLINT_BENCH_TREE")
	if tree == "" {
		out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
		if err != nil {
			b.Skip("no python3 and no MCPLINT_BENCH_TREE")
		}
		tree = strings.TrimSpace(string(out))
	}
	var srcs [][]byte
	filepath.WalkDir(tree, func(p string, d os.DirEntry, err error) error {
		if err != nil || len(srcs) >= n {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") {
			if src, err := os.ReadFile(p); err == nil {
				srcs = append(srcs, src)
			}
		}
		return nil
	})
	if len(srcs) == 0 {
		b.Skip("no Python files in " + tree)
	}
	return srcs
}

// benchSources returns the files of benchFiles(b, 300), with b's bytes
// per op set to their total size and its timer reset.
func benchSources(b *testing.B) [][]byte {
	srcs := benchFiles(b, 300)
	var total int64
	for _, s := range srcs {
		total += int64(len(s))
	}
	b.SetBytes(total)
	b.ResetTimer()
	return srcs
}

// BenchmarkParse parses and indexes real files (scopes, bindings,
// functions). It reports the bytes of the syntax trees per source byte
// (tree-B/src-B): the nodes and the wide table (see Node).
func BenchmarkParse(b *testing.B) {
	srcs := benchSources(b)
	var tree, src int
	for i := 0; i < b.N; i++ {
		for _, s := range srcs {
			m, err := Parse("bench.py", "bench", s)
			if err != nil {
				b.Fatal(err)
			}
			if i == 0 {
				tree += treeBytes(m.tree)
				src += len(s)
			}
		}
	}
	b.ReportMetric(float64(tree)/float64(src), "tree-B/src-B")
}

// treeBytes returns the size of the allocation that holds a Module's tree.
func treeBytes(t []Node) int {
	w := 0
	for i := range t {
		if t[i].meta&mWide != 0 {
			w++
		}
	}
	k := 0
	if w > 0 {
		k = (16*w + 4 + int(nodeSize) - 1) / int(nodeSize)
	}
	return (k + len(t)) * int(nodeSize)
}
