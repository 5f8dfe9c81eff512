#!/usr/bin/env python3
"""Apply mcplint's fixes to copies of real repositories and check them as a maintainer would.

For each repository folder under --repos (owner+name copies, as for score.py), on a scratch copy:
  1. `mcplint check --fix --unsafe-fixes` (or --mode safe for --fix only), and list the changed files;
  2. compile every changed Python file with CPython (`compile()`, the interpreter running this script);
  3. re-parse every changed TOML file (tomllib) and requirements file (each line still a requirement);
  4. run `mcplint check` again and count findings that a fix should have removed but did not;
  5. fix again: a second run must change nothing (idempotence);
  6. isort: a changed file that isort (if importable by /usr/bin/python3 or python3) found sorted before must
     still be sorted after (project settings, black profile);
  7. line length: every added line must fit the project's line length (ruff/black setting, default 88), unless
     the line it replaced was already longer.
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
        r = run([py, "-m", "isort", "--check-only", "--profile", "black", "--settings-path", settings, f])
        if r.returncode not in (0, 1):
            raise RuntimeError(f"isort failed on {path}: {r.stderr.strip()[:300]}")
        return r.returncode == 0


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
               isort_checked=0, isort_broken=0, long_lines=0, added_lines=0)
    problems = []
    print(f"{'repository':45} {'files':>5} {'py':>4} {'nocomp':>6} {'toml':>4} {'left':>4} {'2nd':>4} {'isort':>9} {'long':>8}")
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
                       isort_checked=0, isort_broken=0, long_lines=0, added_lines=0)
            for p in ch:
                data = after[p]
                if p.endswith(".py"):
                    row["py"] += 1
                    try:
                        compile(data, p, "exec")
                    except (SyntaxError, ValueError) as e:
                        row["compile_fail"] += 1
                        problems.append(f"{name}/{p}: does not compile: {e}")
                    width, settings = line_length(root, p)
                    old = before.get(p, b"").decode("utf-8", "replace").splitlines()
                    new = data.decode("utf-8", "replace").splitlines()
                    oldmax = max((len(l) for l in old), default=0)
                    for l in difflib.ndiff(old, new):
                        if l.startswith("+ "):
                            row["added_lines"] += 1
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
              f"{row['second']:4} {row['isort_broken']:>3}/{row['isort_checked']:<5} {row['long_lines']:>3}/{row['added_lines']:<4}")
    print(f"{'total (' + str(tot['repos']) + ' repositories)':45} {tot['files']:5} {tot['py']:4} {tot['compile_fail']:6} "
          f"{tot['toml_fail']:4} {tot['left']:4} {tot['second']:4} {tot['isort_broken']:>3}/{tot['isort_checked']:<5} "
          f"{tot['long_lines']:>3}/{tot['added_lines']:<4}")
    if not isort_py:
        print("isort is not installed for python3 or /usr/bin/python3 (Debian: python3-isort): import order not checked")
    if a.list and problems:
        print()
        print("\n".join(problems))


if __name__ == "__main__":
    main()
