package baseline

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// fuzzResult builds a result by hand: findings in file dir/a.py (contents
// src) decoded from ops, 4 bytes each: start, length, code and anchor, and
// whether a suppression comment matched it.
func fuzzResult(dir string, src, ops []byte) *engine.Result {
	path := filepath.ToSlash(filepath.Join(dir, "a.py"))
	res := &engine.Result{Sources: map[string][]byte{path: src}, Dropped: map[string]int{}}
	codes := []string{"MCP101", "MCP104", "MCP001"}
	anchors := []string{"", "server.t", "mcp", "a.b.<locals>.c"}
	li := pyast.NewLineIndex(src)
	for i := 0; i+4 <= len(ops) && len(res.Diagnostics) < 64; i += 4 {
		start := int(ops[i]) % (len(src) + 1)
		end := min(start+int(ops[i+1]%32), len(src))
		d := rules.Diagnostic{
			Code: codes[int(ops[i+2])%len(codes)], Anchor: anchors[int(ops[i+3]&0x7f)%len(anchors)],
			Location: rules.Location{Path: path, Start: li.Position(start), End: li.Position(end)},
		}
		if ops[i+3]&0x80 != 0 {
			d.Suppression = &rules.Suppression{}
		}
		res.Diagnostics = append(res.Diagnostics, d)
	}
	return res
}

// normalised is f with each count as Process reads it (0 and 1 alike).
func normalised(f *File) File {
	g := *f
	g.Findings = append([]Entry(nil), f.Findings...)
	for i := range g.Findings {
		g.Findings[i].Count = max(g.Findings[i].Count, 1)
	}
	return g
}

// FuzzBaseline reads arbitrary bytes as a baseline file and matches
// generated findings against it, and records generated findings and reads
// them back. Reading never panics; a file it accepts writes back to a file
// that reads the same; matching drops each finding at most once per
// recorded count, keeps every suppressed finding, and accounts for every
// entry (matched + stale = recorded); and a baseline written from findings
// drops exactly those findings, also after lines are inserted above them.
func FuzzBaseline(f *testing.F) {
	// A baseline as mcplint writes it, from the findings of server (the
	// package's test project).
	root := f.TempDir()
	if err := os.WriteFile(filepath.Join(root, "requirements.txt"), []byte("mcp==1.20.0\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "server.py"), []byte(server), 0o644); err != nil {
		f.Fatal(err)
	}
	res, err := engine.Run([]string{root}, engine.Options{})
	if err != nil {
		f.Fatal(err)
	}
	written, _, err := encode(Build(res, root))
	if err != nil || len(res.Diagnostics) == 0 {
		f.Fatalf("no baseline to seed from: %v", err)
	}
	f.Add(written, []byte(server), []byte{0, 8, 0, 1})
	f.Add([]byte(`{"version":1,"tool":"mcplint","findings":[{"fingerprint":"x","code":"MCP101","path":"a.py","snippet":"y","count":2}]}`),
		[]byte(server), []byte{200, 30, 0, 1, 200, 30, 0, 1, 10, 5, 1, 0x82})
	f.Add([]byte(`{"version":1,"findings":[{"fingerprint":"a"}],"x":1}`), []byte("x = 1\r\ny\t=  2\n"), []byte{0, 1, 2, 3, 4, 0, 1, 2})
	f.Add([]byte(`{"version":2}`), []byte(""), []byte{0, 0, 0, 0})
	f.Add([]byte("{\"version\":1,\"findings\":[{\"fingerprint\":\"\\u001b[2J\",\"count\":-3}]} trailing"), []byte("\n\n\n"), []byte{1, 0, 0, 0})
	dir := filepath.ToSlash(f.TempDir())
	f.Fuzz(func(t *testing.T, data, src, ops []byte) {
		// Any bytes.
		if bf, err := decode("b.json", data); err == nil {
			want := normalised(bf)
			b, _, err := encode(bf)
			if err != nil {
				t.Fatal(err)
			}
			back, err := decode("b.json", b)
			if err != nil {
				t.Fatalf("a baseline that was read does not read back once written: %v\n%s", err, b)
			}
			if got := normalised(back); !reflect.DeepEqual(got, want) {
				t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
			}
			res := fuzzResult(dir, src, ops)
			checkProcess(t, &Filter{file: &want, dir: dir}, res)
		}

		// Written from findings, read back.
		res := fuzzResult(dir, src, ops)
		b, n, err := encode(Build(res, dir))
		if err != nil {
			t.Fatal(err)
		}
		bf, err := decode("b.json", b)
		if err != nil {
			t.Fatalf("a written baseline does not read: %v\n%s", err, b)
		}
		reported := 0
		for _, d := range res.Diagnostics {
			if d.Suppression == nil {
				reported++
			}
		}
		if n != reported {
			t.Fatalf("the baseline records %d findings, %d were reported", n, reported)
		}
		for _, shift := range []string{"", "# a line above\n\n"} {
			moved := fuzzResult(dir, append([]byte(shift), src...), nil)
			for _, d := range res.Diagnostics {
				d.Start.Offset += len(shift)
				d.End.Offset += len(shift)
				moved.Diagnostics = append(moved.Diagnostics, d)
			}
			filter := &Filter{file: bf, dir: dir}
			out := checkProcess(t, filter, moved)
			if filter.Matched != reported || filter.Stale != 0 || len(out) != len(res.Diagnostics)-reported {
				t.Fatalf("shift %q: a baseline of %d findings matched %d, %d stale, %d left", shift, reported, filter.Matched, filter.Stale, len(out))
			}
		}
	})
}

// checkProcess runs the filter on res and checks the accounting.
func checkProcess(t *testing.T, filter *Filter, res *engine.Result) []rules.Diagnostic {
	t.Helper()
	in := append([]rules.Diagnostic(nil), res.Diagnostics...)
	out, err := filter.Process(res, res.Diagnostics)
	if err != nil {
		t.Fatal(err)
	}
	recorded := 0
	for _, e := range filter.file.Findings {
		recorded += max(e.Count, 1)
	}
	if filter.Matched+len(out) != len(in) || filter.Matched+filter.Stale != recorded || filter.Stale < 0 || res.Dropped[DroppedKey] != filter.Matched {
		t.Fatalf("%d findings, %d recorded: %d matched, %d left, %d stale, %d dropped", len(in), recorded, filter.Matched, len(out), filter.Stale, res.Dropped[DroppedKey])
	}
	// What is left is the input minus the matched ones, in order, with
	// every suppressed finding.
	j := 0
	for _, d := range in {
		if j < len(out) && reflect.DeepEqual(out[j], d) {
			j++
		} else if d.Suppression != nil {
			t.Fatalf("a suppressed finding was dropped: %+v", d)
		}
	}
	if j != len(out) {
		t.Fatal("the findings left are not a subsequence of the input")
	}
	return out
}
