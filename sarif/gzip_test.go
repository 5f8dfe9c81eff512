package sarif

import (
	"bytes"
	"compress/gzip"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/rules"
)

func gzipLen(t *testing.T, b []byte) int {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Len()
}

// TestGzipBound: no input compresses to more than gzipBound of its size:
// random bytes (incompressible: stored blocks, or the fixed code where a
// block cannot be stored), repeated text, and text whose only matches are
// 3 bytes long, at sizes around the block and window sizes.
func TestGzipBound(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	random := make([]byte, 300_000)
	rng.Read(random)
	// Three-byte matches only: each 3-byte group from a small alphabet
	// recurs, with a random byte between groups.
	short := make([]byte, len(random))
	for i := range short {
		if i%4 == 3 {
			short[i] = byte(rng.Intn(256))
		} else {
			short[i] = "abcdefgh"[rng.Intn(8)]
		}
	}
	repeated := bytes.Repeat([]byte(`{"ruleId": "MCP101", "level": "error"},`+"\n"), 8000)
	for _, n := range []int{0, 1, 2, 100, 1<<14 - 1, 1 << 14, 1<<14 + 1, 1<<15 + 7, 1<<16 - 1, 1 << 16, 1<<16 + 1, 100_000, 1 << 17, 300_000} {
		for name, data := range map[string][]byte{"random": random, "short matches": short, "repeated": repeated} {
			if n > len(data) {
				continue
			}
			if got, bound := gzipLen(t, data[:n]), gzipBound(n); got > bound {
				t.Errorf("%s, %d bytes: gzip gives %d bytes, over the bound %d", name, n, got, bound)
			}
		}
	}
	// The bound is not vacuous: incompressible data does grow.
	if got := gzipLen(t, random[:1<<16]); got <= 1<<16 {
		t.Errorf("random bytes compressed to %d bytes: the test no longer exercises expansion", got)
	}
}

// TestGzipLimitBothSides: a log whose bound is within the limit is not
// compressed and gets no warning (and really is within it compressed); one
// just over it is measured, and the warning gives the log's real gzip
// size.
func TestGzipLimitBothSides(t *testing.T) {
	src := "x = 1\ny = 2\nz = 3\n"
	res := result(map[string]string{"a.py": src}, diag("a.py", src, "MCP101", "y = 2", rules.SeverityWarning))
	var buf bytes.Buffer
	if _, err := Write(&buf, res, Options{}); err != nil {
		t.Fatal(err)
	}
	n, z := buf.Len(), gzipLen(t, buf.Bytes())
	if z >= n {
		t.Fatalf("a log of %d bytes compresses to %d: the test needs a compressible log", n, z)
	}

	// Under: the limit is the bound of the log's size. Not compressed.
	buf.Reset()
	before := gzipMeasured.Load()
	warnings, err := Write(&buf, res, Options{MaxGzipBytes: gzipBound(n)})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 || buf.Len() != n {
		t.Errorf("limit %d for %d bytes: warnings %q, %d bytes", gzipBound(n), n, warnings, buf.Len())
	}
	if gzipMeasured.Load() != before {
		t.Errorf("a log within the limit by the bound was compressed")
	}

	// Just over the threshold, the log is compressed and fits: no warning.
	buf.Reset()
	if warnings, err = Write(&buf, res, Options{MaxGzipBytes: gzipBound(n) - 1}); err != nil || len(warnings) != 0 {
		t.Errorf("limit %d (gzip size %d): warnings %q, %v", gzipBound(n)-1, z, warnings, err)
	}
	if gzipMeasured.Load() != before+1 {
		t.Errorf("a log over the threshold was not measured")
	}

	// A limit of the gzip size fits exactly; one byte less does not, and
	// the warning says the size the log compresses to.
	buf.Reset()
	if warnings, err = Write(&buf, res, Options{MaxGzipBytes: z}); err != nil || len(warnings) != 0 {
		t.Errorf("limit %d = gzip size: warnings %q, %v", z, warnings, err)
	}
	buf.Reset()
	warnings, err = Write(&buf, res, Options{MaxGzipBytes: z - 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "is "+strconv.Itoa(z)+" bytes gzip-compressed") {
		t.Errorf("limit %d, gzip size %d: warnings %q", z-1, z, warnings)
	}
	if buf.Len() != n {
		t.Errorf("the log over the limit is %d bytes, want %d (written once, whole)", buf.Len(), n)
	}
}
