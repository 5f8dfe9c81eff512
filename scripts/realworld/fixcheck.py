#!/usr/bin/env python3
"""Apply mcplint's fixes to copies of real repositories and check them as a maintainer would.

For each repository folder under --repos (owner+name copies, as for score.py), on a scratch copy:
  1. `mcplint check --fix --unsafe-fixes` (or --mode safe for --fix only), and list the changed files;
  2. compile every changed Python file with CPython (`compile()`, the interpreter running this script; a file it
     could not compile before the fix either is listed, not counted: run it with the newest Python you have);
  3. re-parse every changed TOML file (tomllib) and requirements file (each line still a requirement);
  4. run `mcplint check` again and count findings that a fix should have removed but did not;
  5. fix again: a second run must change nothing (idempotence);
  6. isort: a changed file that isort (if importable by /usr/bin/python3 or python3) found sorted before must
     still be sorted after (project settings, black profile);
  7. line length: every added line must fit the project's line length (ruff/black setting, default 88), unless
     the line it replaced was already longer;
  8. resolvable: every changed manifest (pyproject.toml, requirements*.txt) whose requirements on mcp, fastmcp and
     fastmcp-slim could be installed together before the fix (per install set: the main dependencies with each extra
     or group) still can after it, for the releases the index holds (what each fastmcp release requires of mcp, as
     SPEC section 2 says; a requirement that admits none of the listed releases is not judged).
  9. imports: every added import of the respond guard (`import mcp_respond_guard`, `from PKG import
     mcp_respond_guard`, `from . import mcp_respond_guard`) names a guard file the fix tree holds where Python would
     look: beside the module or in its package for a relative import, else under the module's folder, one of the
     folders above it or their src/ (where a project's folder or an installed src layout puts it on sys.path).
Prints one row per repository and totals. Standard library only; the copies are deleted afterwards.
"""
import argparse
import difflib
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib


def run(cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def snapshot(root):
    files = {}
    for d, dirs, names in os.walk(root):
        # .mcplint_cache is mcplint's own analysis cache, not a fix.
        dirs[:] = [x for x in dirs if x not in (".git", ".mcplint_cache")]
        for n in names:
            p = os.path.join(d, n)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            try:
                with open(p, "rb") as f:
                    files[os.path.relpath(p, root)] = f.read()
            except OSError:
                pass
    return files


GUARD_IMPORT_RE = re.compile(
    r"^\s*(?:from\s+(\.*)([\w.]*)\s+import\s+(?:\(\s*)?mcp_respond_guard\b|import\s+([\w.]*\.)?mcp_respond_guard\b)")


def guard_import_resolves(p, line, files):
    """None when line imports no guard; else whether the guard file it names is in files (relative paths)."""
    m = GUARD_IMPORT_RE.match(line)
    if not m:
        return None
    dots, pkg, dotted = m.group(1), m.group(2), m.group(3)
    mod_dir = os.path.dirname(p)
    if dots:
        base = mod_dir
        for _ in range(len(dots) - 1):
            base = os.path.dirname(base)
        parts = pkg.split(".") if pkg else []
        return os.path.normpath(os.path.join(base, *parts, "mcp_respond_guard.py")) in files
    parts = pkg.split(".") if pkg else (dotted.rstrip(".").split(".") if dotted else [])
    roots, d = set(), mod_dir
    while True:
        roots.update((d, os.path.join(d, "src")))
        if d in ("", os.sep):
            break
        d = os.path.dirname(d)
    return any(os.path.normpath(os.path.join(r, *parts, "mcp_respond_guard.py")) in files for r in roots)


def changed(before, after):
    return sorted(p for p in after if before.get(p) != after[p])


def find_isort():
    for py in ("python3", "/usr/bin/python3"):
        if shutil.which(py) and run([py, "-c", "import isort"]).returncode == 0:
            return py
    return None


def line_length(root, path):
    d = os.path.dirname(os.path.join(root, path))
    while True:
        pp = os.path.join(d, "pyproject.toml")
        if os.path.isfile(pp):
            try:
                with open(pp, "rb") as f:
                    t = tomllib.load(f).get("tool", {})
                for v in (t.get("ruff", {}).get("line-length"), t.get("black", {}).get("line-length")):
                    if isinstance(v, int):
                        return v, d
            except (OSError, tomllib.TOMLDecodeError):
                pass
            return 88, d
        if os.path.abspath(d) == os.path.abspath(root):
            return 88, root
        d = os.path.dirname(d)


def isort_sorted(py, settings, path, data):
    with tempfile.TemporaryDirectory() as td:
        f = os.path.join(td, os.path.basename(path))
        with open(f, "wb") as fh:
            fh.write(data)
        # From the project's folder, as a maintainer or pre-commit runs it: isort finds the first-party
        # packages (src/ layouts) from there.
        r = run([py, "-m", "isort", "--check-only", "--profile", "black", "--settings-path", settings, f], cwd=settings)
        if r.returncode not in (0, 1):
            raise RuntimeError(f"isort failed on {path}: {r.stderr.strip()[:300]}")
        return r.returncode == 0


# Releases the index holds (final releases only), and what each fastmcp release requires of mcp.
MCP_RELEASES = ["1.0.0", "1.3.0", "1.9.4", "1.12.4", "1.13.1", "1.14.1"] + [f"1.{n}.0" for n in range(15, 31)] + [
    "1.27.2", "1.28.1", "2.0.0", "2.1.1", "2.2.0", "2.3.0"]
FASTMCP_RELEASES = ["2.0.0", "2.9.0", "2.10.0", "2.11.2", "2.12.0", "2.13.0", "2.14.1", "2.14.5", "3.0.0", "3.2.0",
                    "3.3.0", "3.4.7", "3.4.8", "4.0.0", "4.0.11", "4.1.0"]


def vkey(v):
    return tuple(int(x) for x in re.findall(r"\d+", v)[:4]) + (0,) * (4 - len(re.findall(r"\d+", v)[:4]))


def fastmcp_needs_mcp(f):
    k = vkey(f)
    if k >= vkey("4.0.0"):
        return lambda m: vkey(m) >= vkey("2.0.0")
    if k >= vkey("3.0.0"):
        return lambda m: vkey("1.24.0") <= vkey(m) < vkey("2.0.0")
    if vkey("2.10.0") <= k <= vkey("2.11.2") or vkey("2.14.0") <= k <= vkey("2.14.1"):
        return lambda m: True  # no upper bound declared
    return lambda m: vkey(m) < vkey("2.0.0")


def clause_ok(op, want, v):
    if want.endswith(".*"):
        pre = want[:-2]
        match = v == pre or v.startswith(pre + ".")
        return match if op == "==" else not match
    a, b = vkey(v), vkey(want)
    if op == "~=":
        parts = re.findall(r"\d+", want)
        upper = vkey(".".join(parts[:-2] + [str(int(parts[-2]) + 1)])) if len(parts) >= 2 else (1 << 30,)
        return b <= a < upper
    return {"==": a == b, "===": a == b, "!=": a != b, ">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}.get(op, True)


REQ_RE = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*\(?([^;@()]*)\)?\s*(?:;.*)?$")


def parse_req(text):
    """(name, predicate) of a PEP 508 requirement on a tracked package, or None."""
    m = REQ_RE.match(text)
    if not m:
        return None
    name = re.sub(r"[-_.]+", "-", m.group(1)).lower()
    if name not in ("mcp", "fastmcp", "fastmcp-slim"):
        return None
    clauses = []
    for c in m.group(2).split(","):
        c = c.strip()
        cm = re.match(r"^(===|==|!=|~=|>=|<=|>|<)\s*([0-9][0-9A-Za-z.*+!-]*)$", c)
        if cm:
            clauses.append((cm.group(1), cm.group(2)))
        elif c:
            return None  # not judged
    return name, lambda v: all(clause_ok(op, w, v) for op, w in clauses)


def install_sets(path, data):
    """The requirement texts installed together: a list of lists."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return []
    if path.endswith(".toml"):
        try:
            t = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return []
        proj = t.get("project", {}) if isinstance(t.get("project"), dict) else {}
        main = [r for r in proj.get("dependencies", []) if isinstance(r, str)]
        groups = []
        for table in (proj.get("optional-dependencies", {}), t.get("dependency-groups", {})):
            if isinstance(table, dict):
                groups += [[r for r in g if isinstance(r, str)] for g in table.values() if isinstance(g, list)]
        return [main + g for g in groups] or [main]
    lines, cur = [], ""
    for line in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line)
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1] + " "
            continue
        line, cur = cur + line, ""
        line = re.sub(r"\s--?[a-z-]+(=|\s)\S+", "", " " + line).strip()
        if line and not line.startswith("-"):
            lines.append(line)
    return [lines]


def satisfiable(reqs):
    """False when no listed releases satisfy every requirement and fastmcp's own need of mcp; None: not judged."""
    preds = {"mcp": [], "fastmcp": []}
    for r in reqs:
        p = parse_req(r)
        if p:
            preds["fastmcp" if p[0] == "fastmcp-slim" else p[0]].append(p[1])
    if not preds["mcp"] and not preds["fastmcp"]:
        return None
    ms = [v for v in MCP_RELEASES if all(p(v) for p in preds["mcp"])]
    fs = [v for v in FASTMCP_RELEASES if all(p(v) for p in preds["fastmcp"])]
    for got, releases, ps in ((ms, MCP_RELEASES, preds["mcp"]), (fs, FASTMCP_RELEASES, preds["fastmcp"])):
        if ps and not got:
            # each admits a listed release but not together: unsatisfiable; one that admits none: not judged
            return False if all(any(p(v) for v in releases) for p in ps) else None
    if not preds["fastmcp"]:
        return True
    return any(fastmcp_needs_mcp(f)(m) for f in fs for m in ms)


def unresolvable(path, before, after):
    """How many install sets of a changed manifest the fix made unsatisfiable."""
    if not (path.endswith("pyproject.toml") or re.search(r"requirements[^/]*\.(txt|in)$", path)):
        return 0
    old = install_sets(path, before)
    new = install_sets(path, after)
    n = 0
    for i, reqs in enumerate(new):
        if satisfiable(reqs) is False and (i >= len(old) or satisfiable(old[i]) is not False):
            n += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mcplint", required=True)
    ap.add_argument("--repos", required=True)
    ap.add_argument("--mode", choices=("safe", "unsafe"), default="unsafe")
    ap.add_argument("--list", action="store_true", help="print every problem found")
    a = ap.parse_args()
    isort_py = find_isort()
    fixflags = ["--fix"] + (["--unsafe-fixes"] if a.mode == "unsafe" else [])
    tot = dict(repos=0, files=0, py=0, compile_fail=0, toml_fail=0, left=0, second=0,
               isort_checked=0, isort_broken=0, long_lines=0, added_lines=0, unresolvable=0, noimport=0)
    problems = []
    print(f"{'repository':45} {'files':>5} {'py':>4} {'nocomp':>6} {'toml':>4} {'left':>4} {'2nd':>4} {'isort':>9} {'long':>8} {'unres':>5} {'noimp':>5}")
    for name in sorted(os.listdir(a.repos)):
        src = os.path.join(a.repos, name)
        if not os.path.isdir(src):
            continue
        with tempfile.TemporaryDirectory() as td:
            root = os.path.join(td, name)
            shutil.copytree(src, root, symlinks=True, ignore=shutil.ignore_patterns(".git"))
            before = snapshot(root)
            r = run([a.mcplint, "check", "--exit-zero", *fixflags, "."], cwd=root)
            if r.returncode not in (0, 1):
                problems.append(f"{name}: mcplint --fix failed: {r.stderr.strip()[:200]}")
            after = snapshot(root)
            ch = changed(before, after)
            row = dict(files=len(ch), py=0, compile_fail=0, toml_fail=0, left=0, second=0,
                       isort_checked=0, isort_broken=0, long_lines=0, added_lines=0, unresolvable=0, noimport=0)
            for p in ch:
                data = after[p]
                if p in before and (k := unresolvable(p, before[p], data)):
                    row["unresolvable"] += k
                    problems.append(f"{name}/{p}: {k} install set(s) no longer resolvable: "
                                    f"{[r for s in install_sets(p, data) for r in s if parse_req(r)]}")
                if p.endswith(".py"):
                    row["py"] += 1
                    try:
                        compile(data, p, "exec")
                    except (SyntaxError, ValueError) as e:
                        # A file this interpreter could not compile before the fix either (newer syntax, say)
                        # says nothing of the fix.
                        try:
                            if p in before:
                                compile(before[p], p, "exec")
                            row["compile_fail"] += 1
                            problems.append(f"{name}/{p}: does not compile: {e}")
                        except (SyntaxError, ValueError):
                            problems.append(f"{name}/{p}: not judged: it did not compile with Python "
                                            f"{sys.version.split()[0]} before the fix either: {e}")
                    width, settings = line_length(root, p)
                    old = before.get(p, b"").decode("utf-8", "replace").splitlines()
                    new = data.decode("utf-8", "replace").splitlines()
                    oldmax = max((len(l) for l in old), default=0)
                    for l in difflib.ndiff(old, new):
                        if l.startswith("+ "):
                            row["added_lines"] += 1
                            if guard_import_resolves(p, l[2:], after) is False:
                                row["noimport"] += 1
                                problems.append(f"{name}/{p}: the guard import names no guard file: {l[2:].strip()}")
                            if len(l) - 2 > width and len(l) - 2 > oldmax:
                                row["long_lines"] += 1
                                problems.append(f"{name}/{p}: added line of {len(l) - 2} > {width}: {l[2:][:100]}")
                    if isort_py and p in before:
                        try:
                            if isort_sorted(isort_py, settings, p, before[p]):
                                row["isort_checked"] += 1
                                if not isort_sorted(isort_py, settings, p, data):
                                    row["isort_broken"] += 1
                                    problems.append(f"{name}/{p}: imports sorted before the fix, unsorted after")
                        except RuntimeError as e:
                            problems.append(f"{name}/{p}: {e}")
                elif p.endswith(".toml"):
                    try:
                        tomllib.loads(data.decode("utf-8"))
                    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
                        row["toml_fail"] += 1
                        problems.append(f"{name}/{p}: TOML no longer parses: {e}")
            # Re-check: findings whose fix was applied must be gone (count fixable findings left).
            r = run([a.mcplint, "check", "--exit-zero", "--statistics", "."], cwd=root)
            m = re.search(r"\[\*\] (\d+) fixable", r.stdout)
            left_fixable = int(m.group(1)) if m else 0
            if a.mode == "safe":
                row["left"] = left_fixable
            # Idempotence: a second fix run changes nothing.
            mid = snapshot(root)
            run([a.mcplint, "check", "--exit-zero", *fixflags, "."], cwd=root)
            second = changed(mid, snapshot(root))
            row["second"] = len(second)
            for p in second:
                problems.append(f"{name}/{p}: changed again by a second --fix")
        tot["repos"] += 1
        for k in row:
            tot[k] += row[k]
        print(f"{name[:45]:45} {row['files']:5} {row['py']:4} {row['compile_fail']:6} {row['toml_fail']:4} {row['left']:4} "
              f"{row['second']:4} {row['isort_broken']:>3}/{row['isort_checked']:<5} {row['long_lines']:>3}/{row['added_lines']:<4} "
              f"{row['unresolvable']:5} {row['noimport']:5}")
    print(f"{'total (' + str(tot['repos']) + ' repositories)':45} {tot['files']:5} {tot['py']:4} {tot['compile_fail']:6} "
          f"{tot['toml_fail']:4} {tot['left']:4} {tot['second']:4} {tot['isort_broken']:>3}/{tot['isort_checked']:<5} "
          f"{tot['long_lines']:>3}/{tot['added_lines']:<4} {tot['unresolvable']:5} {tot['noimport']:5}")
    if not isort_py:
        print("isort is not installed for python3 or /usr/bin/python3 (Debian: python3-isort): import order not checked")
    if a.list and problems:
        print()
        print("\n".join(problems))


if __name__ == "__main__":
    main()
