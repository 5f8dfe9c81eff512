#!/usr/bin/env bash
# Hostile-input table: generates each adversarial case at full size in a temporary folder, runs mcplint on it
# under a watchdog, and prints wall time, CPU time (user + system: the figure to compare on a loaded machine), peak memory
# and the first line of what mcplint said about it.
#
#   scripts/stress.sh [path/to/mcplint]      (default: builds ./cmd/mcplint into a temporary folder)
#   STRESS_ONLY=regexp scripts/stress.sh     (only the cases whose name matches)
#
# The bound is 10 s and 300 MB a case (issue: "Safe on hostile repositories"); the watchdog stops a case at
# 60 s. Output is a Markdown table for the README's reliability section. Needs bash, python3 (only to
# generate inputs), GNU time at /usr/bin/time and mkfifo. Nothing here needs the network.
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
  ( cd "$work" && timeout 60 /usr/bin/time -f '%e %U %S %M' -o "$tm" "$bin" "$@" >"$out" 2>&1 )
  local rc=$?
  local wall=- cpu=- mb=- verdict
  if [ -s "$tm" ]; then
    read -r wall usr sys kb < <(tail -n 1 "$tm")
    case "$kb" in ''|*[!0-9]*) ;; *) mb=$((kb / 1024)) ;; esac
    cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  fi
  if [ "$rc" -eq 124 ]; then verdict="killed at 60 s"; else verdict="exit $rc"; fi
  local said
  said=$(grep -a -m1 -E 'MCP000|error:|refus|too |outside' "$out" | cut -c1-110 | tr '|' '/')
  local rest=no
  grep -aq MCP101 "$out" && rest=yes
  rows+=("| $desc | $wall | $cpu | $mb | $verdict | $rest | ${said:--} |")
}

# Reads of things that are not regular files.
newcase zero_py;     ln -s /dev/zero "$work/zero_py/big.py"
run zero_py ".py symlink to /dev/zero" -- check --exit-zero zero_py
newcase urandom_lock; ln -s /dev/urandom "$work/urandom_lock/uv.lock"
run urandom_lock "uv.lock symlink to /dev/urandom" -- check --exit-zero urandom_lock
newcase include_zero; printf -- '-r /dev/zero\nmcp==1.20.0\n' >"$work/include_zero/requirements.txt"
run include_zero "requirements -r /dev/zero" -- check --exit-zero include_zero
newcase config_zero
run config_zero "--config /dev/zero" -- check --exit-zero --config /dev/zero config_zero
newcase baseline_zero
run baseline_zero "--baseline /dev/zero" -- check --exit-zero --baseline /dev/zero baseline_zero
newcase fifo_py; mkfifo "$work/fifo_py/pipe.py"
run fifo_py "a .py that is a FIFO" -- check --exit-zero fifo_py
newcase fifo_config; mkfifo "$work/fifo_config/cfg.toml"
run fifo_config "--config FIFO" -- check --exit-zero --config fifo_config/cfg.toml fifo_config

# Parser and analysis depth.
newcase brackets; gen 'open("brackets/deep.py","w").write("import mcp\nx = " + "(" * 33000 + "\n")'
run brackets "33k unclosed brackets" -- check --exit-zero brackets
newcase chain; gen 'open("chain/chain.py","w").write("import mcp\nx = a" + ".b()" * 70000 + "\n")'
run chain "70k call chain" -- check --exit-zero chain
newcase awaits; gen 'open("awaits/aw.py","w").write("import mcp\nasync def f():\n    return " + "await " * 10000 + "g()\n")'
run awaits "10k nested await" -- check --exit-zero awaits
newcase defs; gen 'open("defs/bad.py","w").write("import mcp\n" + "def (:\n" * 50000)'
run defs "50k lines of def (:" -- check --exit-zero defs
newcase biglist; gen 'open("biglist/data.py","w").write("import mcp\nDATA = [" + "1, " * 2700000 + "]\n")'
run biglist "8 MB one-line list literal" -- check --exit-zero biglist
newcase plain; gen 'open("plain/big.py","w").write("import json\nimport mcp\n" + "".join("\n\ndef helper_%d(data, limit=10):\n    \"\"\"Transform data; a generated helper.\"\"\"\n    out = {}\n    for key, value in sorted(data.items()):\n        if len(out) >= limit:\n            break\n        out[key] = json.dumps({\"key\": key, \"value\": value, \"size\": len(str(value))})\n    out.update(helper_%d(out, limit - 1) if limit > 0 else {})\n    return out\n" % (i, i + 1) for i in range(9100)))'
run plain "100k-line module of plain code (must parse: no MCP000)" -- check --exit-zero plain
newcase suppress; gen 'open("suppress/many.py","w").write("import mcp\n" + "x = 1  # mcplint: ignore[MCP101] r\n" * 100000)'
run suppress "100k suppression comments" -- check --exit-zero suppress

# Dependency files.
newcase reqrepeat; gen 'open("reqrepeat/requirements.txt","w").write("mcp==1.20.0\n" * 20000)'
run reqrepeat "requirement repeated 20k times (text)" -- check --exit-zero reqrepeat
run reqrepeat_sarif "requirement repeated 20k times (SARIF)" -- check --exit-zero --format sarif reqrepeat
run reqrepeat_json "requirement repeated 20k times (JSON, every finding)" -- check --exit-zero --format json reqrepeat
newcase tomlarray; rm "$work/tomlarray/requirements.txt"
gen 'open("tomlarray/pyproject.toml","w").write("[project]\nname=\"p\"\ndependencies=[\"mcp==1.20.0\"," + "\"x\"," * 1000000 + "]\n")'
run tomlarray "TOML dependency array of 10^6 elements" -- check --exit-zero tomlarray
newcase setuppy; gen 'open("setuppy/setup.py","w").write("from setuptools import setup\nsetup(name=\"p\", install_requires=[\"mcp==1.20.0\"," + "\"x\"," * 1000000 + "])\n")'
run setuppy "huge setup.py" -- check --exit-zero setuppy
newcase reqline; gen 'open("reqline/requirements.txt","w").write("mcp==1.20.0\nx" + "a" * 10000000 + "\n")'
run reqline "10 MB requirements line" -- check --exit-zero reqline
newcase badline; gen 'open("badline/requirements.txt","w").write("mcp==1.20.0\nx" + "a" * 10000000 + " ==!\n")'
run badline "invalid 10 MB requirements line (code frame)" -- check --exit-zero badline

# Configuration size.
newcase globs; gen 'open("globs/mcplint.toml","w").write("exclude = [" + ",".join("\"d%d/**/*.py\"" % i for i in range(5000)) + "]\n")'
run globs "5,000 exclude globs" -- check --exit-zero globs
newcase decos; gen 'open("decos/mcplint.toml","w").write("handler-decorators = [" + ",".join("\"pkg.m%d.tool\"" % i for i in range(5000)) + "]\n")'
run decos "5,000 handler decorators" -- check --exit-zero decos

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
run lonecr "lone CR line endings (server.py)" -- check --exit-zero lonecr

# Data and security cases (each also has a test next to the code).
newcase secret; printf -- '-r /proc/self/environ\nmcp==1.20.0\n' >"$work/secret/requirements.txt"
MCPLINT_STRESS_SECRET=do-not-print-me run secret "-r /proc/self/environ (secret must not print)" -- check --exit-zero secret
if grep -aqs do-not-print-me "$work/secret.out"; then rows+=("| **the environment was printed** | | | | LEAK | | |"); fi
newcase inject; printf '%s' "$server" >"$work/inject/$(printf 'a\n::error ::pwned\n.py')"
for i in $(seq 1 12); do printf '%s' "$server" >"$work/inject/s$i.py"; done
run inject "file name with a newline and ::error (github)" -- check --exit-zero --format github inject
if grep -aqs '^::error ::pwned' "$work/inject.out"; then rows+=("| **a workflow command was injected** | | | | INJECTED | | |"); fi

echo "| case | wall s | CPU s | peak MB | result | rest of scan found | what mcplint said |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
