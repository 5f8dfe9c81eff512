package rules_test

import (
	"testing"

	"github.com/mcplint/mcplint/rules/rulestest"
)

func TestMCP002Fixtures(t *testing.T) {
	rulestest.RunDir(t, "../testdata/rules/MCP002", "MCP002", "MCP001")
}
