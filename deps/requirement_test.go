package deps

import "testing"

func TestInstallSource(t *testing.T) {
	for _, c := range []struct {
		req            string
		kind, url, ref string
		none           bool
	}{
		{req: "fastmcp @ git+https://github.com/jlowin/fastmcp.git@3d6fd46#egg=fastmcp", kind: "git", url: "https://github.com/jlowin/fastmcp.git", ref: "3d6fd46"},
		{req: "mcp @ git+ssh://git@github.com/org/python-sdk.git", kind: "git", url: "ssh://git@github.com/org/python-sdk.git"},
		{req: "mcp @ https://example.com/mcp-1.9.0.tar.gz", kind: "url", url: "https://example.com/mcp-1.9.0.tar.gz"},
		{req: "mcp @ file:///opt/src/python-sdk", kind: "path", url: "file:///opt/src/python-sdk"},
		{req: "mcp>=1.9", none: true},
	} {
		r, err := newRequirement("pyproject.toml", c.req, func(i int) int { return i })
		if err != nil {
			t.Fatalf("%s: %v", c.req, err)
		}
		src := r.InstallSource()
		if c.none {
			if src != nil {
				t.Errorf("%s: source %+v, want none", c.req, src)
			}
			continue
		}
		if src == nil || !src.Direct || src.Kind != c.kind || src.URL != c.url || src.Ref != c.ref || src.Start != r.Start || src.End != r.End {
			t.Errorf("%s: source %+v, want %s %s at %q spanning the requirement", c.req, src, c.kind, c.url, c.ref)
		}
	}
	// A lock entry has no source of its own: the manifest's gave it.
	if src := (&Requirement{URL: "git+https://x/y.git", Locked: true}).InstallSource(); src != nil {
		t.Errorf("lock entry: %+v", src)
	}
	// A workspace member is the project's own code, not a source to move.
	if src := (&Requirement{Source: &Source{Kind: "workspace"}}).InstallSource(); src != nil {
		t.Errorf("workspace: %+v", src)
	}
}
