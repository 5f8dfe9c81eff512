package deps

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcplint/mcplint/internal/escape"
)

// Version is a PEP 440 version. Local labels are kept for display and
// ignored by comparisons (as a specifier without a local label does).
type Version struct {
	Epoch   int64
	Release []int64 // as written (trailing zeros kept for display)
	Pre     string  // "a", "b", "rc" or ""
	PreN    int64
	Post    int64 // -1: none
	Dev     int64 // -1: none
	Local   string
}

var localRE = regexp.MustCompile(`^[a-z0-9]+([-_.][a-z0-9]+)*$`)

const (
	negInf = math.MinInt64
	posInf = math.MaxInt64
	// maxComponent bounds numeric components so that sentinels stay distinct.
	maxComponent = math.MaxInt64 / 2
)

// ParseVersion parses a PEP 440 version, accepting the normalisations the
// PEP allows (leading "v", case, "-"/"_"/"." separators, "alpha", "pre",
// "c", "rev", "r", implicit numbers).
func ParseVersion(s string) (Version, error) {
	v := Version{Post: -1, Dev: -1}
	orig := s
	s = strings.ToLower(strings.TrimSpace(s))
	bad := func(why string) (Version, error) {
		return Version{}, fmt.Errorf("invalid version %s: %s", escape.Quote(orig), why)
	}
	if s == "" {
		return bad("empty")
	}
	if s[0] == 'v' {
		s = s[1:]
	}
	if i := strings.IndexByte(s, '+'); i >= 0 {
		v.Local = s[i+1:]
		s = s[:i]
		if v.Local == "" {
			return bad("empty local label")
		}
		if !localRE.MatchString(v.Local) {
			return bad("bad local label")
		}
	}
	if i := strings.IndexByte(s, '!'); i >= 0 {
		n, ok := num(s[:i])
		if !ok {
			return bad("bad epoch")
		}
		v.Epoch = n
		s = s[i+1:]
	}
	// release
	for {
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == 0 {
			return bad("expected a release number")
		}
		n, ok := num(s[:j])
		if !ok {
			return bad("number too large")
		}
		v.Release = append(v.Release, n)
		s = s[j:]
		if len(s) > 1 && s[0] == '.' && s[1] >= '0' && s[1] <= '9' {
			s = s[1:]
			continue
		}
		break
	}
	// pre-release
	sep := func() {
		if s != "" && (s[0] == '.' || s[0] == '-' || s[0] == '_') {
			s = s[1:]
		}
	}
	number := func() (int64, bool, bool) { // value, present, ok
		rest := s
		if rest != "" && (rest[0] == '.' || rest[0] == '-' || rest[0] == '_') {
			rest = rest[1:]
		}
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j == 0 {
			return 0, false, true
		}
		n, ok := num(rest[:j])
		s = rest[j:]
		return n, true, ok
	}
	save := s
	sep()
	for _, p := range []struct{ word, norm string }{{"alpha", "a"}, {"beta", "b"}, {"preview", "rc"}, {"pre", "rc"}, {"rc", "rc"}, {"c", "rc"}, {"a", "a"}, {"b", "b"}} {
		if strings.HasPrefix(s, p.word) {
			s = s[len(p.word):]
			v.Pre = p.norm
			n, _, ok := number()
			if !ok {
				return bad("number too large")
			}
			v.PreN = n
			break
		}
	}
	if v.Pre == "" {
		s = save
	}
	// post-release
	save = s
	if strings.HasPrefix(s, "-") && len(s) > 1 && s[1] >= '0' && s[1] <= '9' {
		s = s[1:]
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, ok := num(s[:j])
		if !ok {
			return bad("number too large")
		}
		v.Post, s = n, s[j:]
	} else {
		sep()
		matched := false
		for _, w := range []string{"post", "rev", "r"} {
			if strings.HasPrefix(s, w) {
				s = s[len(w):]
				n, _, ok := number()
				if !ok {
					return bad("number too large")
				}
				v.Post, matched = n, true
				break
			}
		}
		if !matched {
			s = save
		}
	}
	// dev-release
	save = s
	sep()
	if strings.HasPrefix(s, "dev") {
		s = s[3:]
		n, _, ok := number()
		if !ok {
			return bad("number too large")
		}
		v.Dev = n
	} else {
		s = save
	}
	if s != "" {
		return bad(fmt.Sprintf("unexpected %q", s))
	}
	return v, nil
}

func num(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 63)
	if err != nil || n > maxComponent {
		return 0, false
	}
	return int64(n), true
}

// MustVersion parses s and panics on error; for tables of known versions.
func MustVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// String returns the normalised form.
func (v Version) String() string {
	var b strings.Builder
	if v.Epoch != 0 {
		fmt.Fprintf(&b, "%d!", v.Epoch)
	}
	for i, r := range v.Release {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strconv.FormatInt(r, 10))
	}
	if v.Pre != "" {
		fmt.Fprintf(&b, "%s%d", v.Pre, v.PreN)
	}
	if v.Post >= 0 {
		fmt.Fprintf(&b, ".post%d", v.Post)
	}
	if v.Dev >= 0 {
		fmt.Fprintf(&b, ".dev%d", v.Dev)
	}
	if v.Local != "" {
		b.WriteString("+" + strings.NewReplacer("-", ".", "_", ".").Replace(v.Local))
	}
	return b.String()
}

// IsPrerelease reports whether v is a pre- or dev-release.
func (v Version) IsPrerelease() bool { return v.Pre != "" || v.Dev >= 0 }

// Major returns the first release component.
func (v Version) Major() int64 { return v.Release[0] }

// Compare orders versions by PEP 440, ignoring local labels.
func (v Version) Compare(w Version) int { return v.key().cmp(w.key()) }

// key is packaging's comparison key; sentinel keys bound version families.
type key struct {
	epoch   int64
	release []int64 // trailing zeros trimmed
	pre     int64   // phase*maxComponent-ish encoding: see preKey
	preN    int64
	post    int64
	dev     int64
}

func phase(p string) int64 {
	switch p {
	case "a":
		return 0
	case "b":
		return 1
	}
	return 2
}

func trim(r []int64) []int64 {
	n := len(r)
	for n > 0 && r[n-1] == 0 {
		n--
	}
	return r[:n]
}

func (v Version) key() key {
	k := key{epoch: v.Epoch, release: trim(v.Release), post: negInf, dev: posInf}
	switch {
	case v.Pre == "" && v.Post < 0 && v.Dev >= 0:
		k.pre = negInf
	case v.Pre == "":
		k.pre = posInf
	default:
		k.pre, k.preN = phase(v.Pre), v.PreN
	}
	if v.Post >= 0 {
		k.post = v.Post
	}
	if v.Dev >= 0 {
		k.dev = v.Dev
	}
	return k
}

// famMin is below every version whose release is r; famMax above them all.
func famMin(epoch int64, r []int64) key {
	return key{epoch: epoch, release: trim(r), pre: negInf, post: negInf, dev: negInf}
}

func famMax(epoch int64, r []int64) key {
	return key{epoch: epoch, release: trim(r), pre: posInf, post: posInf, dev: posInf}
}

// postMin is above r's final release and below every post-release of r.
func postMin(epoch int64, r []int64) key {
	return key{epoch: epoch, release: trim(r), pre: posInf, post: 0, dev: negInf}
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpRelease(a, b []int64) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y int64
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if c := cmp64(x, y); c != 0 {
			return c
		}
	}
	return 0
}

func (k key) cmp(o key) int {
	if c := cmp64(k.epoch, o.epoch); c != 0 {
		return c
	}
	if c := cmpRelease(k.release, o.release); c != 0 {
		return c
	}
	if c := cmp64(k.pre, o.pre); c != 0 {
		return c
	}
	if k.pre != negInf && k.pre != posInf {
		if c := cmp64(k.preN, o.preN); c != 0 {
			return c
		}
	}
	if c := cmp64(k.post, o.post); c != 0 {
		return c
	}
	return cmp64(k.dev, o.dev)
}

// nextFinal returns the smallest final (non pre-release) version key that is
// >= k (> k when strict). ok is false when there is no smallest one: k is
// the top of a release family, and finals beyond it are dense.
func (k key) nextFinal(strict bool) (key, bool) {
	base := key{epoch: k.epoch, release: k.release, pre: posInf, post: negInf, dev: posInf}
	switch {
	case k.pre != posInf: // a pre-release (or the family bottom): the release itself
		return base, true
	case k.post == posInf:
		return key{}, false
	case k.post == negInf: // the final release itself
		if !strict {
			return k, true
		}
		base.post = 0
		return base, true
	case k.dev != posInf: // R.postN.devM or postMin: R.postN
		base.post = k.post
		return base, true
	default: // R.postN
		if !strict {
			return k, true
		}
		base.post = k.post + 1
		return base, true
	}
}
