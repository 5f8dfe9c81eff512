package pyast

import (
	"bytes"
	"math"
	"sort"
	"sync"
	"unicode/utf8"
)

// Position is a location in a file: a byte offset plus 1-based line and
// column. Column counts characters (runes); Column16 counts UTF-16 code units,
// as SARIF and LSP-style consumers expect.
type Position struct {
	Offset   int `json:"offset"`
	Line     int `json:"line"`
	Column   int `json:"column"`
	Column16 int `json:"-"`
}

// LineIndex maps byte offsets of one file to lines and columns. The line
// starts are found on the first question: most parsed modules have no
// finding and are never asked (the index was half a byte per byte of
// source, held as long as the module).
type LineIndex struct {
	src    []byte
	once   sync.Once
	starts []uint32 // byte offset of the start of each line (files are read up to 64 MB)
}

// NewLineIndex indexes src. Lines end at "\n", "\r\n" or a lone "\r", as
// CPython reads them.
func NewLineIndex(src []byte) *LineIndex {
	return &LineIndex{src: src}
}

// lineStarts returns the offsets where lines start, found once.
func (li *LineIndex) lineStarts() []uint32 {
	li.once.Do(func() {
		src := li.src
		if len(src) > math.MaxUint32-1 {
			src = src[:math.MaxUint32-1] // mcplint reads no file this large; offsets past it read as its last line
		}
		starts := make([]uint32, 1, len(src)/32+1)
		if bytes.IndexByte(src, '\r') < 0 {
			// Most files: the line ends are the newlines, found a word
			// at a time.
			for off := 0; ; {
				i := bytes.IndexByte(src[off:], '\n')
				if i < 0 {
					break
				}
				off += i + 1
				starts = append(starts, uint32(off))
			}
		} else {
			for i, b := range src {
				if b == '\n' || b == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
					starts = append(starts, uint32(i+1))
				}
			}
		}
		li.starts = starts
	})
	return li.starts
}

// Lines returns the number of lines.
func (li *LineIndex) Lines() int { return len(li.lineStarts()) }

// LineStart returns the byte offset where 1-based line starts.
func (li *LineIndex) LineStart(line int) int {
	if line < 1 {
		return 0
	}
	starts := li.lineStarts()
	if line > len(starts) {
		return len(li.src)
	}
	return int(starts[line-1])
}

// LineText returns the text of 1-based line without its line ending.
func (li *LineIndex) LineText(line int) string {
	starts := li.lineStarts()
	if line < 1 || line > len(starts) {
		return ""
	}
	start := int(starts[line-1])
	end := len(li.src)
	if line < len(starts) {
		end = int(starts[line]) - 1
	}
	if end > start && li.src[end-1] == '\r' {
		end--
	}
	return string(li.src[start:end])
}

// Position converts a byte offset (clamped to the file) to a Position.
func (li *LineIndex) Position(off int) Position {
	if off < 0 {
		off = 0
	}
	if off > len(li.src) {
		off = len(li.src)
	}
	starts := li.lineStarts()
	line := sort.Search(len(starts), func(i int) bool { return int(starts[i]) > off }) // first start after off
	start := int(starts[line-1])
	col, col16 := 1, 1
	for i := start; i < off; {
		r, size := utf8.DecodeRune(li.src[i:])
		if i+size > off {
			break
		}
		i += size
		col++
		if r >= 0x10000 {
			col16 += 2
		} else {
			col16++
		}
	}
	return Position{Offset: off, Line: line, Column: col, Column16: col16}
}
