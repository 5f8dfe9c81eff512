package deps

import (
	"bytes"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// Dependency files in UTF-16 or UTF-32. pip reads a requirements file by its
// byte order mark (pip._internal.utils.encoding.auto_decode: UTF-8, UTF-16
// and UTF-32, either byte order), and Windows tools write UTF-16 ones
// (PowerShell's `pip freeze > requirements.txt`). Such a file is read as the
// UTF-8 text it decodes to; its findings' lines and columns are those of
// that text (the same characters), and the fixes that would edit it are
// advice only: mcplint writes a file in the bytes it read, and these it did
// not read as bytes. A UTF-8 BOM needs no decoding: the readers skip it.

// wideBOMs are the byte order marks of the encodings Decode reads, UTF-32
// first (its little-endian mark starts with UTF-16's).
var wideBOMs = []struct {
	bom  []byte
	name string
	enc  encoding.Encoding
}{
	{[]byte{0xFF, 0xFE, 0x00, 0x00}, "UTF-32", utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM)},
	{[]byte{0x00, 0x00, 0xFE, 0xFF}, "UTF-32", utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM)},
	{[]byte{0xFF, 0xFE}, "UTF-16", unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)},
	{[]byte{0xFE, 0xFF}, "UTF-16", unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)},
}

// Decode returns src as UTF-8 text when it starts with a UTF-16 or UTF-32
// byte order mark, with the encoding's name; otherwise src itself and "".
// Bytes that do not decode become U+FFFD, as Python's "replace" does.
func Decode(src []byte) ([]byte, string) {
	for _, b := range wideBOMs {
		if !bytes.HasPrefix(src, b.bom) {
			continue
		}
		out, err := b.enc.NewDecoder().Bytes(src)
		if err != nil {
			return src, ""
		}
		return out, b.name
	}
	return src, ""
}
