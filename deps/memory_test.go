package deps

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Memory bounds for the hostile dependency files of issue 14 (a TOML array
// of 10^6 strings, a 10 MB requirements line). They measure bytes, never
// time, at a size that keeps the test quick; scripts/stress.sh runs the full
// sizes.

// liveBytes returns how many heap bytes build's result keeps alive.
func liveBytes(build func() any) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}

// allocatedBytes returns how many bytes f allocates (the test runs alone:
// nothing else allocates meanwhile to speak of).
func allocatedBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// The tree of a TOML array keeps its elements by value in one compact
// allocation: at most 90 bytes an element (72 now) (a pointer per element plus a
// 104-byte value each, as before, was over 115).
func TestTOMLArrayTreeBytes(t *testing.T) {
	const n = 200_000
	src := []byte("[project]\nname = \"p\"\ndependencies = [\"mcp==1.20.0\"," + strings.Repeat(`"x",`, n) + "]\n")
	var root *ttable
	live := liveBytes(func() any {
		var err error
		if root, err = parseTOML("pyproject.toml", src); err != nil {
			t.Fatal(err)
		}
		return root
	})
	if got := len(root.get("project", "dependencies").arr); got != n+1 {
		t.Fatalf("%d elements read, want %d", got, n+1)
	}
	if per := live / n; per > 90 {
		t.Errorf("the tree keeps %d bytes per array element (%d in all), want at most 90", per, live)
	}
}

// A project keeps the requirements of the packages it resolves; the others
// are parsed (an invalid one is still an error) and dropped, unless
// Options.AllRequirements asks for every one.
func TestUntrackedRequirementsNotKept(t *testing.T) {
	const n = 20_000
	src := "[project]\nname = \"p\"\ndependencies = [\"httpx>=0.27\", \"mcp==1.20.0\", \"not a requirement!\"," +
		strings.Repeat(`"x",`, n) + "\"fastmcp-slim<3\", \"anyio>=4\"]\n"
	load := func(all bool) (*Project, []error) {
		opts := Options{AllRequirements: all, ReadFile: func(string) ([]byte, error) { return []byte(src), nil }}
		return Load(".", []string{"pyproject.toml"}, opts)
	}
	p, errs := load(false)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "invalid requirement") {
		t.Errorf("errors %v, want the invalid requirement", errs)
	}
	var names []string
	for _, r := range p.Requirements() {
		names = append(names, r.Name)
	}
	if got := strings.Join(names, " "); got != "mcp fastmcp-slim anyio" {
		t.Errorf("kept %q, want the tracked packages only: mcp fastmcp-slim anyio", got)
	}
	if p.MCP1() != Yes {
		t.Errorf("MCP1 = %v: the pin must still resolve", p.MCP1())
	}
	all, _ := load(true)
	if got := len(all.Requirements()); got != n+4 {
		t.Errorf("AllRequirements kept %d, want %d", got, n+4)
	}
	// What a project keeps does not grow with the untracked entries: the
	// file itself (5 bytes an entry with its line index) and little more.
	live := liveBytes(func() any { p, _ := load(false); return p })
	if per := live / n; per > 64 {
		t.Errorf("the project keeps %d bytes per untracked requirement (%d in all), want at most 64", per, live)
	}
}

// A logical line maps its text to the file by segments: the offsets are
// those of the bytes joined across "\" continuations, CRLF or not.
func TestLogicalLineOffsets(t *testing.T) {
	for _, src := range []string{
		"mcp==1.20.0\n",
		"mcp \\\n  >=1.20,\\\n<2 ; python_version>'3'\nanyio\n",
		"mcp \\\r\n  >=1.20\r\n# c \\\nx\n",
		"a\\\n\\\n\\\nb",
		"",
		"\n\n",
		"tail \\",
	} {
		lines := splitLogicalLines([]byte(src))
		// the reference: the offsets of the bytes kept, line by line
		var want [][]int
		var cur []int
		phys := strings.SplitAfter(src, "\n")
		pos := 0
		for k, pl := range phys {
			body := strings.TrimSuffix(strings.TrimSuffix(pl, "\n"), "\r")
			cont := strings.HasSuffix(body, `\`) && !commentRE.MatchString(body) && strings.HasSuffix(pl, "\n") && k < len(phys)-1
			if cont {
				body = body[:len(body)-1]
			}
			for i := range body {
				cur = append(cur, pos+i)
			}
			if !cont {
				if pl != "" || k == 0 && src != "" {
					want = append(want, append(cur, pos+len(body)))
				}
				cur = nil
			}
			pos += len(pl)
		}
		if len(lines) != len(want) {
			t.Errorf("%q: %d logical lines, want %d", src, len(lines), len(want))
			continue
		}
		for k, ll := range lines {
			for i, w := range want[k] {
				if got := ll.off(i); got != w {
					t.Errorf("%q line %d: off(%d) = %d, want %d", src, k, i, got, w)
				}
			}
			if ll.off(-1) != want[k][0] || ll.off(len(want[k])+5) != want[k][len(want[k])-1] {
				t.Errorf("%q line %d: out-of-range offsets %d %d", src, k, ll.off(-1), ll.off(len(want[k])+5))
			}
		}
	}
}

// A long requirements line costs its text, not an int per byte: splitting
// a 1 MB line allocates well under its size (it used to allocate about 9
// times it), and the line is a slice of the file.
func TestLongRequirementLineBytes(t *testing.T) {
	src := []byte("mcp==1.20.0\nx" + strings.Repeat("a", 1<<20) + "\n")
	if got := allocatedBytes(func() { splitLogicalLines(src) }); got > 4096 {
		t.Errorf("splitting a 1 MB line allocates %d bytes, want at most 4096", got)
	}
}

// A requirements file that repeats one line keeps one parse of it: each
// line's Requirement shares the parsed name, clauses and set. Read apart,
// 20,000 lines of "mcp==1.20.0" kept about 620 bytes each; shared, the
// Requirement alone (under 300 bytes).
func TestRepeatedRequirementLinesShareTheirParse(t *testing.T) {
	const n = 20_000
	src := strings.Repeat("mcp==1.20.0\n", n)
	opts := Options{ReadFile: func(string) ([]byte, error) { return []byte(src), nil }}
	var p *Project
	live := liveBytes(func() any {
		p, _ = Load(".", []string{"requirements.txt"}, opts)
		return p
	})
	reqs := p.Requirements()
	if len(reqs) != n {
		t.Fatalf("%d requirements read, want %d", len(reqs), n)
	}
	if a, b := reqs[0], reqs[n-1]; a.Start == b.Start || b.VersionStart != b.Start+3 || !a.Set.Admits(b.Set) || !b.Set.Admits(a.Set) {
		t.Fatalf("lines 1 and %d read as %+v and %+v", n, a, b)
	}
	if per := live / n; per > 400 {
		t.Errorf("the project keeps %d bytes per repeated line (%d in all), want at most 400", per, live)
	}
}

// splitLogicalLines is logicalLines as a slice, each line with segments of
// its own.
func splitLogicalLines(src []byte) []logicalLine {
	var out []logicalLine
	for ll := range logicalLines(src) {
		ll.segs = slices.Clone(ll.segs)
		out = append(out, ll)
	}
	return out
}

// Past Options.KeepRepeats copies, a line a requirements file repeats
// exactly is a place of the last copy kept (Requirement.Repeats), 8 bytes
// a line; a line that differs (a marker, an option, another name) is a
// requirement of its own, and 0 keeps every copy.
func TestRepeatedRequirementLinesPastTheLimit(t *testing.T) {
	src := "mcp==1.20.0\nmcp==1.20.0\nmcp==1.20.0 ; python_version > '3'\n" +
		strings.Repeat("mcp==1.20.0\n", 5) + "mcp==1.20.0 --hash=sha256:abc\nmcp==1.20.0  # a comment\n"
	load := func(keep int) []*Requirement {
		opts := Options{KeepRepeats: keep, ReadFile: func(string) ([]byte, error) { return []byte(src), nil }}
		p, errs := Load(".", []string{"requirements.txt"}, opts)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return p.Requirements()
	}
	lineOf := func(off int32) int { return strings.Count(src[:off], "\n") + 1 }
	reqs := load(2)
	var got []string
	for _, r := range reqs {
		s := fmt.Sprintf("%d", lineOf(int32(r.Start)))
		for _, sp := range r.Repeats {
			if src[sp.Start:sp.End] != "mcp==1.20.0" {
				t.Errorf("repeat at %d..%d reads %q", sp.Start, sp.End, src[sp.Start:sp.End])
			}
			s += fmt.Sprintf("+%d", lineOf(sp.Start))
		}
		got = append(got, s)
	}
	// Lines 1, 2 kept; 3 has a marker; 4-8 and 10 repeat line 1 (the
	// comment is not part of it); 9 has an option.
	if want := "1 2+4+5+6+7+8+10 3 9"; strings.Join(got, " ") != want {
		t.Errorf("requirements at lines %q, want %q", strings.Join(got, " "), want)
	}
	if n := len(load(0)); n != 10 {
		t.Errorf("KeepRepeats 0 kept %d requirements, want 10", n)
	}
}
