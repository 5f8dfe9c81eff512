package config

import "testing"

// FuzzParse checks that no input makes Parse panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte("[tool.mcplint]\nselect = [\"MCP1\"]\n[tool.mcplint.per-file-ignores]\n\"a\" = [\"MCP1\"]\n"))
	f.Add([]byte("[tool]\nmcplint = { select = [1], x = {} }\n"))
	f.Add([]byte("[[tool.mcplint]]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := Parse("f.toml", src, []string{"tool", "mcplint"})
		if err == nil {
			_ = c.Validate()
		}
		if c, err := Parse("f.toml", src, nil); err == nil {
			_ = c.Validate()
		}
	})
}
