#!/usr/bin/env bash
# Times mcplint on a large real Python tree against the floor: reading the
# same bytes. Prints medians of RUNS runs and the ratios to the floor, plus the
# peak memory of each scan. Usage: bench/bench.sh [TREE]   (default: the
# Python standard library of the python3 on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${1:-$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')}
runs=${RUNS:-5}
mkdir -p bench/out
go build -o bench/out/mcplint ./cmd/mcplint

nfiles=$(find "$tree" -name '*.py' -not -path '*/site-packages/*' | wc -l)
nbytes=$(find "$tree" -name '*.py' -not -path '*/site-packages/*' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
echo "tree: $tree ($nfiles Python files, $((nbytes / 1024 / 1024)) MiB)"

# median SECONDS of running "$@" $runs times
median() {
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc -l)")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

peak_kib() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1
  else
    echo "n/a"
  fi
}

floor() { find "$tree" -name '*.py' -not -path '*/site-packages/*' -print0 | xargs -0 cat >/dev/null; }
scan() { bench/out/mcplint check --exit-zero --format json -o /dev/null "$tree"; }
full() { bench/out/mcplint check --exit-zero --report-unreachable --format json -o /dev/null "$tree"; }

floor # warm the page cache
f=$(median floor)
s=$(median scan)
a=$(median full)
printf 'read the bytes (floor)              %8.3fs\n' "$f"
printf 'mcplint check (default prefilter)   %8.3fs  %6.1fx floor  peak %s KiB\n' "$s" "$(echo "$s / $f" | bc -l)" "$(peak_kib bench/out/mcplint check --exit-zero --format json -o /dev/null "$tree")"
printf 'mcplint check --report-unreachable  %8.3fs  %6.1fx floor  peak %s KiB\n' "$a" "$(echo "$a / $f" | bc -l)" "$(peak_kib bench/out/mcplint check --exit-zero --report-unreachable --format json -o /dev/null "$tree")"
