package deps

import "github.com/pelletier/go-toml/v2/unstable"

// Pipfile: [packages] and [dev-packages] (and other custom categories are
// not read), values "*", a PEP 440 specifier, or a table with version,
// extras, markers and git/path/file sources.

func readPipfile(l *loader, f *File) []*Requirement {
	root, err := parseTOML(f.Path, f.Src)
	if err != nil {
		l.addErr(err)
		return nil
	}
	var reqs []*Requirement
	for _, sec := range []struct{ name, group string }{{"packages", ""}, {"dev-packages", "dev"}} {
		t := root.table(sec.name)
		if t == nil {
			continue
		}
		for _, name := range t.keys {
			v := t.m[name]
			if v.kind() == unstable.Array {
				continue
			}
			if r := poetryEntry(l, f, name, v, v); r != nil {
				r.Poetry, r.Section, r.Group = false, sec.name, sec.group
				reqs = append(reqs, r)
			}
		}
	}
	return reqs
}
