package engine

import (
	"path"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// entryPoints returns the functions a project's pyproject.toml names as
// console or GUI scripts ([project.scripts], [project.gui-scripts],
// [tool.poetry.scripts]), as qualified names: "pkg.cli:main" gives
// "pkg.cli.main". The handlers index counts registrations those functions
// run. A file that cannot be read gives none (deps reports its errors).
func (e *runner) entryPoints(pr *project) []string {
	var out []string
	for _, f := range pr.depFiles {
		if path.Base(f) != "pyproject.toml" {
			continue
		}
		src, err := e.read(f)
		if err != nil {
			continue
		}
		var doc struct {
			Project struct {
				Scripts    map[string]any `toml:"scripts"`
				GUIScripts map[string]any `toml:"gui-scripts"`
			} `toml:"project"`
			Tool struct {
				Poetry struct {
					Scripts map[string]any `toml:"scripts"`
				} `toml:"poetry"`
			} `toml:"tool"`
		}
		if toml.Unmarshal(src, &doc) != nil {
			continue
		}
		for _, table := range []map[string]any{doc.Project.Scripts, doc.Project.GUIScripts, doc.Tool.Poetry.Scripts} {
			for _, v := range table {
				ref, _ := v.(string)
				if t, ok := v.(map[string]any); ok { // poetry: {callable = "pkg:main"}
					ref, _ = t["callable"].(string)
				}
				if q := entryPointName(ref); q != "" {
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// entryPointName turns "pkg.mod:obj.attr [extra]" into "pkg.mod.obj.attr".
func entryPointName(ref string) string {
	if i := strings.IndexByte(ref, '['); i >= 0 {
		ref = ref[:i]
	}
	mod, obj, ok := strings.Cut(strings.TrimSpace(ref), ":")
	mod, obj = strings.TrimSpace(mod), strings.TrimSpace(obj)
	if !ok || mod == "" || obj == "" {
		return ""
	}
	return mod + "." + obj
}
