package pyast

import (
	"fmt"
	"time"
)

// Limits bound the work of parsing one file, so that a hostile or generated
// file (thousands of unclosed brackets, a megabyte list literal, tens of
// thousands of broken lines that send tree-sitter's error recovery into
// quadratic time) costs a bounded time and memory and the scan goes on. They
// are counted in steps, not wall time, so a result never depends on the
// machine's load; the CPU time backstop alone depends on the machine.
type Limits struct {
	// Steps is the most tree-sitter parser operations (shifts, reductions,
	// error-recovery attempts) one file may take; 0 means no limit.
	Steps int64
	// Nodes is the most syntax tree nodes one file may have; 0 means no limit.
	Nodes int
	// CPU is the most CPU time (of the parsing thread, not wall time) one
	// parse may take; 0 means no limit. It bounds tree-sitter's error
	// recovery, which can be quadratic in the tokens of one broken region
	// without taking more steps (50,000 lines of "def (:").
	CPU time.Duration
}

// DefaultLimits are the limits Parse applies. Parsing takes about 2.6 steps
// per syntax node; 2M steps are some 750,000 nodes, a module of 3 MB of
// dense code (the fixtures under testdata take under 2,000 steps each).
var DefaultLimits = Limits{Steps: 2_000_000, Nodes: 1_000_000, CPU: 3 * time.Second}

// TooComplexError is returned by Parse for a file past its Limits.
type TooComplexError struct {
	What  string // "parsing" or "syntax tree"
	Steps int64
	Nodes int
	// CPU is the most CPU time (of the parsing thread, not wall time) one
	// parse may take; 0 means no limit. It bounds tree-sitter's error
	// recovery, which can be quadratic in the tokens of one broken region
	// without taking more steps (50,000 lines of "def (:").
	CPU time.Duration
}

func (e *TooComplexError) Error() string {
	switch e.What {
	case "syntax tree":
		return fmt.Sprintf("too complex to analyse fully: the syntax tree has more than %d nodes (limit: max-syntax-nodes)", e.Nodes)
	case "cpu":
		return fmt.Sprintf("too complex to analyse fully: parsing (syntax error recovery) took more than %v of CPU time (limit: max-parse-cpu)", e.CPU)
	}
	return fmt.Sprintf("too complex to analyse fully: parsing stopped after %d steps (limit: max-parse-steps)", e.Steps)
}
