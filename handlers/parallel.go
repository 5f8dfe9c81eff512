package handlers

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/mcplint/mcplint/pyast"
)

// The per-module parts of Build (the call index, the successors of every
// function, the registrations of each module) run on Config.Jobs workers.
// Each worker is a fork of the builder: the project's tables are shared and
// read-only by then; what a worker memoizes (lookup) or finds (handlers) is
// its own and is merged by the builder in module order, so the result does
// not depend on the number of workers or their timing. The tables built on
// first use (additions, decoratedWith, overrides) are shared and built once,
// whichever worker needs them first.

// minModulesPerWorker is the fewest modules worth a worker: a fork starts
// with an empty lookup memo, which costs more than it saves on a small
// project (a monorepo's projects already run in parallel).
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
// passes; a fork's memo is kept for the next pass until joinForks). Modules are
// handed out one at a time (their sizes differ). Callers store what f finds
// by i and merge it in order.
func (b *builder) forEachModule(f func(w *builder, i int)) {
	n := b.workers()
	if n <= 1 {
		for i := range b.mods {
			f(b, i)
		}
		return
	}
	if b.memos == nil {
		b.memos = make([]map[string]symbol, n)
		for k := range b.memos {
			b.memos[k] = map[string]symbol{}
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value // a worker's panic, raised again here as with one worker
	for _, memo := range b.memos {
		w := b.fork(memo)
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

// joinForks ends the parallel passes: the builder keeps what its forks
// looked up.
func (b *builder) joinForks() {
	for _, memo := range b.memos {
		b.join(memo)
	}
	b.memos = nil
}

// fork returns a worker's copy of b: the same project tables, its own
// lookup memo over b's (which nothing writes while the workers run) and its
// own registrations found.
func (b *builder) fork(memo map[string]symbol) *builder {
	w := *b
	w.looked, w.frozen, w.pending, w.memos = memo, b.looked, nil, nil
	return &w
}

// join keeps what a worker looked up (lookup is a function of the name
// alone, so any worker's answer is the answer).
func (b *builder) join(memo map[string]symbol) {
	if len(memo) == 0 {
		return
	}
	if b.looked == nil {
		b.looked = make(map[string]symbol, len(memo))
	}
	for q, sym := range memo {
		if _, ok := b.looked[q]; !ok {
			b.looked[q] = sym
		}
	}
}
