package rules

import (
	"fmt"
	"strings"
)

// Markdown renders the rule's doc in ruff's section layout, for `mcplint
// explain` and SARIF help.
func (r *Rule) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s)\n\n", r.Name, r.Code)
	fix := map[FixAvailability]string{FixNone: "No fix is available.", FixSometimes: "Fix is sometimes available.", FixAlways: "Fix is always available."}[r.Fix]
	fmt.Fprintf(&b, "%s\n\n", fix)
	section := func(title, body string) {
		if body != "" {
			fmt.Fprintf(&b, "## %s\n%s\n\n", title, strings.TrimSpace(body))
		}
	}
	code := func(s string) string {
		if s == "" {
			return ""
		}
		return "```python\n" + strings.TrimRight(s, "\n") + "\n```"
	}
	section("What it does", r.Doc.WhatItDoes)
	section("Why is this bad?", r.Doc.WhyIsThisBad)
	section("Example", code(r.Doc.Example))
	section("Use instead", code(r.Doc.UseInstead))
	section("Fix safety", r.Doc.FixSafety)
	if r.Guarded {
		section("The respond/cancel guard", GuardDoc)
	}
	if len(r.Doc.References) > 0 {
		var refs []string
		for _, ref := range r.Doc.References {
			refs = append(refs, "- "+ref)
		}
		section("References", strings.Join(refs, "\n"))
	}
	return b.String()
}
