package rules

import (
	"testing"

	"github.com/mcplint/mcplint/pyast"
)

// TestFirstImportOffset places the guard's import after the header and
// before everything else, in files that are nothing but a header too.
func TestFirstImportOffset(t *testing.T) {
	const imp = "import g\n"
	cases := []struct{ src, want string }{
		{"import os\nx = 1\n", "import g\nimport os\nx = 1\n"},
		{"#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nimport os\n", "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\nimport g\nimport os\n"},
		{"\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n\nx = 1\n", "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations\n\nimport g\nx = 1\n"},
		{"\"\"\"Only a docstring.\"\"\"", "\"\"\"Only a docstring.\"\"\"\nimport g\n"},
		{"# a comment only\n", "# a comment only\nimport g\n"},
		{"", "import g\n"},
		{"\ufeffx = 1\n", "\ufeffimport g\nx = 1\n"},
		{"\"\"\"Doc.\"\"\"\r\nx = 1\r\n", "\"\"\"Doc.\"\"\"\r\nimport g\nx = 1\r\n"},
	}
	for _, c := range cases {
		m, err := pyast.Parse("m.py", "m", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		at, lead, _ := firstImportOffset(m)
		got := c.src[:at] + lead + imp + c.src[at:]
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
		}
	}
}
