package pyast

import (
	"fmt"
	"math"
	"time"
)

// Limits bound the work of parsing one file, so that a hostile or generated
// file (thousands of unclosed brackets, a megabyte list literal, tens of
// thousands of broken lines that send tree-sitter's error recovery into
// quadratic time) costs a bounded time and memory and the scan goes on. They
// are counted in steps, not wall time, so a result never depends on the
// machine's load; the CPU time backstop alone depends on the machine.
//
// The step budget grows with the file: at any point of the parse, the steps
// taken may not exceed Steps + StepsPerByte × the bytes the parser has read
// so far. Code takes 0.2 to 1.2 steps a byte (the standard library 0.5 on
// average, at most 1.0; dense generated code 1.2), so a large file of code
// parses whatever its size, while inputs that cost many steps a byte (a
// list of small numbers: 2 a byte as it is read, 3.3 in all; a setup() call
// of a million short strings: 4) stop after the floor is spent. Checking as
// the parse goes, not only at the end, is what bounds memory: tree-sitter
// holds some 125 bytes for each byte of such a list until its parse ends,
// so an 8 MB list literal allowed its whole-file budget would take 1 GB
// first.
type Limits struct {
	// Steps is the budget of tree-sitter parser operations (shifts,
	// reductions, error-recovery attempts) every file has, however short.
	// 0 means no step limit at all (StepsPerByte is then ignored).
	Steps int64
	// StepsPerByte adds that many steps for each byte the parser has read
	// (to a thousandth of a step).
	StepsPerByte float64
	// Nodes is the most syntax tree nodes one file may have; 0 means no limit.
	// It bounds the memory of the tree: 20 bytes a node while it is built,
	// 12 once packed (plus tree-sitter's own tree for the files it parses).
	Nodes int
	// Depth is the most levels of nesting of the syntax tree; 0 means no
	// limit. It bounds the recursion of every analysis that follows the
	// tree's shape (the Go stack grows with it). CPython refuses far less:
	// a chain of 5,000 calls a.b().b()... (10,000 levels here) or 5,000
	// nested unary minus signs fail to compile (RecursionError), 200 nested
	// brackets are a SyntaxError.
	Depth int
	// CPU is the most CPU time (of the parsing thread, not wall time) one
	// parse may take; 0 means no limit. It bounds tree-sitter's error
	// recovery, which can be quadratic in the tokens of one broken region
	// without taking more steps (50,000 lines of "def (:").
	CPU time.Duration
}

// DefaultLimits are the limits Parse applies, measured on this project's
// fixtures, the CPython 3.11 standard library, generated server code and
// the cases of scripts/stress.sh. The fixtures take under 2,000 steps; a
// 100,000-line module of the standard library 1.9 million (0.54 a byte);
// generated server code (bench/gen) 1.2 a byte, and never more than 1.25 a
// byte at any point of its parse. 1.5 a byte leaves code room, and a list
// literal of small numbers (2 a byte while read) spends the 500,000-step
// floor within its first megabyte (under 200 MB). About 2.5 million steps
// are a second of CPU time on a slow machine: a file of the 8 MiB size
// limit may take 13 million. Code has at most 0.4 nodes a byte (3.4
// million at 8 MiB).
var DefaultLimits = Limits{Steps: 500_000, StepsPerByte: 1.5, Nodes: 4_000_000, Depth: 10_000, CPU: 3 * time.Second}

// Budget returns the step budget of a file of n bytes once it is all read
// (0: no limit).
func (l Limits) Budget(n int) int64 {
	if l.Steps <= 0 {
		return 0
	}
	return l.Steps + l.perByteMilli()*int64(n)/1000
}

func (l Limits) perByteMilli() int64 {
	if !(l.StepsPerByte > 0) {
		return 0
	}
	return int64(math.Round(min(l.StepsPerByte, 1e6) * 1000))
}

// TooComplexError is returned by Parse for a file past its Limits.
type TooComplexError struct {
	What   string // "parsing", "syntax tree", "depth" or "cpu"
	Limits Limits
	Steps  int64 // the steps taken when the parse stopped ("parsing"), bytes read again included
	Reread int64 // the bytes the lexer read again ("parsing"): a step per 32
	Offset int   // the byte the parser had read up to when it stopped ("parsing", "cpu")
	Nodes  int   // the nodes of the tree ("syntax tree")
	Depth  int   // the depth of the tree ("depth")
}

func (e *TooComplexError) Error() string {
	switch e.What {
	case "syntax tree":
		return fmt.Sprintf("too complex to analyse fully: the syntax tree has %d nodes, more than %d (limit: syntax-nodes)", e.Nodes, e.Limits.Nodes)
	case "depth":
		return fmt.Sprintf("too complex to analyse fully: the syntax tree is nested %d levels deep, more than %d (limit: syntax-depth)", e.Depth, e.Limits.Depth)
	case "cpu":
		return fmt.Sprintf("too complex to analyse fully: parsing took more than %v of CPU time (limit: parse-cpu)", e.Limits.CPU)
	}
	reread := ""
	if e.Reread/32 > e.Steps/2 {
		// Mostly bytes read again (a long run of comment or blank lines is
		// read again at each of its lines): say so.
		reread = fmt.Sprintf(" (re-reading %d bytes: a step per 32)", e.Reread)
	}
	return fmt.Sprintf("too complex to analyse fully: parsing took %d steps%s to read %d bytes, more than %d + %g a byte (limits: parse-steps, parse-steps-per-byte)",
		e.Steps, reread, e.Offset, e.Limits.Steps, e.Limits.StepsPerByte)
}
