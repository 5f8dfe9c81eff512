package redact

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf8"
)

const ghs = "ghs_FAKE0123456789abcdefghijABCDEFGHIJ"

// fragments are the 8-character pieces of a secret, its base64 and their
// reverses: none may survive a redaction.
func fragments(secret string) []string {
	var out []string
	rev := func(s string) string {
		b := []byte(s)
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return string(b)
	}
	for _, s := range []string{secret, base64.StdEncoding.EncodeToString([]byte("x-access-token:" + secret))} {
		for _, v := range []string{s, rev(s)} {
			for i := 0; i+8 <= len(v); i++ {
				out = append(out, v[i:i+8])
			}
		}
	}
	return out
}

func TestTextMasksCredentials(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + ghs))
	cases := []struct{ in, secret string }{
		{"\textraheader = AUTHORIZATION: basic " + b64, b64},
		{"= AUTHORIZATION: basic " + b64[:30], b64[:30]},
		{"Authorization: Bearer " + ghs, ghs},
		{"authorization=token " + ghs, ghs},
		{"curl -H 'Authorization: basic " + b64 + "'", b64},
		{"GITHUB_TOKEN=" + ghs, ghs},
		{"token: " + ghs, ghs},
		{"x = '" + ghs + "'", ghs},
		{"github_pat_11AAAAAAA0123456789_abcdefghijklmnopqrstuvwxyz", "11AAAAAAA0123456789_abcdefghijklmnopqrstuvwxyz"},
		{"gho_abcdEFGH1234ijkl", "abcdEFGH1234ijkl"},
		{"aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"},
		{"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
		{`{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n"}`, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun"},
		{"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun"}, // a body line alone
		{"--index-url https://user:s3cr3tPassw0rd@pypi.example.com/simple", "s3cr3tPassw0rd"},
		{"git+https://" + ghs + "@github.com/o/r.git", ghs},
		{"machine github.com login x password hunter2hunter2", "hunter2hunter2"},
		{"password=hunter2hunter2", "hunter2hunter2"},
		{"passwd = 'hunter2hunter2'", "hunter2hunter2"},
		{`DB_PASSWORD="correct horse battery"`, "correct horse battery"},
		{"secret=abcdefgh12345678", "abcdefgh12345678"},
		{"SLACK=xoxb-123456789012-abcdefghij", "123456789012-abcdefghij"},
	}
	for _, c := range cases {
		got := Text(c.in)
		if strings.Contains(got, c.secret) {
			t.Errorf("Text(%q) = %q: the secret is still there", c.in, got)
		}
		for _, f := range fragments(c.secret) {
			if len(c.secret) >= 8 && strings.Contains(got, f) && strings.Contains(c.secret, f) {
				t.Errorf("Text(%q) = %q: a fragment %q of the secret is still there", c.in, got, f)
				break
			}
		}
		if utf8.RuneCountInString(got) != utf8.RuneCountInString(c.in) || strings.Count(got, "\n") != strings.Count(c.in, "\n") {
			t.Errorf("Text(%q) = %q: not the same length in characters and lines", c.in, got)
		}
	}
	for _, f := range fragments(ghs) {
		if got := Text("extraheader = AUTHORIZATION: basic " + b64); strings.Contains(got, f) {
			t.Errorf("%q in %q", f, got)
		}
	}
}

// What is not a credential is left as it is: requirements, hashes, paths,
// code, the key words in prose.
func TestTextKeepsTheRest(t *testing.T) {
	for _, s := range []string{
		"mcp==1.20.0",
		"anyio>=4 ; python_version >= '3.10'",
		"--hash=sha256:3b5e8cfe8a3c4e1f0e4d0c7a9b1f2e3d4c5b6a79887766554433221100ffeedd",
		`url = "https://files.pythonhosted.org/packages/9f/2a/3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7/mcp-1.20.0-py3-none-any.whl"`,
		"git+https://github.com/modelcontextprotocol/python-sdk@v1.20.0",
		"[core]", "\trepositoryformatversion = 0", "ref: refs/heads/main",
		"the token expired, ask for a new password",
		`tokenizer = "bert"`, `authors = [{name = "Jane"}]`,
		"ThisIsALongCamelCaseIdentifierWithoutDigitsAtAllReally",
		"token-bucket==0.3", "secret-storage>=3.3", "django-secrets == 1.0", "keyring==24.3.1", "tokenizers>=0.15",
		"",
	} {
		if got := Text(s); got != s {
			t.Errorf("Text(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestCodeMasksOnlyLiterals(t *testing.T) {
	for in, want := range map[string]string{
		`token = request.token`:                                  `token = request.token`,
		`async def accounts(token: str) -> int:`:                 `async def accounts(token: str) -> int:`,
		`self.token = token`:                                     `self.token = token`,
		`API_KEY = "sk-live-1234567890"`:                         `API_KEY = "` + strings.Repeat("*", 18) + `"`,
		`headers = {"Authorization": "Bearer abcdefgh12345678"}`: `headers = {"Authorization": "Bearer ****************"}`,
		`client = Github("` + ghs + `")`:                         `client = Github("ghs_` + strings.Repeat("*", len(ghs)-4) + `")`,
	} {
		if got := Code(in); got != want {
			t.Errorf("Code(%q)\n got %q\nwant %q", in, got, want)
		}
	}
	if got := Text(`self.token = token`); got == `self.token = token` {
		t.Errorf("Text masks an unquoted value: %q", got)
	}
}

func BenchmarkTextPlainLine(b *testing.B) {
	s := strings.Repeat("mcp>=1.20,<2 ; python_version >= '3.10' # comment ", 4)
	for i := 0; i < b.N; i++ {
		Text(s)
	}
}
