package deps

import (
	"path"
	"strings"
	"unicode"

	"github.com/mcplint/mcplint/internal/escape"
)

// setup.cfg: [options] install_requires and [options.extras_require] (one
// requirement per line, indented continuation lines, "#" and ";" comment
// lines), and "file: requirements.txt" directives (read as includes).
// Not read: setup_requires and tests_require (not installed with the
// package), values built by interpolation.

func readSetupCfg(l *loader, f *File) []*Requirement {
	var reqs []*Requirement
	scanINI(f.Src, func(ln iniLine) {
		group := ""
		switch {
		case ln.section == "options" && ln.key == "install_requires":
		case ln.section == "options.extras_require":
			group = ln.key
		default:
			return
		}
		// The same white space TrimSpace removes (a form feed or a
		// no-break space too), or the requirement's offsets would be off.
		lead := len(ln.value) - len(strings.TrimLeftFunc(ln.value, unicode.IsSpace))
		v := strings.TrimSpace(ln.value)
		if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		if v == "" || v[0] == '#' {
			return
		}
		at := ln.valueAt + lead
		if strings.HasPrefix(v, "file:") {
			for _, name := range strings.Split(strings.TrimPrefix(v, "file:"), ",") {
				reqs = append(reqs, l.cfgInclude(f, at, strings.TrimSpace(name))...)
			}
			return
		}
		r, err := newRequirement(f.Path, v, func(i int) int { return at + i })
		if err != nil {
			l.errorf(f, at, "invalid requirement: %v", err)
			return
		}
		if !l.keep(r) {
			return
		}
		r.Group, r.Section = group, ln.section+"."+ln.key
		if group == "" {
			r.Section = "options.install_requires"
		}
		reqs = append(reqs, r)
	}, func(off int, msg string) { l.errorf(f, off, "setup.cfg: %s", msg) })
	return reqs
}

func (l *loader) cfgInclude(f *File, at int, name string) []*Requirement {
	if name == "" {
		return nil
	}
	target := path.Join(path.Dir(f.Path), name)
	if l.reqDone[path.Clean(target)] {
		return nil
	}
	if why := l.named(target); why != "" {
		l.errorf(f, at, "file: %s: %s", escape.Quote(name), why)
		return nil
	}
	tf, err := l.file(target)
	if err != nil {
		l.errorf(f, at, "file: %s: cannot read the included file: %s", escape.Quote(name), unwrapPathError(err))
		return nil
	}
	return l.readRequirements(tf, false)
}
