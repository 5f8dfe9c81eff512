package pyast

// Expressions of the fast path parser (see fastparse.go). Precedences are
// tree-sitter-python's (grammar.js PREC), not Python's where they differ
// (bitwise and binds looser than xor there, await looser than **).

const (
	precOr    = 10
	precAnd   = 11
	precNot   = 12
	precCmp   = 13
	precBor   = 14
	precBand  = 15
	precXor   = 16
	precShift = 17
	precPlus  = 18
	precTimes = 19
	precPower = 21
)

// binPrec returns the precedence of a binary operator token, or 0.
func binPrec(id uint8) int {
	switch id {
	case oPipe:
		return precBor
	case oAmp:
		return precBand
	case oCaret:
		return precXor
	case oLShift, oRShift:
		return precShift
	case oPlus, oMinus:
		return precPlus
	case oStar, oAt, oSlash, oPercent, oFloorDiv:
		return precTimes
	case oPow:
		return precPower
	}
	return 0
}

// expr parses an expression (tree-sitter's expression: lambda,
// conditional, named expression, boolean and comparison operators, ...).
func (p *fastParser) expr(field uint8) {
	p.enter()
	defer p.leave()
	if p.isKw(kLambda) {
		p.lambda(field)
		return
	}
	if p.isIdent() {
		if c, i := p.peekByte(); c == ':' && i+1 < len(p.src) && p.src[i+1] == '=' {
			n := p.open(fs.named, field)
			p.ident(fs.fName)
			p.tokLeaf(0)
			p.expr(fs.fValue)
			p.close(n)
			return
		}
	}
	first := p.mark()
	p.boolExpr(0, field)
	if p.isKw(kIf) {
		c := p.wrap(first, fs.cond, 0)
		p.tokLeaf(0)
		p.boolExpr(0, 0)
		p.expectKw(kElse)
		if p.isKw(kLambda) {
			bail()
		}
		p.expr(0)
		p.close(c)
	}
}

// orExpr parses an expression without a conditional or lambda at its top
// (Python's disjunction).
func (p *fastParser) orExpr(field uint8) {
	p.enter()
	defer p.leave()
	p.boolExpr(0, field)
	if p.isKw(kElse) {
		bail()
	}
}

// boolExpr parses not, and, or and what binds tighter, down to minPrec.
func (p *fastParser) boolExpr(minPrec int, field uint8) {
	first := p.mark()
	if p.isKw(kNot) {
		n := p.open(fs.notOp, field)
		p.tokLeaf(0)
		p.enter()
		p.boolExpr(precCmp, fs.fArgument)
		p.leave()
		p.close(n)
	} else {
		p.comparison(field)
	}
	for {
		var prec int
		switch {
		case p.isKw(kAnd):
			prec = precAnd
		case p.isKw(kOr):
			prec = precOr
		default:
			return
		}
		if prec < minPrec {
			return
		}
		n := p.wrap(first, fs.boolOp, fs.fLeft)
		p.tokLeaf(fs.fOperator)
		p.enter()
		p.boolExpr(prec+1, fs.fRight)
		p.leave()
		p.close(n)
	}
}

// cmpOp reports whether the current token starts a comparison operator.
func (p *fastParser) cmpOp() bool {
	switch p.tok.kind {
	case tOp:
		switch p.tok.id {
		case oLt, oGt, oLe, oGe, oEq, oNe:
			return true
		}
	case tName:
		switch p.tok.id {
		case kIn, kIs:
			return true
		case kNot:
			// "not in"
			i := p.tok.end
			for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t' || p.src[i] == '\f') {
				i++
			}
			return i+2 <= len(p.src) && p.src[i] == 'i' && p.src[i+1] == 'n' && (i+2 == len(p.src) || !isIdentByte(p.src[i+2]) && p.src[i+2] < 0x80)
		}
	}
	return false
}

func (p *fastParser) comparison(field uint8) {
	first := p.mark()
	p.binary(precBor, field)
	if !p.cmpOp() {
		return
	}
	n := p.wrap(first, fs.cmpOp, 0)
	for p.cmpOp() {
		switch {
		case p.isKw(kNot):
			o := p.open(fs.notIn, fs.fOperators)
			p.nodes[o].flags = 0
			p.tokLeaf(0)
			p.expectKw(kIn)
			p.close(o)
		case p.isKw(kIs):
			c, i := p.peekByte()
			if c == 'n' && i+3 <= len(p.src) && string(p.src[i:i+3]) == "not" && (i+3 == len(p.src) || !isIdentByte(p.src[i+3]) && p.src[i+3] < 0x80) {
				o := p.open(fs.isNot, fs.fOperators)
				p.nodes[o].flags = 0
				p.tokLeaf(0)
				p.expectKw(kNot)
				p.close(o)
			} else {
				p.tokLeaf(fs.fOperators)
			}
		default:
			p.tokLeaf(fs.fOperators)
		}
		p.binary(precBor, 0)
	}
	p.close(n)
}

// binary parses a primary expression with binary operators of at least
// minPrec (tree-sitter's binary_operator operands are primary expressions).
func (p *fastParser) binary(minPrec int, field uint8) {
	p.enter()
	defer p.leave()
	first := p.mark()
	p.unary(field)
	for p.tok.kind == tOp {
		prec := binPrec(p.tok.id)
		if prec == 0 || prec < minPrec {
			return
		}
		n := p.wrap(first, fs.binOp, fs.fLeft)
		p.tokLeaf(fs.fOperator)
		if prec == precPower {
			p.binary(prec, fs.fRight)
		} else {
			p.binary(prec+1, fs.fRight)
		}
		p.close(n)
	}
}

func (p *fastParser) unary(field uint8) {
	switch {
	case p.isOp(oMinus) || p.isOp(oPlus) || p.isOp(oTilde):
		n := p.open(fs.unOp, field)
		p.tokLeaf(fs.fOperator)
		p.binary(precPower, fs.fArgument)
		p.close(n)
	case p.isKw(kAwait):
		n := p.open(fs.await, field)
		p.tokLeaf(0)
		p.binary(precPower, 0)
		p.close(n)
	default:
		p.postfix(field)
	}
}

// postfix parses an atom and its attribute, call and subscript suffixes.
func (p *fastParser) postfix(field uint8) {
	first := p.mark()
	p.atom(field)
	for p.tok.kind == tOp {
		switch p.tok.id {
		case oDot:
			n := p.wrap(first, fs.attribute, fs.fObject)
			p.tokLeaf(0)
			p.ident(fs.fAttribute)
			p.close(n)
		case oLParen:
			n := p.wrap(first, fs.call, fs.fFunction)
			p.argumentList(fs.fArguments, true)
			p.close(n)
		case oLBracket:
			n := p.wrap(first, fs.subscript, fs.fValue)
			p.tokLeaf(0)
			for {
				p.subscriptElem()
				if !p.isOp(oComma) {
					break
				}
				p.tokLeaf(0)
				if p.isOp(oRBracket) {
					break
				}
			}
			p.expectOp(oRBracket, 0)
			p.close(n)
		default:
			return
		}
	}
}

func (p *fastParser) subscriptElem() {
	first := p.mark()
	if p.isOp(oStar) {
		bail()
	}
	if !p.isOp(oColon) {
		p.expr(fs.fSubscript)
		if !p.isOp(oColon) {
			return
		}
		p.wrap(first, fs.slice, 0)
	} else {
		p.open(fs.slice, fs.fSubscript)
	}
	p.tokLeaf(0)
	if !p.isOp(oColon) && !p.isOp(oComma) && !p.isOp(oRBracket) {
		p.expr(0)
	}
	if p.isOp(oColon) {
		p.tokLeaf(0)
		if !p.isOp(oComma) && !p.isOp(oRBracket) {
			p.expr(0)
		}
	}
	p.close(first)
}

// argumentList parses "(...)" of a call or a class's superclasses; a call
// of a lone generator expression takes the generator as its arguments.
func (p *fastParser) argumentList(field uint8, call bool) {
	n := p.open(fs.argList, field)
	p.tokLeaf(0)
	count := 0
	for !p.isOp(oRParen) {
		first := p.mark()
		switch {
		case p.isOp(oStar):
			p.starredIn(0, true)
		case p.isOp(oPow):
			s := p.open(fs.dictSplat, 0)
			p.tokLeaf(0)
			p.expr(0)
			p.close(s)
		case p.isIdent() && p.peekAssign():
			k := p.open(fs.kwArg, 0)
			p.ident(fs.fName)
			p.tokLeaf(0)
			p.expr(fs.fValue)
			p.close(k)
		default:
			p.expr(0)
			if count == 0 && call && (p.isKw(kFor) || p.isKw(kAsync)) {
				p.nodes[n].symbol = fs.genExpr
				p.nodes[first].field = fs.fBody
				p.comprehension()
				p.expectOp(oRParen, 0)
				p.close(n)
				return
			}
		}
		count++
		if !p.isOp(oComma) {
			break
		}
		p.tokLeaf(0)
	}
	p.expectOp(oRParen, 0)
	p.close(n)
}

// starred parses "*expression" (a list_splat).
//
// tree-sitter reads "*name" as a primary expression of its own, so that
// "*name.attr", "*name(...)" and "*name[...]" apply the suffix to the
// splat: not reproduced.
// It is reproduced in the arguments of a call, where tree-sitter keeps
// "*name.attr" whole (except in a statement print(...), which it also reads
// as a print statement with a tuple).
func (p *fastParser) starred(field uint8) { p.starredIn(field, false) }

// identAfterStar reports whether a plain identifier (not a keyword) follows
// the current "*" token.
func (p *fastParser) identAfterStar() bool {
	i := p.tok.end
	j := i
	for j < len(p.src) && isIdentByte(p.src[j]) {
		j++
	}
	if j == i || isDigit(p.src[i]) {
		return false
	}
	kw, ok := fpKeywords[string(p.src[i:j])]
	return !ok || kw >= kPrint
}

func (p *fastParser) starredIn(field uint8, args bool) {
	s := p.open(fs.listSplat, field)
	p.tokLeaf(0)
	if p.isIdent() {
		if args && !p.inPrint {
			p.postfix(0)
		} else {
			if c, _ := p.peekByte(); c == '.' || c == '(' || c == '[' || c == 0 {
				bail()
			}
			p.ident(0)
		}
		// "*name" followed by an operator is that operator's operand
		switch {
		case p.tok.kind == tNewline || p.tok.kind == tEOF || p.isKw(kIn):
		case p.tok.kind == tOp && (p.tok.id == oComma || p.tok.id == oRParen || p.tok.id == oRBracket ||
			p.tok.id == oRBrace || p.tok.id == oAssign || p.tok.id == oSemi):
		default:
			bail()
		}
	} else {
		if p.tok.kind == tString && p.depth == 0 && p.src[p.tok.start] != '"' && p.src[p.tok.start] != '\'' {
			// "*b''" outside brackets: tree-sitter reads no string
			// there (FuzzFastParse 4f311a39cb7c7164)
			bail()
		}
		k := p.mark()
		p.binary(precBor, 0)
		if !args || p.inPrint {
			// "*x.a", "*x[i]" (and so "*x.a()") are list_splat_pattern
			// primaries too, which the suffix or operator after them
			// may apply to: not reproduced
			switch p.nodes[k].symbol {
			case fs.attribute, fs.subscript, fs.call, fs.binOp:
				bail()
			}
		}
	}
	p.close(s)
}

// comprehension parses the for and if clauses of a comprehension.
func (p *fastParser) comprehension() {
	if !p.isKw(kFor) && !p.isKw(kAsync) {
		bail()
	}
	for {
		switch {
		case p.isKw(kFor) || p.isKw(kAsync):
			c := p.open(fs.forIn, 0)
			if p.isKw(kAsync) {
				p.tokLeaf(0)
			}
			p.expectKw(kFor)
			p.targets(fs.fLeft)
			p.expectKw(kIn)
			p.orExpr(fs.fRight)
			if p.isOp(oComma) {
				bail()
			}
			p.close(c)
		case p.isKw(kIf):
			c := p.open(fs.ifClause, 0)
			p.tokLeaf(0)
			p.orExpr(0)
			p.close(c)
		default:
			return
		}
	}
}

// targets parses the targets of a for (a pattern or a pattern_list).
func (p *fastParser) targets(field uint8) {
	first := p.mark()
	count, trailing := 0, false
	for {
		if p.isOp(oStar) {
			p.starred(0)
		} else {
			p.binary(precBor, 0)
		}
		count++
		if !p.isOp(oComma) {
			break
		}
		p.tokLeaf(0)
		if p.isKw(kIn) {
			trailing = true
			break
		}
	}
	if count > 1 || trailing {
		p.wrapRange(first, fs.patternList, field)
		for c := first + 1; c < len(p.nodes); c += int(p.nodes[c].size) {
			if p.nodes[c].flags&flagNamed != 0 && !p.isExtra(c) {
				p.toPattern(c)
			}
		}
		p.close(first)
		return
	}
	p.toPattern(first)
	p.nodes[first].field = field
}

func (p *fastParser) lambda(field uint8) {
	n := p.open(fs.lambda, field)
	p.tokLeaf(0)
	if !p.isOp(oColon) {
		lp := p.open(fs.lambdaParams, fs.fParameters)
		p.parameters(true)
		p.close(lp)
	}
	p.expectOp(oColon, 0)
	p.expr(fs.fBody)
	p.close(n)
}

func (p *fastParser) atom(field uint8) {
	t := p.tok
	switch t.kind {
	case tName:
		switch t.id {
		case 0, kPrint, kExec, kType, kMatch, kFuture:
			p.leafAt(fs.identifier, true, field, t.start, t.end)
		case kTrue:
			p.leafAt(fs.true_, true, field, t.start, t.end)
		case kFalse:
			p.leafAt(fs.false_, true, field, t.start, t.end)
		case kNone:
			p.leafAt(fs.none, true, field, t.start, t.end)
		default:
			bail()
		}
		p.next()
	case tInt:
		p.leafAt(fs.integer, true, field, t.start, t.end)
		p.next()
	case tFloat:
		p.leafAt(fs.float, true, field, t.start, t.end)
		p.next()
	case tString:
		p.strings(field)
	case tOp:
		switch t.id {
		case oEllipsis:
			p.leafAt(fs.ellipsis, true, field, t.start, t.end)
			p.next()
		case oLParen:
			p.parens(field)
		case oLBracket:
			p.brackets(field)
		case oLBrace:
			p.braces(field)
		default:
			bail()
		}
	default:
		bail()
	}
}

// parens parses a tuple, a parenthesized expression or a generator
// expression.
func (p *fastParser) parens(field uint8) {
	n := p.open(fs.tuple, field)
	p.tokLeaf(0)
	if p.isOp(oRParen) {
		p.tokLeaf(0)
		p.close(n)
		return
	}
	if p.isKw(kYield) {
		p.yieldExpr(0)
		p.nodes[n].symbol = fs.paren
		p.expectOp(oRParen, 0)
		p.close(n)
		return
	}
	if star, alone := p.elements(n, fs.genExpr, oRParen); alone {
		if star {
			bail()
		}
		p.nodes[n].symbol = fs.paren
	}
	p.expectOp(oRParen, 0)
	p.close(n)
}

// elements parses the elements of the bracketed node n from its first: a
// comprehension (n becomes comp) or the comma-separated elements up to
// closer. It reports whether the first element is starred, and whether it
// stands alone (no comma, no comprehension).
func (p *fastParser) elements(n int, comp uint16, closer int) (star, alone bool) {
	first := p.mark()
	star = p.isOp(oStar)
	if star {
		p.starred(0)
	} else {
		p.expr(0)
	}
	switch {
	case !star && (p.isKw(kFor) || p.isKw(kAsync)):
		p.nodes[n].symbol = comp
		p.nodes[first].field = fs.fBody
		p.comprehension()
	case p.isOp(oComma):
		p.tokLeaf(0)
		p.collection(closer)
	default:
		alone = true
	}
	return star, alone
}

// collection parses the remaining comma-separated elements (expressions
// and starred ones) up to the closing token.
func (p *fastParser) collection(closer int) {
	for !p.isOp(closer) {
		if p.isOp(oStar) {
			p.starred(0)
		} else {
			p.expr(0)
		}
		if !p.isOp(oComma) {
			return
		}
		p.tokLeaf(0)
	}
}

func (p *fastParser) brackets(field uint8) {
	n := p.open(fs.list, field)
	p.tokLeaf(0)
	if !p.isOp(oRBracket) {
		p.elements(n, fs.listComp, oRBracket)
	}
	p.expectOp(oRBracket, 0)
	p.close(n)
}

func (p *fastParser) braces(field uint8) {
	n := p.open(fs.dict, field)
	p.tokLeaf(0)
	if p.isOp(oRBrace) {
		p.tokLeaf(0)
		p.close(n)
		return
	}
	first := p.mark()
	switch {
	case p.isOp(oPow):
		p.dictElems()
	case p.isOp(oStar):
		p.nodes[n].symbol = fs.set
		p.collection(oRBrace)
	default:
		p.expr(0)
		if p.isOp(oColon) {
			pr := p.wrap(first, fs.pair, fs.fKey)
			p.tokLeaf(0)
			p.expr(fs.fValue)
			p.close(pr)
			if p.isKw(kFor) || p.isKw(kAsync) {
				p.nodes[n].symbol = fs.dictComp
				p.nodes[first].field = fs.fBody
				p.comprehension()
			} else if p.isOp(oComma) {
				p.tokLeaf(0)
				p.dictElems()
			}
		} else {
			p.nodes[n].symbol = fs.set
			if p.isKw(kFor) || p.isKw(kAsync) {
				p.nodes[n].symbol = fs.setComp
				p.nodes[first].field = fs.fBody
				p.comprehension()
			} else if p.isOp(oComma) {
				p.tokLeaf(0)
				p.collection(oRBrace)
			}
		}
	}
	p.expectOp(oRBrace, 0)
	p.close(n)
}

// dictElems parses the remaining pairs and "**" splats of a dictionary.
func (p *fastParser) dictElems() {
	for !p.isOp(oRBrace) {
		if p.isOp(oPow) {
			s := p.open(fs.dictSplat, 0)
			p.tokLeaf(0)
			p.expr(0)
			p.close(s)
		} else {
			first := p.mark()
			p.expr(fs.fKey)
			pr := p.wrap(first, fs.pair, fs.fKey)
			p.nodes[first+1].field = fs.fKey
			p.nodes[first].field = 0
			p.expectOp(oColon, 0)
			p.expr(fs.fValue)
			p.close(pr)
		}
		if !p.isOp(oComma) {
			return
		}
		p.tokLeaf(0)
	}
}

// typ parses a type annotation: tree-sitter reads "Name[...]" as a
// generic_type, "Name[...] | T" as a union_type and anything else as an
// expression inside the type node.
func (p *fastParser) typ(field uint8) {
	p.enter()
	defer p.leave()
	t := p.open(fs.typ, field)
	if p.isOp(oStar) || p.isOp(oPow) || p.isKw(kLambda) {
		bail()
	}
	if c, _ := p.peekByte(); p.isIdent() && c == '[' {
		// "G | H | ..." with generics G, H is a left-nested union_type;
		// once an operand is no generic, the rest is one expression.
		g := p.genericType()
		for p.isOp(oPipe) {
			p.wrap(g, fs.typ, 0)
			p.close(g)
			u := p.wrap(g, fs.unionType, 0)
			p.tokLeaf(0)
			r := p.open(fs.typ, 0)
			generic := false
			if c, _ := p.peekByte(); p.isIdent() && c == '[' {
				p.genericType()
				generic = true
			} else {
				p.binary(precBor, 0)
			}
			p.close(r)
			p.close(u)
			if !generic {
				break
			}
		}
		if p.tok.kind == tOp && (binPrec(p.tok.id) != 0 || p.tok.id == oDot || p.tok.id == oLBracket || p.tok.id == oLParen) || p.cmpOp() || p.isKw(kIf) || p.isKw(kAnd) || p.isKw(kOr) {
			bail()
		}
	} else {
		p.expr(0)
	}
	p.close(t)
}

// genericType parses Name[type, ...] and returns its index.
func (p *fastParser) genericType() int {
	g := p.open(fs.genericType, 0)
	p.ident(0)
	tp := p.open(fs.typeParam, 0)
	p.tokLeaf(0)
	for {
		p.typ(0)
		if !p.isOp(oComma) {
			break
		}
		p.tokLeaf(0)
		if p.isOp(oRBracket) {
			break
		}
	}
	p.expectOp(oRBracket, 0)
	p.close(tp)
	p.close(g)
	return g
}

// ---- strings ----

// strings parses a string, or a concatenated_string of adjacent ones.
func (p *fastParser) strings(field uint8) {
	first := p.mark()
	p.str(field)
	if p.tok.kind != tString {
		return
	}
	c := p.wrap(first, fs.concat, 0)
	for p.tok.kind == tString {
		p.str(0)
	}
	p.close(c)
}

// str parses one string literal from its start token, the way
// tree-sitter-python's external scanner splits it.
func (p *fastParser) str(field uint8) {
	t := p.tok
	fl := t.id
	src := p.src
	n := p.open(fs.str, field)
	p.leafAt(fs.strStart, true, 0, t.start, t.end)
	q := byte('\'')
	if fl&sfDouble != 0 {
		q = '"'
	}
	triple := fl&sfTriple != 0
	content := -1 // the open string_content node
	openContent := func(at int) {
		if content < 0 {
			content = p.openAt(fs.strContent, 0, at)
		}
	}
	closeContent := func(at int) {
		if content >= 0 {
			p.closeAtAny(content, at)
			content = -1
		}
	}
	// The scanner reads the content in pieces (a piece ends at an escape
	// sequence, an interpolation or the closing quotes) and a piece that
	// read no ordinary character (only raw-string backslash pairs) is not
	// content: it joins the string_end.
	i := t.end
	piece, has := i, false
	for {
		if i >= len(src) {
			bail()
		}
		c := src[i]
		switch {
		case c == q:
			if triple && !(i+2 < len(src) && src[i+1] == q && src[i+2] == q) {
				openContent(piece)
				i++
				if i < len(src) && src[i] == q {
					i++
				}
				piece, has = i, false
				continue
			}
			e := i + 1
			if triple {
				e = i + 3
			}
			endStart := i
			if has {
				openContent(piece)
				closeContent(i)
			} else {
				closeContent(piece)
				endStart = piece
			}
			p.leafAt(fs.strEnd, true, 0, endStart, e)
			p.pos = e
			p.atLine = false
			p.next()
			p.close(n)
			return
		case c == '\\':
			if fl&sfRaw != 0 {
				i++
				if i < len(src) && (src[i] == q || src[i] == '\\') {
					i++
				} else if i < len(src) && fl&sfFormat != 0 && (src[i] == '{' || src[i] == '}') {
					bail()
				}
				if i < len(src) && src[i] == '\r' {
					i++
					if i < len(src) && src[i] == '\n' {
						i++
					}
				} else if i < len(src) && src[i] == '\n' {
					i++
				}
				continue
			}
			if fl&sfBytes != 0 && i+1 < len(src) && (src[i+1] == 'N' || src[i+1] == 'u' || src[i+1] == 'U') {
				// the scanner steps over the character after these too,
				// even a closing quote: not reproduced
				bail()
			}
			if !has && piece < i {
				bail()
			}
			openContent(piece)
			if l := escapeLen(src, i); l > 0 {
				p.leafAt(fs.escSeq, true, 0, i, i+l)
				i += l
			} else {
				// a backslash that starts no escape sequence: an
				// anonymous "\\" node
				p.leafAt(fs.backslash, false, 0, i, i+1)
				i++
			}
			piece, has = i, false
		case fl&sfFormat != 0 && (c == '{' || c == '}'):
			if !has && piece < i {
				bail()
			}
			if i+1 < len(src) && src[i+1] == c {
				openContent(piece)
				p.leafAt(fs.escInterp, true, 0, i, i+2)
				i += 2
				piece, has = i, false
				continue
			}
			if c == '}' {
				bail()
			}
			if has {
				openContent(piece)
			}
			closeContent(i)
			i = p.interpolation(i, fs.interp)
			piece, has = i, false
		case c == '\n' && !triple:
			bail()
		case c == 0:
			bail()
		default:
			i++
			has = true
		}
	}
}

// closeAtAny ends node i at end whatever its children (a string_content
// may have none).
func (p *fastParser) closeAtAny(i, end int) {
	if p.top() != i {
		bail()
	}
	p.stack = p.stack[:len(p.stack)-1]
	n := &p.nodes[i]
	n.size = uint32(len(p.nodes) - i)
	n.end = uint32(end)
	if len(p.nodes) == i+1 && p.lastEnd == int(n.start) {
		// no child: the node is the whole tree's last
		p.lastEnd = end
	}
}

// escapeLen returns the length of the escape_sequence at src[i] ("\\"), or
// 0 when tree-sitter reads the backslash alone.
func escapeLen(src []byte, i int) int {
	if i+1 >= len(src) {
		return 0
	}
	hex := func(k int) int {
		if i+2+k > len(src) {
			return 0
		}
		for j := i + 2; j < i+2+k; j++ {
			if !isHex(src[j]) {
				return 0
			}
		}
		return 2 + k
	}
	switch c := src[i+1]; c {
	case 'u':
		return hex(4)
	case 'U':
		return hex(8)
	case 'x':
		return hex(2)
	case '\n', '"', '\'', 'a', 'b', 'f', 'r', 'n', 't', 'v', '\\':
		return 2
	case '\r':
		if i+2 < len(src) && src[i+2] == '\n' {
			return 3
		}
		return 0
	case 'N':
		if i+2 < len(src) && src[i+2] == '{' {
			j := i + 3
			for j < len(src) && src[j] != '}' {
				j++
			}
			if j < len(src) && j > i+3 {
				return j + 1 - i
			}
		}
		return 0
	default:
		if isDigit(c) {
			l := 2
			for l < 4 && i+l < len(src) && isDigit(src[i+l]) {
				l++
			}
			return l
		}
	}
	return 0
}

// interpolation parses "{expression[=][!c][:spec]}" of an f-string at
// src[i] == '{' and returns the offset after its "}".
func (p *fastParser) interpolation(i int, sym uint16) int {
	p.enter()
	defer p.leave()
	src := p.src
	n := p.openAt(sym, 0, i)
	p.leafAt(fs.anon[oLBrace], false, 0, i, i+1)
	p.interp++
	p.depth++
	p.pos = i + 1
	p.atLine = false
	p.next()
	if p.isKw(kYield) || p.isOp(oStar) {
		bail()
	}
	p.expr(fs.fExpression)
	if p.isOp(oAssign) {
		p.tokLeaf(0)
	}
	if p.isOp(oBang) {
		e := p.tok.end
		if e+1 >= len(src) || src[e] < 'a' || src[e] > 'z' {
			bail()
		}
		p.leafAt(fs.typeConv, true, fs.fTypeConversion, p.tok.start, e+1)
		p.pos = e + 1
		p.next()
	}
	var end int
	switch {
	case p.isOp(oColon):
		spec := p.open(fs.fmtSpec, fs.fFormatSpecifier)
		p.leafAt(fs.anon[oColon], false, 0, p.tok.start, p.tok.end)
		j := p.tok.end
		for {
			if j >= len(src) {
				bail()
			}
			c := src[j]
			if c == '}' {
				break
			}
			if c == '{' {
				if j+1 < len(src) && src[j+1] == '{' {
					bail()
				}
				j = p.interpolation(j, fs.fmtExpr)
				continue
			}
			if c == '\n' || c == '\r' || c == '\\' || c == '"' || c == '\'' || c == 0 {
				bail()
			}
			j++
		}
		p.closeAtAny(spec, j)
		p.leafAt(fs.anon[oRBrace], false, 0, j, j+1)
		p.depth--
		end = j + 1
	case p.isOp(oRBrace):
		p.leafAt(fs.anon[oRBrace], false, 0, p.tok.start, p.tok.end)
		end = p.tok.end
	default:
		bail()
	}
	p.interp--
	p.closeAtAny(n, end)
	return end
}
