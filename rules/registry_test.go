package rules_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/rules"
)

var (
	codeRE = regexp.MustCompile(`^MCP\d{3}$`)
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// TestRegistryDocs checks that every rule is documented in full: the
// sections `mcplint explain` and SARIF help show, tags, and precision.
func TestRegistryDocs(t *testing.T) {
	all := rules.All()
	if len(all) < 10 {
		t.Fatalf("only %d rules registered", len(all))
	}
	names := map[string]string{}
	for _, r := range all {
		if !codeRE.MatchString(r.Code) || !nameRE.MatchString(r.Name) {
			t.Errorf("%s %q: code or name malformed", r.Code, r.Name)
		}
		if other, dup := names[r.Name]; dup {
			t.Errorf("%s and %s share the name %s", r.Code, other, r.Name)
		}
		names[r.Name] = r.Code
		d := r.Doc
		for section, text := range map[string]string{
			"Summary": d.Summary, "WhatItDoes": d.WhatItDoes, "WhyIsThisBad": d.WhyIsThisBad,
			"Example": d.Example, "UseInstead": d.UseInstead, "FixSafety": d.FixSafety,
		} {
			if strings.TrimSpace(text) == "" {
				t.Errorf("%s: doc section %s is empty", r.Code, section)
			}
		}
		if strings.HasSuffix(d.Summary, ".") {
			t.Errorf("%s: the summary ends with a period", r.Code)
		}
		if d.Example == d.UseInstead {
			t.Errorf("%s: Example and UseInstead are the same", r.Code)
		}
		if len(r.Tags) == 0 {
			t.Errorf("%s: no tags", r.Code)
		}
		switch r.Precision {
		case "very-high", "high", "medium", "low":
		default:
			t.Errorf("%s: precision %q", r.Code, r.Precision)
		}
		if r.Kind != rules.MetaRule && r.Run == nil {
			t.Errorf("%s: no Run", r.Code)
		}
		md := r.Markdown()
		for _, h := range []string{"## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety"} {
			if !strings.Contains(md, h) {
				t.Errorf("%s: explain output lacks %q", r.Code, h)
			}
		}
	}
}

// TestRegistryFixtures checks that every code and dependency rule has
// fixture projects that must be flagged and ones that must not, and fix
// goldens when it offers fixes. (The fixtures themselves run in each rule's
// fixture test.)
func TestRegistryFixtures(t *testing.T) {
	for _, r := range rules.All() {
		if r.Kind == rules.MetaRule {
			continue
		}
		dir := filepath.Join("..", "testdata", "rules", r.Code)
		cases, err := os.ReadDir(dir)
		if err != nil {
			t.Errorf("%s: no fixtures: %v", r.Code, err)
			continue
		}
		want := regexp.MustCompile(`#\s*want:[^\n]*\b` + r.Code + `\b`)
		positive, negative, goldens := false, false, false
		for _, c := range cases {
			if !c.IsDir() {
				continue
			}
			filepath.WalkDir(filepath.Join(dir, c.Name()), func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				if strings.HasSuffix(p, ".golden") {
					goldens = true
					return nil
				}
				src, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				switch {
				case want.Match(src):
					positive = true
				case strings.HasSuffix(p, ".json"), strings.HasSuffix(p, ".lock"):
					// no comments possible: neither kind can be told here
				default:
					negative = true
				}
				return nil
			})
		}
		if !positive {
			t.Errorf("%s: no fixture line wants it", r.Code)
		}
		if !negative {
			t.Errorf("%s: no fixture file that must not be flagged", r.Code)
		}
		if r.Fix != rules.FixNone && !goldens {
			t.Errorf("%s: offers fixes but has no .fixN.golden", r.Code)
		}
	}
}

// TestReadmeListsEveryRule keeps the README's rule table in step with the
// registry.
func TestReadmeListsEveryRule(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules.All() {
		if !strings.Contains(string(readme), "| "+r.Code+" | "+r.Name+" |") {
			t.Errorf("README's rule table lacks %s %s", r.Code, r.Name)
		}
	}
}
