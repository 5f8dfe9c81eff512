package deps

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Pipfile.lock (JSON): "default" and "develop" packages with their pinned
// "version" ("==1.2.3"). Packages without a version (VCS, path) admit any;
// any other entry without an exact version is malformed: an error, and
// dropped so the Pipfile's ranges decide.
// The span of each version string comes from a json.Decoder token walk.

// jval is a JSON value with the byte span of its token (strings: quotes
// included).
type jval struct {
	str        string
	isStr      bool
	start, end int
	keys       []string
	keySpans   [][2]int
	obj        map[string]*jval
	arr        []*jval
}

// parseJSON decodes src into a tree of jvals with spans.
func parseJSON(src []byte) (*jval, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	v, err := jsonValue(dec, src, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &jsonError{int(dec.InputOffset()), "unexpected data after the top-level value"}
	}
	return v, nil
}

type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return e.msg }

// tokenStart finds where the token that ends at end begins: after the
// previous token, skip white space and the ':' and ',' separators.
func tokenStart(src []byte, prev int) int {
	for prev < len(src) {
		switch src[prev] {
		case ' ', '\t', '\r', '\n', ':', ',':
			prev++
			continue
		}
		break
	}
	return prev
}

func jsonValue(dec *json.Decoder, src []byte, depth int) (*jval, error) {
	if depth > 200 {
		return nil, &jsonError{int(dec.InputOffset()), "JSON nested too deeply"}
	}
	prev := int(dec.InputOffset())
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonErr(dec, err)
	}
	v := &jval{start: tokenStart(src, prev), end: int(dec.InputOffset())}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v.obj = map[string]*jval{}
			for dec.More() {
				kprev := int(dec.InputOffset())
				kt, err := dec.Token()
				if err != nil {
					return nil, jsonErr(dec, err)
				}
				k, _ := kt.(string)
				ks := [2]int{tokenStart(src, kprev), int(dec.InputOffset())}
				val, err := jsonValue(dec, src, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := v.obj[k]; !dup {
					v.keys = append(v.keys, k)
					v.keySpans = append(v.keySpans, ks)
				}
				v.obj[k] = val
			}
		case '[':
			for dec.More() {
				val, err := jsonValue(dec, src, depth+1)
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, val)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, jsonErr(dec, err)
		}
		v.end = int(dec.InputOffset())
	case string:
		v.str, v.isStr = t, true
	default:
		v.str = fmt.Sprint(t)
	}
	return v, nil
}

func jsonErr(dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &jsonError{int(se.Offset), "invalid JSON: " + se.Error()}
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return &jsonError{int(dec.InputOffset()), "invalid JSON: unexpected end of input"}
	}
	return &jsonError{int(dec.InputOffset()), "invalid JSON: " + err.Error()}
}

func readPipfileLock(l *loader, f *File) []*Requirement {
	root, err := parseJSON(f.Src)
	if err != nil {
		var je *jsonError
		off := 0
		if errors.As(err, &je) {
			off = je.off
		}
		l.errorf(f, off, "%v", err)
		return nil
	}
	var reqs []*Requirement
	for _, sec := range []struct{ name, group string }{{"default", ""}, {"develop", "dev"}} {
		pkgs := root.obj[sec.name]
		if pkgs == nil || pkgs.obj == nil {
			continue
		}
		for i, name := range pkgs.keys {
			e := pkgs.obj[name]
			r := &Requirement{Name: NormalizeName(name), RawName: name, Path: f.Path, Locked: true, Section: sec.name, Group: sec.group,
				Start: pkgs.keySpans[i][0], End: pkgs.keySpans[i][1], VersionStart: -1, VersionEnd: -1}
			if e.obj == nil {
				l.errorf(f, e.start, "lock entry for %s is not an object: ignored, the declared requirements decide its version", quoteName(name))
				continue
			}
			ver := e.obj["version"]
			if ver == nil && pipfileUnversioned(e) {
				r.Set, r.Unknown = All(), true
				reqs = append(reqs, r)
				continue
			}
			if ver == nil {
				l.errorf(f, r.Start, "lock entry for %s has no version: ignored, the declared requirements decide its version", quoteName(name))
				continue
			}
			if !ver.isStr {
				l.errorf(f, ver.start, "lock entry for %s: the version is not a string: ignored, the declared requirements decide its version", quoteName(name))
				continue
			}
			r.Start, r.End = ver.start, ver.end
			clauses, set, err := ParseSpecifier(ver.str)
			if err == nil && (len(clauses) != 1 || clauses[0].Op != "==" && clauses[0].Op != "===") {
				err = errors.New("expected an exact version (==X)")
			}
			if err != nil {
				l.errorf(f, ver.start, "lock entry for %s: %v: ignored, the declared requirements decide its version", quoteName(name), err)
				continue
			}
			r.Specifier, r.Clauses, r.Set = ver.str, clauses, set
			r.Version = clauses[0].Version
			if m := e.obj["markers"]; m != nil && m.isStr {
				r.Marker = m.str
			}
			reqs = append(reqs, r)
		}
	}
	return reqs
}

// pipfileUnversioned reports whether a Pipfile.lock entry may lack a version:
// a VCS, path or file package.
func pipfileUnversioned(e *jval) bool {
	for _, k := range []string{"git", "hg", "svn", "bzr", "path", "file", "editable"} {
		if e.obj[k] != nil {
			return true
		}
	}
	return false
}
