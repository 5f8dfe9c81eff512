package rules

// SuppressionWithoutReasonCode is the code of MCP900. The suppression engine
// (package suppress) reports it; the rule exists for its doc and selection.
const SuppressionWithoutReasonCode = "MCP900"

// SuppressionWithoutReason documents MCP900 (off by default).
var SuppressionWithoutReason = Register(&Rule{
	Code:       SuppressionWithoutReasonCode,
	Name:       "suppression-without-reason",
	Kind:       MetaRule,
	Severity:   SeverityWarning,
	Fix:        FixNone,
	Tags:       []string{"mcplint", "suppression"},
	Precision:  "very-high",
	DefaultOff: true,
	Doc: Doc{
		Summary: "A suppression comment gives no reason",
		WhatItDoes: "Reports a `# mcplint: ignore[CODE]` or `# mcplint: ignore-file[CODE]` comment with no text after " +
			"the codes, and every `# noqa: CODE` comment naming an mcplint code (that form has no place for a reason). " +
			"The suppression still applies. The rule is off by default: turn it on with `extend-select = [\"MCP900\"]`.",
		WhyIsThisBad: "A suppressed cancellation crash is a judgement (the handler is never cancelled, the thread is " +
			"short, the pin is forced by another package). Without the reason next to it, the next reader cannot tell " +
			"whether the judgement still holds and the crash stays hidden.",
		Example:    "result = await anyio.to_thread.run_sync(work)  # mcplint: ignore[MCP101]\n",
		UseInstead: "result = await anyio.to_thread.run_sync(work)  # mcplint: ignore[MCP101] work() takes < 1 ms\n",
		FixSafety:  "There is no fix: only a person can write the reason.",
		References: []string{"https://staticcheck.dev/docs/configuration/#ignoring-problems"},
	},
})
