package deps

import (
	"strings"
	"testing"
)

// loadMem loads in-memory files as one project.
func loadMem(t *testing.T, opts Options, files map[string]string) *Project {
	t.Helper()
	opts.ReadFile = func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, errNoIncludes
	}
	var names []string
	for _, n := range []string{"pyproject.toml", "requirements.txt", "uv.lock", "poetry.lock", "Pipfile"} {
		if _, ok := files[n]; ok {
			names = append(names, n)
		}
	}
	p, errs := Load(".", names, opts)
	if len(errs) > 0 {
		t.Fatalf("load: %v", errs)
	}
	return p
}

func TestResolution(t *testing.T) {
	pyproject := "[project]\ndependencies = [\"mcp>=1.20\"]\n"
	lock := "[[package]]\nname = \"mcp\"\nversion = \"1.26.0\"\n"
	// An open range resolves to the newest release: mcp 2.x.
	p := loadMem(t, Options{}, map[string]string{"pyproject.toml": pyproject})
	if p.MCP1() != No || p.MCPAdmits("2.0.0", "") != Yes {
		t.Errorf("open range: MCP1=%s", p.MCP1())
	}
	// A lock's exact version beats the declared range.
	p = loadMem(t, Options{}, map[string]string{"pyproject.toml": pyproject, "uv.lock": lock})
	if p.MCP1() != Yes || p.MCPAdmits("", "1.27.0") != Yes || p.MCPAdmits("2.0.0", "") != No {
		t.Errorf("locked: MCP1=%s", p.MCP1())
	}
	if got, want := p.Describe("mcp"), "mcp ==1.26.0 (uv.lock), declared >=1.20 in pyproject.toml"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	// A stale lock is recorded.
	p = loadMem(t, Options{}, map[string]string{"pyproject.toml": "[project]\ndependencies = [\"mcp>=2\"]\n", "uv.lock": lock})
	if r := p.Resolution("mcp"); len(r.Stale) != 1 || !strings.Contains(p.Describe("mcp"), "stale lock: uv.lock locks mcp 1.26.0 but pyproject.toml declares >=2") {
		t.Errorf("stale: %v / %s", r.Stale, p.Describe("mcp"))
	}
	// A lock that its pyproject.toml no longer admits: uv sync re-locks from
	// the manifest first, a frozen install keeps the lock, so the project
	// can run either (a 2.0.0 lock beside mcp<2 still runs 1.x).
	p = loadMem(t, Options{}, map[string]string{"pyproject.toml": "[project]\ndependencies = [\"mcp>=1.0,<2\"]\n",
		"uv.lock": "[[package]]\nname = \"mcp\"\nversion = \"2.0.0\"\n"})
	if p.MCPAdmits("1.0.0", "2.0.0") != Yes || p.MCPAdmits("2.0.0", "") != Yes {
		t.Errorf("stale 2.0.0 lock beside <2: %s", p.Describe("mcp"))
	}
	// A lock its manifest admits decides alone.
	p = loadMem(t, Options{}, map[string]string{"pyproject.toml": "[project]\ndependencies = [\"mcp>=1.0\"]\n",
		"uv.lock": "[[package]]\nname = \"mcp\"\nversion = \"2.0.0\"\n"})
	if p.MCPAdmits("1.0.0", "2.0.0") != No {
		t.Errorf("fresh 2.0.0 lock: %s", p.Describe("mcp"))
	}
	// A lock made for another manifest: it holds mcp but not the fastmcp the
	// manifest declares, whose newest release needs mcp 2.x. Its mcp is not
	// what runs; with fastmcp locked too, it is.
	p = loadMem(t, Options{}, map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp>=2.8.1\"]\n", "uv.lock": lock})
	if r := p.Resolution("mcp"); p.MCP1() != No || len(r.Locked) != 0 || len(r.Stale) != 1 || !strings.Contains(r.Stale[0], "uv.lock locks mcp 1.26.0 but no fastmcp, which pyproject.toml declares (>=2.8.1") {
		t.Errorf("lock without fastmcp: MCP1=%s, %s", p.MCP1(), p.Describe("mcp"))
	}
	p = loadMem(t, Options{}, map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp>=2.8.1\"]\n",
		"uv.lock": lock + "[[package]]\nname = \"fastmcp\"\nversion = \"2.8.1\"\n"})
	if r := p.Resolution("mcp"); p.MCP1() != Yes || len(r.Stale) != 0 {
		t.Errorf("lock with fastmcp: MCP1=%s, %s", p.MCP1(), p.Describe("mcp"))
	}
	// fastmcp < 4 pulls mcp 1.x; >= 4 mcp 2.x; and it narrows an open mcp.
	p = loadMem(t, Options{}, map[string]string{"requirements.txt": "fastmcp>=3,<4\n"})
	if p.MCPAdmits("1.0.0", "2.0.0") != Yes || p.FastMCP3() != Yes {
		t.Errorf("fastmcp 3 implies mcp 1.x: %s", p.Describe("mcp"))
	}
	p = loadMem(t, Options{}, map[string]string{"requirements.txt": "fastmcp>=4\n"})
	if p.MCP1() != No {
		t.Errorf("fastmcp 4: MCP1=%s", p.MCP1())
	}
	p = loadMem(t, Options{}, map[string]string{"requirements.txt": "fastmcp==3.4.7\nmcp>=1.20\n"})
	if p.MCPAdmits("1.20", "2.0") != Yes {
		t.Errorf("fastmcp 3 keeps an open mcp on 1.x: %s", p.Resolution("mcp").Set)
	}
	// Nothing declared: unknown, unless assumed.
	p = loadMem(t, Options{}, map[string]string{"requirements.txt": "httpx\n"})
	if p.MCP1() != Unknown || p.AnyioAdmits("", "4.1") != Unknown {
		t.Errorf("undeclared: MCP1=%s", p.MCP1())
	}
	p = loadMem(t, Options{AssumeMCP: "1.25.0"}, map[string]string{"requirements.txt": "httpx\n"})
	if p.MCP1() != Yes || !strings.Contains(p.Describe("mcp"), "assumed 1.25.0") {
		t.Errorf("assumed: MCP1=%s %s", p.MCP1(), p.Describe("mcp"))
	}
	p = loadMem(t, Options{AssumeMCP: ">=2"}, map[string]string{"requirements.txt": "httpx\n"})
	if p.MCP1() != No {
		t.Errorf("assumed >=2: MCP1=%s", p.MCP1())
	}
	// Constraints limit, they do not require.
	p = loadMem(t, Options{}, map[string]string{"requirements.txt": "-c c.txt\nanyio\n", "c.txt": "anyio<4.1\nmcp<2\n"})
	if p.AnyioAdmits("", "4.1") != Yes || p.MCP1() != Unknown {
		t.Errorf("constraints: anyio<4.1=%s MCP1=%s", p.AnyioAdmits("", "4.1"), p.MCP1())
	}
}

func TestFloorSpecifier(t *testing.T) {
	for _, c := range []struct{ req, want string }{
		{"mcp>=1.20,<2", ">=1.27.0,<2"},
		{"mcp>=1.20,<1.29", ">=1.27.0,<1.29"},
		// one-clause pins keep their style (issue 10 item 7)
		{"mcp~=1.26.0", "~=1.27.0"},
		{"mcp~=1.26", "~=1.27"},
		{"mcp==1.25.0", "==1.27.0"},
		{"mcp==1.25", "==1.27.0"},
		{"mcp===1.25.0", "===1.27.0"},
		{"mcp==1.25.*", "==1.27.*"},
		{"mcp==1.*", ">=1.27.0,<2"},
		{"mcp==1.27.0", ""},
		{"mcp~=1.27", ""},
		{"mcp>=1.2,!=1.28.0,<2", ">=1.27.0,!=1.28.0,<2"},
		{"mcp<1.27", ">=1.27.0,<2"},
		{"mcp>=1.27.0,<2", ""},
		{"mcp>=2", ""},
	} {
		r, err := newRequirement("f", c.req, func(i int) int { return i })
		if err != nil {
			t.Fatal(err)
		}
		got, ok := r.FloorSpecifier("1.27.0")
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: got %q %v, want %q", c.req, got, ok, c.want)
		}
	}
	for _, c := range []struct{ spec, want string }{
		{"^1.23", "^1.27"},
		{"^1", "^1.27"},
		{"^1.23.3", "^1.27.0"},
		{"~1.26", "~1.27"},
		{"~1.26.0", "~1.27.0"},
		{"~1", ">=1.27.0,<2"},
		{"1.25.0", "1.27.0"},
		{"==1.25.0", "==1.27.0"},
		{">=1.20,<2", ">=1.27.0,<2"},
		{"1.*", ">=1.27.0,<2"},
	} {
		p := loadMem(t, Options{}, map[string]string{"pyproject.toml": "[tool.poetry.dependencies]\nmcp = \"" + c.spec + "\"\n"})
		path, start, end, text, ok := p.FloorEdit("mcp", "1.27.0")
		src := string(p.File("pyproject.toml").Src)
		if !ok || path != "pyproject.toml" || src[start:end] != c.spec || text != c.want {
			t.Errorf("poetry %s: FloorEdit = %s %d %d %q %v, want %q", c.spec, path, start, end, text, ok, c.want)
		}
	}
	p := loadMem(t, Options{}, map[string]string{"uv.lock": "[[package]]\nname = \"mcp\"\nversion = \"1.20.0\"\n"})
	if _, _, _, _, ok := p.FloorEdit("mcp", "1.27.0"); ok {
		t.Error("a lock entry is never edited")
	}
}

// A lock entry without a version (a VCS or directory package) leaves the
// version to the manifests; with none, it is unknown, never "the newest".
func TestUnversionedLockEntryFallsBack(t *testing.T) {
	lock := "lock-version = \"1.0\"\n\n[[packages]]\nname = \"mcp\"\nvcs = { type = \"git\", url = \"https://github.com/modelcontextprotocol/python-sdk\", commit-id = \"abc\" }\n"
	files := map[string]string{"pylock.toml": lock, "pyproject.toml": "[project]\ndependencies = [\"mcp>=1.20,<2\"]\n"}
	p, errs := Load(".", []string{"pyproject.toml", "pylock.toml"}, Options{ReadFile: memFS(files)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if p.MCP1() != Yes || p.MCPAdmits("2.0.0", "") != No {
		t.Errorf("declared range must decide: %s", p.Describe("mcp"))
	}
	delete(files, "pyproject.toml")
	p, errs = Load(".", []string{"pylock.toml"}, Options{ReadFile: memFS(files)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if r := p.Resolution("mcp"); r.Known || p.MCP1() != Unknown {
		t.Errorf("nothing says which mcp: known=%v set=%s MCP1=%s", r.Known, r.Set, p.MCP1())
	}
}

func memFS(files map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, errNoIncludes
	}
}

func TestVCSTagVersion(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"git+https://github.com/modelcontextprotocol/python-sdk@v1.25.0", "1.25.0"},
		{"git+https://github.com/modelcontextprotocol/python-sdk.git@1.26.1#egg=mcp", "1.26.1"},
		{"git+ssh://git@github.com/org/python-sdk", ""},
		{"git+https://github.com/org/python-sdk@main", ""},
		{"git+https://github.com/org/python-sdk@3f0d1a2", ""},
		{"https://example.com/mcp-1.25.0.tar.gz", ""},
	} {
		v, ok := vcsTagVersion(c.url)
		if ok != (c.want != "") || ok && v.String() != c.want {
			t.Errorf("%s: %v %v, want %q", c.url, v, ok, c.want)
		}
	}
}

// A uv source's span is the entry to change; a release tag is its version.
func TestUVSource(t *testing.T) {
	src := "[project]\ndependencies = [\"mcp[cli]\"]\n\n[tool.uv.sources]\nmcp = { git = \"https://github.com/modelcontextprotocol/python-sdk\", rev = \"3f0d1a2\" }\n"
	p := loadMem(t, Options{}, map[string]string{"pyproject.toml": src})
	r := p.Resolution("mcp").Declared[0]
	if r.Source == nil || r.Source.Kind != "git" || r.Source.Ref != "3f0d1a2" || !r.Unknown ||
		!strings.HasPrefix(src[r.Source.Start:r.Source.End], "mcp = { git") || !strings.HasSuffix(src[r.Source.Start:r.Source.End], "}") {
		t.Errorf("source %+v", r.Source)
	}
}

// PinsAdmitMCP1 reads the ranges as written: an open range admits 1.x even
// though a fresh install resolves it to 2.x; a lock or a range that
// excludes 1.x does not.
func TestPinsAdmitMCP1(t *testing.T) {
	for _, c := range []struct {
		files      map[string]string
		mcp1, pins Tri
	}{
		{map[string]string{"requirements.txt": "mcp[cli]>=1.0\n"}, No, Yes},
		{map[string]string{"requirements.txt": "fastmcp>=2.0.0\n"}, No, Yes},
		{map[string]string{"requirements.txt": "mcp>=2,<3\n"}, No, No},
		{map[string]string{"requirements.txt": "fastmcp>=4\n"}, No, No},
		{map[string]string{"requirements.txt": "mcp>=1.27,<2\n"}, Yes, Yes},
		{map[string]string{"pyproject.toml": "[project]\ndependencies = [\"mcp>=1.0\"]\n",
			"uv.lock": "[[package]]\nname = \"mcp\"\nversion = \"2.3.0\"\n"}, No, No},
		{map[string]string{"requirements.txt": "requests\n"}, Unknown, Unknown},
	} {
		p := loadMem(t, Options{}, c.files)
		if got := p.MCP1(); got != c.mcp1 {
			t.Errorf("%v: MCP1 = %s, want %s", c.files, got, c.mcp1)
		}
		if got := p.PinsAdmitMCP1(); got != c.pins {
			t.Errorf("%v: PinsAdmitMCP1 = %s, want %s", c.files, got, c.pins)
		}
	}
}

// TestCodeNeedsMCP1: code that uses an API only mcp 1.x has narrows a
// declared mcp range that admits 2.x to its 1.x part; a lock, a range with
// no 1.x, an assumed version and the mcp that fastmcp pulls still win.
func TestCodeNeedsMCP1(t *testing.T) {
	const why = "imports mcp.server.fastmcp (server.py:1)"
	lock2 := "[[package]]\nname = \"mcp\"\nversion = \"2.3.0\"\n"
	for _, tc := range []struct {
		name  string
		opts  Options
		files map[string]string
		// MCP1 and MCPAdmits("", "1.27.0") with the code, and whether the
		// resolution names the code.
		mcp1, below127 Tri
		narrowed       bool
	}{
		{"open range", Options{}, map[string]string{"requirements.txt": "mcp[cli]>=1.0\n"}, Yes, Yes, true},
		{"open range above 1.27", Options{}, map[string]string{"pyproject.toml": "[project]\ndependencies = [\"mcp>=1.27\"]\n"}, Yes, No, true},
		{"a pre-release floor of 2.x", Options{}, map[string]string{"requirements.txt": "mcp>=1.25,!=1.26.*\nmcp>=2.0.0a1\n"}, Yes, Yes, true},
		{"already below 2", Options{}, map[string]string{"requirements.txt": "mcp>=1.20,<2\n"}, Yes, Yes, false},
		{"a lock pins 2.x", Options{}, map[string]string{"pyproject.toml": "[project]\ndependencies = [\"mcp>=1.0\"]\n", "uv.lock": lock2}, No, No, false},
		{"a range with no 1.x", Options{}, map[string]string{"requirements.txt": "mcp>=2\n"}, No, No, false},
		{"fastmcp 4 pulls mcp 2.x", Options{}, map[string]string{"requirements.txt": "fastmcp>=2\n"}, No, No, false},
		{"fastmcp 4 and an open mcp", Options{}, map[string]string{"requirements.txt": "fastmcp>=2\nmcp>=1.0\n"}, No, No, false},
		{"assumed", Options{AssumeMCP: "2.1.0"}, map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n"}, No, No, false},
		{"nothing declared", Options{}, map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n"}, Unknown, Unknown, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := loadMem(t, tc.opts, tc.files)
			before := p.Describe("mcp")
			p.MCP1() // resolved before the code is known: SetCodeNeedsMCP1 must drop it
			p.SetCodeNeedsMCP1(why)
			if got := p.MCP1(); got != tc.mcp1 {
				t.Errorf("MCP1 = %s, want %s (%s)", got, tc.mcp1, p.Describe("mcp"))
			}
			if got := p.MCPAdmits("", "1.27.0"); got != tc.below127 {
				t.Errorf("below 1.27.0 = %s, want %s", got, tc.below127)
			}
			r := p.Resolution("mcp")
			if (r.Code != "") != tc.narrowed {
				t.Errorf("Code = %q, narrowed %v", r.Code, tc.narrowed)
			}
			desc := p.Describe("mcp")
			if tc.narrowed != strings.Contains(desc, "; only 1.x: the code "+why+", which mcp 2.x removed") {
				t.Errorf("Describe = %q", desc)
			}
			if !tc.narrowed && desc != before {
				t.Errorf("Describe changed: %q, was %q", desc, before)
			}
			// WithoutCode is the files alone; p keeps the code.
			if q := p.WithoutCode(); q.Describe("mcp") != before || q.Resolution("mcp").Code != "" {
				t.Errorf("WithoutCode: %q", q.Describe("mcp"))
			}
			if p.Resolution("mcp").Code != r.Code {
				t.Errorf("WithoutCode changed p")
			}
			// Nothing narrows fastmcp, and PinsAdmitMCP1 still reads the pins.
			if f := p.WithoutCode().Resolution("fastmcp"); f.Known != p.Resolution("fastmcp").Known || f.Set.String() != p.Resolution("fastmcp").Set.String() {
				t.Errorf("fastmcp changed: %s", p.Describe("fastmcp"))
			}
			if p.PinsAdmitMCP1() != p.WithoutCode().PinsAdmitMCP1() {
				t.Errorf("PinsAdmitMCP1 changed")
			}
		})
	}
}
