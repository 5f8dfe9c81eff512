package suppress

import (
	"github.com/mcplint/mcplint/config"
	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/rules"
)

// PerFileIgnores drops findings of the given rules in files that match a
// glob (the per-file-ignores setting). It runs after the suppression
// processor, so a suppression comment for such a finding still counts as
// used. Counts go to Result.Dropped["per-file-ignores"].
type PerFileIgnores struct {
	entries []perFile
}

type perFile struct {
	globs *config.Globs
	codes map[string]bool
}

// NewPerFileIgnores builds the processor from a configuration's entries,
// with globs relative to dir (the configuration file's folder).
func NewPerFileIgnores(dir string, list []config.PerFileIgnore) *PerFileIgnores {
	p := &PerFileIgnores{}
	for _, e := range list {
		pf := perFile{globs: config.NewGlobs(dir, []string{e.Pattern.Value}), codes: map[string]bool{}}
		for _, sel := range e.Codes {
			for _, c := range config.Codes(sel.Value) {
				pf.codes[c] = true
			}
		}
		p.entries = append(p.entries, pf)
	}
	return p
}

// Name implements engine.Processor.
func (p *PerFileIgnores) Name() string { return "per-file-ignores" }

// Local implements engine.LocalProcessor: whether a finding is ignored
// depends on its file and code only.
func (p *PerFileIgnores) Local() {}

// Process implements engine.Processor.
func (p *PerFileIgnores) Process(res *engine.Result, diags []rules.Diagnostic) ([]rules.Diagnostic, error) {
	out := diags[:0:0]
	for _, d := range diags {
		if d.Code != rules.FileErrorCode && p.ignored(d) {
			res.Dropped[p.Name()] += d.Findings()
			continue
		}
		out = append(out, d)
	}
	return out, nil
}

func (p *PerFileIgnores) ignored(d rules.Diagnostic) bool {
	for _, e := range p.entries {
		if e.codes[d.Code] && e.globs.Match(d.Path) {
			return true
		}
	}
	return false
}
