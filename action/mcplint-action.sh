#!/usr/bin/env bash
# The shell logic of the mcplint GitHub Action (action.yml), kept here so
# that tests can run it outside GitHub with a simulated GITHUB_* environment
# (action/action_test.go).
#
#   mcplint-action.sh resolve   choose the version and how to get it
#   mcplint-action.sh install   download the release archive for this runner,
#                               verify its SHA-256, unpack it into the tool
#                               folder (cached by action.yml), or say that it
#                               must be built
#   mcplint-action.sh build     build mcplint from source (Go and a C compiler)
#   mcplint-action.sh run       run it with the action's inputs and write the
#                               step outputs, annotations and step summary
#
# resolve reads INPUT_VERSION: vX.Y.Z (or X.Y.Z) downloads that release;
# "source" builds the action's checkout; another Go module query (latest, a
# branch, a commit) is built with `go install`. Empty means the action's own
# ref (ACTION_REF): a release tag vX.Y.Z is downloaded; a major or minor tag
# (v0, v0.2) is the release pinned in the action's checkout
# (.pre-commit-hooks.yaml, which the release workflow keeps equal to the tag)
# when it matches; a branch or a commit builds the checkout, with a notice.
# Its outputs: mode (download | source), version, source (what build
# builds: "checkout" or a module query), dir (the tool folder), key (the
# cache key).
#
# install downloads RELEASE_BASE_URL/vVERSION/mcplint_VERSION_OS_ARCH.tar.gz
# (.zip on Windows; _musl on a musl Linux) and mcplint_VERSION_checksums.txt
# (RELEASE_BASE_URL defaults to the GitHub releases of mcplint/mcplint; any
# URL curl reads works, file:// too). A checksum that does not match stops
# the action. A release that is missing, or that has no archive for this
# runner's OS and architecture, falls back to building from source, with a
# notice. Its output: build (true when the build step must run).
#
# Inputs come as INPUT_* variables (set by action.yml): ARGS, PATHS, FORMAT
# (github | sarif | both), SARIF_FILE, CATEGORY, FAIL_ON (error | warning |
# never), ONLY_NEW (true | false), WORKING_DIRECTORY, VERSION.
# Outputs of run (to $GITHUB_OUTPUT): findings, sarif-file, exit-code, failed.
set -euo pipefail

MODULE=github.com/mcplint/mcplint
DEFAULT_RELEASE_BASE_URL=https://github.com/mcplint/mcplint/releases/download

die() {
	echo "::error title=mcplint action::$*"
	exit 2
}

output() {
	echo "$1=$2" >>"${GITHUB_OUTPUT:?}"
}

# platform prints this runner's OS_ARCH as the release archives name it.
platform() {
	local os arch
	case "${RUNNER_OS:-$(uname -s)}" in
	Linux) os=linux ;;
	macOS | Darwin) os=darwin ;;
	Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
	*) os=unknown ;;
	esac
	case "${RUNNER_ARCH:-$(uname -m)}" in
	X64 | x86_64 | amd64) arch=amd64 ;;
	ARM64 | arm64 | aarch64) arch=arm64 ;;
	*) arch=unknown ;;
	esac
	if [ "$os" = linux ] && ldd --version 2>&1 | grep -qi musl; then
		arch=${arch}_musl
	fi
	echo "${os}_${arch}"
}

# pinned prints the release version recorded in the action's checkout.
pinned() {
	sed -n 's/.*"mcplint==\([0-9][0-9.]*\)".*/\1/p' "${ACTION_PATH:?}/.pre-commit-hooks.yaml" 2>/dev/null | head -n 1
}

resolve() {
	local version="${INPUT_VERSION:-}" own=false
	if [ -z "$version" ]; then
		own=true
		version=${ACTION_REF:-}
	fi
	local semver='^v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$'
	local mode source="checkout"
	if [ "$version" = source ] || [ "$version" = local ]; then
		mode=source
		version=""
	elif [[ "$version" =~ $semver ]]; then
		mode=download
		version=${version#v}
		[ "$own" = true ] || source=v$version
	elif [ "$own" = true ]; then
		local pin
		pin=$(pinned)
		if [[ "$version" =~ ^v[0-9]+(\.[0-9]+)?$ ]] && [ -n "$pin" ] && [[ "$pin." == "${version#v}."* ]]; then
			mode=download
			version=$pin
		else
			mode=source
			echo "::notice title=mcplint::the action's ref '${version:-(none)}' is not a release tag; building mcplint from the action's checkout (set version: vX.Y.Z to download a release)"
			version=""
		fi
	elif [[ "$version" =~ ^[0-9A-Za-z._/-]+$ ]]; then
		mode=source
		source=$version
		version=""
	else
		die "version must be vX.Y.Z, source, or a Go module query, not '$version'"
	fi
	local plat
	plat=$(platform)
	local dir="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:?}}/mcplint/${version:-source}/$plat"
	output mode "$mode"
	output version "$version"
	output source "$source"
	output dir "$dir"
	output key "mcplint-${version:-source}-$plat"
	echo "mcplint: $mode ${version:-$source} for $plat"
}

# fallback asks for a build from source, with a notice saying why.
fallback() {
	echo "::notice title=mcplint::$*; building mcplint from source instead"
	output build true
}

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d ' ' -f 1
	else
		shasum -a 256 "$1" | cut -d ' ' -f 1
	fi
}

install() {
	local mode="${MODE:?}" version="${VERSION:-}" dir="${DIR:?}"
	if [ "$mode" != download ]; then
		output build true
		return
	fi
	local plat exe=mcplint
	plat=$(platform)
	[[ "$plat" == windows_* ]] && exe=mcplint.exe
	if [ -x "$dir/$exe" ]; then
		echo "mcplint: $version from the tool cache ($dir)"
	else
		local base="${RELEASE_BASE_URL:-$DEFAULT_RELEASE_BASE_URL}" ext=tar.gz
		[[ "$plat" == windows_* ]] && ext=zip
		local archive="mcplint_${version}_${plat}.$ext" sums="mcplint_${version}_checksums.txt"
		local tmp="${RUNNER_TEMP:?}/mcplint-download"
		rm -rf "$tmp" && mkdir -p "$tmp"
		if [[ "$plat" == *unknown* ]]; then
			fallback "no mcplint release is built for this runner ($RUNNER_OS $RUNNER_ARCH)"
			return
		fi
		if ! curl -fsSL --retry 3 -o "$tmp/$sums" "$base/v$version/$sums"; then
			fallback "no mcplint release v$version at $base"
			return
		fi
		if ! curl -fsSL --retry 3 -o "$tmp/$archive" "$base/v$version/$archive"; then
			fallback "the mcplint release v$version has no archive for $plat ($archive)"
			return
		fi
		local want got
		want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/$sums")
		got=$(sha256 "$tmp/$archive")
		if [ -z "$want" ]; then
			die "$sums does not list $archive: refusing an archive that cannot be verified"
		fi
		if [ "$want" != "$got" ]; then
			die "checksum mismatch for $archive: $sums says $want, the download is $got; refusing it"
		fi
		echo "mcplint: $archive: sha256 $got verified"
		rm -rf "$dir" && mkdir -p "$dir"
		if [ "$ext" = zip ]; then
			if command -v unzip >/dev/null 2>&1; then
				unzip -q -o "$tmp/$archive" -d "$dir"
			else
				7z x -y -o"$dir" "$tmp/$archive" >/dev/null
			fi
		else
			tar -xzf "$tmp/$archive" -C "$dir"
		fi
		chmod +x "$dir/$exe"
		rm -rf "$tmp"
	fi
	echo "$dir" >>"${GITHUB_PATH:?}"
	output build false
	"$dir/$exe" --version
}

build() {
	local bindir="${RUNNER_TEMP:?}/mcplint-bin" source="${SOURCE:-checkout}"
	mkdir -p "$bindir"
	export CGO_ENABLED=1 # tree-sitter is C: the runner's C compiler builds it
	if [ "$source" = checkout ]; then
		# The action's own checkout, at the ref the workflow uses.
		(cd "${ACTION_PATH:?}" && go build -trimpath -o "$bindir/mcplint" ./cmd/mcplint)
	else
		GOBIN="$bindir" go install "$MODULE/cmd/mcplint@$source"
	fi
	echo "$bindir" >>"${GITHUB_PATH:?}"
	"$bindir/mcplint" --version
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

	# --no-cache: a fresh runner has a fresh cache key, so a cache would be
	# written for nothing (and a restored one rebuilt): docs/ci.md.
	local -a cmd=(mcplint check --exit-zero --no-cache)
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
resolve) resolve ;;
install) install ;;
build) build ;;
run) run ;;
*)
	echo "usage: $0 resolve|install|build|run" >&2
	exit 2
	;;
esac
