#!/usr/bin/env bash
# Runs every native Go fuzz target of the module for a fixed number of
# executions (FUZZ_EXECS, default 10^6) and prints one line per target with
# the executions Go reported, the wall time and whether it passed. A crasher
# stays in the package's testdata/fuzz/<Target>/ folder, where `go test` then
# replays it as a regression case.
#
#   scripts/fuzz.sh                      # every target, 10^6 executions each
#   FUZZ_ONLY='Pipfile|TOML' scripts/fuzz.sh
#   FUZZ_EXECS=20000 FUZZ_PARALLEL=1 scripts/fuzz.sh
#   FUZZ_LOG=fuzz.log scripts/fuzz.sh     # go test's output, as it runs
#
# Not part of `go test ./...`: fuzzing is open-ended work, run by hand.
set -uo pipefail
cd "$(dirname "$0")/.."

execs=${FUZZ_EXECS:-1000000}
parallel=${FUZZ_PARALLEL:-$(nproc)}
only=${FUZZ_ONLY:-.}
log=${FUZZ_LOG:-/dev/null}

status=0
printf '%-28s %-28s %12s %9s %s\n' package target executions seconds result
while IFS=: read -r file target; do
  [[ $target =~ $only ]] || continue
  pkg=$(dirname "$file")
  start=$(date +%s)
  # The log gets go test's progress lines as they come (a long run can be
  # watched with tail -f), the table the last execs count.
  out=$(go test "$pkg" -run '^$' -fuzz "^${target}\$" -fuzztime "${execs}x" -parallel "$parallel" -timeout 0 2>&1 | tee -a "$log")
  rc=$?
  secs=$(($(date +%s) - start))
  n=$(printf '%s\n' "$out" | sed -n 's/.*execs: \([0-9]*\).*/\1/p' | tail -1)
  result=ok
  if [ $rc -ne 0 ]; then
    result=FAIL
    status=1
  fi
  printf '%-28s %-28s %12s %9s %s\n' "$pkg" "$target" "${n:-?}" "$secs" "$result"
done < <(grep -rEo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' . | sed 's/:func /:/' | sort)
exit $status
