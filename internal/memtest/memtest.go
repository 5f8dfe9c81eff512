// Package memtest measures, in tests, how much memory a writer holds while
// it writes: the renderers must stream, not build their output first.
package memtest

import "runtime"

// PeakWriter discards what it is given and records, about every MiB, the
// live heap above the heap at New (after a collection): what the code
// writing to it holds while it writes.
type PeakWriter struct {
	Written int    // bytes written
	Peak    uint64 // the largest live heap above the start seen
	next    int
	base    uint64
}

// New collects garbage and starts measuring from the live heap now.
func New() *PeakWriter {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return &PeakWriter{base: m.HeapAlloc}
}

func (w *PeakWriter) Write(p []byte) (int, error) {
	w.Written += len(p)
	if w.Written >= w.next {
		w.next = w.Written + 1<<20
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		if m.HeapAlloc > w.base && m.HeapAlloc-w.base > w.Peak {
			w.Peak = m.HeapAlloc - w.base
		}
	}
	return len(p), nil
}
