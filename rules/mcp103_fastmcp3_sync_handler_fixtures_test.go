package rules_test

import (
	"testing"

	"github.com/mcplint/mcplint/rules/rulestest"
)

func TestMCP103Fixtures(t *testing.T) {
	rulestest.RunDir(t, "../testdata/rules/MCP103", "MCP103")
}
