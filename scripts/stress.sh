#!/usr/bin/env bash
# Hostile-input table: generates each adversarial case at full size in a temporary folder, runs mcplint on it
# under a watchdog, and prints wall time, CPU time (user + system: the figure to compare on a loaded machine), peak memory
# and the first line of what mcplint said about it.
#
#   scripts/stress.sh [path/to/mcplint]      (default: builds ./cmd/mcplint into a temporary folder)
#   STRESS_ONLY=regexp scripts/stress.sh     (only the cases whose name matches)
#
# The bound is 10 s and 300 MB a case (issue: "Safe on hostile repositories"); the watchdog stops a case at
# 60 s. Output is a Markdown table for docs/reliability.md. Needs bash, python3 (only to
# generate inputs), GNU time at /usr/bin/time and mkfifo. Nothing here needs the network.
#
# mcplint runs as a user runs it: default flags but the case's own (no --exit-zero: a finding exits 1), so
# the cache is on (written into the case's folder, its key in a user cache folder of the run's own) and the
# Go parser on; the variables that change either (MCPLINT_FASTPARSE, MCPLINT_CACHE_DIR) are unset.
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${1:-}
if [ -z "$bin" ]; then
  bin="$work/mcplint"
  go build -o "$bin" ./cmd/mcplint || exit 2
fi
[ -x /usr/bin/time ] || { echo "stress.sh needs GNU time at /usr/bin/time (Debian package: time)" >&2; exit 2; }

server='from mcp.server.fastmcp import FastMCP
import anyio

mcp = FastMCP("s")


@mcp.tool()
async def slow() -> str:
    return await anyio.to_thread.run_sync(lambda: "x")
'
pin='mcp==1.20.0'

# newcase NAME: a fresh project folder with a small server and an mcp 1.x pin, so that "the rest of the scan
# completes" is visible as the MCP101 and MCP001 findings next to whatever the hostile file gets.
newcase() {
  d="$work/$1"
  mkdir -p "$d"
  printf '%s' "$server" >"$d/server.py"
  printf '%s\n' "$pin" >"$d/requirements.txt"
}

gen() { (cd "$work" && python3 -c "$1"); }

rows=()
run() { # NAME DESCRIPTION -- ARGS...
  local name=$1 desc=$2
  shift 3
  if [ -n "${STRESS_ONLY:-}" ] && ! [[ $name =~ $STRESS_ONLY ]]; then return; fi
  local out="$work/$name.out" tm="$work/$name.time"
  ( cd "$work" && env -u MCPLINT_FASTPARSE -u MCPLINT_CACHE_DIR XDG_CACHE_HOME="$work/.user-cache" \
      timeout 60 /usr/bin/time -f '%e %U %S %M' -o "$tm" "$bin" "$@" >"$out" 2>&1 )
  local rc=$?
  local wall=- cpu=- mb=- verdict
  if [ -s "$tm" ]; then
    read -r wall usr sys kb < <(tail -n 1 "$tm")
    case "$kb" in ''|*[!0-9]*) ;; *) mb=$((kb / 1024)) ;; esac
    cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  fi
  if [ "$rc" -eq 124 ]; then verdict="killed at 60 s"; else verdict="exit $rc"; fi
  local said
  # A finding's own line first (not the notes and fixes indented under it,
  # which name the small server's guard fix), then any matching line.
  said=$(grep -a -E 'MCP000|error:|refus|too |outside|more MCP' "$out" | grep -av '^[[:space:]]' | head -n 1)
  [ -n "$said" ] || said=$(grep -a -m1 -E 'MCP000|error:|refus|too |outside|more MCP' "$out")
  said=$(printf '%s' "$said" | sed 's/^[[:space:]]*//' | cut -c1-110 | tr '|' '/')
  local rest=no
  grep -aq MCP101 "$out" && rest=yes
  rows+=("| $desc | $wall | $cpu | $mb | $verdict | $rest | ${said:--} |")
}

# Reads of things that are not regular files.
newcase zero_py;     ln -s /dev/zero "$work/zero_py/big.py"
run zero_py ".py symlink to /dev/zero" -- check zero_py
newcase urandom_lock; ln -s /dev/urandom "$work/urandom_lock/uv.lock"
run urandom_lock "uv.lock symlink to /dev/urandom" -- check urandom_lock
newcase include_zero; printf -- '-r /dev/zero\nmcp==1.20.0\n' >"$work/include_zero/requirements.txt"
run include_zero "requirements -r /dev/zero" -- check include_zero
newcase config_zero
run config_zero "--config /dev/zero" -- check --config /dev/zero config_zero
newcase baseline_zero
run baseline_zero "--baseline /dev/zero" -- check --baseline /dev/zero baseline_zero
newcase fifo_py; mkfifo "$work/fifo_py/pipe.py"
run fifo_py "a .py that is a FIFO" -- check fifo_py
newcase fifo_config; mkfifo "$work/fifo_config/cfg.toml"
run fifo_config "--config FIFO" -- check --config fifo_config/cfg.toml fifo_config

# Parser and analysis depth.
newcase brackets; gen 'open("brackets/deep.py","w").write("import mcp\nx = " + "(" * 33000 + "\n")'
run brackets "33k unclosed brackets" -- check brackets
newcase chain; gen 'open("chain/chain.py","w").write("import mcp\nx = a" + ".b()" * 70000 + "\n")'
run chain "70k call chain" -- check chain
newcase awaits; gen 'open("awaits/aw.py","w").write("import mcp\nasync def f():\n    return " + "await " * 10000 + "g()\n")'
run awaits "10k nested await" -- check awaits
newcase defs; gen 'open("defs/bad.py","w").write("import mcp\n" + "def (:\n" * 50000)'
run defs "50k lines of def (:" -- check defs
newcase biglist; gen 'open("biglist/data.py","w").write("import mcp\nDATA = [" + "1, " * 2700000 + "]\n")'
run biglist "8 MB one-line list literal" -- check biglist
newcase plain; gen 'open("plain/big.py","w").write("import json\nimport mcp\n" + "".join("\n\ndef helper_%d(data, limit=10):\n    \"\"\"Transform data; a generated helper.\"\"\"\n    out = {}\n    for key, value in sorted(data.items()):\n        if len(out) >= limit:\n            break\n        out[key] = json.dumps({\"key\": key, \"value\": value, \"size\": len(str(value))})\n    out.update(helper_%d(out, limit - 1) if limit > 0 else {})\n    return out\n" % (i, i + 1) for i in range(9100)))'
run plain "100k-line module of plain code (must parse: no MCP000)" -- check plain
newcase suppress; gen 'open("suppress/many.py","w").write("import mcp\n" + "x = 1  # mcplint: ignore[MCP101] r\n" * 100000)'
run suppress "100k suppression comments" -- check suppress

# Dependency files.
newcase reqrepeat; gen 'open("reqrepeat/requirements.txt","w").write("mcp==1.20.0\n" * 20000)'
run reqrepeat "requirement repeated 20k times (text)" -- check reqrepeat
run reqrepeat_sarif "requirement repeated 20k times (SARIF)" -- check --format sarif reqrepeat
run reqrepeat_json "requirement repeated 20k times (JSON, every finding counted)" -- check --format json reqrepeat
newcase tomlarray; rm "$work/tomlarray/requirements.txt"
gen 'open("tomlarray/pyproject.toml","w").write("[project]\nname=\"p\"\ndependencies=[\"mcp==1.20.0\"," + "\"x\"," * 1000000 + "]\n")'
run tomlarray "TOML dependency array of 10^6 elements" -- check tomlarray
newcase setuppy; gen 'open("setuppy/setup.py","w").write("from setuptools import setup\nsetup(name=\"p\", install_requires=[\"mcp==1.20.0\"," + "\"x\"," * 1000000 + "])\n")'
run setuppy "huge setup.py" -- check setuppy
newcase reqline; gen 'open("reqline/requirements.txt","w").write("mcp==1.20.0\nx" + "a" * 10000000 + "\n")'
run reqline "10 MB requirements line" -- check reqline
newcase badline; gen 'open("badline/requirements.txt","w").write("mcp==1.20.0\nx" + "a" * 10000000 + " ==!\n")'
run badline "invalid 10 MB requirements line (code frame)" -- check badline

# Costs in proportion to the input (issue 29): repeated findings are counted past the display limit, in memory
# and in the cache; the parse budget counts the bytes the lexer reads again; per-module work grows with n log n
# of the handlers at most; the Go parser stops at the limits before tree-sitter parses the file again.
newcase dup200k; gen 'open("dup200k/requirements.txt","w").write("mcp==1.20.0\n" * 200000)'
run dup200k "requirement repeated 200k times (cache written)" -- check dup200k
newcase dup13m; gen 'open("dup13m/requirements.txt","w").write("mcp==1.20.0\n" * 1300000)'
run dup13m "requirement repeated 1.3M times (15.6 MB)" -- check dup13m
newcase comments; gen 'open("comments/c.py","w").write("import mcp\n" + "# c\n" * 2000000)'
run comments "2M comment lines" -- check comments
for n in 5000 10000; do
  newcase "handlers$n"; gen 'import sys
n = '"$n"'
s = "from mcp.server.fastmcp import FastMCP\nimport anyio\n\nmcp = FastMCP(\"s\")\n"
s += "".join("\n\n@mcp.tool()\nasync def tool_%d() -> str:\n    return await anyio.to_thread.run_sync(lambda: \"x\")\n" % i for i in range(n))
open("handlers'"$n"'/tools.py", "w").write(s)'
  run "handlers$n" "$n handlers in one module (a finding each)" -- check "handlers$n"
done
newcase tuple; gen 'open("tuple/t.py","w").write("import mcp\nx = (" + "1, " * 2600000 + ")\n")'
run tuple "7.8 MB tuple literal" -- check tuple
newcase tuples8; gen '[open("tuples8/t%d.py" % i, "w").write("import mcp\nx = (" + "1, " * 2600000 + ")\n") for i in range(8)]'
run tuples8 "8 tuple literals of 7.8 MB, -j 8" -- check -j 8 tuples8

# Configuration size.
newcase globs; gen 'open("globs/mcplint.toml","w").write("exclude = [" + ",".join("\"d%d/**/*.py\"" % i for i in range(5000)) + "]\n")'
run globs "5,000 exclude globs" -- check globs
newcase decos; gen 'open("decos/mcplint.toml","w").write("handler-decorators = [" + ",".join("\"pkg.m%d.tool\"" % i for i in range(5000)) + "]\n")'
run decos "5,000 handler decorators" -- check decos

# Repository configuration may lower the limits, never loosen them (issue 29): the defs case with every limit
# set to 0 in [tool.mcplint.limits] (each key ignored with a warning; the defaults stay).
newcase defs_config; gen 'open("defs_config/bad.py","w").write("import mcp\n" + "def (:\n" * 50000)'
printf '[tool.mcplint.limits]\nparse-steps = 0\nparse-cpu = "0"\nsyntax-nodes = 0\nsyntax-depth = 0\nfunction-steps = 0\n' >"$work/defs_config/pyproject.toml"
run defs_config "50k lines of def (: with every [tool.mcplint.limits] 0 (ignored)" -- check --exit-zero defs_config

# .gitignore matching in deep trees: folder chains 2,000 deep (the most a 4 KiB path allows) under a .gitignore
# of the usual patterns, whose "**" ones stay live all the way down, or with a .gitignore of its own in every
# folder; a Python file at the bottom of each chain.
gitchain='import os, sys
os.chdir(sys.argv[1])
open(".gitignore", "w").write("__pycache__/\n*.py[cod]\nbuild/\ndist/\n*.egg-info/\n.env\n**/node_modules/**\n**/fixtures/**/*.json\ndocs/**/_build\n!keep/**\n")
top = os.getcwd()
for c in range(int(sys.argv[2])):
    os.chdir(top); os.mkdir("c%d" % c); os.chdir("c%d" % c)
    for i in range(2000):
        if len(sys.argv) > 3:
            open(".gitignore", "w").write("gen_%d/\n*.tmp%d\n/build%d\nsrc/**/x%d\n!keep%d\n" % (i, i, i, i, i))
        os.mkdir("d"); os.chdir("d")
    open("deep.py", "w").write("import mcp\n")'
newcase gitdeep; (cd "$work" && python3 -c "$gitchain" gitdeep 1)
run gitdeep "folder chain 2,000 deep under a .gitignore" -- check --exit-zero gitdeep
newcase gitchains; (cd "$work" && python3 -c "$gitchain" gitchains 20)
run gitchains "20 folder chains 2,000 deep under a .gitignore" -- check --exit-zero gitchains
newcase gitevery; (cd "$work" && python3 -c "$gitchain" gitevery 1 every)
run gitevery "folder chain 2,000 deep, a .gitignore in every folder" -- check --exit-zero gitevery

# Line endings CPython accepts.
newcase lonecr; printf '%s' "$server" | tr '\n' '\r' >"$work/lonecr/server.py"
run lonecr "lone CR line endings (server.py)" -- check lonecr

# Data and security cases (each also has a test next to the code).
newcase secret; printf -- '-r /proc/self/environ\nmcp==1.20.0\n' >"$work/secret/requirements.txt"
MCPLINT_STRESS_SECRET=do-not-print-me run secret "-r /proc/self/environ (secret must not print)" -- check secret
if grep -aqs do-not-print-me "$work/secret.out"; then rows+=("| **the environment was printed** | | | | LEAK | | |"); fi
# The workflow's token (issue 28): actions/checkout leaves it in .git/config; a pull request points mcplint at it
# or at a credentials file a CI step wrote. None may print the token, its base64 or an 8-character piece of them.
tok=ghs_FAKE7Qm2Xv9Lp4Rt8Wz1Ks6Nd3Hy5Bj0GcQ
tok64=$(printf 'x-access-token:%s' "$tok" | base64 -w0)
gitcfg() { mkdir -p "$1/.git"; printf '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic %s\n' "$tok64" >"$1/.git/config"; printf 'ref: refs/heads/%s\n' "$tok" >"$1/.git/HEAD"; }
leak() { # NAME: a LEAK row when the case's output holds a piece of the token
  local f="$work/$1.out" s i
  [ -s "$f" ] || return 0
  for s in "$tok" "$tok64"; do
    for ((i = 0; i + 8 <= ${#s}; i += 4)); do
      if grep -aqF -- "${s:i:8}" "$f"; then rows+=("| **the token was printed ($1)** | | | | LEAK | | |"); return; fi
    done
  done
}
newcase tok_symlink; gitcfg "$work/tok_symlink"; ln -s .git/config "$work/tok_symlink/requirements-dev.txt"
for fmt in text json sarif github markdown; do
  run "tok_symlink_$fmt" "requirements-dev.txt symlink to .git/config ($fmt)" -- check --exit-zero --no-cache --format "$fmt" tok_symlink; leak "tok_symlink_$fmt"
done
newcase tok_include; gitcfg "$work/tok_include"; printf -- 'mcp==1.20.0\n-r .git/config\n' >"$work/tok_include/requirements.txt"
run tok_include "-r .git/config" -- check --exit-zero --no-cache tok_include; leak tok_include
newcase tok_creds; printf '{"token": "%s", "type": "external_account"}\n' "$tok" >"$work/tok_creds/gha-creds-1a2b.json"
ln -s gha-creds-1a2b.json "$work/tok_creds/requirements-dev.txt"
run tok_creds "requirements-dev.txt symlink to a credentials JSON" -- check --exit-zero --no-cache tok_creds; leak tok_creds
newcase tok_head; gitcfg "$work/tok_head"; ln -s .git/HEAD "$work/tok_head/tool.py"
run tok_head ".py symlink to .git/HEAD" -- check --exit-zero --no-cache tok_head; leak tok_head
if command -v git >/dev/null; then
  newcase tok_untracked; printf -- '-r gha-creds-x.json\n' >>"$work/tok_untracked/requirements.txt"; printf '{"token": "x"}\n' >"$work/tok_untracked/gha-creds-tracked.json"
  git -C "$work/tok_untracked" init -q && git -C "$work/tok_untracked" add . && git -C "$work/tok_untracked" -c user.email=s@s -c user.name=s commit -qm s
  printf '{"token": "%s"}\n' "$tok" >"$work/tok_untracked/gha-creds-x.json"; printf 'token=%s\n' "$tok" >"$work/tok_untracked/requirements-ci.txt"
  GITHUB_ACTIONS=true run tok_untracked "untracked gha-creds-x.json and requirements-ci.txt (CI: --tracked-only)" -- check --exit-zero --no-cache -v tok_untracked; leak tok_untracked
fi

newcase inject; printf '%s' "$server" >"$work/inject/$(printf 'a\n::error ::pwned\n.py')"
for i in $(seq 1 12); do printf '%s' "$server" >"$work/inject/s$i.py"; done
run inject "file name with a newline and ::error (github)" -- check --format github inject
if grep -aqs '^::error ::pwned' "$work/inject.out"; then rows+=("| **a workflow command was injected** | | | | INJECTED | | |"); fi

# Outputs at a path the repository planted (issue 29): a committed symlink at the SARIF or baseline path, to a
# script the runner can write, with a requirements line the SARIF would quote; refused before the analysis (exit 2),
# the script untouched. Then 20,000 temporary files a --fix killed with -9 left, swept by the next --fix.
newcase symout; printf '#!/bin/sh\necho ok\n' >"$work/symout-action.sh"; chmod 0755 "$work/symout-action.sh"
printf '%s\n$(id>/tmp/PWNED)\n' "$pin" >"$work/symout/requirements.txt"
ln -s ../symout-action.sh "$work/symout/mcplint.sarif"; ln -s ../symout-action.sh "$work/symout/baseline.json"
run symout_sarif "--output at a committed symlink to a script (SARIF quoting \$(id))" -- check --exit-zero --format sarif --output symout/mcplint.sarif --format github symout
run symout_baseline "--write-baseline at a committed symlink to a script" -- check --exit-zero --write-baseline symout/baseline.json symout
if [ "$(cat "$work/symout-action.sh")" != "$(printf '#!/bin/sh\necho ok')" ]; then rows+=("| **the symlink's target was written** | | | | WRITTEN | | |"); fi
newcase sweep; mkdir -p "$work/sweep/lib"; printf 'import anyio\n\n\nasync def f():\n    await anyio.sleep(0)\n' >"$work/sweep/lib/m.py"
gen 'for i in range(20000): open("sweep/lib/.m.py.mcplint-tmp-99999999-%x" % i, "w").close()'
run sweep "--fix after kill -9: 20,000 temporary files left" -- check --exit-zero --fix sweep
if [ -n "$(find "$work/sweep" -name '*.mcplint-tmp-*' -print -quit)" ]; then rows+=("| **temporary files were left** | | | | LEFT | | |"); fi

echo "| case | wall s | CPU s | peak MB | result | rest of scan found | what mcplint said |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
