package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// plainModule returns n lines of ordinary dense code (generated helpers of
// the shape bench/gen writes: about 1.2 parser steps a byte, more than the
// standard library's 0.5).
func plainModule(n int) string {
	var b strings.Builder
	b.WriteString("import json\nimport mcp\n\n")
	for i, lines := 0, 3; lines < n; i, lines = i+1, lines+11 {
		fmt.Fprintf(&b, `

def helper_%d(data, limit=10):
    """Transform data; a generated helper."""
    out = {}
    for key, value in sorted(data.items()):
        if len(out) >= limit:
            break
        out[key] = json.dumps({"key": key, "value": value, "size": len(str(value))})
    out.update(helper_%d(out, limit - 1) if limit > 0 else {})
    return out
`, i, i+1)
	}
	return b.String()
}

// A 100,000-line module of plain code parses fully under the default
// limits; a hostile file (a 1.2 MB list literal of small numbers, 3.3 steps
// a byte) stops early with MCP000 "too complex to analyse fully" where the
// parser gave up, and the rest of the scan goes on.
func TestDefaultParseBudgetScalesWithTheFile(t *testing.T) {
	plain := plainModule(100_000)
	if lines := strings.Count(plain, "\n"); lines < 100_000 {
		t.Fatalf("generated %d lines", lines)
	}
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.20.0\n",
		"server.py":        "import big\nimport data\n" + offloadServer,
		"helpers.py":       "def work(): return 1\n",
		"big.py":           plain,
		"data.py":          "import mcp\nDATA = [" + strings.Repeat("1, ", 400_000) + "]\n",
	})
	res := run(t, []string{root}, Options{Rules: []*rules.Rule{rules.Lookup("MCP000"), rules.Lookup("MCP101")}})
	got := codes(root, res)
	want := []string{"data.py:2:MCP000:error", "server.py:10:MCP101:error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("findings %q, want %q (big.py parsed, data.py too complex, server.py analysed)", got, want)
	}
	for _, d := range res.Diagnostics {
		if d.Code == "MCP000" && !strings.Contains(d.Message, "too complex to analyse fully: parsing took") {
			t.Errorf("data.py: %s", d.Message)
		}
	}
	if res.Parsed != 3 {
		t.Errorf("parsed %d files, want 3 (server, helpers, big)", res.Parsed)
	}
	// The old fixed budget of 2,000,000 steps refused the plain module.
	_, err := pyast.ParseLimits("big.py", "big", []byte(plain), pyast.Limits{Steps: 2_000_000})
	var tc *pyast.TooComplexError
	if !errors.As(err, &tc) {
		t.Errorf("big.py parses in 2,000,000 steps (%v): pick a larger module", err)
	}
}

// Configured limits apply to every parse of the run: with a small budget
// the same server project reports its module as too complex.
func TestConfiguredParseLimits(t *testing.T) {
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.20.0\n",
		"server.py":        "import big\n" + offloadServer,
		"helpers.py":       "def work(): return 1\n",
		"big.py":           plainModule(200),
		"setup.py":         "from setuptools import setup\nsetup(install_requires=[" + strings.Repeat("'x', ", 2000) + "])\n",
	})
	opts := Options{Rules: []*rules.Rule{rules.Lookup("MCP000"), rules.Lookup("MCP101")}}
	if got := codes(root, run(t, []string{root}, opts)); strings.Join(got, ",") != "server.py:9:MCP101:error" {
		t.Fatalf("defaults: %q", got)
	}
	opts.Limits = &Limits{Parse: pyast.Limits{Steps: 1000, StepsPerByte: 1}}
	got := codes(root, run(t, []string{root}, opts))
	want := []string{"big.py:201:MCP000:error", "server.py:9:MCP101:error", "setup.py:2:MCP000:error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("small budget: %q, want %q", got, want)
	}
	opts.Limits = &Limits{Parse: pyast.Limits{Nodes: 100}}
	got = codes(root, run(t, []string{root}, opts))
	want = []string{"big.py:1:MCP000:error", "server.py:9:MCP101:error", "setup.py:1:MCP000:error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("node limit: %q, want %q", got, want)
	}
}

// A handler too complex for the cancellation-flow analysis (try/finally
// nested in finally clauses 40 deep: 2^40 paths) is MCP000 on its name,
// once however many rules ask about it, with no finding of its own; the
// handler beside it is analysed as usual.
func TestFunctionBudget(t *testing.T) {
	var deep strings.Builder
	deep.WriteString("\n@mcp.tool()\nasync def deep():\n    await anyio.to_thread.run_sync(work)\n")
	for i := 0; i < 40; i++ {
		ind := strings.Repeat("    ", i+1)
		fmt.Fprintf(&deep, "%stry:\n%s    x = %d\n%sfinally:\n", ind, ind, i, ind)
	}
	deep.WriteString(strings.Repeat("    ", 41) + "pass\n")
	root := testfs.Write(t, map[string]string{
		"requirements.txt": "mcp==1.20.0\n",
		"server.py":        offloadServer + deep.String(),
		"helpers.py":       "def work(): return 1\n",
	})
	codeRules := []*rules.Rule{rules.Lookup("MCP101"), rules.Lookup("MCP102"), rules.Lookup("MCP104")}
	res := run(t, []string{root}, Options{Rules: codeRules})
	got := codes(root, res)
	want := []string{"server.py:11:MCP000:error", "server.py:8:MCP101:error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("findings %q, want %q", got, want)
	}
	for _, d := range res.Diagnostics {
		if d.Code == "MCP000" && (d.Message != "too complex to analyse fully: the cancellation-flow analysis of server.deep took more than 200000 steps (limit: function-steps); its findings are not reported" || d.Start.Column != 11) {
			t.Errorf("MCP000 at column %d: %s", d.Start.Column, d.Message)
		}
	}
	// A small configured budget makes the plain handler too complex too;
	// 0 turns the budget off (the deep handler is left out: 2^40).
	lim := DefaultLimits
	lim.FunctionSteps = 2
	got = codes(root, run(t, []string{root}, Options{Rules: codeRules, Limits: &lim}))
	want = []string{"server.py:11:MCP000:error", "server.py:7:MCP000:error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("budget of 2 steps: %q, want %q", got, want)
	}
	lim.FunctionSteps = 0
	plain := testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0\n", "server.py": offloadServer, "helpers.py": "def work(): return 1\n"})
	if got := codes(plain, run(t, []string{plain}, Options{Rules: codeRules, Limits: &lim})); strings.Join(got, ",") != "server.py:8:MCP101:error" {
		t.Errorf("no budget: %q", got)
	}
}
