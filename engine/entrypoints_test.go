package engine

import (
	"strings"
	"testing"
)

func TestEntryPointName(t *testing.T) {
	for in, want := range map[string]string{
		"pkg.cli:main":            "pkg.cli.main",
		" pkg.cli : App.run [x] ": "pkg.cli.App.run",
		"pkg.cli":                 "",
		":main":                   "",
	} {
		if got := entryPointName(in); got != want {
			t.Errorf("entryPointName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestImportLines(t *testing.T) {
	src := "\ufeffimport os, pkg.tools as t\nfrom . import server\nfrom .reg import (\n    register_all,\n)\n  from pkg.a import b, c as d\nx = 'from y import z'\n"
	got := strings.Join(importLines([]byte(src), "pkg.main", false), ",")
	want := "os,pkg.tools,pkg,pkg.server,pkg.reg,pkg.reg.register_all,pkg.a,pkg.a.b,pkg.a.c"
	if got != want {
		t.Errorf("importLines:\n got %s\nwant %s", got, want)
	}
}
