package engine

import (
	"encoding/json"
	"testing"

	"github.com/mcplint/mcplint/rules"
)

// TestJobsDoNotChangeTheResult runs the fixture trees (many projects, so
// several run at once) with one worker and with several, with every rule on,
// and compares everything a renderer reads.
func TestJobsDoNotChangeTheResult(t *testing.T) {
	for _, root := range []string{"../testdata/rules", "../testdata/examples"} {
		var want string
		for _, jobs := range []int{1, 4, 0} {
			res := run(t, []string{root}, Options{Jobs: jobs, Rules: rules.All(), ShowSafe: true, ReportUnreachable: true})
			if len(res.Projects) < 2 && root == "../testdata/rules" {
				t.Fatalf("%s: %d projects, want many", root, len(res.Projects))
			}
			b, err := json.Marshal(struct {
				D      []rules.Diagnostic
				P      []*ProjectSummary
				Parsed int
			}{res.Diagnostics, res.Projects, res.Parsed})
			if err != nil {
				t.Fatal(err)
			}
			if jobs == 1 {
				want = string(b)
				if len(res.Diagnostics) == 0 {
					t.Fatalf("%s: no findings", root)
				}
				continue
			}
			if string(b) != want {
				t.Errorf("%s: --jobs %d gives a different result than --jobs 1", root, jobs)
			}
		}
	}
}
