package benchtree

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"strings"
)

// Shape is a real-shaped monorepo of MCP servers: what RealShaped writes.
type Shape struct {
	// Servers is the number of server projects besides the big one.
	Servers int
	// Modules is the number of modules of the big server (the pre-commit
	// case: one changed file in it).
	Modules int
	// LockPackages is the number of packages in each project's uv.lock (250
	// make a lock of about 300 KB, as real ones).
	LockPackages int
	// Size is the approximate size of a module in bytes.
	Size int
}

// RealShape is the shape of the awslabs/mcp repository (none of its code):
// 60 servers in src/, 2,400 Python files, a .gitignore in every project and
// some of their test folders with about 2,800 patterns in all, a uv.lock of
// about 300 KB in every project (20 MB), and ignored folders (.venv, build,
// caches) full of files the walk must not read.
var RealShape = Shape{Servers: 59, Modules: 126, LockPackages: 250, Size: 6 << 10}

// BigServer is the folder of the big server of a RealShaped tree, and
// HookFile the file of it the pre-commit case changes.
const (
	BigServer = "src/big-mcp-server"
	HookFile  = BigServer + "/app/pkg000/mod05.py"
)

// RealShaped writes a tree of shape s under out.
func RealShaped(out string, s Shape) {
	write(filepath.Join(out, ".gitignore"), gitignore("", 80, 0))
	write(filepath.Join(out, "README.md"), "synthetic monorepo of MCP servers, shaped as a real one\n")
	for i := 0; i <= s.Servers; i++ {
		name, n := fmt.Sprintf("srv%02d", i), 10+(i*7)%50 // 10 to 59 modules: 2,000 in 59 servers
		if i == s.Servers {
			name, n = "big", s.Modules
		}
		dir := filepath.Join(out, "src", name+"-mcp-server")
		Project(dir, name, n, s.Size)
		mcp := []string{"1.23.0", "1.26.0", "1.27.0", "1.20.0"}[i%4]
		write(filepath.Join(dir, "pyproject.toml"), fmt.Sprintf("[project]\nname = \"awslabs.%s-mcp-server\"\nversion = \"0.1.0\"\nrequires-python = \">=3.10\"\ndependencies = [\n    \"mcp[cli]>=1.20.0\",\n    \"anyio>=4\",\n    \"pydantic>=2.10\",\n    \"boto3>=1.34\",\n    \"loguru>=0.7\",\n]\n\n[project.scripts]\n%s = \"app.main:main\"\n\n[dependency-groups]\ndev = [\"pytest>=8\", \"pytest-asyncio>=0.26\", \"ruff>=0.9\"]\n\n[tool.ruff]\nline-length = 99\n", name, name))
		write(filepath.Join(dir, "uv.lock"), uvLock("awslabs-"+name+"-mcp-server", mcp, s.LockPackages))
		write(filepath.Join(dir, ".gitignore"), gitignore(name, 40, i))
		for t := 0; t < 4; t++ {
			write(filepath.Join(dir, "tests", fmt.Sprintf("test_tools_%d.py", t)), fmt.Sprintf("import pytest\n\nfrom app.pkg000 import mod0%d\n\n\n@pytest.mark.asyncio\nasync def test_tool():\n    assert await mod0%d.tool_%d_0('q') is not None\n", t, t, t))
		}
		if i%3 == 0 {
			write(filepath.Join(dir, "tests", ".gitignore"), fmt.Sprintf("fixtures/*\n!fixtures/keep_%d.py\n.pytest_cache/\nsnapshots/**/*.ambr\n*.out\n", i))
			write(filepath.Join(dir, "tests", "fixtures", fmt.Sprintf("keep_%d.py", i)), "VALUE = 1\n")
			write(filepath.Join(dir, "tests", "fixtures", "dropped.py"), "VALUE = 2\n")
		}
		// What a developer's checkout holds and .gitignore keeps out.
		for k := 0; k < 20; k++ {
			write(filepath.Join(dir, ".venv", "lib", "python3.12", "site-packages", fmt.Sprintf("dep%02d", k), "__init__.py"), module(k, 20, 2<<10))
		}
		write(filepath.Join(dir, "build", "lib", "app", "server.py"), "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP(\"stale\")\n")
		write(filepath.Join(dir, "app", "__pycache__", "server.cpython-312.pyc"), strings.Repeat("\x00", 512))
		write(filepath.Join(dir, ".pytest_cache", "v", "cache", "nodeids"), "[]\n")
		write(filepath.Join(dir, fmt.Sprintf("generated_%d", i), "schema.py"), "SCHEMA = {}\n")
	}
}

// pythonTemplate is GitHub's Python .gitignore, in part: what projects
// start from.
var pythonTemplate = []string{
	"__pycache__/", "*.py[cod]", "*$py.class", "*.so", ".Python", "build/", "develop-eggs/", "dist/", "downloads/", "eggs/",
	".eggs/", "lib/", "lib64/", "parts/", "sdist/", "var/", "wheels/", "share/python-wheels/", "*.egg-info/", ".installed.cfg",
	"*.egg", "MANIFEST", "*.manifest", "*.spec", "pip-log.txt", "pip-delete-this-directory.txt", "htmlcov/", ".tox/", ".nox/",
	".coverage", ".coverage.*", ".cache", "nosetests.xml", "coverage.xml", "*.cover", "*.py,cover", ".hypothesis/", ".pytest_cache/",
	"cover/", "*.mo", "*.pot", "*.log", "local_settings.py", "db.sqlite3", "db.sqlite3-journal", "instance/", ".webassets-cache",
	".scrapy", "docs/_build/", ".pybuilder/", "target/", ".ipynb_checkpoints", "profile_default/", "ipython_config.py", ".pdm.toml",
	".pdm-python", ".pdm-build/", "__pypackages__/", "celerybeat-schedule", "celerybeat.pid", "*.sage.py", ".env", ".venv", "env/",
	"venv/", "ENV/", "env.bak/", "venv.bak/", ".spyderproject", ".spyproject", ".ropeproject", "/site", ".mypy_cache/", ".dmypy.json",
	"dmypy.json", ".pyre/", ".pytype/", "cython_debug/", ".ruff_cache/", ".pypirc", ".idea/", ".vscode/*", "!.vscode/settings.json",
	"*.swp", "*~", ".DS_Store", "Thumbs.db", "**/node_modules/", "*.tfstate", "*.tfstate.*", ".terraform/", "cdk.out/", "*.zip",
}

// gitignore returns n patterns: the template's, from an offset that
// varies by project, then ones of the project's own (anchored, with **,
// negated, directory-only, character classes, escapes).
func gitignore(name string, n, seed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", name)
	own := []string{
		"/generated_%d/", "**/cache_%d/**", "data/%d/*.csv", "!data/%d/keep.csv", "logs/**/debug_%d.log", "[Bb]in_%d/",
		"*.tmp%d", "\\#notes_%d#", "out_%d/**/*.json", "/scratch_%d", "docs/api_%d/", "*.bak[0-9]%d", "tmp?_%d/", "**/.stage_%d",
		"!important_%d.log", "secrets_%d.*",
	}
	for k := 0; k < n; k++ {
		if k%3 == 2 || name == "" {
			fmt.Fprintf(&b, own[(k+seed)%len(own)]+"\n", seed*100+k)
			continue
		}
		b.WriteString(pythonTemplate[(k+seed*7)%len(pythonTemplate)] + "\n")
	}
	if name != "" {
		b.WriteString(".venv/\nbuild/\n__pycache__/\n.pytest_cache/\n/generated_*/\n")
	}
	return b.String()
}

// lockNames are packages real MCP servers lock; the rest are fillers.
var lockNames = []string{"annotated-types", "anyio", "attrs", "boto3", "botocore", "certifi", "cffi", "charset-normalizer", "click",
	"cryptography", "exceptiongroup", "h11", "httpcore", "httpx", "httpx-sse", "idna", "jmespath", "jsonschema", "loguru", "mcp",
	"pydantic", "pydantic-core", "pydantic-settings", "python-dateutil", "python-dotenv", "python-multipart", "pyyaml", "requests",
	"rich", "s3transfer", "six", "sniffio", "sse-starlette", "starlette", "typer", "typing-extensions", "urllib3", "uvicorn"}

// uvLock returns a uv.lock of n packages for project, mcp locked at
// version mcp.
func uvLock(project, mcp string, n int) string {
	var b strings.Builder
	b.WriteString("version = 1\nrevision = 3\nrequires-python = \">=3.10\"\nresolution-markers = [\n    \"python_full_version >= '3.13'\",\n    \"python_full_version < '3.13'\",\n]\n\n")
	fmt.Fprintf(&b, "[[package]]\nname = %q\nversion = \"0.1.0\"\nsource = { editable = \".\" }\ndependencies = [\n    { name = \"anyio\" },\n    { name = \"boto3\" },\n    { name = \"loguru\" },\n    { name = \"mcp\", extra = [\"cli\"] },\n    { name = \"pydantic\" },\n]\n\n", project)
	fmt.Fprintf(&b, "[package.metadata]\nrequires-dist = [\n    { name = \"anyio\", specifier = \">=4\" },\n    { name = \"boto3\", specifier = \">=1.34\" },\n    { name = \"loguru\", specifier = \">=0.7\" },\n    { name = \"mcp\", extras = [\"cli\"], specifier = \">=1.20.0\" },\n    { name = \"pydantic\", specifier = \">=2.10\" },\n]\n\n")
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("filler-pkg-%03d", i)
		if i < len(lockNames) {
			name = lockNames[i]
		}
		version := fmt.Sprintf("%d.%d.%d", 1+i%7, i%13, i%5)
		switch name {
		case "mcp":
			version = mcp
		case "anyio":
			version = "4.9.0"
		}
		h := func(what string) string { return fmt.Sprintf("%x", sha256.Sum256([]byte(project+name+what))) }
		fmt.Fprintf(&b, "[[package]]\nname = %q\nversion = %q\nsource = { registry = \"https://pypi.org/simple\" }\n", name, version)
		if i > 0 {
			fmt.Fprintf(&b, "dependencies = [\n    { name = %q },\n    { name = %q, marker = \"python_full_version < '3.11'\" },\n]\n", lockNames[i%len(lockNames)], lockNames[(i*3)%len(lockNames)])
		}
		u := "https://files.pythonhosted.org/packages/" + h("u")[:2] + "/" + h("u")[2:4] + "/" + h("u")[4:]
		fmt.Fprintf(&b, "sdist = { url = \"%s/%s-%s.tar.gz\", hash = \"sha256:%s\", size = %d, upload-time = \"2025-03-17T00:02:54.77Z\" }\nwheels = [\n", u, strings.ReplaceAll(name, "-", "_"), version, h("sdist"), 10000+i*37)
		for w, tag := range []string{"py3-none-any", "cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64", "cp312-cp312-macosx_11_0_arm64", "cp312-cp312-win_amd64"} {
			if w > 0 && i%3 != 0 {
				break
			}
			fmt.Fprintf(&b, "    { url = \"%s/%s-%s-%s.whl\", hash = \"sha256:%s\", size = %d, upload-time = \"2025-03-17T00:02:52.713Z\" },\n", u, strings.ReplaceAll(name, "-", "_"), version, tag, h(tag), 9000+i*31+w)
		}
		b.WriteString("]\n\n")
	}
	return b.String()
}
