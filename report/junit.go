package report

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
)

// JUnit report elements, in the structure of the Ant/Jenkins JUnit XML
// schema that CI systems (GitLab's artifacts:reports:junit, Jenkins,
// Azure, CircleCI) read.
type (
	JUnitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Suites   []JUnitSuite `xml:"testsuite"`
	}
	JUnitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Cases    []JUnitCase `xml:"testcase"`
	}
	JUnitCase struct {
		Name      string        `xml:"name,attr"`
		ClassName string        `xml:"classname,attr"`
		Failure   *JUnitFailure `xml:"failure"`
	}
	JUnitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// JUnit writes the findings as a JUnit XML report, ruff's junit format: a
// test suite per file and a failed test case per finding (name
// "mcplint.CODE", class the path, failure message the headline, its text
// the position and the whole message); a run with no findings is one
// passing case. Every finding is listed.
func JUnit(w io.Writer, res *engine.Result, opts Options) error {
	ds := Visible(res.Diagnostics)
	top := JUnitSuites{Name: "mcplint", Tests: len(ds), Failures: len(ds)}
	index := map[string]int{}
	for i := range ds {
		d := &ds[i]
		k, ok := index[d.Path]
		if !ok {
			k = len(top.Suites)
			index[d.Path] = k
			top.Suites = append(top.Suites, JUnitSuite{Name: vis(d.Path)})
		}
		s := &top.Suites[k]
		s.Tests++
		s.Failures++
		head, notes := rules.Headline(d.Message)
		text := fmt.Sprintf("line %d, col %d: %s", d.Start.Line, d.Start.Column, vis(head))
		for _, n := range notes {
			text += "\n" + vis(n)
		}
		s.Cases = append(s.Cases, JUnitCase{
			Name: "mcplint." + d.Code, ClassName: vis(d.Path),
			Failure: &JUnitFailure{Message: vis(head), Type: d.Severity.String(), Text: text},
		})
	}
	if len(ds) == 0 {
		top.Tests = 1
		top.Suites = []JUnitSuite{{Name: "mcplint", Tests: 1, Cases: []JUnitCase{{Name: "No findings", ClassName: "mcplint"}}}}
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(top); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
