#!/usr/bin/env python3
"""Score mcplint against the hand-labelled places of real MCP server repositories.

The labels (labels.tsv) were written by reading the code, before running mcplint; the
repositories themselves are not in this repository. Put local copies side by side in one
folder, each checked out at the commit that repos.tsv names, in a folder named
owner+name (e.g. awslabs+mcp), then run:

    go build -o /tmp/mcplint ./cmd/mcplint
    scripts/realworld/score.py --mcplint /tmp/mcplint --repos /path/to/copies

A label says that a rule must report (flag) or must not report (clean) at a path and line.
A finding matches a label when repository, path, line and rule agree. Findings with no label
are listed so that they can be read and labelled; they count in neither direction.
Standard library only; nothing is fetched.
"""
import argparse
import collections
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_tsv(name):
    with open(os.path.join(HERE, name), newline="", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    return rows[1:]  # header


def git_head(path):
    try:
        return subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def findings(mcplint, root, folder, extra):
    # Run from the folder that holds the copies, so that paths start with owner+name/.
    cmd = [mcplint, "check", "--exit-zero", "--format", "json", *extra, folder]
    out = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"mcplint failed on {folder}: {out.stderr.strip()}")
    doc = json.loads(out.stdout)
    res = []
    for d in doc["diagnostics"]:
        path = d["path"]
        prefix = folder + "/"
        if path.startswith(prefix):
            path = path[len(prefix):]
        res.append((path, d["start"]["line"], d["code"], d["severity"], d["message"]))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mcplint", required=True, help="the mcplint binary to score")
    ap.add_argument("--repos", required=True, help="folder holding owner+name copies")
    ap.add_argument("--only", action="append", default=[], help="score only this owner/name")
    ap.add_argument("--set", choices=sorted({r[2] for r in read_tsv("repos.tsv")}),
                    help="score only the repositories of this set (repos.tsv)")
    ap.add_argument("--list", action="store_true", help="list every miss, false alarm and unlabelled finding")
    ap.add_argument("mcplint_args", nargs="*", help="extra arguments for mcplint check (after --)")
    a = ap.parse_args()

    rows = read_tsv("repos.tsv")
    repos = {r[0]: r[1] for r in rows}
    sets = {r[0]: r[2] for r in rows}
    labels = collections.defaultdict(list)
    for repo, path, line, rule, verdict, reason in read_tsv("labels.tsv"):
        if verdict not in ("flag", "clean"):
            sys.exit(f"labels.tsv: bad verdict {verdict!r} for {repo} {path}:{line}")
        if repo not in repos:
            sys.exit(f"labels.tsv: {repo} is not in repos.tsv")
        labels[repo].append((path, int(line), rule, verdict, reason))

    per_rule = collections.defaultdict(lambda: collections.Counter())
    listing = []
    for repo, commit in sorted(repos.items()):
        if a.only and repo not in a.only or a.set and sets[repo] != a.set:
            continue
        folder = repo.replace("/", "+")
        local = os.path.join(a.repos, folder)
        if not os.path.isdir(local):
            print(f"skip {repo}: no copy at {local}", file=sys.stderr)
            continue
        head = git_head(local)
        if head and head != commit:
            print(f"warning: {repo} is at {head[:12]}, labels are for {commit[:12]}", file=sys.stderr)
        got = findings(a.mcplint, a.repos, folder, a.mcplint_args)
        got_keys = {(p, l, c) for p, l, c, _, _ in got}
        labelled = set()
        for path, line, rule, verdict, reason in labels[repo]:
            key = (path, line, rule)
            labelled.add(key)
            hit = key in got_keys
            if verdict == "flag":
                per_rule[rule]["tp" if hit else "fn"] += 1
                if not hit:
                    listing.append(f"MISS  {repo} {path}:{line} {rule}: {reason}")
            else:
                per_rule[rule]["fp" if hit else "tn"] += 1
                if hit:
                    listing.append(f"FALSE {repo} {path}:{line} {rule}: {reason}")
        for p, l, c, sev, msg in got:
            if (p, l, c) not in labelled:
                per_rule[c]["unlabelled"] += 1
                listing.append(f"NEW   {repo} {p}:{l} {c} ({sev}): {msg[:120]}")

    def pct(n, d):
        return f"{100 * n / d:5.1f}%" if d else "    -"

    print(f"{'rule':8} {'tp':>5} {'fp':>5} {'fn':>5} {'tn':>5} {'recall':>7} {'precision':>9} {'unlabelled':>10}")
    total = collections.Counter()
    for rule in sorted(per_rule):
        c = per_rule[rule]
        total.update(c)
        print(f"{rule:8} {c['tp']:5} {c['fp']:5} {c['fn']:5} {c['tn']:5} {pct(c['tp'], c['tp'] + c['fn']):>7} "
              f"{pct(c['tp'], c['tp'] + c['fp']):>9} {c['unlabelled']:10}")
    c = total
    print(f"{'all':8} {c['tp']:5} {c['fp']:5} {c['fn']:5} {c['tn']:5} {pct(c['tp'], c['tp'] + c['fn']):>7} "
          f"{pct(c['tp'], c['tp'] + c['fp']):>9} {c['unlabelled']:10}")
    if a.list:
        print()
        print("\n".join(sorted(listing)))


if __name__ == "__main__":
    main()
