package rules_test

import (
	"testing"

	"github.com/mcplint/mcplint/rules/rulestest"
)

func TestMCP102Fixtures(t *testing.T) {
	rulestest.RunDir(t, "../testdata/rules/MCP102", "MCP102")
}
