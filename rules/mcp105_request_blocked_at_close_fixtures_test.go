package rules_test

import (
	"testing"

	"github.com/mcplint/mcplint/rules/rulestest"
)

func TestMCP105Fixtures(t *testing.T) {
	rulestest.RunDir(t, "../testdata/rules/MCP105", "MCP105")
}
