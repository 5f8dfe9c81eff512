package action

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every workflow example, and the repository's own workflows, check out
// with persist-credentials: false (issue 28): with actions/checkout's
// default the job's token sits in .git/config, in the workspace a pull
// request controls, for the job's whole length.
func TestExamplesDoNotPersistCredentials(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	wf, _ := filepath.Glob("../.github/workflows/*.yml")
	files = append(append(files, "../README.md"), wf...)
	checkouts := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			if !strings.Contains(l, "uses: actions/checkout@") {
				continue
			}
			checkouts++
			// The step's own lines: those indented past its "- uses:".
			indent := len(l) - len(strings.TrimLeft(l, " "))
			ok := false
			for _, m := range lines[i+1:] {
				if strings.TrimSpace(m) == "" || len(m)-len(strings.TrimLeft(m, " ")) <= indent {
					break
				}
				if strings.HasPrefix(strings.TrimSpace(m), "persist-credentials: false") {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s:%d: actions/checkout without persist-credentials: false", f, i+1)
			}
		}
	}
	if checkouts < 5 {
		t.Errorf("found %d checkouts in %v: the examples moved?", checkouts, files)
	}
}
