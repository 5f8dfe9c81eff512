package deps

import (
	"testing"

	"github.com/mcplint/mcplint/internal/testfs"
)

// A loaded Project keeps no reference to the reader it was loaded with: the
// engine's reader holds every source file the project's analysis read, and
// projects stay alive until the run's reports are written.
func TestProjectKeepsNoReader(t *testing.T) {
	root := testfs.Write(t, map[string]string{"requirements.txt": "mcp==1.20.0\n"})
	opts := Options{AssumeMCP: "1.2", AssumeFastMCP: "2.3", ReadFile: func(p string) ([]byte, error) {
		return Options{}.read(p)
	}}
	p, errs := Load(root, []string{root + "/requirements.txt"}, opts)
	if len(errs) > 0 || p == nil {
		t.Fatalf("Load: %v", errs)
	}
	if p.opts.ReadFile != nil || p.opts.ParseLimits != nil {
		t.Errorf("the project keeps its loader's reader or limits")
	}
	if p.opts.AssumeMCP != "1.2" || p.opts.AssumeFastMCP != "2.3" {
		t.Errorf("the project lost its assumed versions: %+v", p.opts)
	}
}
