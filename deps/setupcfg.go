package deps

import (
	"bytes"
	"path"
	"strings"

	"github.com/mcplint/mcplint/internal/escape"
)

// setup.cfg: [options] install_requires and [options.extras_require] (one
// requirement per line, indented continuation lines, "#" and ";" comment
// lines), and "file: requirements.txt" directives (read as includes).
// Not read: setup_requires and tests_require (not installed with the
// package), values built by interpolation.

func readSetupCfg(l *loader, f *File) []*Requirement {
	var reqs []*Requirement
	section, key := "", ""
	pos := 0
	for pos < len(f.Src) {
		end := bytes.IndexByte(f.Src[pos:], '\n')
		next := len(f.Src)
		if end < 0 {
			end = len(f.Src)
		} else {
			end += pos
			next = end + 1
		}
		line := strings.TrimRight(string(f.Src[pos:end]), "\r")
		lineStart := pos
		pos = next
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		var value string
		valueAt := 0
		switch {
		case !indented && trimmed[0] == '[':
			if !strings.HasSuffix(trimmed, "]") {
				l.errorf(f, lineStart, "setup.cfg: unclosed section header")
				section, key = "", ""
				continue
			}
			section, key = strings.TrimSpace(trimmed[1:len(trimmed)-1]), ""
			continue
		case !indented:
			i := strings.IndexAny(line, "=:")
			if i < 0 {
				l.errorf(f, lineStart, "setup.cfg: expected key = value")
				key = ""
				continue
			}
			key = strings.ToLower(strings.TrimSpace(line[:i]))
			value = line[i+1:]
			valueAt = i + 1
		default:
			value = line // a continuation line of key
		}
		group := ""
		switch {
		case section == "options" && key == "install_requires":
		case section == "options.extras_require" && key != "":
			group = key
		default:
			continue
		}
		lead := len(value) - len(strings.TrimLeft(value, " \t"))
		v := strings.TrimSpace(value)
		if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		if v == "" || v[0] == '#' {
			continue
		}
		at := lineStart + valueAt + lead
		if strings.HasPrefix(v, "file:") {
			for _, name := range strings.Split(strings.TrimPrefix(v, "file:"), ",") {
				reqs = append(reqs, l.cfgInclude(f, at, strings.TrimSpace(name))...)
			}
			continue
		}
		r, err := newRequirement(f.Path, v, func(i int) int { return at + i })
		if err != nil {
			l.errorf(f, at, "invalid requirement: %v", err)
			continue
		}
		if !l.keep(r) {
			continue
		}
		r.Group, r.Section = group, section+"."+key
		if group == "" {
			r.Section = "options.install_requires"
		}
		reqs = append(reqs, r)
	}
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
	if err := l.named(target); isOutside(err) {
		l.errorf(f, at, "file: %s: the file is outside the scanned tree: not read", escape.Quote(name))
		return nil
	}
	tf, err := l.file(target)
	if err != nil {
		l.errorf(f, at, "file: %s: cannot read the included file: %s", escape.Quote(name), unwrapPathError(err))
		return nil
	}
	return l.readRequirements(tf, false)
}
