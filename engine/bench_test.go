package engine

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRunExample runs the whole analysis on the built-in example.
func BenchmarkRunExample(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Run([]string{"../testdata/examples/weather"}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImportLines reads the import lines of the CPython standard
// library (when installed, else of the repository's test data): the
// prefilter every Python file of a scan goes through.
func BenchmarkImportLines(b *testing.B) {
	srcs := benchPythonFiles(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			importLines(src, "pkg.mod", false)
		}
	}
}

// benchPythonFiles returns the contents of the standard library's Python
// files, or of the repository's test data when it is not installed, and
// sets the benchmark's bytes.
func benchPythonFiles(b *testing.B) [][]byte {
	roots, _ := filepath.Glob("/usr/lib/python3*")
	if len(roots) == 0 {
		roots = []string{"../testdata"}
	}
	var srcs [][]byte
	var n int64
	filepath.WalkDir(roots[0], func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			if src, err := os.ReadFile(p); err == nil {
				srcs = append(srcs, src)
				n += int64(len(src))
			}
		}
		return nil
	})
	b.SetBytes(n)
	return srcs
}

// BenchmarkRepeatedRequirement runs the analysis on a server whose
// requirements file repeats "mcp==1.20.0" 20,000 times: a finding per line,
// each with the dependency fixes' install-conflict checks. The work must
// grow with the lines, not with their square (it took 511 s before the
// checks were judged once per distinct requirement).
func BenchmarkRepeatedRequirement(b *testing.B) {
	benchRun(b, map[string]string{
		"requirements.txt": strings.Repeat("mcp==1.20.0\n", 20_000),
		"server.py":        "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP(\"s\")\n",
	})
}

// BenchmarkManyHandlers runs the analysis on one module of 5,000 handlers,
// each an MCP101 finding with a fix: the per-module work of the fixes (the
// file's line length) must be done once, not per finding (9 CPU-s before).
func BenchmarkManyHandlers(b *testing.B) {
	var src strings.Builder
	src.WriteString("from mcp.server.fastmcp import FastMCP\nimport anyio\n\nmcp = FastMCP(\"s\")\n")
	for i := range 5000 {
		fmt.Fprintf(&src, "\n\n@mcp.tool()\nasync def tool_%d() -> str:\n    return await anyio.to_thread.run_sync(lambda: \"x\")\n", i)
	}
	benchRun(b, map[string]string{"tools.py": src.String()})
}

// benchRun writes files into a temporary folder and runs the analysis on
// it b.N times.
func benchRun(b *testing.B, files map[string]string) {
	dir := b.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Run([]string{dir}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Diagnostics) == 0 {
			b.Fatal("no finding")
		}
	}
}
