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
