package handlers

import (
	"fmt"
	"hash/maphash"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/mcplint/mcplint/pyast"
)

// The per-module parts of Build (the call index, the successors of every
// function, the registrations of each module) run on Config.Jobs workers.
// Each worker is a fork of the builder: the project's tables are shared and
// read-only by then; what a worker finds (handlers) is its own and is merged
// by the builder in module order, so the result does not depend on the
// number of workers or their timing. The lookup memo is shared, in shards
// with a lock each while workers run (lookupMemo); the tables built on
// first use (additions, decoratedWith, overrides) are shared and built once,
// whichever worker needs them first.

// minModulesPerWorker is the fewest modules worth a worker: a small project
// gains little (a monorepo's projects already run in parallel).
var minModulesPerWorker = 64

// lazyTables are the builder's tables built on first use, shared by its
// forks. None of their builds needs another of them, so their locks do not
// nest.
type lazyTables struct {
	decoratedOnce sync.Once
	decoratedBy   map[*pyast.Function][]FuncRef

	subclassesOnce sync.Once
	subclasses     map[*pyast.Class][]*pyast.Class // project subclasses by base

	addedMu sync.Mutex // held while the additions index is built
	added   map[string][]valueAt

	// ran memoizes executedBefore by start: the guard fix asks it of each
	// start for each module that creates a server (StartLoading), and
	// of every start again for each rule that offers the fix; the imports
	// it follows do not change once Build has indexed them.
	ranMu sync.Mutex
	ran   map[ranKey]loaded

	// funcRuns memoizes funcRunsServer by (function, depth): each
	// statement of each module a start runs asks it of the functions the
	// statement calls, and they of theirs. Answers are deterministic, so
	// two workers that compute one store the same.
	funcRuns sync.Map // funcRunsKey -> bool
	// funcRunsComputed counts the answers computed, not taken from
	// funcRuns (a test bounds it).
	funcRunsComputed atomic.Int64
}

type funcRunsKey struct {
	fn    *pyast.Function
	depth int
}

type ranKey struct {
	start *pyast.Module
	cut   int
	at    *pyast.Node
}

// workers returns the number of workers for the per-module passes.
func (b *builder) workers() int {
	n := b.cfg.Jobs
	if most := len(b.mods) / minModulesPerWorker; n > most {
		n = most
	}
	return max(n, 1)
}

// forEachModule calls f(w, i) for every module index i, on the builder's
// workers: w is the builder itself with one worker, else the calling
// worker's fork (made for each pass, as the builder's tables grow between
// passes). Modules are handed out one at a time (their sizes differ).
// Callers store what f finds by i and merge it in order.
func (b *builder) forEachModule(f func(w *builder, i int)) {
	n := b.workers()
	if n <= 1 {
		for i := range b.mods {
			f(b, i)
		}
		return
	}
	b.looked.locked = true
	defer func() { b.looked.locked = false }()
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value // a worker's panic, raised again here as with one worker
	for range n {
		w := b.fork()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					failed.CompareAndSwap(nil, workerPanic{v, debug.Stack()})
					next.Store(int64(len(b.mods)))
				}
			}()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(b.mods) {
					return
				}
				f(w, i)
			}
		}()
	}
	wg.Wait()
	if p, ok := failed.Load().(workerPanic); ok {
		panic(p)
	}
}

// workerPanic is a panic in a worker of forEachModule, with the worker's stack.
type workerPanic struct {
	value any
	stack []byte
}

func (p workerPanic) String() string {
	return fmt.Sprintf("%v\n(in a worker of handlers.Build)\n%s", p.value, p.stack)
}

// fork returns a worker's copy of b: the same project tables and lookup
// memo, its own registrations found.
func (b *builder) fork() *builder {
	w := *b
	w.pending, w.unfound = nil, nil
	return &w
}

// lookupMemo memoizes lookup for a builder and its forks. Its shards are
// locked only while forks run (lookup is a function of the name alone, so
// two workers that look the same name up store the same answer).
type lookupMemo struct {
	seed   maphash.Seed
	locked bool // set while forks run: written before they start and after they end
	shards [memoShards]memoShard
}

const memoShards = 64

type memoShard struct {
	mu sync.Mutex // not an RWMutex: as many stores as loads, and a reader writes the lock's word too
	m  map[string]symbol
	_  [48]byte // a cache line each: workers on other shards do not share it
}

func newLookupMemo() *lookupMemo { return &lookupMemo{seed: maphash.MakeSeed()} }

func (c *lookupMemo) shard(q string) *memoShard {
	return &c.shards[maphash.String(c.seed, q)%memoShards]
}

func (c *lookupMemo) get(q string) (symbol, bool) {
	s := c.shard(q)
	if !c.locked {
		sym, ok := s.m[q]
		return sym, ok
	}
	s.mu.Lock()
	sym, ok := s.m[q]
	s.mu.Unlock()
	return sym, ok
}

func (c *lookupMemo) put(q string, sym symbol) {
	s := c.shard(q)
	if c.locked {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	if s.m == nil {
		s.m = map[string]symbol{}
	}
	s.m[q] = sym
}
