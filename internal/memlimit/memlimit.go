// Package memlimit keeps the heap of a small run small without slowing a
// large one.
//
// Go's collector lets the heap grow to twice what survived the last cycle
// (GOGC=100). On a run whose live data is a few tens of MB that doubling is
// most of the peak RSS (awslabs/mcp, cold: 110 MB with 45 MB live), and on
// a short run whose live data is a few MB it collects at 4, 8, 16 MB... for
// nothing (a warm run of a 3,000-file tree spent an eighth of its time so).
// A soft memory limit (debug.SetMemoryLimit) alone caps the peak, but a
// fixed limit below the live heap of a large project makes the collector
// run all the time. So Start turns the proportional trigger off and sets a
// soft limit: the heap grows to the limit before the first collection. It
// lifts both after the first collection that leaves more than a fraction
// of the limit live: from then on the run is the default GOGC=100 run.
package memlimit

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Default is the soft limit mcplint runs under, and Lift the live heap
// above which the limit is lifted.
const (
	Default int64 = 80 << 20
	Lift    int64 = Default / 4 * 3
)

var startOnce sync.Once

// Start sets the soft limit unless the environment sets GOMEMLIMIT or
// GOGC (the user's choice wins), and watches each collection.
func Start() {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		return
	}
	startOnce.Do(func() { start(Default, Lift, nil) })
}

// start sets limit (GOGC off) and re-arms a finalizer each collection until
// the live heap exceeds lift; lifted, if not nil, is called once it is.
func start(limit, lift int64, lifted func()) {
	debug.SetMemoryLimit(limit)
	debug.SetGCPercent(-1)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var watch func(*sentinel)
	watch = func(*sentinel) {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && int64(sample[0].Value.Uint64()) > lift {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			if lifted != nil {
				lifted()
			}
			return
		}
		runtime.SetFinalizer(&sentinel{}, watch) // the next collection
	}
	runtime.SetFinalizer(&sentinel{}, watch)
}

// sentinel is an object nothing keeps: its finalizer runs after the
// collection that finds it unreachable. It holds a pointer so that it is
// never batched by the tiny allocator (pointer-free objects under 16 bytes
// may share a block, and their finalizers need not run).
type sentinel struct {
	_ *byte
	_ [8]byte
}
