package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/fix"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// MaxMarkdownDetails bounds the findings the markdown report shows with an
// excerpt and a diff; the others get one line each. GitHub truncates a step
// summary over 1 MiB.
var MaxMarkdownDetails = 100

// Markdown writes a report for a person: the verdict, a table of the
// projects, then per project the resolved mcp / fastmcp / anyio versions
// and where they come from, the handlers found, and the findings per rule
// with a code excerpt and the diff of the fix --fix (or --unsafe-fixes)
// would apply. It suits $GITHUB_STEP_SUMMARY and audits.
//
// It is written as it is rendered, and folds repeated findings as the text
// output does (Options.MaxSame).
func Markdown(w io.Writer, res *engine.Result, opts Options) error {
	b := bufio.NewWriter(w)
	b.WriteString("# mcplint report\n\n")
	WriteMarkdownBody(b, res, opts, 2)
	return b.Flush()
}

// MarkdownWriter is where WriteMarkdownBody writes: a *bufio.Writer or a
// *strings.Builder.
type MarkdownWriter interface {
	io.Writer
	io.StringWriter
}

// WriteMarkdownBody writes the report without its title; headings start
// at level (2 for a report of its own, 3 inside an audit).
func WriteMarkdownBody(b MarkdownWriter, res *engine.Result, opts Options, level int) {
	h := func(extra int) string { return strings.Repeat("#", level+extra) + " " }
	ds := Visible(res.Diagnostics)
	c := Count(ds, opts.Unsafe)
	overall := Overall(res)
	projects := indexProjects(res)
	verdicts := projects.verdicts()
	byProject := projects.group(ds)
	fmt.Fprintf(b, "**Crashes on cancel: %s** · %s", overall, plural(c.Total, "finding"))
	if c.Total > 0 {
		fmt.Fprintf(b, " (%s)", c.breakdown())
	}
	fmt.Fprintf(b, " · %s · %s read, %d parsed\n\n", plural(len(res.Projects), "project"), plural(res.Files, "file"), res.Parsed)
	if o := opts.Outcome; o != nil && o.Fixed > 0 {
		fmt.Fprintf(b, "Fixed %s in %s.\n\n", plural(o.Fixed, "finding"), plural(len(o.Files), "file"))
	}
	if c.Fixable > 0 || c.Hidden > 0 {
		fmt.Fprintf(b, "%d fixable with `mcplint --fix`", c.Fixable)
		if c.Hidden > 0 {
			fmt.Fprintf(b, ", %d more with `--unsafe-fixes`", c.Hidden)
		}
		b.WriteString(".\n\n")
	}
	if len(res.Projects) > 0 {
		b.WriteString("| Project | mcp | fastmcp | anyio | Handlers | Findings | Crashes on cancel |\n|---|---|---|---|---|---|---|\n")
		for _, p := range res.Projects {
			fmt.Fprintf(b, "| %s |", cell(mdCode(p.Dir)))
			for _, pkg := range VersionPackages {
				fmt.Fprintf(b, " %s |", cell(mdText(strings.TrimPrefix(Describe(p, pkg), pkg+" "))))
			}
			fmt.Fprintf(b, " %d | %s | %s |\n", len(p.Handlers), cell(codeCounts(byProject[p])), verdictCell(verdicts[p]))
		}
		b.WriteString("\n")
	}
	lines := map[string]*pyast.LineIndex{}
	details := 0
	for _, p := range res.Projects {
		fmt.Fprintf(b, "%sProject %s\n\n", h(0), mdCode(p.Dir))
		fmt.Fprintf(b, "Crashes on cancel: **%s**", verdicts[p])
		switch {
		case len(p.Handlers) == 0 && verdicts[p] == baseVerdict(p):
			b.WriteString(" (no MCP request handler found)")
		case len(p.Handlers) == 0:
			// Not "yes ... no handler found": the findings decide (a
			// workspace root's pin that its members' servers install).
			b.WriteString(" (from its findings below: no MCP request handler is registered in this project's own code)")
		}
		b.WriteString("\n\n")
		if g := p.Guard; g != nil {
			fmt.Fprintf(b, "Guarded by `%s:%d`: respond() and cancel() return early once a request was answered, so the "+
				"handler findings are notes (`--show-safe`). Remove the guard when moving to mcp 2.x.\n\n", g.Path, g.Line)
		}
		var vs []string
		for _, pkg := range VersionPackages {
			if s := Describe(p, pkg); s != "" {
				vs = append(vs, "- "+mdText(s))
			}
		}
		if len(vs) > 0 {
			b.WriteString("Versions:\n\n" + strings.Join(vs, "\n") + "\n\n")
		}
		if len(p.Handlers) > 0 {
			fmt.Fprintf(b, "<details><summary>%s found</summary>\n\n| Handler | Kind | Framework | Where |\n|---|---|---|---|\n", plural(len(p.Handlers), "handler"))
			for _, hd := range p.Handlers {
				async := ""
				if !hd.Async {
					async = " (sync)"
				}
				fmt.Fprintf(b, "| %s%s | %s | %s | %s |\n", cell(mdCode(hd.Name)), async, cell(mdText(hd.Kind)), cell(mdText(hd.Framework.String())), cell(mdCode(fmt.Sprintf("%s:%d", hd.Path, hd.Line))))
			}
			b.WriteString("\n</details>\n\n")
		}
		writeFindings(b, res, byProject[p], opts, h(1), lines, &details)
	}
	if rest := byProject[nil]; len(rest) > 0 {
		fmt.Fprintf(b, "%sOutside any project\n\n", h(0))
		writeFindings(b, res, rest, opts, h(1), lines, &details)
	}
}

func verdictCell(v Verdict) string {
	if v == VerdictYes {
		return "**yes**"
	}
	return v.String()
}

// codeCounts returns "MCP101 ×2, MCP104 ×1" for a project's findings.
func codeCounts(ds []*rules.Diagnostic) string {
	n := map[string]int{}
	for _, d := range ds {
		n[d.Code]++
	}
	var parts []string
	for _, code := range sortedKeys(n) {
		parts = append(parts, fmt.Sprintf("%s ×%d", code, n[code]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// cell makes markdown (already escaped: mdText, mdCode) fit a table cell:
// a pipe, even in a code span, would end the cell.
func cell(s string) string {
	if s == "" {
		return "–"
	}
	return cellEscaper.Replace(s)
}

// cellEscaper is built once: building a Replacer per cell was most of a
// markdown report's time (a cell per handler: 33,000 on a monorepo).
var cellEscaper = strings.NewReplacer("|", `\|`, "\n", " ")

func writeFindings(b MarkdownWriter, res *engine.Result, ds []*rules.Diagnostic, opts Options, h string, lines map[string]*pyast.LineIndex, details *int) {
	if len(ds) == 0 {
		b.WriteString("No findings.\n\n")
		return
	}
	byCode := map[string][]*rules.Diagnostic{}
	for _, d := range ds {
		byCode[d.Code] = append(byCode[d.Code], d)
	}
	codes := sortedKeys(byCode)
	sort.Strings(codes)
	for _, code := range codes {
		list := byCode[code]
		fmt.Fprintf(b, "%s%s %s (%d)\n\n", h, code, list[0].Name, len(list))
		if r := rules.Lookup(code); r != nil && r.Doc.Summary != "" {
			fmt.Fprintf(b, "%s. See `mcplint explain %s`.\n\n", strings.TrimSuffix(r.Doc.Summary, "."), code)
		}
		for _, s := range foldPtrs(list, opts.MaxSame) {
			d := s.D
			if *details >= MaxMarkdownDetails {
				head, why := rules.Headline(d.Message)
				fmt.Fprintf(b, "- %s %s: %s\n", mdCode(fmt.Sprintf("%s:%d:%d", d.Path, d.Start.Line, d.Start.Column)), d.Severity, mdText(head))
				for _, n := range why {
					fmt.Fprintf(b, "  - %s\n", mdText(n))
				}
			} else {
				*details++
				writeFindingDetail(b, res, d, opts, lines)
			}
			for _, n := range []string{s.SameNote(), s.MoreNote(opts.MaxSame)} {
				if n != "" {
					fmt.Fprintf(b, "- _%s_\n", mdText(n))
				}
			}
		}
		if *details >= MaxMarkdownDetails {
			b.WriteString("\n")
		}
	}
}

func writeFindingDetail(b MarkdownWriter, res *engine.Result, d *rules.Diagnostic, opts Options, lines map[string]*pyast.LineIndex) {
	// The headline beside the location; the notes (the mechanism,
	// versions) folded below the excerpt, as the fix's diff is: a reviewer
	// scans headlines and opens the why when needed.
	head, why := rules.Headline(d.Message)
	fmt.Fprintf(b, "**%s** (%s): %s\n\n", mdCode(fmt.Sprintf("%s:%d:%d", d.Path, d.Start.Line, d.Start.Column)), d.Severity, mdText(head))
	if li := lineIndex(res, d.Path, lines); li != nil {
		first := max(1, d.Start.Line-1)
		last := min(li.Lines(), max(d.End.Line, d.Start.Line)+1, first+maxFrameLines)
		src := source(res, d.Path)
		if last > d.Start.Line && last == li.Lines() && len(lineBytes(src, li, last)) == 0 {
			last-- // the empty "line" after a final newline
		}
		width := len(fmt.Sprint(last))
		var code strings.Builder
		for n := first; n <= last; n++ {
			marker := " "
			if n >= d.Start.Line && n <= max(d.End.Line, d.Start.Line) {
				marker = ">"
			}
			at := 0
			if n == d.Start.Line {
				at = lineByte(lineBytes(src, li, n), d.Start.Offset-li.LineStart(n), d.Start.Column)
			}
			fmt.Fprintf(&code, "%s%*d | %s\n", marker, width, n, vis(excerpt(d.Path, lineBytes(src, li, n), at)))
		}
		fence := mdFence(code.String())
		fmt.Fprintf(b, "%s%s\n%s%s\n\n", fence, fenceLanguage(d.Path), code.String(), fence)
	}
	if len(why) > 0 {
		b.WriteString("<details><summary>Why</summary>\n\n")
		for _, n := range why {
			fmt.Fprintf(b, "- %s\n", mdText(n))
		}
		b.WriteString("\n</details>\n\n")
	}
	for _, r := range d.Related {
		fmt.Fprintf(b, "- %s (%s)\n", mdText(r.Message), mdCode(fmt.Sprintf("%s:%d", r.Path, r.Start.Line)))
	}
	if len(d.Related) > 0 {
		b.WriteString("\n")
	}
	f := fix.Choose(d, opts.Unsafe)
	if f == nil {
		f = fix.Choose(d, true)
	}
	if f == nil {
		for _, alt := range d.Fixes {
			fmt.Fprintf(b, "Suggestion: %s\n\n", mdText(alt.Message))
		}
		return
	}
	diff := visibleLines(FixDiff(res, f))
	fence := mdFence(diff)
	fmt.Fprintf(b, "<details><summary>Fix (%s): %s</summary>\n\n%sdiff\n%s%s\n\n</details>\n\n", f.Applicability, mdHTML(f.Message), fence, diff, fence)
}

// FixDiff returns the unified diff of one fix, file by file.
func FixDiff(res *engine.Result, f *rules.Fix) string {
	order, byPath := f.EditsByFile()
	var out strings.Builder
	for _, p := range order {
		if edits := byPath[p]; len(edits) > 0 && edits[0].Create {
			out.WriteString(fix.NewFileDiff(p, fix.Apply(nil, edits)))
			continue
		}
		src := source(res, p)
		if src == nil {
			fmt.Fprintf(&out, "# %s: file not available\n", p)
			continue
		}
		edits := byPath[p]
		valid := true
		for _, e := range edits {
			if e.Start < 0 || e.End < e.Start || e.End > len(src) {
				valid = false
			}
		}
		if !valid {
			fmt.Fprintf(&out, "# %s: edit out of range\n", p)
			continue
		}
		out.WriteString(fix.UnifiedDiff(p, src, fix.Apply(src, edits)))
	}
	return out.String()
}

func fenceLanguage(path string) string {
	switch {
	case strings.HasSuffix(path, ".py"):
		return "python"
	case strings.HasSuffix(path, ".toml") || strings.HasSuffix(path, ".lock"):
		return "toml"
	}
	return "text"
}
