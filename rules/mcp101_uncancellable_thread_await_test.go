package rules_test

import (
	"testing"

	"github.com/mcplint/mcplint/rules/rulestest"
)

func TestMCP101Fixtures(t *testing.T) {
	rulestest.RunDir(t, "../testdata/rules/MCP101", "MCP101")
}
