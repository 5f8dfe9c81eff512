#!/usr/bin/env bash
# The shell logic of the mcplint GitHub Action (action.yml), kept here so
# that tests can run it outside GitHub with a simulated GITHUB_* environment
# (action/action_test.go).
#
#   mcplint-action.sh install   build mcplint (INPUT_VERSION) into $RUNNER_TEMP
#   mcplint-action.sh run       run it with the action's inputs and write the
#                               step outputs, annotations and step summary
#
# Inputs come as INPUT_* variables (set by action.yml): ARGS, PATHS, FORMAT
# (github | sarif | both), SARIF_FILE, CATEGORY, FAIL_ON (error | warning |
# never), ONLY_NEW (true | false), WORKING_DIRECTORY, VERSION.
# Outputs (to $GITHUB_OUTPUT): findings, sarif-file, exit-code, failed.
set -euo pipefail

die() {
	echo "::error title=mcplint action::$*"
	exit 2
}

install() {
	local bindir="${RUNNER_TEMP:?}/mcplint-bin" version="${INPUT_VERSION:-}"
	mkdir -p "$bindir"
	export CGO_ENABLED=1 # tree-sitter is C: the runner's C compiler builds it
	if [ -z "$version" ] || [ "$version" = "local" ]; then
		# The action's own checkout, at the ref the workflow uses.
		(cd "${ACTION_PATH:?}" && go build -trimpath -o "$bindir/mcplint" ./cmd/mcplint)
	else
		GOBIN="$bindir" go install "github.com/mcplint/mcplint/cmd/mcplint@$version"
	fi
	echo "$bindir" >>"${GITHUB_PATH:?}"
	"$bindir/mcplint" version
}

# count KEY FILE prints the number of the summary's KEY in mcplint's JSON.
count() {
	local n
	n=$(grep -o "\"$1\": [0-9]*" "$2" | tail -n 1 | grep -o '[0-9]*$' || true)
	echo "${n:-0}"
}

run() {
	local format="${INPUT_FORMAT:-both}" fail_on="${INPUT_FAIL_ON:-error}"
	local sarif="${INPUT_SARIF_FILE:-mcplint.sarif}" category="${INPUT_CATEGORY:-mcplint}"
	local tmp="${RUNNER_TEMP:?}/mcplint-run"
	: "${GITHUB_OUTPUT:?}"
	case "$format" in github | sarif | both) ;; *) die "format must be github, sarif or both, not '$format'" ;; esac
	case "$fail_on" in error | warning | never) ;; *) die "fail-on must be error, warning or never, not '$fail_on'" ;; esac
	mkdir -p "$tmp"
	cd "${INPUT_WORKING_DIRECTORY:-.}"

	local -a cmd=(mcplint check --exit-zero)
	# Extra arguments, split on whitespace (never evaluated by a shell).
	if [ -n "${INPUT_ARGS:-}" ]; then
		local -a extra
		read -r -a extra <<<"$INPUT_ARGS"
		cmd+=("${extra[@]}")
	fi
	if [ "${INPUT_ONLY_NEW:-false}" = "true" ]; then
		if [ -n "${GITHUB_BASE_REF:-}" ]; then
			local base=""
			if ! git rev-parse --verify -q "refs/remotes/origin/$GITHUB_BASE_REF" >/dev/null; then
				git fetch --no-tags --quiet origin "+refs/heads/$GITHUB_BASE_REF:refs/remotes/origin/$GITHUB_BASE_REF" || true
			fi
			base=$(git merge-base HEAD "refs/remotes/origin/$GITHUB_BASE_REF" 2>/dev/null ||
				git rev-parse --verify -q "refs/remotes/origin/$GITHUB_BASE_REF" || true)
			if [ -n "$base" ]; then
				cmd+=(--new-from-rev "$base")
			else
				echo "::warning title=mcplint::only-new: cannot find the base branch $GITHUB_BASE_REF (check out with fetch-depth: 0); reporting every finding"
			fi
		else
			echo "::notice title=mcplint::only-new: not a pull request; reporting every finding"
		fi
	fi
	if [ "$format" = "sarif" ] || [ "$format" = "both" ]; then
		cmd+=(--format sarif --output "$sarif" --sarif-category "$category")
	fi
	cmd+=(--format json --output "$tmp/mcplint.json" --format markdown --output "$tmp/summary.md")
	if [ "$format" = "github" ] || [ "$format" = "both" ]; then
		cmd+=(--format github)
	fi
	# Paths last, split on whitespace.
	local -a paths
	read -r -a paths <<<"${INPUT_PATHS:-.}"
	cmd+=("${paths[@]}")

	echo "mcplint: ${cmd[*]}"
	local rc=0
	"${cmd[@]}" || rc=$?

	local findings=0 errors=0 warnings=0
	if [ -f "$tmp/mcplint.json" ]; then
		findings=$(count findings "$tmp/mcplint.json")
		errors=$(count errors "$tmp/mcplint.json")
		warnings=$(count warnings "$tmp/mcplint.json")
	fi
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$tmp/summary.md" ]; then
		cat "$tmp/summary.md" >>"$GITHUB_STEP_SUMMARY"
	fi
	local failed=false
	if [ "$rc" -ne 0 ]; then
		failed=true # usage or internal error (exit 2)
	elif [ "$fail_on" = "error" ] && [ "$errors" -gt 0 ]; then
		failed=true
	elif [ "$fail_on" = "warning" ] && [ $((errors + warnings)) -gt 0 ]; then
		failed=true
	fi
	local sarif_out=""
	if [ "$format" != "github" ] && [ -f "$sarif" ]; then
		sarif_out=$(cd "$(dirname "$sarif")" && pwd)/$(basename "$sarif")
	fi
	{
		echo "findings=$findings"
		echo "sarif-file=$sarif_out"
		echo "exit-code=$rc"
		echo "failed=$failed"
	} >>"$GITHUB_OUTPUT"
	echo "mcplint: $findings findings ($errors errors, $warnings warnings); fail-on $fail_on: $([ "$failed" = true ] && echo failing || echo passing)"
}

case "${1:-}" in
install) install ;;
run) run ;;
*)
	echo "usage: $0 install|run" >&2
	exit 2
	;;
esac
