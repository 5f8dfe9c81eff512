package rules_test

import (
	"testing"

	"github.com/mcplint/mcplint/rules/rulestest"
)

// The guard fixtures run with the code rules a guard turns into notes: in a
// guarded project none of them is reported; with an incomplete guard they
// stay errors next to MCP106.
func TestMCP106Fixtures(t *testing.T) {
	rulestest.RunDir(t, "../testdata/rules/MCP106", "MCP101", "MCP102", "MCP103", "MCP104", "MCP106")
}

func TestMCP107Fixtures(t *testing.T) {
	rulestest.RunDir(t, "../testdata/rules/MCP107", "MCP101", "MCP106", "MCP107")
}
