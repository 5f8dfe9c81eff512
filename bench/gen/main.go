// Command gen writes synthetic Python trees for bench/bench.sh (package
// benchtree says what they hold).
//
//	go run ./bench/gen -kind monorepo -out DIR   # ~60 FastMCP server projects, ~30 MB
//	go run ./bench/gen -kind real -out DIR       # shaped as a real monorepo: .gitignore files, large locks
//	go run ./bench/gen -kind project -files N -out DIR
package main

import (
	"flag"
	"log"
	"os"

	"github.com/mcplint/mcplint/bench/benchtree"
)

func main() {
	kind := flag.String("kind", "project", "monorepo, real or project")
	out := flag.String("out", "", "output directory (created; must not exist)")
	files := flag.Int("files", 2000, "project: number of modules")
	size := flag.Int("size", 10<<10, "approximate bytes per module (real: 6 KiB)")
	servers := flag.Int("servers", 60, "monorepo: number of server projects")
	perServer := flag.Int("per-server", 50, "monorepo: modules per server")
	flag.IntVar(&benchtree.UnsafeEvery, "unsafe-every", 20, "one module in N awaits its offloads with no checkpoint after them (MCP101); 1: every module")
	flag.Parse()
	if *out == "" {
		log.Fatal("gen: -out is required")
	}
	if _, err := os.Stat(*out); err == nil {
		log.Fatalf("gen: %s exists", *out)
	}
	switch *kind {
	case "project":
		benchtree.Project(*out, "big", *files, *size)
	case "monorepo":
		benchtree.Monorepo(*out, *servers, *perServer, *size)
	case "real":
		benchtree.RealShaped(*out, benchtree.RealShape)
	default:
		log.Fatalf("gen: unknown -kind %q", *kind)
	}
}
