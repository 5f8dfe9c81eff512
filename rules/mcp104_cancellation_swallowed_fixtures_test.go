package rules_test

import (
	"testing"

	"github.com/mcplint/mcplint/rules/rulestest"
)

func TestMCP104Fixtures(t *testing.T) {
	rulestest.RunDir(t, "../testdata/rules/MCP104", "MCP104")
}
