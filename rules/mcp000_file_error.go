package rules

// FileErrorCode is the code of findings about files mcplint could not read
// or parse. The engine reports them itself; the rule exists for its doc and
// so that every output lists it.
const FileErrorCode = "MCP000"

// FileError documents MCP000.
var FileError = Register(&Rule{
	Code:      FileErrorCode,
	Name:      "file-error",
	Kind:      MetaRule,
	Severity:  SeverityError,
	Precision: "very-high",
	Tags:      []string{"mcplint"},
	Doc: Doc{
		Summary:      "A file could not be read or parsed, so it was not fully analysed",
		WhatItDoes:   "Reports a Python or dependency file that mcplint could not read (permissions, not UTF-8, too large) or parse (syntax errors, invalid TOML, a broken requirement line, a missing or cyclic `-r` include). The rest of the scan goes on.",
		WhyIsThisBad: "A file that is not analysed can hide the crashes the other rules look for, so a clean report would be misleading.",
		Example:      "def tool(:\n    pass\n",
		UseInstead:   "def tool():\n    pass\n",
		FixSafety:    "There is no automatic fix: the file has to be repaired by hand.",
	},
})

// The anchors of the MCP000 notes about the configuration file, which the
// command adds to a run's findings: ConfigIgnoredAnchor for a setting
// mcplint does not honour (a limit that a file may not loosen: the run
// used the default, so the note changes no verdict), ConfigSilencedAnchor
// for a selection that leaves no rule on but MCP000 for some or all files
// (the run checked less than it seems: the verdict is unknown, as for any
// MCP000). Neither sets the exit code (IsConfigNote).
const (
	ConfigIgnoredAnchor  = "mcplint configuration: ignored"
	ConfigSilencedAnchor = "mcplint configuration: no rule on"
)

// IsConfigNote tells whether d is an MCP000 note about the configuration.
func IsConfigNote(d *Diagnostic) bool {
	return d.Code == FileErrorCode && d.Severity == SeverityNote && (d.Anchor == ConfigIgnoredAnchor || d.Anchor == ConfigSilencedAnchor)
}
