// Package sarif writes an engine.Result as SARIF 2.1.0 for GitHub code
// scanning and other SARIF consumers (VS Code's SARIF viewer, reviewdog,
// Microsoft's SARIF Multitool), on github.com/owenrumney/go-sarif/v2.
//
// go-sarif v3 (v3.3.1) is served and has the same SARIF 2.1.0 model
// regenerated from the schema (plus a 2.2 package, report merging and
// Validate), but its 2.1.0 package links github.com/xeipuuv/gojsonschema,
// unmaintained since 2019, into every program that imports it (for
// Validate), and moving means rewriting this writer's calls (fingerprints
// become map[string]string, other constructors) for the same bytes. mcplint
// stays on v2 and checks its SARIF against the 2.1.0 schema in tests, with
// santhosh-tekuri/jsonschema.
//
// Consumers' quirks this writer follows (staticcheck keeps the same kind of
// list; keep it current when a consumer changes):
//
//   - GitHub code scanning (upload-sarif): URIs must be relative to the
//     repository root, or file:// URIs under the checkout. We write the path
//     relative to the repository root (the nearest folder with .git above the
//     working directory, or Options.RepoRoot), percent-escaped segment by
//     segment, with uriBaseId %SRCROOT% as decoration only: no
//     originalUriBaseIds entry, since reviewdog joins it with the URI and
//     GitHub ignores it.
//   - GitHub matches alerts across commits by partialFingerprints; when a
//     result has none, upload-sarif computes primaryLocationLineHash from the
//     checked-out file, which moves with surrounding code. We write our own
//     primaryLocationLineHash ("<16 hex>:<n>", GitHub's shape) from the rule,
//     the enclosing function and the text of the first line of the finding,
//     with n counting identical hashes in one file, so it survives lines
//     inserted or removed elsewhere; and our own "mcplint/v1" fingerprint of
//     the rule, path, anchor and text of the whole range.
//   - GitHub shows help.markdown (falling back to help.text) and the rule's
//     shortDescription as the alert title, and renders only message.text
//     (not message.markdown) for a result. It reads tags, precision and
//     problem.severity (error, warning, recommendation) from rule properties,
//     and keeps only the first 10 tags (we write fewer).
//   - GitHub limits: 25,000 results per run (only the 5,000 most severe are
//     shown), 10 MB gzip-compressed per upload, 20 runs per file, 1,000
//     locations per result. Write keeps the most severe MaxResults results,
//     records a toolExecutionNotification and returns a warning; it warns
//     when the gzipped log exceeds MaxGzipBytes.
//   - Message links: "[text](n)" in message.text refers to the related
//     location with id n; literal brackets are escaped with a backslash.
//   - Columns are UTF-16 code units (columnKind utf16CodeUnits, the SARIF
//     default that GitHub and VS Code assume); endColumn is exclusive.
//   - go-sarif v2: Suppression marshals its optional fields as null, which
//     the schema rejects, so every suppression sets status, location,
//     a GUID and a justification; rule descriptions and result messages
//     must always be set.
//   - reviewdog (-f=sarif) reads result.fixes[].artifactChanges[].replacements
//     (deletedRegion by line and column, insertedContent.text) and keeps, per
//     file, the replacements of the last fix it sees; it reads columns as if
//     they were bytes. So each result carries one fix (the one `mcplint --fix`
//     would apply, or else the first unsafe one), and its replacements are
//     widened to whole lines (startColumn 1 to column 1 of the line after),
//     which every consumer reads the same way whatever its column unit.
//     Every replacement has insertedContent.text, "" for a deletion.
//   - SARIF Multitool (validate --rule-kind "Gh;Sarif"): messages end with a
//     period; rule names are Pascal case; the tool has a semantic version and
//     an informationUri.
package sarif

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/report"
	"github.com/mcplint/mcplint/rules"
)

// SchemaURI is the $schema of the log.
const SchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

// InformationURI is the tool's home page.
const InformationURI = "https://github.com/mcplint/mcplint"

// GitHub's upload limits.
const (
	MaxResults   = 25000
	MaxGzipBytes = 10 << 20
)

// FingerprintKey is mcplint's own partial fingerprint.
const FingerprintKey = "mcplint/v1"

// Options control the log.
type Options struct {
	// ToolVersion is the driver's semanticVersion.
	ToolVersion string
	// Category is the code scanning category: the run's automationDetails.id
	// is Category + "/". Default "mcplint".
	Category string
	// RepoRoot is the absolute directory URIs are relative to; "" means the
	// paths as reported (relative to the working directory).
	RepoRoot string
	// Unsafe is --unsafe-fixes: the fix a result carries may be unsafe even
	// when a safe one exists later in the list (it never is in practice).
	Unsafe bool
	// MaxResults and MaxGzipBytes override GitHub's limits (tests).
	MaxResults, MaxGzipBytes int
	// MaxSame is how many results with the same rule, severity, file and
	// message the log lists; a toolExecutionNotification counts the rest
	// (report.Fold). 0 lists all. Identical results (the same range too)
	// are one result with an occurrenceCount.
	MaxSame int
}

// Write writes res as a SARIF log. Warnings tell about GitHub limits the log
// exceeds; the log is written anyway. The results are written one by one as
// they are converted, into the log encoded without them: the bytes are those
// of encoding Build's document, which is never held in memory whole.
//
// The gzip-compressed size is measured only when it could exceed the limit:
// a log of n bytes compresses to at most gzipBound(n) bytes, so a log under
// the limit by that margin (every log but those of about 9 MB and more) is
// not compressed at all. A bigger one is encoded again into a gzip writer
// that only counts (the log is not kept to compress it afterwards).
func Write(w io.Writer, res *engine.Result, opts Options) (warnings []string, err error) {
	pl := plan(res, opts)
	warnings = pl.warnings
	bw := bufio.NewWriter(w)
	out := &countWriter{w: bw}
	if err := pl.stream(out); err != nil {
		return nil, err
	}
	limit := opts.MaxGzipBytes
	if limit <= 0 {
		limit = MaxGzipBytes
	}
	if gzipBound(out.n) > limit {
		gzipMeasured.Add(1)
		size := &countWriter{}
		zw := gzip.NewWriter(size)
		if err := plan(res, opts).stream(zw); err != nil {
			return nil, err
		}
		zw.Close()
		if size.n > limit {
			warnings = append(warnings, fmt.Sprintf("the SARIF log is %d bytes gzip-compressed, over GitHub's %d-byte upload limit: narrow the scan (paths, --select) or split it into categories", size.n, limit))
		}
	}
	return warnings, bw.Flush()
}

// gzipBound is an upper bound of the size of n bytes compressed by
// compress/gzip at its default level (what Write measures). DEFLATE can
// expand data; Go's compressor writes each block stored (n+5 bytes) when
// that is smallest, and otherwise with the cheaper of the fixed and the
// dynamic Huffman code, so a block costs at most its fixed-code size: a
// literal 8 or 9 bits, a match of length 3 (taken only within 4096 bytes)
// at most 7+5+10 = 22 bits for 24 bits of input, a longer one at most
// 8+5+5+13 = 31 bits for 32 or more: at most 9 bits per input byte, plus
// 3 bits of block header and 7 of end-of-block. A block ends after 2^14
// tokens of at least one byte each, or at the end of the input; Close adds
// an empty stored block (5 bytes) and the byte boundary; gzip adds a 10-byte
// header and an 8-byte trailer. TestGzipBound checks it on incompressible
// and on repetitive input around the block sizes.
func gzipBound(n int) int {
	blocks := n/(1<<14) + 1
	return n + (n+7)/8 + 2*blocks + 5 + 1 + 18
}

// gzipMeasured counts the logs whose compressed size Write measured (tests
// check that a small log is not compressed).
var gzipMeasured atomic.Int64

// countWriter counts the bytes written through it to w (nil: discarded).
type countWriter struct {
	w io.Writer
	n int
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.w == nil {
		c.n += len(p)
		return len(p), nil
	}
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// encode encodes v as the log is: indented by two spaces, lines after the
// first starting with prefix, no HTML escaping, no final newline, and no raw
// control, bidirectional or line separator character (escape.JSON: a
// message or a snippet quoting a file, or a file name, carries them as
// \uXXXX escapes, which decode to the same text).
func encode(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode SARIF: %w", err)
	}
	return escape.JSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// resultsKey is the results property of the run as encoded. It cannot occur
// inside a string value, where a quote is always escaped.
var resultsKey = []byte(`"results": []`)

// stream writes the log: the document without results, split where they go.
func (pl *logPlan) stream(w io.Writer) error {
	if len(pl.ds) == 0 {
		doc, err := pl.encodeDoc()
		if err != nil {
			return err
		}
		_, err = w.Write(append(doc, '\n'))
		return err
	}
	pl.run.Results = []*gosarif.Result{}
	doc, err := pl.encodeDoc()
	pl.run.Results = nil
	if err != nil {
		return err
	}
	at := bytes.Index(doc, resultsKey)
	if at < 0 || bytes.Index(doc[at+1:], resultsKey) >= 0 {
		return fmt.Errorf("encode SARIF: the results of the run cannot be placed")
	}
	indent := string(doc[bytes.LastIndexByte(doc[:at], '\n')+1 : at])
	if _, err := w.Write(doc[:at+len(resultsKey)-1]); err != nil {
		return err
	}
	io.WriteString(w, "\n")
	for i := range pl.ds {
		r, err := encode(pl.result(i), indent+"  ")
		if err != nil {
			return err
		}
		io.WriteString(w, indent+"  ")
		w.Write(r)
		if i < len(pl.ds)-1 {
			io.WriteString(w, ",")
		}
		io.WriteString(w, "\n")
	}
	io.WriteString(w, indent)
	_, err = w.Write(append(doc[at+len(resultsKey)-1:], '\n'))
	return err
}

// rulesKey is the rules property of the driver as encoded (unique, as
// resultsKey).
var rulesKey = []byte(`"rules": []`)

// encodeDoc encodes the log as it stands. The rules' descriptors (most of
// a small log: their help) are encoded once per process and spliced in;
// the bytes are those of encoding the whole document
// (TestWriteStreamSameBytes, the SARIF goldens).
func (pl *logPlan) encodeDoc() ([]byte, error) {
	driver := pl.run.Tool.Driver
	if !pl.sharedRules || len(driver.Rules) == 0 {
		return encode(pl.rep, "")
	}
	descs := driver.Rules
	driver.Rules = []*gosarif.ReportingDescriptor{}
	doc, err := encode(pl.rep, "")
	driver.Rules = descs
	if err != nil {
		return nil, err
	}
	at := bytes.Index(doc, rulesKey)
	if at < 0 || bytes.Index(doc[at+1:], rulesKey) >= 0 {
		return nil, fmt.Errorf("encode SARIF: the rules of the run cannot be placed")
	}
	prefix := string(doc[bytes.LastIndexByte(doc[:at], '\n')+1 : at])
	enc, err := encodedRules(descs, prefix)
	if err != nil {
		return nil, err
	}
	keyEnd := at + len(rulesKey) - len("[]")
	out := make([]byte, 0, len(doc)+len(enc))
	out = append(append(append(out, doc[:keyEnd]...), enc...), doc[at+len(rulesKey):]...)
	return out, nil
}

// Build returns the SARIF log of res and warnings about limits. Its rule
// descriptors are shared with every other log: read-only.
func Build(res *engine.Result, opts Options) (*gosarif.Report, []string) {
	pl := plan(res, opts)
	for i := range pl.ds {
		pl.run.Results = append(pl.run.Results, pl.result(i))
	}
	return pl.rep, pl.warnings
}

// logPlan is the log without its results, and the findings they come from.
type logPlan struct {
	rep         *gosarif.Report
	run         *gosarif.Run
	ds          []rules.Diagnostic
	index       map[string]int
	occurrences map[occurrence]int
	b           *builder
	warnings    []string
	// sharedRules: the driver's rules are ruleTable's descriptors only
	// (no code outside the registry), so their encoding is reused.
	sharedRules bool
}

// result converts the i-th finding; results must be converted in order
// (fingerprints count identical hashes as they go).
func (pl *logPlan) result(i int) *gosarif.Result {
	d := &pl.ds[i]
	r := pl.b.result(d)
	r.RuleIndex = ptr(uint(pl.index[d.Code]))
	if n := pl.occurrences[occurrenceOf(d)]; n > 1 {
		r.WithOccurrenceCount(n)
	}
	return r
}

// plan prepares the log of res.
func plan(res *engine.Result, opts Options) *logPlan {
	var warnings []string
	rep := &gosarif.Report{Version: string(gosarif.Version210), Schema: SchemaURI}
	version := opts.ToolVersion
	if version == "" {
		version = "0.0.0"
	}
	driver := gosarif.NewDriver("mcplint").WithSemanticVersion(version).WithInformationURI(InformationURI)
	driver.WithFullName("mcplint " + version)
	index := map[string]int{}
	all, descs := ruleDescriptors()
	for i, r := range all {
		index[r.Code] = i
	}
	driver.Rules = descs[:len(descs):len(descs)] // an append copies
	for _, d := range res.Diagnostics {
		if _, ok := index[d.Code]; !ok { // a code no rule documents: still describe it
			index[d.Code] = len(driver.Rules)
			driver.Rules = append(driver.Rules, gosarif.NewRule(d.Code).WithName(pascal(d.Name)).
				WithShortDescription(gosarif.NewMultiformatMessageString(sentence(d.Name))))
		}
	}
	run := gosarif.NewRun(*gosarif.NewTool(driver))
	category := strings.Trim(opts.Category, "/")
	if category == "" {
		category = "mcplint"
	}
	run.WithAutomationDetails(gosarif.NewRunAutomationDetails().WithID(category + "/"))
	run.WithColumnKind("utf16CodeUnits")

	inv := &gosarif.Invocation{ExecutionSuccessful: ptr(true)}
	var ds []rules.Diagnostic
	same := map[*rules.Diagnostic]int{}
	for _, s := range report.Fold(res.Diagnostics, opts.MaxSame) {
		ds = append(ds, *s.D)
		if s.Same > 0 {
			same[s.D] = s.Same + 1
		}
		if n := s.MoreNote(opts.MaxSame); n != "" {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, &gosarif.Notification{Level: "note", Message: gosarif.NewTextMessage(sentence(n))})
		}
	}
	occurrences := map[occurrence]int{}
	for d, n := range same {
		occurrences[occurrenceOf(d)] = n
	}
	ds = orderBySeverity(ds)
	max := opts.MaxResults
	if max <= 0 {
		max = MaxResults
	}
	if len(ds) > max {
		msg := fmt.Sprintf("%d results omitted: GitHub code scanning accepts at most %d results per run; the most severe are kept (see `mcplint check` for all)", len(ds)-max, max)
		warnings = append(warnings, msg)
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, &gosarif.Notification{Level: "warning", Message: gosarif.NewTextMessage(msg + ".")})
		ds = ds[:max]
		engine.SortDiagnostics(ds)
	}
	run.Invocations = []*gosarif.Invocation{inv}
	b := &builder{res: res, opts: opts, lines: map[string]*pyast.LineIndex{}, seen: map[string]int{}}
	rep.AddRun(run)
	shared := len(driver.Rules) == len(descs)
	return &logPlan{rep: rep, run: run, ds: ds, index: index, occurrences: occurrences, b: b, warnings: warnings, sharedRules: shared}
}

// ruleTable holds the rules' descriptors, built once for the registered
// rules (their help is static per build) and shared, read-only, by every
// log; and the descriptors encoded as a log writes them, per line prefix.
var ruleTable struct {
	mu      sync.Mutex
	rules   []*rules.Rule
	descs   []*gosarif.ReportingDescriptor
	encoded map[string][]byte
}

// ruleDescriptors returns the registered rules, sorted by code, and their
// descriptors.
func ruleDescriptors() ([]*rules.Rule, []*gosarif.ReportingDescriptor) {
	all := rules.All()
	ruleTable.mu.Lock()
	defer ruleTable.mu.Unlock()
	if !sameRules(all, ruleTable.rules) { // first use, or a rule registered since (tests)
		ruleTable.rules, ruleTable.descs, ruleTable.encoded = all, nil, map[string][]byte{}
		for _, r := range all {
			ruleTable.descs = append(ruleTable.descs, ruleDescriptor(r))
		}
	}
	return ruleTable.rules, ruleTable.descs
}

func sameRules(a, b []*rules.Rule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// encodedRules returns descs, the table's descriptors, encoded as the log
// encodes the "rules" array on a line starting with prefix.
func encodedRules(descs []*gosarif.ReportingDescriptor, prefix string) ([]byte, error) {
	ruleTable.mu.Lock()
	defer ruleTable.mu.Unlock()
	if len(descs) != len(ruleTable.descs) || len(descs) > 0 && descs[0] != ruleTable.descs[0] {
		return encode(descs, prefix) // the table changed meanwhile (tests)
	}
	if b, ok := ruleTable.encoded[prefix]; ok {
		return b, nil
	}
	b, err := encode(descs, prefix)
	if err == nil {
		ruleTable.encoded[prefix] = b
	}
	return b, err
}

// occurrence identifies identical findings (report.Fold merges them).
type occurrence struct {
	code, path, msg string
	sev             rules.Severity
	start, end      pyast.Position
}

func occurrenceOf(d *rules.Diagnostic) occurrence {
	return occurrence{d.Code, d.Path, d.Message, d.Severity, d.Start, d.End}
}

// orderBySeverity returns the diagnostics, most severe first, each severity
// in file order (the order kept when results must be dropped).
func orderBySeverity(ds []rules.Diagnostic) []rules.Diagnostic {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Severity > ds[j].Severity })
	return ds
}

func ptr[T any](v T) *T { return &v }

func level(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return "error"
	case rules.SeverityWarning:
		return "warning"
	}
	return "note"
}

// problemSeverity is GitHub's problem.severity for a level.
func problemSeverity(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return "error"
	case rules.SeverityWarning:
		return "warning"
	}
	return "recommendation"
}

func ruleDescriptor(r *rules.Rule) *gosarif.ReportingDescriptor {
	d := gosarif.NewRule(r.Code).WithName(pascal(r.Name))
	d.WithShortDescription(gosarif.NewMultiformatMessageString(sentence(r.Doc.Summary)))
	full := unwrap(r.Doc.WhatItDoes)
	if full == "" {
		full = sentence(r.Doc.Summary)
	}
	d.WithFullDescription(gosarif.NewMultiformatMessageString(full))
	d.WithHelp(gosarif.NewMultiformatMessageString(helpText(r)).WithMarkdown(unwrap(r.Markdown())))
	d.WithDefaultConfiguration(gosarif.NewReportingConfiguration().WithLevel(level(r.Severity)))
	tags := append([]string(nil), r.Tags...)
	if len(tags) > 10 {
		tags = tags[:10]
	}
	if tags == nil {
		tags = []string{}
	}
	precision := r.Precision
	if precision == "" {
		precision = "medium"
	}
	d.WithProperties(gosarif.Properties{
		"tags":             tags,
		"precision":        precision,
		"problem.severity": problemSeverity(r.Severity),
		"mcplint.name":     r.Name,
	})
	return d
}

// helpText is the rule's doc as plain text, paragraphs unwrapped.
func helpText(r *rules.Rule) string {
	var b strings.Builder
	b.WriteString(sentence(r.Doc.Summary))
	section := func(title, body string, code bool) {
		body = strings.TrimSpace(body)
		if body == "" {
			return
		}
		if code {
			body = "    " + strings.ReplaceAll(body, "\n", "\n    ")
		} else {
			body = unwrap(body)
		}
		if !strings.HasSuffix(title, "?") {
			title += ":"
		}
		fmt.Fprintf(&b, "\n\n%s\n%s", title, body)
	}
	section("What it does", r.Doc.WhatItDoes, false)
	section("Why is this bad?", r.Doc.WhyIsThisBad, false)
	section("Example", r.Doc.Example, true)
	section("Use instead", r.Doc.UseInstead, true)
	section("Fix safety", r.Doc.FixSafety, false)
	if len(r.Doc.References) > 0 {
		section("References", "- "+strings.Join(r.Doc.References, "\n- "), true)
	}
	return b.String()
}

// unwrap joins the hard-wrapped lines of each paragraph of markdown text,
// leaving code fences, lists, headings and tables alone.
func unwrap(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	var out []string
	fence := false
	joinable := false // the previous output line is paragraph text
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "```"):
			fence = !fence
			out = append(out, l)
			joinable = false
		case fence || t == "":
			out = append(out, l)
			joinable = false
		case joinable && !blockStart(t):
			out[len(out)-1] += " " + t
		default:
			out = append(out, l)
			joinable = !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "|")
		}
	}
	return strings.Join(out, "\n")
}

func blockStart(t string) bool {
	if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, ">") ||
		strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") {
		return true
	}
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) })
	return i > 0 && (strings.HasPrefix(t[i:], ". ") || strings.HasPrefix(t[i:], ") "))
}

// sentence returns s with a capital first letter and a final period.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "No description."
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

// pascal turns "uncancellable-thread-await" into "UncancellableThreadAwait".
func pascal(name string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == ' ' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

type builder struct {
	res   *engine.Result
	opts  Options
	lines map[string]*pyast.LineIndex
	seen  map[string]int // path + line hash -> occurrences so far
}

func (b *builder) lineIndex(path string) *pyast.LineIndex {
	if li, ok := b.lines[path]; ok {
		return li
	}
	var li *pyast.LineIndex
	if src := b.source(path); src != nil {
		li = pyast.NewLineIndex(src)
	}
	b.lines[path] = li
	return li
}

func (b *builder) source(path string) []byte {
	s, err := b.res.Read(path)
	if err != nil {
		return nil
	}
	return s
}

// URI returns the URI of a reported path: relative to root when under it,
// percent-escaped per segment (colons too); a file:// URI otherwise.
func URI(path, root string) string {
	p := filepath.ToSlash(path)
	if root != "" {
		abs, err := filepath.Abs(filepath.FromSlash(path))
		if err == nil {
			if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				p = filepath.ToSlash(rel)
			} else {
				u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
				return u.String()
			}
		}
	}
	p = strings.TrimPrefix(p, "./")
	if strings.HasPrefix(p, "/") {
		u := url.URL{Scheme: "file", Path: p}
		return u.String()
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		// A colon is legal in a path segment, but in the first segment of a
		// relative reference it would read as a scheme ("http:x/a.py").
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

func (b *builder) artifact(path string) *gosarif.ArtifactLocation {
	uri := URI(path, b.opts.RepoRoot)
	a := gosarif.NewSimpleArtifactLocation(uri)
	if !strings.HasPrefix(uri, "file:") {
		a.WithUriBaseId("%SRCROOT%")
	}
	return a
}

func region(start, end pyast.Position) *gosarif.Region {
	sl, sc := max(start.Line, 1), max(start.Column16, 1)
	el, ec := max(end.Line, sl), max(end.Column16, 1)
	if el == sl && ec < sc {
		ec = sc
	}
	return gosarif.NewRegion().WithStartLine(sl).WithStartColumn(sc).WithEndLine(el).WithEndColumn(ec)
}

// escapeMessage escapes the characters SARIF message strings reserve for
// embedded links.
// messageEscaper escapes brackets and backslashes in message text (built
// once: a Replacer builds its tables on first use, 6 KB a call before).
var messageEscaper = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`)

func escapeMessage(s string) string { return messageEscaper.Replace(s) }

func (b *builder) result(d *rules.Diagnostic) *gosarif.Result {
	r := gosarif.NewRuleResult(d.Code).WithLevel(level(d.Severity))
	msg := escapeMessage(sentence(d.Message))
	var links []string
	for i, rel := range d.Related {
		id := i + 1
		links = append(links, fmt.Sprintf("[%s](%d)", escapeMessage(strings.TrimSuffix(rel.Message, ".")), id))
		loc := gosarif.NewLocationWithPhysicalLocation(gosarif.NewPhysicalLocation().
			WithArtifactLocation(b.artifact(rel.Path)).WithRegion(region(rel.Start, rel.End))).
			WithId(id).WithMessage(gosarif.NewTextMessage(sentence(rel.Message)))
		r.RelatedLocations = append(r.RelatedLocations, loc)
	}
	if len(links) > 0 {
		msg += " See " + strings.Join(links, ", ") + "."
	}
	r.WithMessage(gosarif.NewTextMessage(msg))
	loc := gosarif.NewLocationWithPhysicalLocation(gosarif.NewPhysicalLocation().
		WithArtifactLocation(b.artifact(d.Path)).WithRegion(region(d.Start, d.End)))
	if d.Anchor != "" {
		loc.WithLogicalLocations([]*gosarif.LogicalLocation{{FullyQualifiedName: ptr(d.Anchor)}})
	}
	r.AddLocation(loc)
	b.fingerprints(r, d)
	if f := fix.Choose(d, b.opts.Unsafe); f != nil {
		r.AddFix(b.fix(f))
	} else if f := fix.Choose(d, true); f != nil {
		r.AddFix(b.fix(f))
	}
	if s := d.Suppression; s != nil {
		sl := gosarif.NewLocationWithPhysicalLocation(gosarif.NewPhysicalLocation().
			WithArtifactLocation(b.artifact(s.Path)).WithRegion(region(s.Start, s.End)))
		r.AddSuppression(gosarif.NewSuppression("inSource").WithStatus("accepted").WithLocation(sl).
			WithGuid(guid(r.PartialFingerprints[FingerprintKey].(string))).WithJustifcation(s.Justification))
	}
	return r
}

// normalize collapses whitespace so that re-indentation does not change a
// fingerprint.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fingerprints sets primaryLocationLineHash and mcplint/v1: neither depends
// on line numbers, so inserting lines above a finding keeps them.
func (b *builder) fingerprints(r *gosarif.Result, d *rules.Diagnostic) {
	line, text := "", ""
	if li := b.lineIndex(d.Path); li != nil {
		line = normalize(li.LineText(d.Start.Line))
		if src := b.source(d.Path); d.Start.Offset <= d.End.Offset && d.End.Offset <= len(src) {
			text = normalize(string(src[d.Start.Offset:d.End.Offset]))
		}
	} else {
		text = d.Message
	}
	lh := hash(d.Code, d.Anchor, line)[:16]
	key := d.Path + "\x00" + lh
	b.seen[key]++
	own := hash(d.Code, URI(d.Path, b.opts.RepoRoot), d.Anchor, text, fmt.Sprint(b.seen[key]))
	// (go-sarif's SetPartialFingerPrint panics on a fresh Result.)
	r.PartialFingerprints = map[string]any{
		"primaryLocationLineHash": fmt.Sprintf("%s:%d", lh, b.seen[key]),
		FingerprintKey:            own[:32],
	}
}

// guid turns a hex fingerprint into a GUID-shaped string (SARIF requires
// the pattern of a GUID for suppression guids).
func guid(hexs string) string {
	h := hash(hexs)
	return fmt.Sprintf("%s-%s-4%s-8%s-%s", h[0:8], h[8:12], h[13:16], h[17:20], h[20:32])
}

// fix converts a fix to SARIF with replacements widened to whole lines.
func (b *builder) fix(f *rules.Fix) *gosarif.Fix {
	out := gosarif.NewFix().WithDescription(gosarif.NewTextMessage(strings.TrimSuffix(strings.TrimSpace(f.Message), ".") + " (" + f.Applicability.String() + " fix)."))
	order, byPath := f.EditsByFile()
	out.ArtifactChanges = []*gosarif.ArtifactChange{}
	for _, p := range order {
		ch := gosarif.NewArtifactChange(b.artifact(p))
		ch.Replacements = []*gosarif.Replacement{}
		src := b.source(p)
		li := b.lineIndex(p)
		if li == nil {
			li = pyast.NewLineIndex(src)
		}
		for _, rep := range lineReplacements(src, li, byPath[p]) {
			ch.WithReplacement(rep)
		}
		out.AddArtifactChanges(ch)
	}
	return out
}

// lineReplacements turns byte edits of one file into replacements of whole
// lines: each edit covers the lines it touches (an insertion covers the line
// it is inserted before), overlapping spans are merged, a span runs from the
// start of its first line to the start of the line after its last one, and
// the inserted text is that span after the edits. li is src's line index
// (built once per file by the caller).
func lineReplacements(src []byte, li *pyast.LineIndex, edits []rules.Edit) []*gosarif.Replacement {
	edits = append([]rules.Edit(nil), edits...)
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	type span struct {
		start, end int // byte range of whole lines
		edits      []rules.Edit
	}
	var spans []*span
	for _, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			continue
		}
		s := li.LineStart(li.Position(e.Start).Line)
		end := spanEnd(src, li, e)
		if n := len(spans); n > 0 && (s < spans[n-1].end || s == spans[n-1].start) {
			last := spans[n-1]
			last.end = max(last.end, end)
			last.edits = append(last.edits, e)
			continue
		}
		spans = append(spans, &span{start: s, end: end, edits: []rules.Edit{e}})
	}
	var out []*gosarif.Replacement
	nl := fix.Newline(src) // the file's, as --fix writes, not the span's
	for _, sp := range spans {
		shifted := make([]rules.Edit, len(sp.edits))
		for i, e := range sp.edits {
			e.Start -= sp.start
			e.End -= sp.start
			shifted[i] = e
		}
		text := string(fix.ApplyNewline(src[sp.start:sp.end], shifted, nl))
		reg := gosarif.NewRegion().WithStartLine(li.Position(sp.start).Line).WithStartColumn(1)
		end := li.Position(sp.end)
		if atLineStart(src, sp.end) {
			reg.WithEndLine(end.Line).WithEndColumn(1)
		} else { // the last line of a file with no final newline
			reg.WithEndLine(end.Line).WithEndColumn(end.Column16)
		}
		out = append(out, gosarif.NewReplacement(reg).WithInsertedContent(gosarif.NewArtifactContent().WithText(text)))
	}
	return out
}

func atLineStart(src []byte, off int) bool { return off == 0 || src[off-1] == '\n' }

// spanEnd returns where the whole-line span of an edit ends: the start of
// the line after the last line the edit touches. A non-empty edit that ends
// at a line start does not touch that line; an insertion covers the line it
// is inserted before.
func spanEnd(src []byte, li *pyast.LineIndex, e rules.Edit) int {
	if e.End > e.Start && atLineStart(src, e.End) {
		return e.End
	}
	p := li.Position(e.End)
	if p.Line >= li.Lines() {
		return len(src)
	}
	return li.LineStart(p.Line + 1)
}
