package pyast

import (
	"runtime"
	"testing"
	"unsafe"
)

// BenchmarkIndexLive reports the live heap bytes of the index (scopes,
// bindings, functions, classes, spans and node lists) per source byte, over
// every file of the bench tree (see benchFiles): what a project's modules hold
// besides their trees and sources while its rules run. Run it with
// -benchtime=1x; its ns/op are the parse of the whole tree.
func BenchmarkIndexLive(b *testing.B) {
	srcs := benchFiles(b, 1<<30)
	var total int64
	for _, s := range srcs {
		total += int64(len(s))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mods := make([]*Module, 0, len(srcs))
		for _, s := range srcs {
			m, err := Parse("bench.py", "bench", s)
			if err != nil {
				continue
			}
			mods = append(mods, m)
		}
		b.StopTimer()
		with := liveHeap()
		for _, m := range mods {
			m.Scope, m.Funcs, m.Classes = nil, nil, nil
			m.funcSpans, m.scopeSpans, m.nodes = spans{}, spans{}, nodeIndex{}
		}
		without := liveHeap()
		runtime.KeepAlive(mods)
		b.ReportMetric(float64(with-without)/float64(total), "index-B/src-B")
		b.ReportMetric(float64(without)/float64(total), "rest-B/src-B")
		b.StartTimer()
	}
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestIndexSizes keeps the index's most numerous values at the sizes their
// docs give: a module holds a Function per def (128 bytes is a size class;
// 136 would take 144), one Binding per bound name, one Param per parameter
// and two spans per function.
func TestIndexSizes(t *testing.T) {
	for _, c := range []struct {
		name       string
		size, want uintptr
	}{
		{"Function", unsafe.Sizeof(Function{}), 128},
		{"Binding", unsafe.Sizeof(Binding{}), 40},
		{"Param", unsafe.Sizeof(Param{}), 32},
		{"span", unsafe.Sizeof(span{}), 16},
	} {
		if c.size != c.want {
			t.Errorf("%s is %d bytes, want %d", c.name, c.size, c.want)
		}
	}
}
