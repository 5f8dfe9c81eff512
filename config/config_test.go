package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadPyproject(t *testing.T) {
	c, err := Load("../testdata/config/full/pyproject.toml")
	if err != nil {
		t.Fatal(err)
	}
	values := func(items []Item) string {
		var s []string
		for _, it := range items {
			s = append(s, it.Value)
		}
		return strings.Join(s, ",")
	}
	checks := []struct{ name, got, want string }{
		{"select", values(c.Select), "MCP0,MCP1"},
		{"extend-select", values(c.ExtendSelect), "MCP900"},
		{"ignore", values(c.Ignore), "MCP105"},
		{"exclude", values(c.Exclude), "generated"},
		{"extend-exclude", values(c.ExtendExclude), "legacy/**,*_pb2.py"},
		{"handler-decorators", values(c.HandlerDecorators), "acme.tools.register"},
		{"assume-mcp", c.AssumeMCP.Value, "1.20.0"},
		{"assume-fastmcp", c.AssumeFastMCP.Value, "3.1"},
		{"select where", c.Select[1].Where, "../testdata/config/full/pyproject.toml:7:19"},
		{"per-file-ignores", c.PerFileIgnores[0].Pattern.Value + "=" + values(c.PerFileIgnores[0].Codes), "tests/**=MCP101,MCP104"},
		{"per-file-ignores 2", c.PerFileIgnores[1].Pattern.Value + "=" + values(c.PerFileIgnores[1].Codes), "scripts/*.py=MCP1"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %q, want %q", ch.name, ch.got, ch.want)
		}
	}
	if c.UnsafeFixes == nil || !*c.UnsafeFixes || c.ReportUnreachable == nil || *c.ReportUnreachable || c.RespectGitignore != nil {
		t.Errorf("booleans: unsafe-fixes %v report-unreachable %v respect-gitignore %v", c.UnsafeFixes, c.ReportUnreachable, c.RespectGitignore)
	}
	if !c.SelectSet || c.ExcludeSet != true {
		t.Errorf("SelectSet %v ExcludeSet %v", c.SelectSet, c.ExcludeSet)
	}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
}

func TestForms(t *testing.T) {
	// The same settings written as a dotted key, an inline table and a
	// sub-table all load.
	cases := map[string]string{
		"mcplint.toml":   "select = [\"MCP101\"]\n[per-file-ignores]\n\"tests/*.py\" = [\"MCP101\"]\n",
		"dotted":         "[tool]\nmcplint.select = [\"MCP101\"]\nmcplint.per-file-ignores.\"tests/*.py\" = [\"MCP101\"]\n",
		"inline":         "[tool]\nmcplint = { select = [\"MCP101\"], per-file-ignores = { \"tests/*.py\" = [\"MCP101\"] } }\n",
		"sub-table":      "[tool.mcplint]\nselect = [\"MCP101\"]\n[tool.mcplint.per-file-ignores]\n\"tests/*.py\" = [\"MCP101\"]\n",
		"other sections": "[project]\nname = \"x\"\nselect = 3\n[tool.ruff]\nselect = [\"E\"]\n[tool.mcplint]\nselect = [\"MCP101\"]\n[tool.mcplint.per-file-ignores]\n\"tests/*.py\" = [\"MCP101\"]\n[tool.black]\nx = 1\n",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			var prefix []string
			if name != "mcplint.toml" {
				prefix = []string{"tool", "mcplint"}
			}
			c, err := Parse("f.toml", []byte(src), prefix)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Select) != 1 || c.Select[0].Value != "MCP101" || len(c.PerFileIgnores) != 1 || c.PerFileIgnores[0].Pattern.Value != "tests/*.py" {
				t.Errorf("got %+v", c)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"unknown key", "[tool.mcplint]\nselect = [\"MCP101\"]\nextend_select = [\"MCP900\"]\n",
			`f.toml:3:1: unknown key "extend_select" (did you mean "extend-select"?)`},
		{"unknown key typo", "[tool.mcplint]\n  ignroe = []\n", `f.toml:2:3: unknown key "ignroe" (did you mean "ignore"?)`},
		{"unknown far key", "[tool.mcplint]\nfoo = 1\n", `f.toml:2:1: unknown key "foo"; known keys: assume-fastmcp, `},
		{"unknown sub-table", "[tool.mcplint.lint]\nx = 1\n", `f.toml:1:15: unknown key "lint"`},
		{"string for array", "[tool.mcplint]\nselect = \"MCP101\"\n", `f.toml:2:10: select must be an array of rule selectors, got a string`},
		{"int element", "[tool.mcplint]\nignore = [\"MCP1\", 101]\n", `f.toml:2:19: ignore: every element must be a string, got an integer`},
		{"bool as string", "[tool.mcplint]\nunsafe-fixes = \"yes\"\n", `f.toml:2:16: unsafe-fixes must be a boolean, got a string`},
		{"array for bool", "[tool.mcplint]\nreport-unreachable = [true]\n", `f.toml:2:1: report-unreachable must be a boolean, got an array`},
		{"empty version", "[tool.mcplint]\nassume-mcp = \"\"\n", `f.toml:2:14: assume-mcp must be a non-empty version string, got a string`},
		{"duplicate", "[tool.mcplint]\nselect = []\n[tool.mcplint]\nselect = []\n", `f.toml:4:1: select is set twice (first at f.toml:2:1)`},
		{"array of tables", "[[tool.mcplint]]\nselect = []\n", `f.toml:1:3: [[tool.mcplint]] must be a table`},
		{"per-file not table", "[tool.mcplint]\nper-file-ignores = [\"x\"]\n", `f.toml:2:1: per-file-ignores must be a table`},
		{"bad decorator", "[tool.mcplint]\nhandler-decorators = [\"acme tools\"]\n", `f.toml:2:23: handler-decorators: "acme tools" is not a qualified name`},
		{"invalid toml", "[tool.mcplint]\nselect = [\"MCP1\"\n", `f.toml:2:17: invalid TOML: array is incomplete`},
		{"invalid toml 2", "[tool.mcplint]\nselect = = 1\n", `f.toml:2:10: invalid TOML`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("f.toml", []byte(c.src), []string{"tool", "mcplint"})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error = %v\nwant prefix %s", err, c.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	cases := []struct{ src, want string }{
		{"select = [\"MCP1\", \"NOPE\"]\n", `f.toml:1:19: select: unknown rule selector "NOPE"`},
		{"[per-file-ignores]\n\"tests/**\" = [\"MCP77\"]\n", `f.toml:2:15: per-file-ignores: unknown rule selector "MCP77"`},
		{"extend-exclude = [\"src/[\"]\n", `f.toml:1:19: invalid glob "src/["`},
	}
	for _, c := range cases {
		cfg, err := Parse("f.toml", []byte(c.src), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Validate(%q) = %v, want prefix %s", c.src, err, c.want)
		}
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "pyproject.toml", "[project]\nname = \"x\"\n") // no [tool.mcplint]: passed by
	write(t, dir, "a/pyproject.toml", "[tool.mcplint]\nselect = []\n")
	write(t, dir, "a/b/src/x.py", "")
	write(t, dir, "c/mcplint.toml", "")
	write(t, dir, "c/.mcplint.toml", "")
	write(t, dir, "c/pyproject.toml", "[tool.mcplint]\n")
	cases := map[string]string{
		"a/b/src":      "a/pyproject.toml",
		"a/b/src/x.py": "a/pyproject.toml",
		"a":            "a/pyproject.toml",
		"c":            "c/mcplint.toml",
		".":            "",
	}
	for start, want := range cases {
		got, err := Find(filepath.Join(dir, start))
		if err != nil {
			t.Fatal(err)
		}
		if want != "" {
			want = filepath.Join(dir, want)
		}
		// Above the temporary folder there may be a real configuration;
		// only a result inside it counts.
		if want == "" && strings.HasPrefix(got, dir) || want != "" && got != want {
			t.Errorf("Find(%s) = %q, want %q", start, got, want)
		}
	}
	if err := os.Remove(filepath.Join(dir, "c/mcplint.toml")); err != nil {
		t.Fatal(err)
	}
	if got, _ := Find(filepath.Join(dir, "c")); got != filepath.Join(dir, "c/.mcplint.toml") {
		t.Errorf("without mcplint.toml: %s", got)
	}
}

func TestGlobs(t *testing.T) {
	dir := t.TempDir()
	g := NewGlobs(dir, []string{"generated", "*_pb2.py", "src/legacy/**", "./tests/*.py", "build/"})
	cases := map[string]bool{
		"generated":              true,
		"a/generated/x.py":       true,
		"proto/x_pb2.py":         true,
		"proto/x.py":             false,
		"src/legacy":             true,
		"src/legacy/a/b.py":      true,
		"lib/src/legacy/a.py":    false,
		"tests/test_a.py":        true,
		"tests/unit/test_a.py":   false,
		"build/lib/x.py":         true,
		"src/generated_thing.py": false,
	}
	for p, want := range cases {
		if got := g.Match(filepath.ToSlash(filepath.Join(dir, p))); got != want {
			t.Errorf("Match(%s) = %v, want %v", p, got, want)
		}
	}
	if NewGlobs(dir, nil).Match(dir + "/x.py") {
		t.Error("empty globs matched")
	}
}

// A configuration error quotes at most an excerpt of the file, escaped.
func TestErrorsQuoteAnExcerpt(t *testing.T) {
	long := strings.Repeat("k", 100000)
	for _, src := range []string{
		long + "\x1b[2J = 1\n",
		"select = [\"" + long + "\"]\n",
		"exclude = [\"[" + long + "\"]\n",
		"handler-decorators = [\"a b\x1b" + long + "\"]\n",
	} {
		c, err := Parse("mcplint.toml", []byte(src), nil)
		if err == nil && c != nil {
			err = c.Validate()
		}
		if err == nil {
			t.Errorf("no error for %.40q", src)
			continue
		}
		if msg := err.Error(); len(msg) > 400 || strings.Contains(msg, "\x1b") {
			t.Errorf("the error quotes too much (%d bytes) or a control character: %.120q", len(msg), msg)
		}
	}
}

// A pyproject.toml configures mcplint however TOML spells the table: the
// check that once told Find whether to stop there read only [tool.mcplint]
// headers and full dotted keys, and passed a file that sets
// mcplint.select under [tool] by (its configuration silently unused).
func TestFindDottedKeysUnderTool(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "pyproject.toml", "[project]\nname = \"x\"\n\n[tool]\nmcplint.select = [\"MCP101\"]\n")
	got, err := Find(dir)
	if err != nil || got != filepath.Join(dir, "pyproject.toml") {
		t.Fatalf("Find = %q, %v; want the pyproject.toml", got, err)
	}
	c, err := FindAndLoad(dir, nil)
	if err != nil || c == nil || len(c.Select) != 1 || c.Select[0].Value != "MCP101" {
		t.Fatalf("FindAndLoad = %+v, %v", c, err)
	}
}

// FindAndLoad finds as Find does and returns what Load would, from one read
// and one parse of each file it looks at.
func TestFindAndLoad(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "pyproject.toml", "[project]\nname = \"x\"\n")
	write(t, dir, "a/pyproject.toml", "[tool.mcplint]\nselect = [\"MCP1\"]\n")
	write(t, dir, "a/b/x.py", "")
	write(t, dir, "bad/mcplint.toml", "select = 1\n")
	write(t, dir, "broken/pyproject.toml", "[tool.mcplint\n")
	shown := func(p string) string { return "shown:" + filepath.Base(filepath.Dir(p)) }
	for start, want := range map[string]string{"a/b/x.py": "a/pyproject.toml", "a": "a/pyproject.toml"} {
		c, err := FindAndLoad(filepath.Join(dir, start), shown)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Load(filepath.Join(dir, want))
		if err != nil {
			t.Fatal(err)
		}
		if c == nil || c.Path != "shown:a" || len(c.Select) != 1 || c.Select[0].Value != l.Select[0].Value {
			t.Errorf("FindAndLoad(%s) = %+v, want %+v as shown:a", start, c, l)
		}
	}
	for _, start := range []string{"bad", "broken"} {
		c, err := FindAndLoad(filepath.Join(dir, start), shown)
		_, lerr := Load(filepath.Join(dir, start, map[string]string{"bad": "mcplint.toml", "broken": "pyproject.toml"}[start]))
		if c != nil || err == nil || lerr == nil || !strings.HasPrefix(err.Error(), "shown:"+start) {
			t.Errorf("FindAndLoad(%s) = %+v, %v; Load says %v", start, c, err, lerr)
		}
	}
	if c, err := FindAndLoad(dir, shown); err != nil || c != nil && strings.HasPrefix(c.Path, "shown:"+filepath.Base(dir)) {
		t.Errorf("no configuration in %s: got %+v, %v", dir, c, err)
	}
}

// A configuration file that is a symlink leading out of its folder is not
// read, found or named (its parse errors would quote a file of the
// machine); one leading within the folder is.
func TestConfigSymlinkOutside(t *testing.T) {
	dir := t.TempDir()
	secret := write(t, dir, "home/secret.txt", "TOKEN=do-not-print-me\n")
	repo := filepath.Join(dir, "repo")
	write(t, repo, "configs/mcplint.toml", "select = [\"MCP101\"]\n")
	write(t, repo, "sub/x.py", "")
	if err := os.Symlink(secret, filepath.Join(repo, "mcplint.toml")); err != nil {
		t.Skip(err)
	}
	_, err := FindAndLoad(filepath.Join(repo, "sub"), nil)
	if err == nil || !strings.Contains(err.Error(), "mcplint.toml: a symlink to a file outside its folder: not read") || strings.Contains(err.Error(), "do-not-print-me") {
		t.Errorf("found: %v", err)
	}
	if _, err := Load(filepath.Join(repo, "mcplint.toml")); err == nil || !strings.Contains(err.Error(), "outside its folder") {
		t.Errorf("named: %v", err)
	}
	// Relative links, and through ".." inside the folder, are resolved.
	os.Remove(filepath.Join(repo, "mcplint.toml"))
	if err := os.Symlink("../home/secret.txt", filepath.Join(repo, "mcplint.toml")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(filepath.Join(repo, "mcplint.toml")); err == nil || !strings.Contains(err.Error(), "outside its folder") {
		t.Errorf("relative link: %v", err)
	}
	os.Remove(filepath.Join(repo, "mcplint.toml"))
	if err := os.Symlink("sub/../configs/mcplint.toml", filepath.Join(repo, "mcplint.toml")); err != nil {
		t.Fatal(err)
	}
	c, err := FindAndLoad(filepath.Join(repo, "sub"), nil)
	if err != nil || c == nil || len(c.Select) != 1 {
		t.Errorf("a link within the folder: %v %+v", err, c)
	}
}

// A configuration file that is a symlink into the repository's .git folder
// (where actions/checkout writes the job's token) is refused with a reason,
// not skipped as if there were none, and nothing of it is quoted.
func TestConfigSymlinkIntoGit(t *testing.T) {
	repo := t.TempDir()
	write(t, repo, ".git/config", "[http]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX0ZBS0U=\n")
	write(t, repo, "sub/x.py", "")
	if err := os.Symlink(".git/config", filepath.Join(repo, "mcplint.toml")); err != nil {
		t.Skip(err)
	}
	_, err := FindAndLoad(filepath.Join(repo, "sub"), nil)
	if err == nil || !strings.Contains(err.Error(), "version-control internals") || strings.Contains(err.Error(), "eC1hY2Nl") {
		t.Errorf("found: %v", err)
	}
}
