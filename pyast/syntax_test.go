package pyast

import (
	"regexp"
	"strings"
	"testing"
)

// Valid Python that tree-sitter-python v0.25.0 refuses or misreads, or that
// needs a newer Python than the machine has (3.14, from PEP 758 and PEP
// 750): no syntax error, and the analysis still sees what is in it.
func TestSyntaxValid(t *testing.T) {
	for _, c := range []struct {
		src  string
		sees string // a node kind the tree must hold (the analysis reads it)
	}{
		// A starred operand starting with a bracket or a string in a tuple
		// without parentheses (recover.go).
		{"b = 1, *[a]\n", "list_splat"},
		{"async def f(x):\n    yield None, history, *[await skip() for _ in x]\n", "await"},
		{"async def f():\n    return 1, *(await g()), *{h}\n", "await"},
		{"x += 1, *'ab'\n", "list_splat"},
		{"for x in 1, *[a] + b:\n    pass\n", "binary_operator"},
		{"a = b = *[c], d\n", "list_splat"},
		// A line inside brackets indented less than its block (tree-sitter's
		// scanner dedents there).
		{"class A:\n    def f(self):\n        return (bar.\n    baz(await_me))\n", "call"},
		{"def f():\n    if x:\n        y = [a +\nb]\n", "binary_operator"},
		{"def f():\n    if x:\n        y = [a +\nb, \\\r\nc]\n", "binary_operator"}, // a continuation stays one
		// async and await as attribute names (Python 3.6).
		{"t = asyncio.async(f)\n", "attribute"},
		// PEP 758 (3.14): except without parentheses.
		{"async def f():\n    try:\n        await g()\n    except ValueError, TypeError:\n        pass\n", "tuple"},
		{"try:\n    pass\nexcept* A, B:\n    pass\n", "tuple"},
		// PEP 750 (3.14): template strings.
		{"x = t\"{a!r:>{w}} {b=}\"\n", "interpolation"},
		{"x = t'a' rt'{b}' T\"\"\"{c}\"\"\"\n", "concatenated_string"},
		// Python 3 forms that look like Python 2.
		{"print >> sys.stderr, 'message'\n", "chevron"},
		{"x = 0 + 00 + 0_0 + 0777j + 09.5 + 0x_ff\n", "integer"},
		{"# comment\n\n\"\"\"doc\"\"\"\n# more\nfrom __future__ import annotations, division as d\nfrom __future__ import generator_stop\n", "future_import_statement"},
		// Encodings (PEP 263).
		{"# -*- coding: latin-1 -*-\nx = '\xe9'\n", "string"},
		{"#!/usr/bin/env python\n# vim: set fileencoding=koi8-r :\nx = '\xc1'\n", "string"},
		{"\ufeff# coding: utf-8\nx = 1\n", "integer"},
	} {
		m, err := Parse("f.py", "", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if errs := m.SyntaxErrors(); len(errs) > 0 {
			t.Errorf("%q: %s at line %d, want none", c.src, errs[0].Msg, m.Pos(errs[0].Offset).Line)
		}
		if m.HasErrors() {
			t.Errorf("%q: HasErrors", c.src)
		}
		found := false
		Walk(m.Root, func(n *Node) bool {
			found = found || n.Kind() == c.sees
			return !found
		})
		if !found {
			t.Errorf("%q: no %s node in the tree", c.src, c.sees)
		}
	}
}

// Real syntax errors, each on the line CPython names.
func TestSyntaxInvalid(t *testing.T) {
	for _, c := range []struct {
		src  string
		line int
	}{
		{"x = 1\nb = *[a]\n", 2},                             // a starred operand outside a tuple
		{"x = 1\nb = 1, *[a] if c else d\n", 2},              // the operand of * is an | expression at most
		{"x = 1\nb = 1, *[a] < c\n", 2},                      //
		{"def f():\n    x = 1\n    (bar.  # c\nbaz(\n", 3},   // an unclosed bracket stays one
		{"try:\n    pass\nexcept A, B as e:\n    pass\n", 3}, // PEP 758: not with "as"
		{"x = 1\ny = f'{a}' t'{b}'\n", 2},                    // PEP 750: no mixing
		{"x = 1\ny = tb'a'\n", 2},                            //
		{"x = 1\nprint x\n", 2},                              // Python 2
		{"x = 1\nexec 'code' in ns\n", 2},                    //
		{"x = 1\nif a <> b:\n    pass\n", 2},                 //
		{"x = 1\ny = 0777\n", 2},                             //
		{"x = 1\ny = 0_7\n", 2},                              //
		{"x = 1\ny = 12L\n", 2},                              //
		{"x = 1\ny = ur'a'\n", 2},                            //
		{"x = 1\nfrom __future__ import division\n", 2},      // not at the start
		{"from __future__ import absolute_import\n'not the docstring'\nfrom __future__ import division\n", 3},
		{"def f():\n    from __future__ import division\n", 2},
		{"from __future__ import rested_snopes\n", 1}, // unknown feature
		{"from __future__ import braces\n", 1},
		{"# coding: uft-8\nx = 1\n", 1},             // unknown encoding
		{"\ufeff# coding: latin-1\nx = 1\n", 1},     // only utf-8 after a BOM
		{"\ufeff# coding: utf8\nx = 1\n", 1},        // not even this spelling
		{"x = 1\ny = '\xe9'\n", 2},                  // not UTF-8, no declaration
		{"# coding: utf-8\nx = 1\ny = '\xe9'\n", 3}, // not UTF-8 as declared
	} {
		m, err := Parse("f.py", "", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		errs := m.SyntaxErrors()
		if len(errs) == 0 {
			t.Errorf("%q: no syntax error, want one at line %d", c.src, c.line)
			continue
		}
		if got := m.Pos(errs[0].Offset).Line; got != c.line {
			t.Errorf("%q: syntax error at line %d (%s), want %d", c.src, got, errs[0].Msg, c.line)
		}
	}
}

// The recovered trees are the ones tree-sitter makes of the same code in
// parentheses (a tuple there, an expression_list here), and the except
// clause's types the tuple of `except (A, B):`.
func TestRecoveredTreeShape(t *testing.T) {
	offsets := regexp.MustCompile(` \[\d+,\d+\]| "[^"]*"| sym=\d+`)
	shape := func(src string, recovered bool) string {
		var nodes []rawNode
		if recovered {
			var err error
			nodes, _, err = parseTree([]byte(src), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
		} else {
			ts, _, err := parseTreeSitter([]byte(src), DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			nodes = dropPunctuation(ts)
		}
		return offsets.ReplaceAllString(dumpNodes([]byte(src), nodes), "")
	}
	for _, c := range []struct{ got, want, from, to string }{
		{"b = 1, *[a]\n", "b = (1, *[a])\n", "tuple", "expression_list"},
		{"def f():\n    yield None, h, *[skip() for _ in x], *'s' + t\n", "def f():\n    yield (None, h, *[skip() for _ in x], *'s' + t)\n", "tuple", "expression_list"},
		{"def f():\n    return (bar.\nbaz)\n", "def f():\n    return (bar.\n    baz)\n", "", ""},
		{"try:\n    pass\nexcept A, B.c:\n    pass\n", "try:\n    pass\nexcept (A, B.c):\n    pass\n", "parenthesized_expression", "tuple"},
	} {
		got, want := shape(c.got, true), shape(c.want, false)
		if c.from != "" {
			want = strings.Replace(want, c.from, c.to, 1)
		}
		if strings.Contains(got, "ERROR") || got != want {
			t.Errorf("%q:\n%s\nwant (the tree of %q):\n%s", c.got, got, c.want, want)
		}
	}
}

// FuzzRecoverGaps checks that a recovered tree is well formed: every node
// inside its parent's subtree and byte range.
func FuzzRecoverGaps(f *testing.F) {
	for _, s := range []string{
		"b = 1, *[a]\n", "def f():\n    yield None, h, *[x for x in y], *'s'\n",
		"def f():\n    if x:\n        (bar.\n    baz)\n", "t = asyncio.async(f)\n",
		"try:\n    pass\nexcept A, B:\n    pass\n", "x = (1,\n  *[a],\n\\\n)\nb = *[a]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 16<<10 {
			return
		}
		nodes, _, err := parseTree(src, DefaultLimits)
		if err != nil {
			return
		}
		defer putRaw(nodes)
		for i := 1; i < len(nodes); i++ {
			n, up := &nodes[i], int(nodes[i].up)
			if up == 0 || up > i {
				t.Fatalf("node %d: parent offset %d", i, up)
			}
			p := &nodes[i-up]
			if i+int(n.size) > i-up+int(p.size) || n.start < p.start || n.end > p.end || n.size == 0 {
				t.Fatalf("node %d (%s) outside its parent %d (%s)", i, kindName(n.symbol), i-up, kindName(p.symbol))
			}
		}
	})
}

// Encoding names as PEP 263 declarations spell them: CPython knows these
// (codecs.lookup), not the last ones.
func TestKnownEncoding(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"utf-8", true}, {"UTF8", true}, {"utf-8-unix", true}, {"latin-1", true}, {"ISO-8859-15", true},
		{"iso8859_15", true}, {"cp1252", true}, {"windows-1252", true}, {"koi8-r", true}, {"mac-roman", true},
		{"euc_jp", true}, {"Shift_JIS", true}, {"ascii", true}, {"us-ascii", true}, {"latin-1-dos", true},
		{"uft-8", false}, {"latin-2-dos", false}, {"utf-9", false}, {"klingon", false},
	} {
		if got := knownEncoding(c.name); got != c.ok {
			t.Errorf("knownEncoding(%q) = %v, want %v", c.name, got, c.ok)
		}
	}
}
