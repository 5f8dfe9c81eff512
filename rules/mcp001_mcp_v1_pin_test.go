package rules_test

import (
	"testing"

	"github.com/mcplint/mcplint/rules/rulestest"
)

func TestMCP001Fixtures(t *testing.T) {
	rulestest.RunDir(t, "../testdata/rules/MCP001", "MCP001")
}
