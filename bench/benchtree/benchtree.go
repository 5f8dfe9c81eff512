// Package benchtree writes the synthetic Python trees of bench/ (bench/gen
// is its command; the tests that compare cold and warm runs use it too).
//
// A project tree is one project (one pyproject.toml) of packages of 100
// modules of about size bytes each. Every module registers FastMCP tools on
// a server it imports from server.py; app/main.py (the project's script)
// imports every package and each package its modules, so every tool is a
// live handler. Tools and helpers call helpers in other modules and
// packages, so that handlers share most of the code they reach. One tool in
// three offloads to a worker thread (see UnsafeEvery). The output is
// deterministic.
package benchtree

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

// Monorepo writes servers projects of perServer modules under out/servers.
func Monorepo(out string, servers, perServer, size int) {
	for s := 0; s < servers; s++ {
		Project(filepath.Join(out, "servers", fmt.Sprintf("srv%02d", s)), fmt.Sprintf("srv%02d", s), perServer, size)
	}
	write(filepath.Join(out, "README.md"), "synthetic monorepo of MCP servers\n")
}

func write(path, text string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		log.Fatal(err)
	}
}

const perPackage = 100

// UnsafeEvery: in one module of every UnsafeEvery, the offloading tools
// return right after the offload (an MCP101 finding each); the others follow
// it with a checkpoint, as a careful server does. Either way the analysis
// decides each offload. The default gives about the density of findings of
// real MCP servers (282 in 5,822 parsed files of 36 public repositories);
// -unsafe-every 1 is the stress case of 4 findings in every module.
var UnsafeEvery = 20

// Project writes one project of n modules under dir, as package app.
func Project(dir, name string, n, size int) {
	write(filepath.Join(dir, "pyproject.toml"), fmt.Sprintf("[project]\nname = %q\nversion = \"0.1.0\"\ndependencies = [\"mcp==1.20.0\", \"anyio>=4\"]\n\n[project.scripts]\n%s = \"app.main:main\"\n", name, name))
	write(filepath.Join(dir, "app", "__init__.py"), "")
	write(filepath.Join(dir, "app", "server.py"), "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP(\""+name+"\")\n")
	// As in a real server, the entry point imports every tool module (through
	// its package) before it serves: a tool registered in a module that never
	// runs is not a handler, and mcplint does not analyse it as one.
	pkgs := (n + perPackage - 1) / perPackage
	var main strings.Builder
	main.WriteString("\"\"\"Entry point: imports the tool packages, which registers their tools, then serves.\"\"\"\n\n")
	for p := 0; p < pkgs; p++ {
		fmt.Fprintf(&main, "import app.%s  # noqa: F401\n", pkgName(p))
		var init strings.Builder
		for m := p * perPackage; m < n && m < (p+1)*perPackage; m++ {
			fmt.Fprintf(&init, "from . import %s  # noqa: F401\n", modName(m%perPackage))
		}
		write(filepath.Join(dir, "app", pkgName(p), "__init__.py"), init.String())
	}
	main.WriteString("from app.server import mcp\n\n\ndef main():\n    mcp.run()\n\n\nif __name__ == \"__main__\":\n    main()\n")
	write(filepath.Join(dir, "app", "main.py"), main.String())
	for i := 0; i < n; i++ {
		write(filepath.Join(dir, "app", pkgName(i/perPackage), modName(i%perPackage)+".py"), module(i, n, size))
	}
}

func pkgName(p int) string { return fmt.Sprintf("pkg%03d", p) }
func modName(m int) string { return fmt.Sprintf("mod%02d", m) }

// module returns the source of module i of n: imports of two other modules
// (the next one in its package and one in the next package), helpers that
// call into them, and tools that call the helpers.
func module(i, n, size int) string {
	var b strings.Builder
	next := (i + 1) % n
	far := (i + perPackage + 7) % n
	fmt.Fprintf(&b, "\"\"\"Module %d of a generated project.\"\"\"\n\nimport anyio\nimport anyio.lowlevel\nimport json\n\n", i)
	b.WriteString("from app.server import mcp\n")
	fmt.Fprintf(&b, "from app.%s import %s as near\n", pkgName(next/perPackage), modName(next%perPackage))
	fmt.Fprintf(&b, "from app.%s.%s import helper_0 as far_helper\n\n\n", pkgName(far/perPackage), modName(far%perPackage))
	for h := 0; b.Len() < size*3/4; h++ {
		fmt.Fprintf(&b, "def helper_%d(data, limit=10):\n", h)
		b.WriteString("    \"\"\"Transform data; a generated helper.\"\"\"\n")
		b.WriteString("    out = {}\n    for key, value in sorted(data.items()):\n        if len(out) >= limit:\n            break\n")
		b.WriteString("        out[key] = json.dumps({\"key\": key, \"value\": value, \"size\": len(str(value))})\n")
		if h == 0 {
			b.WriteString("    out.update(near.helper_1(out, limit - 1) if limit > 0 else {})\n")
		} else {
			fmt.Fprintf(&b, "    out.update(helper_%d(out, limit - 1) if limit > 0 else {})\n", h-1)
			b.WriteString("    out.update(far_helper(out, limit - 2) if limit > 1 else {})\n")
		}
		b.WriteString("    return out\n\n\n")
	}
	for t := 0; b.Len() < size; t++ {
		b.WriteString("@mcp.tool()\n")
		fmt.Fprintf(&b, "async def tool_%d_%d(query: str, limit: int = 5) -> str:\n", i, t)
		b.WriteString("    \"\"\"A generated tool.\"\"\"\n")
		if t%3 == 0 {
			b.WriteString("    result = await anyio.to_thread.run_sync(helper_1, {\"q\": query}, limit)\n")
			if i%UnsafeEvery != 0 {
				b.WriteString("    await anyio.lowlevel.checkpoint_if_cancelled()\n")
			}
		} else {
			b.WriteString("    result = helper_0({\"q\": query}, limit)\n    await anyio.sleep(0)\n")
		}
		b.WriteString("    return json.dumps(result)\n\n\n")
	}
	return b.String()
}
