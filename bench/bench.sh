#!/usr/bin/env bash
# Times mcplint against ast-grep (one pattern: it parses every Python file)
# and ripgrep (it reads every byte) on the same trees, in one run: medians of
# RUNS runs of wall time and CPU time (user + system), peak RSS, and the
# ratios in CPU seconds. mcplint runs cold (--no-cache) and warm (the cache
# filled by a run before, nothing changed); the monorepo also runs --diff
# cold (the fix rounds), against check. On a tree with a pre-commit file,
# `mcplint hook FILE` runs with the cache warm and that one file changed
# (a comment appended before each run), and its profile is summed up.
#
# Usage: bench/bench.sh [TREE[:HOOKFILE]...]
#   Trees: the Python standard library without site-packages, the synthetic
#   monorepo bench/gen writes (60 FastMCP server projects), the real-shaped
#   monorepo (bench/gen -kind real: 60 projects with .gitignore files of
#   2,880 patterns in all, a 290 KB uv.lock each, ignored .venv and build
#   folders, a 126-module server whose file it changes for the hook), and
#   any TREE given; HOOKFILE, relative to TREE, is the file the pre-commit
#   case changes (e.g. /tmp/mcp:src/aws-healthomics-mcp-server/awslabs/
#   aws_healthomics_mcp_server/tools/workflow_analysis.py). A TREE is read
#   only, but for the file HOOKFILE names (restored after) and a git
#   repository bench.sh makes in the generated trees (ripgrep reads
#   .gitignore files only in one).
#   SCALE="2000 5000 10000 20000" adds one-project trees of that many modules
#   (bench/gen -kind project), mcplint only. mcplint runs cold (--no-cache).
#   RUNS (default 3), AST_GREP (default: ast-grep on PATH), WORK (default: a
#   temporary directory; generated trees are kept there between runs).
# Needs: go, python3, git, /usr/bin/time (GNU time: apt-get install time),
#   ripgrep (apt-get install ripgrep) and ast-grep (npm i -g @ast-grep/cli;
#   where /usr/bin/sg exists npm refuses it: npm i -g --prefix DIR
#   @ast-grep/cli, then AST_GREP=DIR/bin/ast-grep). They are not needed by
#   the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
work=${WORK:-${TMPDIR:-/tmp}/mcplint-bench}
astgrep=${AST_GREP:-$(command -v ast-grep || true)}
mkdir -p "$work"
go build -o "$work/mcplint" ./cmd/mcplint
go build -o "$work/gen" ./bench/gen

[ -x /usr/bin/time ] || { echo "bench: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
command -v rg >/dev/null || { echo "bench: needs ripgrep (apt-get install ripgrep)" >&2; exit 2; }
[ -n "$astgrep" ] || echo "bench: no ast-grep (npm i -g @ast-grep/cli, or AST_GREP=path): its column is skipped" >&2

stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
if [ ! -d "$work/stdlib" ]; then
  mkdir -p "$work/stdlib"
  tar -C "$stdlib" --exclude=site-packages --exclude=__pycache__ -cf - . | tar -C "$work/stdlib" -xf -
fi
[ -d "$work/monorepo" ] || "$work/gen" -kind monorepo -out "$work/monorepo"
if [ ! -d "$work/real" ]; then
  "$work/gen" -kind real -out "$work/real"
  git -C "$work/real" init -q
fi
trees=("$work/stdlib" "$work/monorepo" "$work/real:src/big-mcp-server/app/pkg000/mod05.py" "$@")

# measure CMD...: runs it $runs times; prints "wall cpu rss_kib" medians.
measure() {
  local out
  out=$(for _ in $(seq "${reps:-$runs}"); do
    /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$@" >/dev/null 2>&1 || true
    tail -1 "$work/time.txt"
  done)
  median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
  printf '%s %s %s\n' \
    "$(awk '{print $1}' <<<"$out" | median)" \
    "$(awk '{print $2+$3}' <<<"$out" | median)" \
    "$(awk '{print $4}' <<<"$out" | median)"
}
# what FILE.json: the live handlers and the findings of a JSON report.
what() {
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
h = sum(len(p.get("handlers") or []) for p in d["projects"])
print("live handlers: %d; findings: %d (%s)" % (h, d["summary"]["findings"], ", ".join("%s %d" % kv for kv in sorted(d["summary"]["by_code"].items()))))' "$1"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

echo "runs: $runs (medians); load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
printf '%-22s %7s %8s | %-28s | %-28s | %-36s | %-28s | %s\n' tree files MiB "ripgrep wall/cpu/RSS" "ast-grep wall/cpu/RSS" "mcplint cold wall/cpu/RSS (cpu/wall)" "mcplint warm wall/cpu/RSS" "cpu: cold / ast-grep, warm / rg (wall: same)"
for spec in "${trees[@]}"; do
  t=${spec%%:*}
  hook=
  [ "$t" != "$spec" ] && hook=${spec#*:}
  files=$(find "$t/" -name '*.py' | wc -l)
  mib=$(find "$t/" -name '*.py' -print0 | du -cb --files0-from=- | tail -1 | awk '{printf "%.1f", $1/1048576}')
  cat $(find "$t/" -name '*.py' | head -5000) >/dev/null 2>&1 || true # warm the page cache
  read -r rw rc rm <<<"$(measure rg -t py -c mcp "$t")"
  aw=0 ac=0 am=0
  [ -n "$astgrep" ] && read -r aw ac am <<<"$(measure "$astgrep" run -l python -p 'await $X' "$t")"
  read -r mw mc mm <<<"$(measure "$work/mcplint" check --no-cache --exit-zero --format json -o - "$t")"
  cache="$work/cache-$(basename "$t")"
  rm -rf "$cache"
  "$work/mcplint" check --cache-dir "$cache" --exit-zero --format json -o - "$t" >/dev/null 2>&1 || true
  read -r ww wc wm <<<"$(measure "$work/mcplint" check --cache-dir "$cache" --exit-zero --format json -o - "$t")"
  printf '%-22s %7d %8s | %6.2fs %6.2fs %7d KiB | %6.2fs %6.2fs %7d KiB | %6.2fs %6.2fs %7d KiB (%.2f) | %6.2fs %6.2fs %7d KiB | %sx, %sx (wall: %sx, %sx)\n' \
    "$(basename "$t")" "$files" "$mib" "$rw" "$rc" "$rm" "$aw" "$ac" "$am" "$mw" "$mc" "$mm" "$(ratio "$mc" "$mw")" \
    "$ww" "$wc" "$wm" "$(ratio "$mc" "$ac")" "$(ratio "$wc" "$rc")" "$(ratio "$mw" "$aw")" "$(ratio "$ww" "$rw")"
  # What was analysed: a tree whose tools are not live handlers measures parsing only.
  "$work/mcplint" check --cache-dir "$cache" --exit-zero --format json -o "$work/out.json" "$t" >/dev/null 2>&1 || true
  printf '%-22s %s\n' "" "$(what "$work/out.json")"
  if [ -n "$hook" ]; then
    # The pre-commit case: the cache warm, one file of a big server changed.
    orig="$work/hook-orig.py"
    cp -p "$t/$hook" "$orig"
    (cd "$t" && "$work/mcplint" hook --cache-dir "$cache" --exit-zero "$hook" >/dev/null 2>&1 || true)
    hookrun() { # N: changes the file (a comment appended), then runs the hook on it
      cp "$orig" "$t/$hook"
      printf '\n# bench edit %s\n' "$1" >>"$t/$hook"
      (cd "$t" && /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$work/mcplint" hook --cache-dir "$cache" --exit-zero ${2:+--cpuprofile "$2"} "$hook" >/dev/null 2>&1 || true)
    }
    out=$(for i in $(seq "$runs"); do hookrun "$i"; tail -1 "$work/time.txt"; done)
    hookrun profile "$work/hook.prof"
    cp -p "$orig" "$t/$hook"
    med() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
    printf '%-22s pre-commit (hook, one file of %s changed, cache warm): %6.2fs wall %6.2fs cpu %7d KiB; profile: %s\n' "" \
      "$(dirname "$hook")" "$(awk '{print $1}' <<<"$out" | med)" "$(awk '{print $2+$3}' <<<"$out" | med)" "$(awk '{print $4}' <<<"$out" | med)" "$work/hook.prof"
    go tool pprof -top -cum "$work/mcplint" "$work/hook.prof" 2>/dev/null | awk '/mcplint\/(engine|handlers|checkpoint|pyast|deps|workspace)\./ && n < 8 {printf "%-22s   %s %s %s\n", "", $4, $5, $6; n++}'
  fi
  if [ "$(basename "$t")" = monorepo ]; then
    read -r dw dc dm <<<"$(reps=1 measure "$work/mcplint" check --no-cache --diff --exit-zero "$t")"
    printf '%-22s --diff (every fix round, no cache): %6.2fs wall %6.2fs cpu %7d KiB: %sx check (cpu)\n' "" "$dw" "$dc" "$dm" "$(ratio "$dc" "$mc")"
  fi
done

for n in ${SCALE:-}; do
  t="$work/project-$n"
  [ -d "$t" ] || "$work/gen" -kind project -files "$n" -out "$t"
  mib=$(du -sb "$t" | awk '{printf "%.0f", $1/1048576}')
  read -r mw mc mm <<<"$(reps=1 measure "$work/mcplint" check --no-cache --exit-zero --format json -o "$work/out.json" "$t")"
  printf 'one project, %6d modules (%4s MiB): mcplint %7.2fs wall %7.2fs cpu %8d KiB peak; %s\n' "$n" "$mib" "$mw" "$mc" "$mm" "$(what "$work/out.json")"
done
