package pyast

// The fast path parser.
//
// Why it exists: tree-sitter parses Python at about 3 MB/s, and copying its
// tree into Go memory costs a cgo crossing per node; on a large tree the
// parse alone took as long as a whole ast-grep run. Most files are plain,
// well-formed Python, for which a hand-written tokenizer and
// recursive-descent parser can write the same tree ten times faster.
//
// The invariant: when fastParse accepts a file, the []rawNode it returns is
// identical, node for node, to the array mcplint_copy (tree.go) writes from
// tree-sitter-python v0.25.0's tree of the same bytes once dropPunctuation
// has removed the bracket, ":", "." and "=" leaves (the fast parser never
// writes them: it only counts them, and ends their parent where they end):
// the same nodes (named and anonymous, comments and line continuations
// where tree-sitter puts them as extras), the same public symbol ids, field
// ids, byte ranges, sizes, parent offsets and flags. The symbol and field ids are looked up
// by name in the grammar at init (fastsym.go), never written by hand.
//
// When it falls back: on anything it does not reproduce exactly it returns
// ok == false and parseTree hands the file to tree-sitter, as before the
// fast path existed. That covers every syntax error (tree-sitter's error
// recovery, ERROR and MISSING nodes stay tree-sitter's), every construct
// whose tree-sitter shape was not verified (match statements, type alias
// and type parameter syntax, print and exec statements, non-ASCII outside
// strings and comments, backtick strings, unusual comment or line
// continuation placement, indentation tree-sitter's external scanner reads
// differently from Python), and a file that might pass the parse Limits: a
// tree of more than lim.Nodes nodes or deeper than lim.Depth, or one whose
// bound on tree-sitter's steps (see fastStepsPerNode) passes the step
// budget, so that MCP000 "too complex" is decided by tree-sitter as before.
// One cost is tree-sitter's alone: its lexer reads a run of comment or blank
// lines again at each of them, and those bytes count in its budget (see
// mcplint_read in tree.go); the fast path reads each byte once, so a file
// whose only oddity is such a run (tens of thousands of comment lines) is
// parsed whole here where tree-sitter alone would stop.
//
// The differential test (fastparse_test.go) parses the fixtures and the
// Python standard library both ways and requires identical arrays for
// every file the fast path accepts; FuzzFastParse checks the same on
// mutated input.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"unicode/utf8"
)

// fastStepsPerNode and fastStepsPerByte bound tree-sitter's parser steps
// on a file the fast path accepts: steps <= fastStepsPerNode × nodes +
// fastStepsPerByte × bytes (long string literals cost steps without nodes).
// Over the fixtures, the standard library, generated trees and ~7,500 real
// MCP server files no file came within half of it (the differential test
// checks it on every file). A file is fast-parsed only when the bound is
// within its step budget, so the fast path never accepts a file tree-sitter
// would have refused as too complex.
const (
	fastStepsPerNode = 8
	fastStepsPerByte = 0.5
)

// fastMaxNesting bounds the recursion of the fast parser; deeper input goes
// to tree-sitter (and to its depth limit).
const fastMaxNesting = 400

var errFastBail = errors.New("fast parse: fall back to tree-sitter")

// errFastLimit stops the fast parse when the tree passes what the limits
// accept (fastParser.maxNodes); unlike errFastBail, try does not catch it:
// no other reading of the file would make the tree smaller.
var errFastLimit = errors.New("fast parse: past the limits")

// token kinds
const (
	tEOF uint8 = iota
	tNewline
	tName
	tInt
	tFloat
	tString
	tOp
)

// Operator and keyword ids: an index into fpWords.
const (
	oNone = iota
	oLParen
	oRParen
	oLBracket
	oRBracket
	oLBrace
	oRBrace
	oComma
	oColon
	oSemi
	oDot
	oAssign
	oArrow
	oWalrus
	oPlus
	oMinus
	oStar
	oSlash
	oPercent
	oAt
	oAmp
	oPipe
	oCaret
	oTilde
	oLt
	oGt
	oPow
	oFloorDiv
	oLShift
	oRShift
	oLe
	oGe
	oEq
	oNe
	oPlusEq
	oMinusEq
	oStarEq
	oSlashEq
	oPercentEq
	oAtEq
	oAmpEq
	oPipeEq
	oCaretEq
	oPowEq
	oFloorDivEq
	oLShiftEq
	oRShiftEq
	oEllipsis
	oBang
	// keywords
	kFalse
	kNone
	kTrue
	kAnd
	kAs
	kAssert
	kAsync
	kAwait
	kBreak
	kClass
	kContinue
	kDef
	kDel
	kElif
	kElse
	kExcept
	kFinally
	kFor
	kFrom
	kGlobal
	kIf
	kImport
	kIn
	kIs
	kLambda
	kNonlocal
	kNot
	kOr
	kPass
	kRaise
	kReturn
	kTry
	kWhile
	kWith
	kYield
	// soft keywords: identifiers in every place the fast path accepts
	kPrint
	kExec
	kType
	kMatch
	kFuture
	kCase       // only as an anonymous symbol (case clauses)
	kUnderscore // only as an anonymous symbol (the wildcard pattern)
	numWords
)

var fpWords = [numWords]string{
	oLParen: "(", oRParen: ")", oLBracket: "[", oRBracket: "]", oLBrace: "{", oRBrace: "}",
	oComma: ",", oColon: ":", oSemi: ";", oDot: ".", oAssign: "=", oArrow: "->", oWalrus: ":=",
	oPlus: "+", oMinus: "-", oStar: "*", oSlash: "/", oPercent: "%", oAt: "@", oAmp: "&", oPipe: "|",
	oCaret: "^", oTilde: "~", oLt: "<", oGt: ">", oPow: "**", oFloorDiv: "//", oLShift: "<<", oRShift: ">>",
	oLe: "<=", oGe: ">=", oEq: "==", oNe: "!=", oPlusEq: "+=", oMinusEq: "-=", oStarEq: "*=", oSlashEq: "/=",
	oPercentEq: "%=", oAtEq: "@=", oAmpEq: "&=", oPipeEq: "|=", oCaretEq: "^=", oPowEq: "**=",
	oFloorDivEq: "//=", oLShiftEq: "<<=", oRShiftEq: ">>=", oEllipsis: "...", oBang: "!",
	kFalse: "False", kNone: "None", kTrue: "True", kAnd: "and", kAs: "as", kAssert: "assert",
	kAsync: "async", kAwait: "await", kBreak: "break", kClass: "class", kContinue: "continue",
	kDef: "def", kDel: "del", kElif: "elif", kElse: "else", kExcept: "except", kFinally: "finally",
	kFor: "for", kFrom: "from", kGlobal: "global", kIf: "if", kImport: "import", kIn: "in", kIs: "is",
	kLambda: "lambda", kNonlocal: "nonlocal", kNot: "not", kOr: "or", kPass: "pass", kRaise: "raise",
	kReturn: "return", kTry: "try", kWhile: "while", kWith: "with", kYield: "yield",
	kPrint: "print", kExec: "exec", kType: "type", kMatch: "match", kFuture: "__future__",
	kCase: "case", kUnderscore: "_",
}

// fpKeywords maps a keyword's text to its id.
var fpKeywords = func() map[string]uint8 {
	m := map[string]uint8{}
	for i := kFalse; i < kCase; i++ {
		m[fpWords[i]] = uint8(i)
	}
	return m
}()

// The grammar's ids the fast parser writes, looked up by name once.
var fs = struct {
	anon [numWords]uint16 // anonymous token symbol of each operator and keyword

	module, comment, lineCont, identifier, integer, float, true_, false_, none, ellipsis             uint16
	str, strStart, strContent, strEnd, escSeq, escInterp, interp, fmtSpec, fmtExpr, typeConv, concat uint16
	exprStmt, assignment, augAssign, patternList, exprList, tuple, tuplePattern, list, listPattern   uint16
	listSplat, listSplatPattern, dictSplat, dict, pair, set, listComp, dictComp, setComp, genExpr    uint16
	forIn, ifClause, paren, attribute, subscript, slice, call, argList, kwArg                        uint16
	binOp, unOp, boolOp, notOp, cmpOp, cond, named, lambda, lambdaParams, await, yield               uint16
	asPattern, asTarget, notIn, isNot, backslash                                                     uint16
	returnStmt, passStmt, breakStmt, continueStmt, delStmt, raiseStmt, assertStmt, globalStmt        uint16
	nonlocalStmt, importStmt, importFrom, futureImport, dottedName, aliasedImport, relImport         uint16
	importPrefix, wildcard                                                                           uint16
	ifStmt, elifClause, elseClause, forStmt, whileStmt, tryStmt, exceptClause, finallyClause         uint16
	withStmt, withClause, withItem, funcDef, params, typedParam, defaultParam, typedDefaultParam     uint16
	dictSplatPattern, kwSep, posSep, classDef, decorated, decorator, block                           uint16
	typ, genericType, typeParam, unionType                                                           uint16
	matchStmt, caseClause, casePattern, unionPattern, classPattern, keywordPattern, splatPattern     uint16

	fName, fParameters, fBody, fReturnType, fType, fValue, fLeft, fRight, fOperator, fArgument uint8
	fFunction, fArguments, fObject, fAttribute, fSubscript, fKey, fCondition, fConsequence     uint8
	fAlternative, fAlias, fModuleName, fCause, fDefinition, fSuperclasses, fExpression         uint8
	fTypeConversion, fFormatSpecifier, fOperators, fSubject, fGuard                            uint8
}{}

func init() {
	for i := 1; i < int(numWords); i++ {
		switch i {
		case oBang, oEllipsis, kTrue, kFalse, kNone:
			continue
		}
		fs.anon[i] = symbolFor(fpWords[i], false)
	}
	n := func(s string) uint16 { return symbolFor(s, true) }
	fs.module, fs.comment, fs.lineCont, fs.identifier = n("module"), n("comment"), n("line_continuation"), n("identifier")
	fs.integer, fs.float, fs.true_, fs.false_, fs.none, fs.ellipsis = n("integer"), n("float"), n("true"), n("false"), n("none"), n("ellipsis")
	fs.str, fs.strStart, fs.strContent, fs.strEnd = n("string"), n("string_start"), n("string_content"), n("string_end")
	fs.escSeq, fs.escInterp, fs.interp, fs.fmtSpec = n("escape_sequence"), n("escape_interpolation"), n("interpolation"), n("format_specifier")
	fs.fmtExpr, fs.typeConv, fs.concat = n("format_expression"), n("type_conversion"), n("concatenated_string")
	fs.exprStmt, fs.assignment, fs.augAssign, fs.patternList = n("expression_statement"), n("assignment"), n("augmented_assignment"), n("pattern_list")
	fs.exprList, fs.tuple, fs.tuplePattern, fs.list, fs.listPattern = n("expression_list"), n("tuple"), n("tuple_pattern"), n("list"), n("list_pattern")
	fs.listSplat, fs.listSplatPattern, fs.dictSplat, fs.dict, fs.pair = n("list_splat"), n("list_splat_pattern"), n("dictionary_splat"), n("dictionary"), n("pair")
	fs.set, fs.listComp, fs.dictComp, fs.setComp, fs.genExpr = n("set"), n("list_comprehension"), n("dictionary_comprehension"), n("set_comprehension"), n("generator_expression")
	fs.forIn, fs.ifClause, fs.paren, fs.attribute, fs.subscript = n("for_in_clause"), n("if_clause"), n("parenthesized_expression"), n("attribute"), n("subscript")
	fs.slice, fs.call, fs.argList, fs.kwArg = n("slice"), n("call"), n("argument_list"), n("keyword_argument")
	fs.binOp, fs.unOp, fs.boolOp, fs.notOp, fs.cmpOp = n("binary_operator"), n("unary_operator"), n("boolean_operator"), n("not_operator"), n("comparison_operator")
	fs.cond, fs.named, fs.lambda, fs.lambdaParams = n("conditional_expression"), n("named_expression"), n("lambda"), n("lambda_parameters")
	fs.await, fs.yield, fs.asPattern, fs.asTarget = n("await"), n("yield"), n("as_pattern"), n("as_pattern_target")
	fs.notIn, fs.isNot, fs.backslash = symbolFor("not in", false), symbolFor("is not", false), symbolFor("\\", false)
	fs.returnStmt, fs.passStmt, fs.breakStmt, fs.continueStmt = n("return_statement"), n("pass_statement"), n("break_statement"), n("continue_statement")
	fs.delStmt, fs.raiseStmt, fs.assertStmt, fs.globalStmt = n("delete_statement"), n("raise_statement"), n("assert_statement"), n("global_statement")
	fs.nonlocalStmt, fs.importStmt, fs.importFrom, fs.futureImport = n("nonlocal_statement"), n("import_statement"), n("import_from_statement"), n("future_import_statement")
	fs.dottedName, fs.aliasedImport, fs.relImport, fs.importPrefix, fs.wildcard = n("dotted_name"), n("aliased_import"), n("relative_import"), n("import_prefix"), n("wildcard_import")
	fs.ifStmt, fs.elifClause, fs.elseClause, fs.forStmt, fs.whileStmt = n("if_statement"), n("elif_clause"), n("else_clause"), n("for_statement"), n("while_statement")
	fs.tryStmt, fs.exceptClause, fs.finallyClause = n("try_statement"), n("except_clause"), n("finally_clause")
	fs.withStmt, fs.withClause, fs.withItem, fs.funcDef, fs.params = n("with_statement"), n("with_clause"), n("with_item"), n("function_definition"), n("parameters")
	fs.typedParam, fs.defaultParam, fs.typedDefaultParam = n("typed_parameter"), n("default_parameter"), n("typed_default_parameter")
	fs.dictSplatPattern, fs.kwSep, fs.posSep = n("dictionary_splat_pattern"), n("keyword_separator"), n("positional_separator")
	fs.classDef, fs.decorated, fs.decorator, fs.block = n("class_definition"), n("decorated_definition"), n("decorator"), n("block")
	fs.typ, fs.genericType, fs.typeParam, fs.unionType = n("type"), n("generic_type"), n("type_parameter"), n("union_type")
	fs.matchStmt, fs.caseClause, fs.casePattern, fs.unionPattern = n("match_statement"), n("case_clause"), n("case_pattern"), n("union_pattern")
	fs.classPattern, fs.keywordPattern, fs.splatPattern = n("class_pattern"), n("keyword_pattern"), n("splat_pattern")

	f := fieldFor
	fs.fName, fs.fParameters, fs.fBody, fs.fReturnType, fs.fType = f("name"), f("parameters"), f("body"), f("return_type"), f("type")
	fs.fValue, fs.fLeft, fs.fRight, fs.fOperator, fs.fArgument = f("value"), f("left"), f("right"), f("operator"), f("argument")
	fs.fFunction, fs.fArguments, fs.fObject, fs.fAttribute, fs.fSubscript = f("function"), f("arguments"), f("object"), f("attribute"), f("subscript")
	fs.fKey, fs.fCondition, fs.fConsequence, fs.fAlternative, fs.fAlias = f("key"), f("condition"), f("consequence"), f("alternative"), f("alias")
	fs.fModuleName, fs.fCause, fs.fDefinition, fs.fSuperclasses, fs.fExpression = f("module_name"), f("cause"), f("definition"), f("superclasses"), f("expression")
	fs.fTypeConversion, fs.fFormatSpecifier, fs.fOperators = f("type_conversion"), f("format_specifier"), f("operators")
	fs.fSubject, fs.fGuard = f("subject"), f("guard")
}

type fpTok struct {
	kind       uint8
	id         uint8 // operator or keyword id (tOp, tName); string flags (tString)
	lineStart  bool  // the first token of its line
	start, end int
	indent     int // the indentation of its line, as tree-sitter's scanner counts it
}

// fpExtra is a comment or line continuation read but not yet placed.
type fpExtra struct {
	start, end int
	indent     int // indentation of a comment on a line of its own; -1 otherwise
	sym        uint16
}

type fastParser struct {
	src     []byte
	pos     int // the offset just past tok
	tok     fpTok
	depth   int       // bracket nesting
	interp  int       // f-string interpolation nesting
	atLine  bool      // no token read yet on the current line
	line1   bool      // still on the first line of the file
	nodes   []rawNode // the tree without droppedPunctuation
	dropped int       // the droppedPunctuation leaves read (not in nodes)
	lastEnd int       // the end of the last node of the whole tree (dropped leaves too)
	stack   []int32
	pending []fpExtra
	indents []int
	shifted int // nodes moved by wrap, bounded to keep the parse linear
	// maxNodes is the most nodes (dropped leaves included) a tree the
	// limits accept may have: the parse stops once past it (see grow).
	maxNodes int
	nest     int
	inPrint  bool // in a statement print(...) (tree-sitter also tries a print_statement)
}

// fpState is what try restores.
type fpState struct {
	pos, depth, interp, nodes, stack, shifted, nest, indents, dropped, lastEnd int
	tok                                                                        fpTok
	atLine, line1, inPrint                                                     bool
	pending                                                                    []fpExtra
}

// try runs f and reports whether it parsed; if it fell back, the parser is
// as before the call. f may only change nodes it appended.
func (p *fastParser) try(f func()) (ok bool) {
	s := fpState{p.pos, p.depth, p.interp, len(p.nodes), len(p.stack), p.shifted, p.nest, len(p.indents), p.dropped, p.lastEnd, p.tok, p.atLine, p.line1, p.inPrint, append([]fpExtra(nil), p.pending...)}
	defer func() {
		if r := recover(); r != nil {
			if r != errFastBail {
				panic(r)
			}
			p.pos, p.depth, p.interp, p.nodes, p.stack, p.shifted, p.nest, p.indents = s.pos, s.depth, s.interp, p.nodes[:s.nodes], p.stack[:s.stack], s.shifted, s.nest, p.indents[:s.indents]
			p.tok, p.atLine, p.line1, p.inPrint, p.pending = s.tok, s.atLine, s.line1, s.inPrint, s.pending
			p.dropped, p.lastEnd = s.dropped, s.lastEnd
			ok = false
		}
	}()
	f()
	return true
}

// fastParse parses src (after the BOM and lone CR preprocessing of
// ParseLimits) and returns its tree, or ok == false when the file must go
// to tree-sitter (see the file comment).
func fastParse(src []byte, lim Limits) (nodes []rawNode, steps int64, ok bool) {
	if len(src) >= 1<<31 || !utf8.Valid(src) || bytes.IndexByte(src, 0) >= 0 {
		return nil, 0, false
	}
	p := &fastParser{src: src, atLine: true, line1: true, indents: []int{0}, maxNodes: fastMaxNodes(len(src), lim)}
	// A pooled array, which the caller hands back once packed: code has
	// about 0.3 nodes a byte (punctuation included), so it rarely grows.
	p.nodes = getRaw(min(len(src)/3, p.maxNodes) + 64)
	defer func() {
		if r := recover(); r != nil {
			// errFastBail, errFastLimit, or an index out of range or the
			// like: a bug of the fast path, never of the input; tree-sitter
			// still parses it. The array goes back (or, too large to keep,
			// to the collector) before tree-sitter starts.
			putRaw(p.nodes)
			p.nodes = nil
			nodes, steps, ok = nil, 0, false
		}
	}()
	p.module()
	// The limits are tree-sitter's, on the whole tree: the dropped leaves
	// count, and they are one level below a kept node at most.
	n := len(p.nodes) + p.dropped
	bound := int64(n)*fastStepsPerNode + int64(float64(len(src))*fastStepsPerByte)
	if lim.Nodes > 0 && n > lim.Nodes || lim.Steps > 0 && bound > lim.Budget(len(src)) || lim.Depth > 0 && treeDepth(p.nodes)+1 > lim.Depth {
		putRaw(p.nodes)
		return nil, 0, false
	}
	return p.nodes, bound, true
}

// fastMaxNodes returns the most nodes the tree of a file of n bytes may
// have for fastParse to accept it under lim: past lim.Nodes, or past the
// node count whose step bound passes the budget of the whole file, the file
// goes to tree-sitter whatever follows (nodes only grow), so the parse
// stops there and its array never grows past what the limits accept (a
// 7.8 MB tuple was built whole, 200 MB, before the check at the end sent it
// to tree-sitter).
func fastMaxNodes(n int, lim Limits) int {
	most := math.MaxInt
	if lim.Nodes > 0 {
		most = lim.Nodes
	}
	if lim.Steps > 0 {
		most = min(most, int(max(lim.Budget(n)-int64(float64(n)*fastStepsPerByte), 0)/fastStepsPerNode))
	}
	return most
}

// grow returns p.nodes with one more node at its end, or stops the parse
// (errFastLimit) when the tree would pass p.maxNodes.
func (p *fastParser) grow() []rawNode {
	if len(p.nodes)+p.dropped >= p.maxNodes {
		panic(errFastLimit)
	}
	return append(p.nodes, rawNode{})
}

// treeDepth returns the depth of a preorder node array (the root alone: 0),
// with a stack of the open nodes' ends (no array the size of the tree).
// A leaf is one level below the open nodes and is never pushed.
func treeDepth(t []rawNode) int {
	var ends []int
	deepest := 0
	for j := range t {
		for len(ends) > 0 && ends[len(ends)-1] <= j {
			ends = ends[:len(ends)-1]
		}
		if t[j].size > 1 {
			ends = append(ends, j+int(t[j].size))
		} else if len(ends) > deepest {
			deepest = len(ends)
		}
	}
	return deepest
}

func bail() {
	if fastBailSites != nil {
		_, file, line, _ := runtime.Caller(1)
		fastLastBail = fmt.Sprintf("%s:%d", filepath.Base(file), line)
	}
	panic(errFastBail)
}

// fastBailSites, when a test sets it, gets where the fast path last fell
// back in fastLastBail.
var (
	fastBailSites map[string]int
	fastLastBail  string
)

// ---- the tree ----

func (p *fastParser) top() int { return int(p.stack[len(p.stack)-1]) }

// flush places the pending extras as children of the innermost open node.
func (p *fastParser) flush() {
	if len(p.pending) == 0 {
		return
	}
	t := p.top()
	for _, e := range p.pending {
		p.push(e.sym, 0, e.start, e.end, t)
	}
	p.pending = p.pending[:0]
}

func (p *fastParser) push(sym uint16, field uint8, start, end, parent int) {
	i := len(p.nodes)
	p.nodes = p.grow()
	n := &p.nodes[i]
	n.start, n.end, n.size, n.up = uint32(start), uint32(end), 1, uint32(i-parent)
	n.symbol, n.field, n.flags = sym, field, flagNamed
	p.lastEnd = end
}

// leafAt appends a token node at [start, end); a droppedPunctuation token
// is only counted (the Module's tree does not keep it, see
// dropPunctuation).
func (p *fastParser) leafAt(sym uint16, named bool, field uint8, start, end int) {
	p.flush()
	if !named && field == 0 && droppedPunctuation.has(sym) {
		if len(p.nodes)+p.dropped >= p.maxNodes {
			panic(errFastLimit)
		}
		p.dropped++
		p.lastEnd = end
		return
	}
	p.push(sym, field, start, end, p.top())
	if !named {
		p.nodes[len(p.nodes)-1].flags = 0
	}
}

// open appends a node starting at start and makes it the innermost open
// node; close ends it.
func (p *fastParser) openAt(sym uint16, field uint8, start int) int {
	p.flush()
	i := len(p.nodes)
	p.push(sym, field, start, start, p.top())
	p.stack = append(p.stack, int32(i))
	return i
}

func (p *fastParser) open(sym uint16, field uint8) int { return p.openAt(sym, field, p.tok.start) }

// A node ends where its last child does, dropped or not: at lastEnd.
// close bails on a node that has no child at all (none kept and lastEnd
// still its start).
func (p *fastParser) close(i int) {
	if p.top() != i || len(p.nodes) == i+1 && p.lastEnd == int(p.nodes[i].start) {
		bail()
	}
	p.stack = p.stack[:len(p.stack)-1]
	n := &p.nodes[i]
	n.size = uint32(len(p.nodes) - i)
	n.end = uint32(p.lastEnd)
}

// wrap makes the closed subtree at i (the last child of the innermost open
// node) the first child of a new open node of sym, which takes its field;
// the subtree gets childField.
func (p *fastParser) wrap(i int, sym uint16, childField uint8) int {
	p.nodes = p.grow()
	moved := len(p.nodes) - 1 - i
	p.shifted += moved
	if p.shifted > 4*len(p.src)+4096 {
		bail()
	}
	copy(p.nodes[i+1:], p.nodes[i:len(p.nodes)-1])
	old := &p.nodes[i+1]
	n := &p.nodes[i]
	n.start, n.end, n.size, n.up = old.start, old.end, 1, old.up
	n.symbol, n.field, n.flags = sym, old.field, flagNamed
	old.up, old.field = 1, childField
	p.stack = append(p.stack, int32(i))
	return i
}

// wrapRange makes the children of the innermost open node from index i on
// the children of a new open node of sym (field field) at i.
func (p *fastParser) wrapRange(i int, sym uint16, field uint8) int {
	parent := p.top()
	p.nodes = p.grow()
	p.shifted += len(p.nodes) - 1 - i
	if p.shifted > 4*len(p.src)+4096 {
		bail()
	}
	copy(p.nodes[i+1:], p.nodes[i:len(p.nodes)-1])
	n := &p.nodes[i]
	first := &p.nodes[i+1]
	n.start, n.end, n.size, n.up = first.start, first.end, 1, uint32(i-parent)
	n.symbol, n.field, n.flags = sym, field, flagNamed
	for c := i + 1; c < len(p.nodes); c += int(p.nodes[c].size) {
		p.nodes[c].up = uint32(c - i)
	}
	p.stack = append(p.stack, int32(i))
	return i
}

// ---- the tokenizer ----

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// next reads the next token into p.tok, queueing the comments and line
// continuations before it. Outside brackets a line end is a tNewline token.
func (p *fastParser) next() {
	src := p.src
	pos := p.pos
	prev := p.tok
	nl := p.atLine
	indent := 0
	if !nl {
		indent = -1
	}
	cont := false // just read a line continuation
	for pos < len(src) {
		c := src[pos]
		switch c {
		case ' ':
			indent++
			pos++
			continue
		case '\t':
			indent += 8
			pos++
			continue
		case '\f', '\r':
			indent = 0
			pos++
			continue
		case '\n':
			if cont || p.interp > 0 {
				bail()
			}
			if p.depth == 0 && !nl {
				p.tok = fpTok{kind: tNewline, start: pos, end: pos}
				p.pos = pos + 1
				p.atLine = true
				p.line1 = false
				return
			}
			p.line1 = false
			nl = true
			indent = 0
			pos++
			continue
		case '#':
			if cont || p.interp > 0 {
				bail()
			}
			if nl && p.depth > 0 && indent < p.indents[len(p.indents)-1] {
				bail()
			}
			e := pos
			for e < len(src) && src[e] != '\n' {
				e++
			}
			ind := -1
			if nl {
				ind = indent
				if p.line1 {
					ind = 0
				}
			}
			if len(p.nodes)+p.dropped+len(p.pending) >= p.maxNodes {
				panic(errFastLimit) // each pending comment becomes a node
			}
			p.pending = append(p.pending, fpExtra{start: pos, end: e, indent: ind, sym: fs.comment})
			pos = e
			continue
		case '\\':
			if nl && p.depth == 0 || p.interp > 0 {
				bail()
			}
			e := pos + 1
			if e < len(src) && src[e] == '\r' {
				e++
			}
			if e >= len(src) || src[e] != '\n' {
				bail()
			}
			e++
			if len(p.nodes)+p.dropped+len(p.pending) >= p.maxNodes {
				panic(errFastLimit)
			}
			p.pending = append(p.pending, fpExtra{start: pos, end: e, indent: -1, sym: fs.lineCont})
			pos = e
			cont = true
			p.line1 = false
			indent = -1
			continue
		}
		break
	}
	if cont && pos >= len(src) {
		bail()
	}
	if nl && p.depth > 0 && pos < len(src) && indent < p.indents[len(p.indents)-1] && !closesOrQuotes(src[pos:], prev) {
		// Inside brackets, tree-sitter's scanner reads a line indented
		// less than the block as a dedent (an error) unless a closing
		// bracket or a string may come next: one of them does here.
		bail()
	}
	if p.line1 {
		indent = 0
	}
	p.tok = fpTok{lineStart: nl, start: pos, indent: indent}
	p.atLine = false
	if pos >= len(src) {
		if p.depth > 0 || p.interp > 0 {
			bail()
		}
		p.tok.kind, p.tok.end, p.tok.lineStart, p.tok.indent = tEOF, pos, true, 0
		p.pos = pos
		return
	}
	c := src[pos]
	switch {
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		e := pos + 1
		for e < len(src) && isIdentByte(src[e]) {
			e++
		}
		if e < len(src) && src[e] >= 0x80 {
			bail()
		}
		if e < len(src) && (src[e] == '"' || src[e] == '\'') && isStringPrefix(src[pos:e]) {
			p.stringAfterContinuation(cont, prev)
			p.stringToken(pos, e)
			return
		}
		p.tok.kind, p.tok.end = tName, e
		if kw, ok := fpKeywords[string(src[pos:e])]; ok {
			p.tok.id = kw
		}
		p.pos = e
		return
	case isDigit(c) || c == '.' && pos+1 < len(src) && isDigit(src[pos+1]):
		p.number(pos)
		return
	case c == '"' || c == '\'':
		p.stringAfterContinuation(cont, prev)
		p.stringToken(pos, pos)
		return
	}
	id, l := opAt(src, pos)
	if id == oNone {
		bail()
	}
	switch id {
	case oLParen, oLBracket, oLBrace:
		p.depth++
	case oRParen, oRBracket, oRBrace:
		if p.depth == 0 {
			bail()
		}
		p.depth--
	}
	p.tok.kind, p.tok.id, p.tok.end = tOp, uint8(id), pos+l
	p.pos = pos + l
}

// A line continuation right before a string is whitespace to tree-sitter's
// external scanner (which skips it before a string start) in some parser
// states and a line_continuation node in others: not reproduced.
//
// After an operator or a keyword (an operand must follow) or a string (the
// next may be concatenated) the scanner is asked for a string start and
// skips the continuation: it is no node.
func (p *fastParser) stringAfterContinuation(cont bool, prev fpTok) {
	if !cont {
		return
	}
	switch {
	case prev.kind == tOp && prev.id != oRParen && prev.id != oRBracket && prev.id != oRBrace,
		prev.kind == tName && prev.id >= kAnd && prev.id < kPrint,
		prev.kind == tString: // a string: the next may continue it
		k := len(p.pending)
		for k > 0 && p.pending[k-1].sym == fs.lineCont {
			k--
		}
		p.pending = p.pending[:k]
	default:
		bail()
	}
}

func isStringPrefix(b []byte) bool {
	for _, c := range b {
		switch c {
		case 'f', 'F', 't', 'T', 'r', 'R', 'b', 'B', 'u', 'U':
		default:
			return false
		}
	}
	return true
}

// String flags in fpTok.id.
const (
	sfFormat = 1 << iota
	sfRaw
	sfBytes
	sfTriple
	sfDouble
)

func (p *fastParser) stringToken(start, q int) {
	var fl uint8
	for _, c := range p.src[start:q] {
		switch c {
		case 'f', 'F', 't', 'T':
			fl |= sfFormat
		case 'r', 'R':
			fl |= sfRaw
		case 'b', 'B':
			fl |= sfBytes
		}
	}
	qc := p.src[q]
	if qc == '"' {
		fl |= sfDouble
	}
	e := q + 1
	if e+1 < len(p.src) && p.src[e] == qc && p.src[e+1] == qc {
		fl |= sfTriple
		e += 2
	}
	p.tok.kind, p.tok.id, p.tok.end = tString, fl, e
	p.pos = e
}

func (p *fastParser) number(pos int) {
	src := p.src
	i := pos
	digits := func(ok func(byte) bool) bool {
		s := i
		for i < len(src) && ok(src[i]) {
			i++
			if i < len(src) && src[i] == '_' {
				if i+1 >= len(src) || !ok(src[i+1]) {
					bail()
				}
				i++
			}
		}
		return i > s
	}
	float := false
	if src[i] == '0' && i+1 < len(src) && (src[i+1]|0x20 == 'x' || src[i+1]|0x20 == 'o' || src[i+1]|0x20 == 'b') {
		var ok func(byte) bool
		switch src[i+1] | 0x20 {
		case 'x':
			ok = isHex
		case 'o':
			ok = func(c byte) bool { return c >= '0' && c <= '7' }
		default:
			ok = func(c byte) bool { return c == '0' || c == '1' }
		}
		i += 2
		if i < len(src) && src[i] == '_' {
			i++
		}
		if !digits(ok) {
			bail()
		}
	} else {
		digits(isDigit)
		if i < len(src) && src[i] == '.' {
			float = true
			i++
			digits(isDigit)
		}
		if i < len(src) && src[i]|0x20 == 'e' {
			j := i + 1
			if j < len(src) && (src[j] == '+' || src[j] == '-') {
				j++
			}
			if j < len(src) && isDigit(src[j]) {
				i = j
				digits(isDigit)
				float = true
			}
		}
		if i < len(src) && src[i]|0x20 == 'j' {
			i++
		}
	}
	if i < len(src) && (isIdentByte(src[i]) || src[i] == '.' || src[i] >= 0x80) {
		bail()
	}
	p.tok.kind, p.tok.end = tInt, i
	if float {
		p.tok.kind = tFloat
	}
	p.pos = i
}

// opAt returns the operator at src[i] (the longest) and its length.
func opAt(src []byte, i int) (int, int) {
	c := src[i]
	var c1, c2 byte
	if i+1 < len(src) {
		c1 = src[i+1]
	}
	if i+2 < len(src) {
		c2 = src[i+2]
	}
	switch c {
	case '(':
		return oLParen, 1
	case ')':
		return oRParen, 1
	case '[':
		return oLBracket, 1
	case ']':
		return oRBracket, 1
	case '{':
		return oLBrace, 1
	case '}':
		return oRBrace, 1
	case ',':
		return oComma, 1
	case ';':
		return oSemi, 1
	case '~':
		return oTilde, 1
	case ':':
		if c1 == '=' {
			return oWalrus, 2
		}
		return oColon, 1
	case '.':
		if c1 == '.' && c2 == '.' {
			return oEllipsis, 3
		}
		return oDot, 1
	case '=':
		if c1 == '=' {
			return oEq, 2
		}
		return oAssign, 1
	case '!':
		if c1 == '=' {
			return oNe, 2
		}
		return oBang, 1
	case '-':
		switch c1 {
		case '>':
			return oArrow, 2
		case '=':
			return oMinusEq, 2
		}
		return oMinus, 1
	case '+':
		if c1 == '=' {
			return oPlusEq, 2
		}
		return oPlus, 1
	case '%':
		if c1 == '=' {
			return oPercentEq, 2
		}
		return oPercent, 1
	case '@':
		if c1 == '=' {
			return oAtEq, 2
		}
		return oAt, 1
	case '&':
		if c1 == '=' {
			return oAmpEq, 2
		}
		return oAmp, 1
	case '|':
		if c1 == '=' {
			return oPipeEq, 2
		}
		return oPipe, 1
	case '^':
		if c1 == '=' {
			return oCaretEq, 2
		}
		return oCaret, 1
	case '*':
		if c1 == '*' {
			if c2 == '=' {
				return oPowEq, 3
			}
			return oPow, 2
		}
		if c1 == '=' {
			return oStarEq, 2
		}
		return oStar, 1
	case '/':
		if c1 == '/' {
			if c2 == '=' {
				return oFloorDivEq, 3
			}
			return oFloorDiv, 2
		}
		if c1 == '=' {
			return oSlashEq, 2
		}
		return oSlash, 1
	case '<':
		switch c1 {
		case '<':
			if c2 == '=' {
				return oLShiftEq, 3
			}
			return oLShift, 2
		case '=':
			return oLe, 2
		case '>':
			return oNone, 0
		}
		return oLt, 1
	case '>':
		switch c1 {
		case '>':
			if c2 == '=' {
				return oRShiftEq, 3
			}
			return oRShift, 2
		case '=':
			return oGe, 2
		}
		return oGt, 1
	}
	return oNone, 0
}

// ---- token helpers ----

func (p *fastParser) isOp(id int) bool { return p.tok.kind == tOp && int(p.tok.id) == id }

func (p *fastParser) isKw(id int) bool { return p.tok.kind == tName && int(p.tok.id) == id }

// isIdent reports whether the token is an identifier (soft keywords too).
func (p *fastParser) isIdent() bool {
	return p.tok.kind == tName && (p.tok.id == 0 || p.tok.id >= kPrint)
}

// tokLeaf appends the current operator or keyword token and reads the next.
func (p *fastParser) tokLeaf(field uint8) {
	p.leafAt(fs.anon[p.tok.id], false, field, p.tok.start, p.tok.end)
	p.next()
}

func (p *fastParser) expectOp(id int, field uint8) {
	if !p.isOp(id) {
		bail()
	}
	p.tokLeaf(field)
}

func (p *fastParser) expectKw(id int) {
	if !p.isKw(id) {
		bail()
	}
	p.tokLeaf(0)
}

func (p *fastParser) ident(field uint8) {
	if !p.isIdent() {
		bail()
	}
	p.leafAt(fs.identifier, true, field, p.tok.start, p.tok.end)
	p.next()
}

// peekByte returns the first byte after the current token past spaces and
// tabs, or 0 at a line end, a comment or the end of the file.
func (p *fastParser) peekByte() (byte, int) {
	i := p.tok.end
	for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t' || p.src[i] == '\f') {
		i++
	}
	if i >= len(p.src) {
		return 0, i
	}
	switch c := p.src[i]; c {
	case '\n', '\r', '#', '\\':
		return 0, i
	default:
		return c, i
	}
}

// peekAssign reports whether "=" (not "==") follows the current token.
func (p *fastParser) peekAssign() bool {
	c, i := p.peekByte()
	return c == '=' && (i+1 >= len(p.src) || p.src[i+1] != '=')
}

func (p *fastParser) enter() {
	p.nest++
	if p.nest > fastMaxNesting {
		bail()
	}
}

func (p *fastParser) leave() { p.nest-- }

// fastPath turns the fast path on; MCPLINT_FASTPARSE=0 turns it off (every
// file then goes to tree-sitter), to compare the two or measure.
var fastPath = os.Getenv("MCPLINT_FASTPARSE") != "0"

// mark places the pending extras and returns the index the next node will
// have (so that a later wrap of that node does not take them in).
func (p *fastParser) mark() int {
	p.flush()
	return len(p.nodes)
}

// closesOrQuotes reports whether b starts with a closing bracket or a
// string literal (quote, or prefix letters and a quote) that tree-sitter's
// scanner reads no dedent before, on a line indented less than the block
// inside brackets. The scanner looks at one character: prefix letters are
// no quote to it, so a prefixed string (f"", b"") passes only where a
// closing bracket could come instead, as after a string (prev, the token
// before the line) it continues; after an operator it is a dedent
// (FuzzFastParse 31eca44cf7b2c562).
func closesOrQuotes(b []byte, prev fpTok) bool {
	switch b[0] {
	case ')', ']', '}', '"', '\'':
		return true
	}
	i := 0
	for i < len(b) && i < 3 && isStringPrefix(b[i:i+1]) {
		i++
	}
	return i > 0 && i < len(b) && (b[i] == '"' || b[i] == '\'') && prev.kind == tString
}
