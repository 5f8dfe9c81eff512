// Package redact masks credential-shaped text in what mcplint quotes of a
// scanned file (an MCP000 message that cites an invalid line, a code
// frame), as defence in depth: mcplint should never read a file that holds
// a secret (it reads no version-control internals, follows a symlink only to
// a file of its own kind, and in CI reads only what git tracks), but a quote
// of one must not carry the secret to a pull request's annotations, a SARIF
// upload or a step summary.
//
// What is masked, each character replaced by '*' (so that a masked line
// keeps its length in characters and a code frame's carets still line up;
// line breaks, tabs and other control characters are kept):
//
//   - HTTP authorization: the value of an Authorization header (and of
//     git's http.extraheader), and the credentials after "basic" or
//     "bearer", which are a base64 of user:token;
//   - tokens by their vendor's prefix: GitHub's ghp_, gho_, ghu_, ghs_, ghr_
//     and github_pat_, AWS access key ids (AKIA..., ASIA...), Slack's xox?-,
//     private key blocks (-----BEGIN ... PRIVATE KEY----- to its END line);
//   - the password of a URL (https://user:password@host), or its user when
//     it has no password (https://TOKEN@host);
//   - the value of a key named like a secret (password, passwd, pwd,
//     secret, token, api_key, access_key, private_key, credentials, with any
//     prefix or suffix: AWS_SECRET_ACCESS_KEY=...) after = or, for a quoted
//     key, after a colon ("private_key": "..."), and a .netrc's password;
//   - a long base64 run (40 or more characters mixing upper case, lower
//     case and digits, not a hex digest, not a path): a private key's body
//     lines, which a quote of one line sees without their BEGIN line, and a
//     base64 of a token without its scheme.
//
// Text masks all of it; Code, for Python source, masks a secret-named key's
// value only when it is a string literal (token = "..."), never code
// (token = request.token, def f(token: str)).
package redact

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// A rule is a pattern whose first group (or, without groups, whole match)
// is masked. check, when set, must accept the masked text.
type rule struct {
	re    *regexp.Regexp
	check func(string) bool
}

const (
	// a key named like a secret: the word, with any prefix or suffix joined
	// by _ . or - (AWS_SECRET_ACCESS_KEY, github_token; not tokenizer)
	secretKey = `(?i)(?:[A-Za-z0-9_.-]*[_.-])?(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)s?(?:[_.-][A-Za-z0-9_.-]*)?`
)

var common = []rule{
	{re: regexp.MustCompile(`(?i)\bextraheader\s*=\s*(.+)`)},
	{re: regexp.MustCompile(`(?i)\b(?:proxy-)?authorization\s*["']?\s*[:=]\s*["']?(?:(?:basic|bearer|token|digest|negotiate)\s+)?([^\s'"]+)`)},
	{re: regexp.MustCompile(`(?i)\b(?:basic|bearer)\s+([A-Za-z0-9+/_.~-]{6,}=*)`)},
	{re: regexp.MustCompile(`\b(?:gh[pousr]|github_pat)_([A-Za-z0-9_]{4,})`)},
	{re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)([A-Z0-9]{8,})\b`)},
	{re: regexp.MustCompile(`\bxox[abprs]-([A-Za-z0-9-]{8,})`)},
	{re: regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----((?s:.*?)(?:-----END [A-Z0-9 ]*-----|$))`)},
	{re: regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^/\s:@'"]*:([^/\s@'"]+)@`)},
	{re: regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://([^/\s:@'"]+)@`)},
	{re: regexp.MustCompile(`(?i)\blogin\s+\S+\s+password\s+(\S+)`)},
	{re: regexp.MustCompile(`["']` + secretKey + `["']\s*:\s*["']([^"'\n]+)`)},
	{re: regexp.MustCompile(`\b` + secretKey + `["']?\s*=\s*["']([^"'\n]+)`)},
	{re: regexp.MustCompile(`[A-Za-z0-9+/]{40,}={0,2}`), check: randomBase64},
}

// unquoted is the rule Text adds: a secret-named key's unquoted value.
// (The value does not start with "=": token-bucket==0.3 is a requirement.)
var unquoted = rule{re: regexp.MustCompile(`\b` + secretKey + `\s*=\s*([^\s'",;=][^\s'",;]*)`)}

var (
	textRules = append(append([]rule(nil), common...), unquoted)
	codeRules = common
)

// Text returns s with credential-shaped text masked (for a quote of a
// dependency or configuration file, or of any file mcplint could not parse).
func Text(s string) string { return apply(s, textRules) }

// Code is Text for a quote of Python source: a secret-named variable's
// value is masked only when it is a string literal.
func Code(s string) string { return apply(s, codeRules) }

// keywords are the cheap test before any pattern runs: each rule needs one
// of them (case-insensitively) or a long run of base64 characters.
var keywords = []string{"extraheader", "authorization", "basic", "bearer", "gh", "akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "anpa", "anva", "apka",
	"xox", "private key", "://", "password", "passwd", "pwd", "secret", "token", "key", "credential"}

func apply(s string, rules []rule) string {
	if !suspicious(s) {
		return s
	}
	var spans [][2]int // byte ranges to mask
	for _, r := range rules {
		for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
			lo, hi := m[0], m[1]
			if len(m) >= 4 {
				lo, hi = m[2], m[3]
			}
			if lo < 0 || lo == hi || r.check != nil && !r.check(s[lo:hi]) {
				continue
			}
			spans = append(spans, [2]int{lo, hi})
		}
	}
	if len(spans) == 0 {
		return s
	}
	mask := make([]bool, len(s))
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			mask[i] = true
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !mask[i]:
			b.WriteString(s[i : i+size])
		case r < 0x20 || r == 0x7f:
			b.WriteRune(r) // a masked block keeps its lines and tabs (a frame's width)
		default:
			b.WriteByte('*')
		}
		i += size
	}
	return b.String()
}

// suspicious tells whether any rule can match s.
func suspicious(s string) bool {
	lower := strings.ToLower(s)
	for _, k := range keywords {
		if strings.Contains(lower, k) {
			return true
		}
	}
	run := 0
	for i := 0; i < len(s); i++ {
		if isBase64(s[i]) {
			if run++; run >= 40 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

func isBase64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/'
}

// randomBase64 tells whether a run of base64 characters looks like
// encoded bytes rather than text: upper case, lower case and digits mixed,
// not only hex digits (a digest), and not a path (a slash every few
// characters: random base64 has one in 64).
func randomBase64(s string) bool {
	var upper, lower, digit, slash, hex int
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			upper++
		case 'a' <= c && c <= 'z':
			lower++
		case '0' <= c && c <= '9':
			digit++
		case c == '/':
			slash++
		}
		if '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' {
			hex++
		}
	}
	return upper > 0 && lower > 0 && digit > 0 && hex < len(s) && slash*16 <= len(s)
}
