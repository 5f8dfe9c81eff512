package pyast

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

// watchdog fails the test only on a true hang (minutes), never on speed.
func watchdog(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		t.Fatalf("%s: still running after 3 minutes", what)
	}
}

func TestParseLimitsStopAndKeepTheParserUsable(t *testing.T) {
	big := []byte("DATA = [" + strings.Repeat("1, ", 20000) + "]\n")
	_, err := ParseLimits("big.py", "", big, Limits{Steps: 10_000})
	var tc *TooComplexError
	if !errors.As(err, &tc) || tc.What != "parsing" || !strings.Contains(err.Error(), "too complex to analyse fully") {
		t.Fatalf("step limit: got %v, want a TooComplexError for parsing", err)
	}
	_, err = ParseLimits("big.py", "", big, Limits{Nodes: 1000})
	if !errors.As(err, &tc) || tc.What != "syntax tree" {
		t.Fatalf("node limit: got %v, want a TooComplexError for the syntax tree", err)
	}
	// Parsers return to a pool; one whose parse was cancelled must not
	// resume it on the next file (tree-sitter keeps a cancelled parse).
	for i := 0; i < 4; i++ {
		if _, err := ParseLimits("big.py", "", big, Limits{Steps: 1000}); err == nil {
			t.Fatal("a 1000-step limit parsed a 20,000-element list")
		}
		m, err := Parse("ok.py", "", []byte("def f():\n    return 1\n"))
		if err != nil || m.HasErrors() || len(m.Funcs) != 1 {
			t.Fatalf("parse after a cancelled parse: err %v, funcs %d", err, len(m.Funcs))
		}
	}
	// The defaults leave room for the big list.
	if _, err := Parse("big.py", "", big); err != nil {
		t.Fatalf("default limits refused a 20,000-element list: %v", err)
	}
}

// The step budget grows with the bytes read: code (about 1 step a byte)
// parses whatever its length, while a list of small numbers (2 steps a byte
// as it is read) stops once the floor is spent, not at the end of the file.
func TestStepBudgetGrowsWithTheBytesRead(t *testing.T) {
	lim := Limits{Steps: 20_000, StepsPerByte: 1.5}
	var code strings.Builder
	for i := 0; code.Len() < 200_000; i++ {
		fmt.Fprintf(&code, "\n\ndef helper_%d(data, limit=10):\n    out = {}\n    for key, value in sorted(data.items()):\n        out[key] = json.dumps({\"key\": key, \"size\": len(str(value))})\n    return helper_%d(out, limit - 1)\n", i, i+1)
	}
	m, err := ParseLimits("code.py", "", []byte(code.String()), lim)
	if err != nil {
		t.Fatalf("200 kB of code: %v", err)
	}
	if m.ParseSteps() <= lim.Steps || m.ParseSteps() > lim.Budget(len(m.Src)) {
		t.Errorf("code took %d steps; want more than the floor and within %d", m.ParseSteps(), lim.Budget(len(m.Src)))
	}
	list := []byte("DATA = [" + strings.Repeat("1, ", 60_000) + "]\n")
	_, err = ParseLimits("list.py", "", list, lim)
	var tc *TooComplexError
	if !errors.As(err, &tc) || tc.What != "parsing" {
		t.Fatalf("180 kB list: got %v, want a TooComplexError", err)
	}
	// 2 steps a byte pass 20,000 + 1.5 a byte after some 40 kB.
	if tc.Offset < 30_000 || tc.Offset > 50_000 || tc.Steps > lim.Budget(tc.Offset)+100 {
		t.Errorf("stopped at byte %d after %d steps; want near byte 40,000", tc.Offset, tc.Steps)
	}
	want := fmt.Sprintf("too complex to analyse fully: parsing took %d steps to read %d bytes, more than 20000 + 1.5 a byte (limits: parse-steps, parse-steps-per-byte)", tc.Steps, tc.Offset)
	if err.Error() != want {
		t.Errorf("message %q\nwant %q", err, want)
	}
	// A fixed budget (no steps per byte) and no budget at all.
	if _, err := ParseLimits("code.py", "", []byte(code.String()), Limits{Steps: 20_000}); !errors.As(err, &tc) {
		t.Errorf("fixed budget: %v", err)
	}
	if _, err := ParseLimits("list.py", "", list, Limits{StepsPerByte: 1.5}); err != nil {
		t.Errorf("parse-steps 0 (no step limit): %v", err)
	}
}

// The depth limit refuses a tree nested deeper than it (each link of a
// call chain is two levels: a call and an attribute).
func TestDepthLimit(t *testing.T) {
	src := []byte("x = a" + strings.Repeat(".b()", 600) + "\n")
	m, err := ParseLimits("chain.py", "", src, Limits{Depth: 1500})
	if err != nil || m.HasErrors() {
		t.Fatalf("600 links under a depth of 1,500: %v", err)
	}
	_, err = ParseLimits("chain.py", "", src, Limits{Depth: 1000})
	var tc *TooComplexError
	if !errors.As(err, &tc) || tc.What != "depth" || tc.Depth < 1200 {
		t.Fatalf("600 links over a depth of 1,000: %v", err)
	}
	if want := fmt.Sprintf("too complex to analyse fully: the syntax tree is nested %d levels deep, more than 1000 (limit: syntax-depth)", tc.Depth); err.Error() != want {
		t.Errorf("message %q", err)
	}
	// The default leaves room for what CPython compiles: 2,000 links.
	if _, err := Parse("chain.py", "", []byte("x = a"+strings.Repeat(".b()", 2000)+"\n")); err != nil {
		t.Errorf("default depth refused a 2,000-link chain: %v", err)
	}
}

// Hostile shapes at small sizes: each parses (or stops at a limit) and
// indexes without a crash or a hang; the full sizes run in scripts/stress.sh.
func TestHostileShapes(t *testing.T) {
	cases := map[string]string{
		"unclosed brackets": "import mcp\nx = " + strings.Repeat("(", 3000) + "\n",
		"call chain":        "import mcp\nx = a" + strings.Repeat(".b()", 7000) + "\n",
		"nested await":      "import mcp\nasync def f():\n    return " + strings.Repeat("await ", 1000) + "g()\n",
		"broken defs":       "import mcp\n" + strings.Repeat("def (:\n", 500),
		"one-line list":     "import mcp\nDATA = [" + strings.Repeat("1, ", 50000) + "]\n",
		"nested lists":      "x = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
		"nested defs":       nestedDefs(300),
		"lone CR":           "import mcp\r\r@mcp.tool()\rasync def f():\r    return 1\r",
	}
	for name, src := range cases {
		watchdog(t, name, func() {
			m, err := Parse(name+".py", "m", []byte(src))
			var tc *TooComplexError
			if err != nil && !errors.As(err, &tc) {
				t.Errorf("%s: %v", name, err)
				return
			}
			if m != nil {
				m.FirstError()
				for _, f := range m.Funcs {
					m.Resolve(f.Node)
				}
			}
		})
	}
}

func nestedDefs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "def f():\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "pass\n")
	return b.String()
}

// CPython ends lines at a lone CR; such a file has the same functions,
// decorators and line numbers as its LF twin, with offsets into its own bytes.
func TestLoneCRLineEndings(t *testing.T) {
	lf := "import mcp\n\n@mcp.tool()\nasync def f():\n    return 1\n"
	cr := strings.ReplaceAll(lf, "\n", "\r")
	m, err := Parse("cr.py", "cr", []byte(cr))
	if err != nil {
		t.Fatal(err)
	}
	if m.HasErrors() || len(m.Funcs) != 1 || m.Funcs[0].Name != "f" {
		t.Fatalf("lone CR: errors %v, funcs %d", m.HasErrors(), len(m.Funcs))
	}
	if pos := m.Pos(int(m.Funcs[0].Node.StartByte())); pos.Line != 4 {
		t.Errorf("def at line %d, want 4", pos.Line)
	}
	if got := m.Lines.LineText(4); got != "async def f():" {
		t.Errorf("line 4 = %q", got)
	}
	if m.Src[len(m.Src)-1] != '\r' {
		t.Error("Src must keep the file's own bytes")
	}
}

// The lexer's work counts in the step budget: tree-sitter-python's scanner
// reads every comment line that follows a line break again at each of them,
// n²/2 lines for a run of n comment lines in a few parser operations, which
// neither the operation count nor the CPU backstop (checked between
// operations) saw: 2,000,000 comment lines took 111 CPU-s, then were
// reported as "syntax error recovery". Bytes handed to tree-sitter again
// cost a step per 32, so the run stops within the floor of the budget; code
// is read about once.
func TestStepBudgetCountsBytesReadAgain(t *testing.T) {
	lim := DefaultLimits
	lim.CPU = 0 // the step budget decides, not the machine
	src := []byte("import mcp\n" + strings.Repeat("# c\n", 30_000))
	var err error
	watchdog(t, "30,000 comment lines", func() { _, _, err = parseTreeSitter(src, lim) })
	var tc *TooComplexError
	if !errors.As(err, &tc) || tc.What != "parsing" {
		t.Fatalf("30,000 comment lines with tree-sitter: got %v, want a TooComplexError for parsing", err)
	}
	if tc.Reread < 32*lim.Steps/2 || !strings.Contains(err.Error(), "re-reading") {
		t.Errorf("stopped after re-reading %d bytes (%v); want the floor spent on bytes read again, and said", tc.Reread, err)
	}
	// The same file parses on the fast path, which reads each byte once.
	if m, err := ParseLimits("c.py", "", src, lim); err != nil || m.HasErrors() {
		t.Errorf("30,000 comment lines on the fast path: %v", err)
	}
}

// The fast path stops as soon as its tree passes what the limits accept,
// before tree-sitter parses the file again: it built the whole array first
// (a 7.8 MB tuple: 200 MB of nodes, kept while tree-sitter ran). Measured
// in bytes allocated by the fast parse of a 600 kB tuple whose tree (about
// 400,000 nodes) passes its step budget after 87,500.
func TestFastPathStopsAtTheLimits(t *testing.T) {
	src := []byte("x = (" + strings.Repeat("1, ", 200_000) + ")\n")
	lim := Limits{Steps: 100_000, StepsPerByte: 1.5}
	most := fastMaxNodes(len(src), lim)
	if want := (lim.Budget(len(src)) - int64(len(src))/2) / fastStepsPerNode; int64(most) != want {
		t.Fatalf("fastMaxNodes = %d, want %d", most, want)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, ok := fastParse(src, lim)
	runtime.ReadMemStats(&after)
	if ok {
		t.Fatal("the fast path accepted a tree past its step budget")
	}
	if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(most)*20*2+1<<20; got > bound {
		t.Errorf("the fast parse allocated %d bytes, more than %d: it built past the %d nodes the limits accept", got, bound, most)
	}
	// tree-sitter decides, as before.
	_, err := ParseLimits("t.py", "", src, lim)
	var tc *TooComplexError
	if !errors.As(err, &tc) || tc.What != "parsing" {
		t.Errorf("got %v, want a TooComplexError for parsing", err)
	}
	// The node limit stops it the same way.
	if _, _, ok := fastParse(src, Limits{Nodes: 1000}); ok {
		t.Error("the fast path accepted 400,000 nodes under a limit of 1,000")
	}
	// Comments wait, as pending extras, for the node they go in: 200,000
	// comment lines are 200,000 nodes the limits refuse too.
	comments := []byte("import mcp\n" + strings.Repeat("# c\n", 200_000))
	most = fastMaxNodes(len(comments), lim)
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, ok = fastParse(comments, lim)
	runtime.ReadMemStats(&after)
	if ok {
		t.Fatal("the fast path accepted 200,000 comments past its step budget")
	}
	// A node (20 bytes) and a pending extra (32) each, with the appends'
	// growth: 256 bytes a node accepted (it allocated 38 MB, 340 a node).
	if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(most)*256+1<<20; got > bound {
		t.Errorf("the fast parse of 200,000 comment lines allocated %d bytes, more than %d: it read past the %d nodes the limits accept", got, bound, most)
	}
}

// Large parses run one at a time, whatever the number of workers: a
// parse's memory grows with the bytes it has read (8 workers on 8 list
// literals of 7.8 MB held 1.2 GB), so the bytes in parse at once are bounded
// (tsBudget); small files are never held back.
func TestTreeSitterParsesAreBoundedInBytes(t *testing.T) {
	big := []byte("x = (" + strings.Repeat("1, ", 400_000) + ")\n") // 1.2 MB
	parsing.mu.Lock()
	parsing.peak = 0
	parsing.mu.Unlock()
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ParseLimits("big.py", "", big, DefaultLimits)
			Parse("small.py", "", []byte("def f():\n    return 1\n"))
		}()
	}
	wg.Wait()
	parsing.mu.Lock()
	peak, used := parsing.peak, parsing.used
	parsing.mu.Unlock()
	if peak > tsBudget || used != 0 {
		t.Errorf("tree-sitter held %d bytes in parse at once (limit %d), %d still held after", peak, tsBudget, used)
	}
	if peak < tsMaxWeight {
		t.Errorf("peak %d: the parses did not run", peak)
	}
}

// tree-sitter's memory is the C heap's, out of the Go collector's sight: a
// large parse must not start on top of a Go heap still holding the garbage
// of earlier work (eight 7.8 MB tuples took 325 MB, of which some 120 MB was
// Go garbage and free pages beside tree-sitter's own), so the heap is
// collected and its free pages returned first.
func TestLargeParseStartsOnACollectedHeap(t *testing.T) {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	var held uint64
	var calls int
	old := beforeLargeParse
	defer func() { beforeLargeParse = old }()
	beforeLargeParse = func() {
		old()
		calls++
		metrics.Read(samples)
		held = samples[0].Value.Uint64() + samples[1].Value.Uint64()
	}
	// Live data (the run's sources) sets the collector's goal at twice it,
	// so the garbage below is not collected on its own before the parse.
	ballast := make([]byte, 96<<20)
	ballast[len(ballast)-1] = 1
	runtime.GC()
	metrics.Read(samples)
	live := samples[0].Value.Uint64()
	garbage := make([]byte, 64<<20)
	garbage[len(garbage)-1] = 1
	garbage = nil
	// Over the limits, so the fast path hands it to tree-sitter.
	big := []byte("x = (" + strings.Repeat("1, ", 2_600_000) + ")\n")
	if _, err := ParseLimits("big.py", "", big, DefaultLimits); err == nil {
		t.Fatal("a 7.8 MB tuple parsed within the default limits")
	}
	if calls == 0 {
		t.Fatal("tree-sitter never parsed the file")
	}
	// What is live then: the heap before, the source and what the parse
	// keeps; 32 MiB of slack, half the garbage made.
	if bound := live + uint64(len(big)) + 32<<20; held > bound {
		t.Errorf("tree-sitter started with %d bytes of Go heap (objects and free pages), more than %d: the garbage was not collected first", held, bound)
	}
	runtime.KeepAlive(ballast)
}
