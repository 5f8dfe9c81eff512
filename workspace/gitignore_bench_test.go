package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The benchmarks drive the ignorer as Walk does (ignored then load for a
// folder, ignored for a file, an ignored folder's entries skipped) over
// entry lists, so they measure matching, not the file system. Each reports
// ns/path, the cost of one entry.

type benchEntry struct {
	abs   string
	isDir bool
}

// benchWalk walks entries b.N times; with compiled, the ignorer (its files
// read and compiled) is made once, outside the timing, so only matching is
// measured; without, each walk reads and compiles the files too, as a run
// does.
func benchWalk(b *testing.B, root string, entries []benchEntry, compiled bool) {
	b.Helper()
	b.ReportAllocs()
	var ig *ignorer
	if compiled {
		ig = newIgnorer(root)
		ig.load(root)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !compiled {
			ig = newIgnorer(root)
		}
		ig.load(root)
		skip := ""
		for _, e := range entries {
			if skip != "" && strings.HasPrefix(e.abs, skip) {
				continue
			}
			skip = ""
			if e.isDir {
				if ig.ignored(e.abs, true) {
					skip = e.abs + "/"
					continue
				}
				ig.load(e.abs)
			} else {
				ig.ignored(e.abs, false)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(entries)), "ns/path")
}

func benchWrite(b *testing.B, name, content string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
}

// projectPatterns is a project's .gitignore of n patterns, of the kinds
// real ones hold: literal names and folders, extensions, anchored paths,
// "**" forms, negations.
func projectPatterns(p, n int) string {
	var lines []string
	for i := 0; len(lines) < n; i++ {
		switch i % 8 {
		case 0:
			lines = append(lines, fmt.Sprintf("generated_%d_%d/", p, i))
		case 1:
			lines = append(lines, fmt.Sprintf("*.cache%d", i))
		case 2:
			lines = append(lines, fmt.Sprintf("/build_%d", i))
		case 3:
			lines = append(lines, fmt.Sprintf("src/**/tmp_%d", i))
		case 4:
			lines = append(lines, fmt.Sprintf("**/fixtures_%d/*.json", i))
		case 5:
			lines = append(lines, fmt.Sprintf("!keep_%d.py", i))
		case 6:
			lines = append(lines, fmt.Sprintf("local_%d_*.py", i))
		default:
			lines = append(lines, fmt.Sprintf("docs/_build_%d/**", i))
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// BenchmarkGitignoreMonorepo is a tree shaped like the awslabs/mcp
// monorepo: 60 .gitignore files (the root's after GitHub's Python template
// and 59 projects' of 46 patterns: about 2,800 in all), 59 projects of
// packages, tests, caches and build output.
func BenchmarkGitignoreMonorepo(b *testing.B) {
	dir := b.TempDir()
	root := filepath.ToSlash(dir)
	benchWrite(b, filepath.Join(dir, ".git", "HEAD"), "")
	benchWrite(b, filepath.Join(dir, ".gitignore"), realisticIgnore)
	patterns := strings.Count(realisticIgnore, "\n")
	var entries []benchEntry
	add := func(p string, isDir bool) { entries = append(entries, benchEntry{root + "/" + p, isDir}) }
	add("src", true)
	for p := 0; p < 59; p++ {
		proj := fmt.Sprintf("src/server-%d", p)
		benchWrite(b, filepath.Join(dir, filepath.FromSlash(proj), ".gitignore"), projectPatterns(p, 46))
		patterns += 46
		add(proj, true)
		add(proj+"/pyproject.toml", false)
		add(proj+"/uv.lock", false)
		for _, sub := range []string{"build", "dist", ".venv", "tests"} {
			add(proj+"/"+sub, true)
			add(proj+"/"+sub+"/x.py", false)
		}
		pkg := proj + "/awslabs/server_" + fmt.Sprint(p)
		add(proj+"/awslabs", true)
		add(pkg, true)
		for m := 0; m < 12; m++ {
			add(fmt.Sprintf("%s/mod_%d.py", pkg, m), false)
		}
		add(pkg+"/__pycache__", true)
		add(pkg+"/__pycache__/mod_0.cpython-312.pyc", false)
		add(pkg+"/tools", true)
		for m := 0; m < 8; m++ {
			add(fmt.Sprintf("%s/tools/tool_%d.py", pkg, m), false)
		}
	}
	b.Logf("%d patterns in 60 files, %d entries", patterns, len(entries))
	benchWalk(b, root, entries, false)
}

// BenchmarkGitignorePatterns has one .gitignore of n patterns (a third
// literal names, a third "*.ext" or "prefix_*" names, a third anchored
// "**" paths) and 1,000 paths three folders deep that none matches: the
// cost per path (the file compiled beforehand) must not grow with n.
func BenchmarkGitignorePatterns(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			root := filepath.ToSlash(dir)
			var lines []string
			for i := 0; i < n; i++ {
				switch i % 6 {
				case 0, 3:
					lines = append(lines, fmt.Sprintf("name%d", i))
				case 1:
					lines = append(lines, fmt.Sprintf("*.ext%d", i))
				case 4:
					lines = append(lines, fmt.Sprintf("prefix%d_*", i))
				default:
					lines = append(lines, fmt.Sprintf("dir%d/**/x%d", i, i))
				}
			}
			benchWrite(b, filepath.Join(dir, ".gitignore"), strings.Join(lines, "\n")+"\n")
			var entries []benchEntry
			for a := 0; a < 10; a++ {
				d1 := fmt.Sprintf("%s/pkg%d", root, a)
				entries = append(entries, benchEntry{d1, true})
				for c := 0; c < 10; c++ {
					d2 := fmt.Sprintf("%s/sub%d", d1, c)
					entries = append(entries, benchEntry{d2, true})
					for f := 0; f < 10; f++ {
						entries = append(entries, benchEntry{fmt.Sprintf("%s/module_%d.py", d2, f), false})
					}
				}
			}
			benchWalk(b, root, entries, true)
		})
	}
}

// BenchmarkGitignoreChain is one chain of folders n deep, each with a
// Python file, under a .gitignore after GitHub's Python template: the cost
// per path must not grow with the depth.
func BenchmarkGitignoreChain(b *testing.B) {
	for _, n := range []int{100, 500, 2000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			root := filepath.ToSlash(dir)
			benchWrite(b, filepath.Join(dir, ".gitignore"), realisticIgnore)
			var entries []benchEntry
			p := root
			for i := 0; i < n; i++ {
				entries = append(entries, benchEntry{p + "/m.py", false})
				p += "/d"
				entries = append(entries, benchEntry{p, true})
			}
			benchWalk(b, root, entries, false)
		})
	}
}
