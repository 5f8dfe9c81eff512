package deps

import (
	"bytes"
	"path"
	"regexp"

	"github.com/mcplint/mcplint/pyast"
)

// PEP 723 inline script metadata: the "# /// script" block of a .py file,
// whose comment lines hold TOML with a dependencies array. The block's TOML
// is parsed from a copy of the file with everything else blanked out (and
// the "# " prefixes turned into spaces), so spans are offsets of the file.
// requires-python and [tool] are not read.

// utf8BOM is the UTF-8 byte order mark.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

var scriptBlockRE = regexp.MustCompile(`(?m)^# /// ([a-zA-Z0-9-]+)\r?$\n((?:^#(?:| .*)\r?$\n)+)^# ///\r?$`)

// scriptOpening is in every file with a script block.
var scriptOpening = []byte("# /// script")

// scriptBlocks returns the [start, end) content ranges of the script blocks.
// A UTF-8 byte order mark before the first line is not part of that line:
// "\ufeff# /// script" opens a block (Python and uv read past the BOM).
func scriptBlocks(src []byte) [][2]int {
	skip := 0
	if bytes.HasPrefix(src, utf8BOM) {
		skip = len(utf8BOM)
	}
	if !bytes.Contains(src, scriptOpening) {
		return nil // the regular expression is slow on files with no block at all
	}
	var out [][2]int
	for _, m := range scriptBlockRE.FindAllSubmatchIndex(src[skip:], -1) {
		if string(src[skip+m[2]:skip+m[3]]) == "script" {
			out = append(out, [2]int{skip + m[4], skip + m[5]})
		}
	}
	return out
}

// HasScriptBlock reports whether a Python file has PEP 723 metadata.
func HasScriptBlock(src []byte) bool { return len(scriptBlocks(src)) > 0 }

// InScriptBlock reports whether byte offset off of a Python file lies in its
// PEP 723 metadata, whose lines all start with "#": there a comment is one
// inside the TOML ("#   # why"), not the line's "#" prefix.
func InScriptBlock(src []byte, off int) bool {
	for _, b := range scriptBlocks(src) {
		if off >= b[0] && off < b[1] {
			return true
		}
	}
	return false
}

// LoadScript reads a PEP 723 script's metadata: the script is a project of
// its own (Dir is its path).
func LoadScript(file string, src []byte, opts Options) (*Project, []error) {
	l := newLoader(file, opts)
	f := &File{Path: file, Src: src, Lines: pyast.NewLineIndex(src)}
	l.files[file] = f
	l.proj.Files = append(l.proj.Files, f)
	l.readSafely(readScript, f)
	if !opts.NoStyle {
		l.readStyle(path.Dir(file)) // as the folder of a project would
	}
	return l.finish()
}

func readScript(l *loader, f *File) []*Requirement {
	blocks := scriptBlocks(f.Src)
	if len(blocks) == 0 {
		return nil
	}
	if len(blocks) > 1 {
		l.errorf(f, blocks[1][0], "more than one '# /// script' block (PEP 723 forbids it)")
		return nil
	}
	blank := make([]byte, len(f.Src))
	for i, c := range f.Src {
		if c == '\n' || c == '\r' {
			blank[i] = c
		} else {
			blank[i] = ' '
		}
	}
	lineStart := true
	for i := blocks[0][0]; i < blocks[0][1]; i++ {
		c := f.Src[i]
		switch {
		case lineStart: // the "#"
		case i > 0 && f.Src[i-1] == '#' && lineStartAt(f.Src, i-1) && c == ' ': // the space after it
		default:
			blank[i] = c
		}
		lineStart = c == '\n'
	}
	root, err := parseTOML(f.Path, blank)
	if err != nil {
		l.addErr(err)
		return nil
	}
	return pep508Array(l, f, root.get("dependencies"), "script.dependencies", "")
}

func lineStartAt(src []byte, i int) bool { return i == 0 || src[i-1] == '\n' }
