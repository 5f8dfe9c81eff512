package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcplint/mcplint/engine"
	"github.com/mcplint/mcplint/pyast"
	"github.com/mcplint/mcplint/rules"
)

// A code frame quotes the lines around a finding: credential-shaped text in
// them is masked (a requirements file that is really a .git/config, a
// private index URL), also on a long line the excerpt cuts inside the
// token, and the carets still point where they did.
func TestFramesMaskCredentials(t *testing.T) {
	const b64 = "eC1hY2Nlc3MtdG9rZW46Z2hzX0ZBS0UwMTIzNDU2Nzg5YWJjZGVm"
	long := "x" + strings.Repeat("a", 200) + " ==! extraheader = AUTHORIZATION: basic " + b64
	src := "[http]\n\textraheader = AUTHORIZATION: basic " + b64 + "\n--index-url https://u:s3cr3tPassw0rd@pypi.example.com/simple\nbad ==!\nghs_FAKE0123456789abcdef0123456789abcd\n" + long + "\n"
	li := pyast.NewLineIndex([]byte(src))
	res := &engine.Result{Sources: map[string][]byte{"requirements.txt": []byte(src)}, Suppressed: map[string]int{}, Dropped: map[string]int{}}
	at := strings.Index(src, "bad")
	cut := strings.Index(src, "==! extraheader")
	for _, off := range []int{at, cut} {
		res.Diagnostics = append(res.Diagnostics, rules.Diagnostic{Code: "MCP000", Name: "file-error", Severity: rules.SeverityError, Message: "invalid requirement",
			Location: rules.Location{Path: "requirements.txt", Start: li.Position(off), End: li.Position(off + 3)}})
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return Text(b, res, Options{}) },
		"markdown": func(b *bytes.Buffer) error { return Markdown(b, res, Options{}) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, secret := range []string{b64[:8], b64[len(b64)-8:], "s3cr3tPa", "Passw0rd", "ghs_FAKE", "23456789abcd"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s: %q in the frame:\n%s", name, secret, out)
			}
		}
		if !strings.Contains(out, "bad ==!") || !strings.Contains(out, "--index-url https://u:") {
			t.Errorf("%s: the frame lost what is not a secret:\n%s", name, out)
		}
		if !strings.Contains(out, "ghs_****") {
			t.Errorf("%s: the raw token is not in the frame, masked (the check above would pass without it):\n%s", name, out)
		}
		if name == "text" && !strings.Contains(out, "4 | bad ==!\n  | ^^^ MCP000") {
			t.Errorf("text: the carets moved:\n%s", out)
		}
	}
}
