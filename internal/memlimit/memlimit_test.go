package memlimit

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestLimitLiftedForALargeHeap: a run whose live heap grows past the lift
// point gets the default collector back (GOGC=100, no limit), and until
// then runs under the limit with the proportional trigger off.
func TestLimitLiftedForALargeHeap(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	oldPercent := debug.SetGCPercent(-1)
	debug.SetGCPercent(oldPercent)
	defer debug.SetGCPercent(oldPercent)
	done := make(chan struct{})
	start(64<<20, 8<<20, func() { close(done) })
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Fatalf("limit %d, want %d", got, 64<<20)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GOGC %d under the limit, want off (-1)", got)
	}
	runtime.GC()
	runtime.GC()
	select {
	case <-done:
		t.Fatal("lifted with a small heap")
	case <-time.After(50 * time.Millisecond):
	}
	ballast := make([][]byte, 0, 32)
	for i := 0; i < 32; i++ {
		ballast = append(ballast, make([]byte, 1<<20)) // 32 MiB live
	}
	deadline := time.After(10 * time.Second) // a bound on waiting for the finalizer goroutine, not a timing
	for lifted := false; !lifted; {
		runtime.GC()
		select {
		case <-done:
			lifted = true
		case <-deadline:
			t.Fatal("the limit was not lifted with 32 MiB live")
		case <-time.After(10 * time.Millisecond):
		}
	}
	runtime.KeepAlive(ballast)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("limit %d after lifting, want none", got)
	}
	if got := debug.SetGCPercent(-1); got != 100 {
		t.Fatalf("GOGC %d after lifting, want 100", got)
	}
}
