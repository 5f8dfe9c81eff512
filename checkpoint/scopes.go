package checkpoint

import "github.com/mcplint/mcplint/pyast"

// ScopeFactory reports whether call makes a cancel scope that can be
// shielded (anyio.CancelScope, move_on_after, fail_after and trio's),
// whatever its shield= argument: MCP102 uses it for scopes shielded later by
// `scope.shield = True`.
func ScopeFactory(m *pyast.Module, call *pyast.Node) bool {
	call = pyast.Unparen(call)
	if call == nil || call.Kind() != "call" {
		return false
	}
	for _, q := range m.Resolve(pyast.Callee(call)) {
		if shieldFactories[q] {
			return true
		}
	}
	return false
}
