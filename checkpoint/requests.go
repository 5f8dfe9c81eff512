package checkpoint

import "github.com/mcplint/mcplint/pyast"

// sessionRequests are the ServerSession methods that send a request to the
// client and wait for its answer.
var sessionRequests = map[string]bool{
	"create_message": true, "list_roots": true, "elicit": true, "elicit_form": true,
	"elicit_url": true, "send_ping": true,
}

// contextRequests are the Context helpers (mcp's FastMCP Context and
// fastmcp's) over those requests.
var contextRequests = map[string]bool{
	"elicit": true, "elicit_url": true, "sample": true, "sample_step": true, "list_roots": true,
}

// ServerRequest reports whether call sends a server-to-client request and
// waits for the client's answer: a session's create_message, list_roots,
// elicit (elicit_form, elicit_url) or send_ping, or a Context's elicit,
// sample or list_roots. Receivers are recognised as in the checkpoint list
// (see the package doc: a Context by type, get_context() or an untyped ctx
// parameter; a session by name, .session attribute or type; and either as
// the value-flow engine says the receiver can be, so self.ctx set from a
// handler's Context parameter counts). It returns
// the receiver and method as written ("ctx.elicit").
func (a *Analyzer) ServerRequest(m *pyast.Module, call *pyast.Node) (string, bool) {
	callee := pyast.Unparen(pyast.Callee(call))
	if callee == nil || callee.Kind() != "attribute" {
		return "", false
	}
	obj := pyast.Unparen(callee.ChildByFieldName("object"))
	attr := m.Text(callee.ChildByFieldName("attribute"))
	if obj == nil {
		return "", false
	}
	if sessionRequests[attr] && a.isSession(m, obj) || contextRequests[attr] && a.isMCPContext(m, obj) {
		return m.Text(callee), true
	}
	return "", false
}
