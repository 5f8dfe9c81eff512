package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mcplint/mcplint/bench/benchtree"
)

// TestWarmRunPrintsWhatColdPrints checks that a run that takes every
// project from the cache prints, in every output format and in --verbose,
// byte for byte what a run without the cache prints: on the fixture
// projects and on small trees of the shapes bench/ measures.
func TestWarmRunPrintsWhatColdPrints(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the cache key
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("CI", "")
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	gen := t.TempDir()
	benchtree.Monorepo(filepath.Join(gen, "monorepo"), 3, 12, 2<<10)
	benchtree.RealShaped(filepath.Join(gen, "real"), benchtree.Shape{Servers: 3, Modules: 101, LockPackages: 60, Size: 1 << 10})
	trees := []string{
		abs("../../testdata/examples"), abs("../../testdata/rules"), abs("../../testdata/deps"),
		filepath.Join(gen, "monorepo"), filepath.Join(gen, "real"),
	}
	// The verbose lines that say what the cache did (and only those) differ.
	cacheLine := regexp.MustCompile(`(?m)^mcplint: cache: .*\n`)
	for _, tree := range trees {
		t.Run(filepath.Base(tree), func(t *testing.T) {
			t.Chdir(tree)
			cache := filepath.Join(t.TempDir(), "cache")
			outputs := func(mode string, cacheArgs ...string) (map[string][]byte, string) {
				dir := filepath.Join(t.TempDir(), mode)
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				args := append([]string{"check", "--exit-zero", "--verbose"}, cacheArgs...)
				for _, f := range formatNames {
					args = append(args, "--output-format", f, "--output", filepath.Join(dir, f))
				}
				args = append(args, ".")
				if code, out := runCLI(t, args...); code != exitClean {
					t.Fatalf("%s run: exit %d:\n%s", mode, code, out)
				} else {
					got := map[string][]byte{}
					for _, f := range formatNames {
						b, err := os.ReadFile(filepath.Join(dir, f))
						if err != nil {
							t.Fatal(err)
						}
						got[f] = b
					}
					return got, out
				}
				return nil, ""
			}
			cold, coldLog := outputs("cold", "--no-cache")
			outputs("fill", "--cache-dir", cache)
			warm, warmLog := outputs("warm", "--cache-dir", cache)
			if !regexp.MustCompile(`mcplint: cache: \d+ projects? reused, 0 analysed`).MatchString(warmLog) {
				t.Fatalf("the warm run analysed projects again:\n%s", cacheLine.FindAllString(warmLog, -1))
			}
			if len(cold["json"]) < 100 {
				t.Fatalf("json output of %d bytes: nothing was checked", len(cold["json"]))
			}
			for _, f := range formatNames {
				if string(warm[f]) != string(cold[f]) {
					t.Errorf("--output-format %s: the warm run's output differs from the cold run's at byte %d", f, firstDiff(warm[f], cold[f]))
				}
			}
			if w, c := cacheLine.ReplaceAllString(warmLog, ""), cacheLine.ReplaceAllString(coldLog, ""); w != c {
				t.Errorf("--verbose: the warm run's log differs from the cold run's at byte %d:\n%s", firstDiff([]byte(w), []byte(c)), excerptAt(w, firstDiff([]byte(w), []byte(c))))
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func excerptAt(s string, i int) string {
	return fmt.Sprintf("...%s...", s[max(i-200, 0):min(i+200, len(s))])
}
