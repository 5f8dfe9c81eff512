package rules

// UnusedSuppressionCode is the code of MCP901. The suppression engine
// (package suppress) reports it; the rule exists for its doc and selection.
const UnusedSuppressionCode = "MCP901"

// UnusedSuppression documents MCP901.
var UnusedSuppression = Register(&Rule{
	Code:      UnusedSuppressionCode,
	Name:      "unused-suppression",
	Kind:      MetaRule,
	Severity:  SeverityWarning,
	Fix:       FixAlways,
	Tags:      []string{"mcplint", "suppression"},
	Precision: "very-high",
	Doc: Doc{
		Summary: "A suppression comment matches no finding",
		WhatItDoes: "Reports a code in a `# mcplint: ignore[...]`, `# mcplint: ignore-file[...]` or `# noqa: ...` " +
			"comment that suppressed nothing in this run, and a suppression that names no known mcplint rule. A code " +
			"whose rule did not run (not selected) is not reported, nor one in a file not fully analysed (a syntax " +
			"error, a function too complex to analyse: MCP000), where it may cover what the analysis missed. Codes of " +
			"other tools in a `# noqa` comment are left alone.",
		WhyIsThisBad: "A stale suppression hides the next real finding on that line: once the code changes back, the " +
			"crash it once excused is silenced without anyone judging it again.",
		Example:    "result = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)  # mcplint: ignore[MCP101] short\n",
		UseInstead: "result = await anyio.to_thread.run_sync(work, abandon_on_cancel=True)\n",
		FixSafety: "Safe: the fix deletes the comment (the whole line when the comment stands alone), or only the " +
			"unused code when the comment names others that are still used. Nothing the program does changes. In a " +
			"file not fully analysed the fix is only shown.",
		References: []string{"https://docs.astral.sh/ruff/rules/unused-noqa/"},
	},
})
