package pyast

// Statements of the fast path parser (see fastparse.go).

func (p *fastParser) curIndent() int { return p.indents[len(p.indents)-1] }

func (p *fastParser) module() {
	p.push(fs.module, 0, 0, len(p.src), 0)
	p.stack = append(p.stack, 0)
	p.next()
	p.statements()
	if p.tok.kind != tEOF {
		bail()
	}
	p.flush()
	root := &p.nodes[0]
	root.size = uint32(len(p.nodes))
	root.up = 0
	root.start = uint32(len(p.src))
	if len(p.nodes) > 1 {
		root.start = p.nodes[1].start
	}
	root.end = uint32(len(p.src))
}

// statements parses the statements of the current block (or the module)
// up to the dedent that ends it.
func (p *fastParser) statements() {
	ind := p.curIndent()
	for {
		if p.tok.kind == tEOF || p.tok.indent < ind {
			return
		}
		if !p.tok.lineStart || p.tok.indent != ind {
			bail()
		}
		p.statement()
	}
}

// flushDedent places, before a block's DEDENT, the comments tree-sitter's
// scanner reads before it: those up to the first one indented less than
// the block.
func (p *fastParser) flushDedent(ind int) {
	k := 0
	for k < len(p.pending) && p.pending[k].indent >= ind {
		k++
	}
	if k == 0 {
		return
	}
	rest := append([]fpExtra(nil), p.pending[k:]...)
	p.pending = p.pending[:k]
	p.flush()
	p.pending = append(p.pending, rest...)
}

func (p *fastParser) statement() {
	p.enter()
	defer p.leave()
	if p.tok.kind == tName {
		switch p.tok.id {
		case kIf:
			p.ifStatement()
			return
		case kFor:
			p.forStatement(-1)
			return
		case kWhile:
			p.whileStatement()
			return
		case kTry:
			p.tryStatement()
			return
		case kWith:
			p.withStatement(-1)
			return
		case kDef:
			p.funcDef(0, -1)
			return
		case kClass:
			p.classDef(0)
			return
		case kAsync:
			p.asyncStatement(0)
			return
		}
	}
	if p.isOp(oAt) {
		p.decorated()
		return
	}
	if p.isKw(kMatch) {
		if c, i := p.peekByte(); !(c == '=' && i+1 < len(p.src) && p.src[i+1] != '=' || c == ',' || c == ':' || c == '.') {
			p.matchStatement()
			return
		}
	}
	p.simpleStatements()
}

// simpleStatements parses simple statements separated by ";" and the line
// end (tree-sitter's hidden _newline token, which ends the innermost open
// node: comments before it are its children).
func (p *fastParser) simpleStatements() {
	for {
		p.simpleStatement()
		if !p.isOp(oSemi) {
			break
		}
		p.tokLeaf(0)
		if p.tok.kind == tNewline || p.tok.kind == tEOF {
			break
		}
	}
	p.endLine()
}

func (p *fastParser) endLine() {
	switch p.tok.kind {
	case tNewline:
		p.flush()
		p.next()
	case tEOF:
		p.flush()
	default:
		bail()
	}
}

func (p *fastParser) simpleStatement() {
	if p.tok.kind == tName {
		switch p.tok.id {
		case kReturn:
			n := p.open(fs.returnStmt, 0)
			p.tokLeaf(0)
			if !p.atStmtEnd() {
				p.expressions(0)
			}
			p.close(n)
			return
		case kPass, kBreak, kContinue:
			sym := fs.passStmt
			if p.tok.id == kBreak {
				sym = fs.breakStmt
			} else if p.tok.id == kContinue {
				sym = fs.continueStmt
			}
			n := p.open(sym, 0)
			p.tokLeaf(0)
			p.close(n)
			return
		case kDel:
			n := p.open(fs.delStmt, 0)
			p.tokLeaf(0)
			p.expressions(0)
			p.close(n)
			return
		case kRaise:
			n := p.open(fs.raiseStmt, 0)
			p.tokLeaf(0)
			if !p.atStmtEnd() && !p.isKw(kFrom) {
				p.expressions(0)
			}
			if p.isKw(kFrom) {
				p.tokLeaf(0)
				p.expr(fs.fCause)
			}
			p.close(n)
			return
		case kAssert:
			n := p.open(fs.assertStmt, 0)
			p.tokLeaf(0)
			p.expr(0)
			if p.isOp(oComma) {
				p.tokLeaf(0)
				p.expr(0)
			}
			p.close(n)
			return
		case kGlobal, kNonlocal:
			sym := fs.globalStmt
			if p.tok.id == kNonlocal {
				sym = fs.nonlocalStmt
			}
			n := p.open(sym, 0)
			p.tokLeaf(0)
			p.ident(0)
			for p.isOp(oComma) {
				p.tokLeaf(0)
				p.ident(0)
			}
			p.close(n)
			return
		case kImport:
			n := p.open(fs.importStmt, 0)
			p.tokLeaf(0)
			p.importList(false)
			p.close(n)
			return
		case kFrom:
			p.fromImport()
			return
		case kPrint, kExec:
			p.printCall()
			return
		case kType, kMatch:
			// tree-sitter may read a type alias or match statement
			// ("type(x).y = z" is a type_alias_statement to it).
			c, i := p.peekByte()
			if !(c == '=' && i+1 < len(p.src) && p.src[i+1] != '=' || c == ',' || c == ':' && i+1 < len(p.src) && p.src[i+1] != '=' || c == '.' && p.tok.id == kMatch) {
				bail()
			}
		}
	}
	p.expressionStatement()
}

func (p *fastParser) atStmtEnd() bool {
	return p.tok.kind == tNewline || p.tok.kind == tEOF || p.isOp(oSemi)
}

// printCall accepts a statement starting with print or exec only as the
// plain call print(...) / exec(...): anything else may be tree-sitter's
// print_statement or exec_statement.
func (p *fastParser) printCall() {
	c, _ := p.peekByte()
	if c != '(' {
		bail()
	}
	st := p.open(fs.exprStmt, 0)
	p.inPrint = true
	p.expr(0)
	p.inPrint = false
	if !p.atStmtEnd() || p.nodes[st+1].symbol != fs.call || len(p.nodes) != st+1+int(p.nodes[st+1].size) {
		bail()
	}
	p.close(st)
}

func (p *fastParser) dottedName(field uint8) {
	n := p.open(fs.dottedName, field)
	p.ident(0)
	for p.isOp(oDot) {
		p.tokLeaf(0)
		p.ident(0)
	}
	p.close(n)
}

// importList parses the names of an import (aliased or not), in
// parentheses or not.
func (p *fastParser) importList(parens bool) {
	for {
		first := p.mark()
		p.dottedName(fs.fName)
		if p.isKw(kAs) {
			p.wrap(first, fs.aliasedImport, fs.fName)
			p.tokLeaf(0)
			p.ident(fs.fAlias)
			p.close(first)
		}
		if !p.isOp(oComma) {
			return
		}
		p.tokLeaf(0)
		if parens && p.isOp(oRParen) {
			return
		}
	}
}

func (p *fastParser) fromImport() {
	n := p.open(fs.importFrom, 0)
	p.tokLeaf(0)
	switch {
	case p.isKw(kFuture):
		p.nodes[n].symbol = fs.futureImport
		p.leafAt(fs.anon[kFuture], false, 0, p.tok.start, p.tok.end)
		p.next()
	case p.isOp(oDot) || p.isOp(oEllipsis):
		r := p.open(fs.relImport, fs.fModuleName)
		pre := p.open(fs.importPrefix, 0)
		for p.isOp(oDot) || p.isOp(oEllipsis) {
			for i := p.tok.start; i < p.tok.end; i++ {
				p.leafAt(fs.anon[oDot], false, 0, i, i+1)
			}
			p.next()
		}
		p.close(pre)
		if p.isIdent() {
			p.dottedName(0)
		}
		p.close(r)
	default:
		p.dottedName(fs.fModuleName)
	}
	p.expectKw(kImport)
	switch {
	case p.isOp(oStar) && p.nodes[n].symbol == fs.importFrom:
		w := p.open(fs.wildcard, 0)
		p.tokLeaf(0)
		p.close(w)
	case p.isOp(oLParen):
		p.tokLeaf(0)
		p.importList(true)
		p.expectOp(oRParen, 0)
	default:
		p.importList(false)
		if p.nodes[len(p.nodes)-1].symbol == fs.anon[oComma] {
			bail()
		}
	}
	p.close(n)
}

// expressions parses tree-sitter's _expressions: one expression, or an
// expression_list of several (or one with a trailing comma).
func (p *fastParser) expressions(field uint8) {
	first := p.mark()
	count, trailing := p.exprElems(false)
	if count > 1 || trailing {
		p.wrapRange(first, fs.exprList, field)
		p.close(first)
	} else {
		p.nodes[first].field = field
	}
}

// exprElems parses comma-separated expressions (starred ones too) as
// children of the open node, returning how many and whether a comma ends
// them.
//
// A starred expression alone (not in a list) is an error to tree-sitter.
func (p *fastParser) exprElems(lhs bool) (count int, trailing bool) {
	star := false
	for {
		if p.isOp(oStar) {
			// an expression list holds "*name" only (list_splat_pattern)
			if c, _ := p.peekByte(); c < 'A' || !p.identAfterStar() {
				bail()
			}
			p.starred(0)
			star = true
		} else {
			p.expr(0)
		}
		count++
		if !p.isOp(oComma) {
			if star && count == 1 {
				bail()
			}
			return count, false
		}
		p.tokLeaf(0)
		if lhs && p.tok.kind == tNewline {
			// tree-sitter may read on past the line end after a
			// trailing comma of what could be assignment targets
			// ("a,\nb = c" is one assignment to it)
			bail()
		}
		if p.atStmtEnd() || p.isOp(oAssign) || p.isOp(oColon) || p.isOp(oRParen) || p.isOp(oRBracket) || p.isOp(oRBrace) || p.tok.kind == tOp && augOp(p.tok.id) {
			return count, true
		}
	}
}

func augOp(id uint8) bool { return id >= oPlusEq && id <= oRShiftEq }

func (p *fastParser) expressionStatement() {
	st := p.open(fs.exprStmt, 0)
	first := p.mark()
	if p.isKw(kYield) {
		p.yieldExpr(0)
		p.close(st)
		return
	}
	count, trailing := p.exprElems(true)
	switch {
	case p.isOp(oAssign):
		p.lhs(first, count, trailing)
		a := p.wrapRange(first, fs.assignment, 0)
		p.tokLeaf(0)
		p.rhs()
		p.close(a)
	case p.isOp(oColon):
		if count != 1 || trailing {
			bail()
		}
		p.lhs(first, count, trailing)
		a := p.wrapRange(first, fs.assignment, 0)
		p.tokLeaf(0)
		p.typ(fs.fType)
		if p.isOp(oAssign) {
			p.tokLeaf(0)
			p.rhs()
		}
		p.close(a)
	case p.tok.kind == tOp && augOp(p.tok.id):
		if count != 1 || trailing {
			bail()
		}
		p.lhs(first, count, trailing)
		a := p.wrapRange(first, fs.augAssign, 0)
		p.tokLeaf(fs.fOperator)
		p.rhs()
		p.close(a)
	}
	p.close(st)
}

// lhs turns the expressions from first on into the left side of an
// assignment: a pattern, or a pattern_list.
func (p *fastParser) lhs(first, count int, trailing bool) {
	if count > 1 || trailing {
		p.wrapRange(first, fs.patternList, fs.fLeft)
		for c := first + 1; c < len(p.nodes); c += int(p.nodes[c].size) {
			if p.nodes[c].flags&flagNamed != 0 && !p.isExtra(c) {
				p.toPattern(c)
			}
		}
		p.close(first)
		return
	}
	p.toPattern(first)
	p.nodes[first].field = fs.fLeft
}

// rhs parses the right side of an assignment (field right): expressions, a
// yield, or another assignment.
func (p *fastParser) rhs() {
	if p.isKw(kYield) {
		p.yieldExpr(fs.fRight)
		return
	}
	first := p.mark()
	count, trailing := p.exprElems(false)
	switch {
	case p.isOp(oAssign):
		p.lhs(first, count, trailing)
		a := p.wrapRange(first, fs.assignment, fs.fRight)
		p.tokLeaf(0)
		p.rhs()
		p.close(a)
	case p.isOp(oColon) || p.tok.kind == tOp && augOp(p.tok.id):
		bail()
	case count > 1 || trailing:
		p.wrapRange(first, fs.exprList, fs.fRight)
		p.close(first)
	default:
		p.nodes[first].field = fs.fRight
	}
}

// toPattern relabels the expression subtree at i as the pattern
// tree-sitter reads in its place (tuple → tuple_pattern, ...).
func (p *fastParser) toPattern(i int) {
	n := &p.nodes[i]
	switch n.symbol {
	case fs.identifier, fs.attribute, fs.subscript:
		return
	case fs.tuple, fs.list:
		if n.symbol == fs.tuple {
			n.symbol = fs.tuplePattern
		} else {
			n.symbol = fs.listPattern
		}
		end := i + int(n.size)
		for c := i + 1; c < end; c += int(p.nodes[c].size) {
			if p.nodes[c].flags&flagNamed != 0 && !p.isExtra(c) {
				p.toPattern(c)
			}
		}
	case fs.listSplat:
		n.symbol = fs.listSplatPattern
		c := &p.nodes[i+2]
		if c.symbol != fs.identifier && c.symbol != fs.attribute && c.symbol != fs.subscript {
			bail()
		}
	default:
		bail()
	}
}

func (p *fastParser) yieldExpr(field uint8) {
	n := p.open(fs.yield, field)
	p.tokLeaf(0)
	if p.isKw(kFrom) {
		p.tokLeaf(0)
		p.expr(0)
	} else if !p.atStmtEnd() && !p.isOp(oRParen) && !p.isOp(oRBracket) && !p.isOp(oRBrace) && !p.isOp(oAssign) {
		p.expressions(0)
	}
	p.close(n)
}

// ---- compound statements ----

// suite parses the body after a compound statement's ":": an indented
// block, or simple statements on the same line (both a block node).
func (p *fastParser) suite(field uint8) {
	if p.tok.kind != tNewline {
		b := p.open(fs.block, field)
		p.simpleStatements()
		p.close(b)
		return
	}
	p.next()
	if p.tok.kind == tEOF || p.tok.indent <= p.curIndent() {
		bail()
	}
	p.indents = append(p.indents, p.tok.indent)
	b := p.open(fs.block, field)
	p.statements()
	ind := p.curIndent()
	p.indents = p.indents[:len(p.indents)-1]
	if p.tok.kind != tEOF && p.tok.indent > p.curIndent() && p.tok.indent < ind {
		bail() // a dedent to no enclosing level
	}
	p.flushDedent(ind)
	p.close(b)
}

// clauseHere reports whether the current token starts a continuation
// clause (elif, else, except, finally) of a statement at this indentation.
func (p *fastParser) clauseHere(kw int) bool {
	return p.isKw(kw) && p.tok.lineStart && p.tok.indent == p.curIndent()
}

func (p *fastParser) ifStatement() {
	n := p.open(fs.ifStmt, 0)
	p.tokLeaf(0)
	p.expr(fs.fCondition)
	p.expectOp(oColon, 0)
	p.suite(fs.fConsequence)
	for p.clauseHere(kElif) {
		c := p.open(fs.elifClause, fs.fAlternative)
		p.tokLeaf(0)
		p.expr(fs.fCondition)
		p.expectOp(oColon, 0)
		p.suite(fs.fConsequence)
		p.close(c)
	}
	p.elseClause(fs.fAlternative)
	p.close(n)
}

func (p *fastParser) elseClause(field uint8) {
	if !p.clauseHere(kElse) {
		return
	}
	c := p.open(fs.elseClause, field)
	p.tokLeaf(0)
	p.expectOp(oColon, 0)
	p.suite(fs.fBody)
	p.close(c)
}

func (p *fastParser) asyncStatement(field uint8) {
	start := p.tok.start
	p.next()
	switch {
	case p.isKw(kDef):
		p.funcDef(field, start)
	case p.isKw(kFor) && field == 0:
		p.forStatement(start)
	case p.isKw(kWith) && field == 0:
		p.withStatement(start)
	default:
		bail()
	}
}

// asyncLeaf writes the "async" keyword read before the statement's node was
// opened (async < 0: none).
func (p *fastParser) asyncLeaf(async int) {
	if async >= 0 {
		p.leafAt(fs.anon[kAsync], false, 0, async, async+5)
	}
}

func (p *fastParser) openFrom(sym uint16, field uint8, async int) int {
	if async >= 0 {
		return p.openAt(sym, field, async)
	}
	return p.open(sym, field)
}

func (p *fastParser) forStatement(async int) {
	n := p.openFrom(fs.forStmt, 0, async)
	p.asyncLeaf(async)
	p.expectKw(kFor)
	p.targets(fs.fLeft)
	p.expectKw(kIn)
	p.expressions(fs.fRight)
	p.expectOp(oColon, 0)
	p.suite(fs.fBody)
	p.elseClause(fs.fAlternative)
	p.close(n)
}

func (p *fastParser) whileStatement() {
	n := p.open(fs.whileStmt, 0)
	p.tokLeaf(0)
	p.expr(fs.fCondition)
	p.expectOp(oColon, 0)
	p.suite(fs.fBody)
	p.elseClause(fs.fAlternative)
	p.close(n)
}

func (p *fastParser) tryStatement() {
	n := p.open(fs.tryStmt, 0)
	p.tokLeaf(0)
	p.expectOp(oColon, 0)
	p.suite(fs.fBody)
	handlers := 0
	for p.clauseHere(kExcept) {
		c := p.open(fs.exceptClause, 0)
		p.tokLeaf(0)
		if p.isOp(oStar) {
			bail()
		}
		if !p.isOp(oColon) {
			first := p.mark()
			p.expr(fs.fValue)
			if p.isKw(kAs) {
				p.asPattern(first)
			}
		}
		p.expectOp(oColon, 0)
		p.suite(0)
		p.close(c)
		handlers++
	}
	if handlers > 0 {
		p.elseClause(0)
	}
	if p.clauseHere(kFinally) {
		c := p.open(fs.finallyClause, 0)
		p.tokLeaf(0)
		p.expectOp(oColon, 0)
		p.suite(0)
		p.close(c)
	} else if handlers == 0 {
		bail()
	}
	p.close(n)
}

// asPattern wraps the expression at first, followed by "as", in an
// as_pattern.
func (p *fastParser) asPattern(first int) {
	a := p.wrap(first, fs.asPattern, 0)
	p.tokLeaf(0)
	t := p.open(fs.asTarget, fs.fAlias)
	p.expr(0)
	p.close(t)
	p.close(a)
}

func (p *fastParser) withStatement(async int) {
	n := p.openFrom(fs.withStmt, 0, async)
	p.asyncLeaf(async)
	p.expectKw(kWith)
	// "with (a, b as c):" is a with_clause in parentheses; "with (a):" and
	// "with (a, b) as c:" are expressions in parentheses.
	if p.isOp(oLParen) && p.try(p.withClauseInParens) {
		p.expectOp(oColon, 0)
		p.suite(fs.fBody)
		p.close(n)
		return
	}
	c := p.open(fs.withClause, 0)
	for {
		p.withItem()
		if !p.isOp(oComma) {
			break
		}
		p.tokLeaf(0)
	}
	p.close(c)
	p.expectOp(oColon, 0)
	p.suite(fs.fBody)
	p.close(n)
}

// withItem parses one item of a with clause: an expression, and "as" and
// its target.
func (p *fastParser) withItem() {
	it := p.open(fs.withItem, 0)
	first := p.mark()
	p.expr(fs.fValue)
	if p.isKw(kAs) {
		p.asPattern(first)
	}
	p.close(it)
}

func (p *fastParser) withClauseInParens() {
	c := p.open(fs.withClause, 0)
	p.tokLeaf(0)
	items := 0
	for !p.isOp(oRParen) {
		items++
		p.withItem()
		if !p.isOp(oComma) {
			break
		}
		p.tokLeaf(0)
	}
	p.expectOp(oRParen, 0)
	// one item, even with a trailing comma, is a parenthesized expression
	// or a tuple to tree-sitter
	if items < 2 || !p.isOp(oColon) {
		bail()
	}
	p.close(c)
}

func (p *fastParser) funcDef(field uint8, async int) {
	n := p.openFrom(fs.funcDef, field, async)
	p.asyncLeaf(async)
	p.expectKw(kDef)
	p.ident(fs.fName)
	if !p.isOp(oLParen) {
		bail()
	}
	ps := p.open(fs.params, fs.fParameters)
	p.tokLeaf(0)
	p.parameters(false)
	p.expectOp(oRParen, 0)
	p.close(ps)
	if p.isOp(oArrow) {
		p.tokLeaf(0)
		p.typ(fs.fReturnType)
		p.expectOp(oColon, 0)
		if c, _ := p.peekByte(); p.isIdent() && c == '[' {
			// "-> T: name[...]" on one line is a constrained_type
			// (and an error) to tree-sitter
			bail()
		}
	} else {
		p.expectOp(oColon, 0)
	}
	p.suite(fs.fBody)
	p.close(n)
}

// parameters parses a parameter list up to ")" (or ":" for a lambda).
func (p *fastParser) parameters(lambda bool) {
	for !p.isOp(oRParen) && !(lambda && p.isOp(oColon)) {
		first := p.mark()
		switch {
		case p.isOp(oStar) || p.isOp(oPow):
			c, _ := p.peekByte()
			if p.isOp(oStar) && (c == ',' || c == ')' || c == ':' && lambda) {
				w := p.open(fs.kwSep, 0)
				p.tokLeaf(0)
				p.close(w)
				break
			}
			sym := fs.listSplatPattern
			if p.isOp(oPow) {
				sym = fs.dictSplatPattern
			}
			s := p.open(sym, 0)
			p.tokLeaf(0)
			p.ident(0)
			p.close(s)
			if !lambda && p.isOp(oColon) {
				p.wrap(first, fs.typedParam, 0)
				p.tokLeaf(0)
				p.typ(fs.fType)
				p.close(first)
			}
		case p.isOp(oSlash):
			w := p.open(fs.posSep, 0)
			p.tokLeaf(0)
			p.close(w)
		default:
			p.ident(0)
			switch {
			case !lambda && p.isOp(oColon):
				p.wrap(first, fs.typedParam, 0)
				p.tokLeaf(0)
				p.typ(fs.fType)
				if p.isOp(oAssign) {
					p.nodes[first].symbol = fs.typedDefaultParam
					p.nodes[first+1].field = fs.fName
					p.tokLeaf(0)
					p.expr(fs.fValue)
				}
				p.close(first)
			case p.isOp(oAssign):
				p.wrap(first, fs.defaultParam, fs.fName)
				p.tokLeaf(0)
				p.expr(fs.fValue)
				p.close(first)
			}
		}
		if !p.isOp(oComma) {
			return
		}
		p.tokLeaf(0)
	}
}

func (p *fastParser) classDef(field uint8) {
	n := p.open(fs.classDef, field)
	p.tokLeaf(0)
	p.ident(fs.fName)
	if p.isOp(oLBracket) {
		bail()
	}
	if p.isOp(oLParen) {
		p.argumentList(fs.fSuperclasses, false)
	}
	p.expectOp(oColon, 0)
	p.suite(fs.fBody)
	p.close(n)
}

func (p *fastParser) decorated() {
	n := p.open(fs.decorated, 0)
	ind := p.curIndent()
	for p.isOp(oAt) {
		d := p.open(fs.decorator, 0)
		p.tokLeaf(0)
		p.expr(0)
		p.endLine()
		p.close(d)
		if p.tok.kind == tEOF || p.tok.indent != ind {
			bail()
		}
		for _, e := range p.pending {
			if e.indent < ind {
				bail() // tree-sitter's scanner reads a dedent there
			}
		}
	}
	switch {
	case p.isKw(kDef):
		p.funcDef(fs.fDefinition, -1)
	case p.isKw(kClass):
		p.classDef(fs.fDefinition)
	case p.isKw(kAsync):
		p.asyncStatement(fs.fDefinition)
	default:
		bail()
	}
	p.close(n)
}

// ---- match statements ----

func (p *fastParser) isWord(w string) bool {
	return p.tok.kind == tName && p.tok.id == 0 && string(p.src[p.tok.start:p.tok.end]) == w
}

func (p *fastParser) matchStatement() {
	n := p.open(fs.matchStmt, 0)
	p.leafAt(fs.anon[kMatch], false, 0, p.tok.start, p.tok.end)
	p.next()
	for {
		if p.isOp(oStar) || p.isKw(kYield) {
			bail()
		}
		p.expr(fs.fSubject)
		if !p.isOp(oComma) {
			break
		}
		p.tokLeaf(0)
		if p.isOp(oColon) {
			break
		}
	}
	p.expectOp(oColon, 0)
	if p.tok.kind != tNewline {
		bail()
	}
	// The block of a match statement starts with its INDENT (at the end
	// of the header line): comments on the header line are the
	// statement's, those below the block's.
	p.flush()
	at := p.lastEnd
	p.next()
	if p.tok.kind == tEOF || p.tok.indent <= p.curIndent() {
		bail()
	}
	ind := p.tok.indent
	p.indents = append(p.indents, ind)
	b := len(p.nodes)
	p.push(fs.block, fs.fBody, at, at, p.top())
	p.stack = append(p.stack, int32(b))
	for p.tok.kind != tEOF && p.tok.indent >= ind {
		if p.tok.indent != ind || !p.tok.lineStart || !p.isWord("case") {
			bail()
		}
		p.caseClause()
	}
	p.indents = p.indents[:len(p.indents)-1]
	if p.tok.kind != tEOF && p.tok.indent > p.curIndent() {
		bail()
	}
	p.flushDedent(ind)
	p.close(b)
	p.close(n)
}

func (p *fastParser) caseClause() {
	c := p.open(fs.caseClause, fs.fAlternative)
	p.leafAt(fs.anon[kCase], false, 0, p.tok.start, p.tok.end)
	p.next()
	for {
		p.casePattern()
		if !p.isOp(oComma) {
			break
		}
		p.tokLeaf(0)
		if p.isOp(oColon) || p.isKw(kIf) {
			break
		}
	}
	if p.isKw(kIf) {
		g := p.open(fs.ifClause, fs.fGuard)
		p.tokLeaf(0)
		p.orExpr(0)
		p.close(g)
	}
	p.expectOp(oColon, 0)
	p.suite(fs.fConsequence)
	p.close(c)
}

// casePattern parses a case_pattern: a pattern, an alternation of them, or
// either with "as name".
func (p *fastParser) casePattern() {
	p.enter()
	defer p.leave()
	cp := p.open(fs.casePattern, 0)
	first := p.mark()
	p.unionPattern()
	if p.isKw(kAs) {
		p.wrap(first, fs.casePattern, 0)
		p.close(first)
		a := p.wrap(first, fs.asPattern, 0)
		p.tokLeaf(0)
		p.ident(0)
		p.close(a)
	}
	p.close(cp)
}

func (p *fastParser) unionPattern() {
	first := p.mark()
	p.simplePattern()
	if !p.isOp(oPipe) {
		return
	}
	u := p.wrap(first, fs.unionPattern, 0)
	for p.isOp(oPipe) {
		p.tokLeaf(0)
		p.simplePattern()
	}
	p.close(u)
}

func (p *fastParser) simplePattern() {
	t := p.tok
	switch {
	case p.isWord("_"):
		if c, _ := p.peekByte(); c == '(' || c == '.' {
			bail()
		}
		p.leafAt(fs.anon[kUnderscore], false, 0, t.start, t.end)
		p.next()
	case p.isIdent():
		first := p.mark()
		p.dottedName(0)
		if !p.isOp(oLParen) {
			return
		}
		cl := p.wrap(first, fs.classPattern, 0)
		p.tokLeaf(0)
		for !p.isOp(oRParen) {
			if c, i := p.peekByte(); p.isIdent() && c == '=' && i+1 < len(p.src) && p.src[i+1] != '=' {
				cp := p.open(fs.casePattern, 0)
				k := p.open(fs.keywordPattern, 0)
				p.ident(0)
				p.tokLeaf(0)
				p.simplePattern()
				p.close(k)
				p.close(cp)
			} else {
				p.casePattern()
			}
			if !p.isOp(oComma) {
				break
			}
			p.tokLeaf(0)
		}
		p.expectOp(oRParen, 0)
		p.close(cl)
	case t.kind == tString:
		p.strings(0)
	case p.isKw(kTrue):
		p.leafAt(fs.true_, true, 0, t.start, t.end)
		p.next()
	case p.isKw(kFalse):
		p.leafAt(fs.false_, true, 0, t.start, t.end)
		p.next()
	case p.isKw(kNone):
		p.leafAt(fs.none, true, 0, t.start, t.end)
		p.next()
	case p.isOp(oMinus) || t.kind == tInt || t.kind == tFloat:
		if p.isOp(oMinus) {
			p.tokLeaf(0)
		}
		switch p.tok.kind {
		case tInt:
			p.leafAt(fs.integer, true, 0, p.tok.start, p.tok.end)
		case tFloat:
			p.leafAt(fs.float, true, 0, p.tok.start, p.tok.end)
		default:
			bail()
		}
		p.next()
		if p.isOp(oPlus) || p.isOp(oMinus) {
			bail() // complex_pattern
		}
	case p.isOp(oLBracket) || p.isOp(oLParen):
		sym, closer := fs.listPattern, oRBracket
		if p.isOp(oLParen) {
			sym, closer = fs.tuplePattern, oRParen
		}
		l := p.open(sym, 0)
		p.tokLeaf(0)
		for !p.isOp(closer) {
			p.casePattern()
			if !p.isOp(oComma) {
				break
			}
			p.tokLeaf(0)
		}
		p.expectOp(closer, 0)
		p.close(l)
	case p.isOp(oStar):
		sp := p.open(fs.splatPattern, 0)
		p.tokLeaf(0)
		if p.isWord("_") {
			p.leafAt(fs.anon[kUnderscore], false, 0, p.tok.start, p.tok.end)
			p.next()
		} else {
			p.ident(0)
		}
		p.close(sp)
	default:
		bail()
	}
}

// isExtra reports whether node i is a comment or line continuation.
func (p *fastParser) isExtra(i int) bool {
	return p.nodes[i].symbol == fs.comment || p.nodes[i].symbol == fs.lineCont
}
