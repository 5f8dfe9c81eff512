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
#                               (and, with review: suggestions, the review)
#   mcplint-action.sh reviewdog build the pinned reviewdog (review: suggestions)
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
# install downloads mcplint_VERSION_checksums.txt from
# RELEASE_BASE_URL/vVERSION/ on every use (RELEASE_BASE_URL defaults to the
# GitHub releases of mcplint/mcplint; any URL curl reads works, file://
# too), and verifies against it the archive mcplint_VERSION_OS_ARCH.tar.gz
# (.zip on Windows; _musl on a musl Linux): the one in the tool folder DIR
# (restored by actions/cache), else a fresh download. The tool folder holds
# only that archive, never a program that runs: whatever an earlier job
# planted there (a self-hosted runner keeps RUNNER_TOOL_CACHE; a cache entry
# is saved under a key anyone who reads this script knows) is verified
# first, and one that does not match is downloaded again. The verified
# archive is copied to a new folder under RUNNER_TEMP and unpacked there.
# A download whose checksum does not match stops the action. A release that
# is missing, or that has no archive for this runner's OS and architecture,
# falls back to building from source, with a notice (also when a cached
# archive exists: it cannot be verified). Its outputs: build (true when the
# build step must run), save (true when the tool folder got a new archive
# for action.yml to cache).
#
# Inputs come as INPUT_* variables (set by action.yml): ARGS, PATHS, FORMAT
# (github | sarif | both), SARIF_FILE, CATEGORY, FAIL_ON (error | warning |
# never), ONLY_NEW (true | false), UPLOAD_SARIF (true | false),
# WORKING_DIRECTORY, VERSION, REVIEW ("" | suggestions), GITHUB_TOKEN (given to reviewdog only).
#
# reviewdog builds reviewdog REVIEWDOG_VERSION with `go install` from the Go
# module proxy: go verifies every module it downloads against the checksum
# database (sum.golang.org) and reviewdog's go.sum, so the pinned version
# is what its tag held when it was first published; the environment that
# could turn that off (GOFLAGS, GONOSUMDB, GONOSUMCHECK, GOPRIVATE,
# GOINSECURE, GOSUMDB=off, a go.work) is reset for the build. Its output:
# bin (the program, in a new folder under RUNNER_TEMP).
#
# With REVIEW=suggestions on a pull_request event, run also writes rdjson
# and gives it to reviewdog (REVIEWDOG, the program; reporter
# github-pr-review, -filter-mode=added): each finding on an added line
# becomes a review comment with the fix as a suggestion (report/rdjson.go);
# reviewdog skips a comment the pull request already has (its fingerprint
# is in the body) and deletes its own comments whose finding is gone. The
# annotations (format github) stay for every finding. A pull request from
# a fork (PR_HEAD_REPO is not GITHUB_REPOSITORY) has a read-only token: no
# review, a notice. So does a token that cannot write reviews (reviewdog
# v0.21.0 says so, and posts nothing in its place).
# Outputs of run (to $GITHUB_OUTPUT): findings, sarif-file, exit-code, failed.
#
# run writes its outputs into a new folder under RUNNER_TEMP (outside the
# workspace, which the pull request controls): the JSON and markdown
# reports, and the SARIF unless sarif-file names another path. A file at
# that path is removed before mcplint runs, and sarif-file is set only when
# this run wrote it, so a SARIF file the pull request committed is never
# uploaded (mcplint exits 2 before writing on a bad config key).
set -euo pipefail

MODULE=github.com/mcplint/mcplint
REVIEWDOG_MODULE=github.com/reviewdog/reviewdog
REVIEWDOG_VERSION=v0.21.0
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
	# The key is public (anyone can read this script): a cache entry is not
	# trusted for it, install verifies what it holds on every use.
	local dir="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:?}}/mcplint/${version:-source}/$plat"
	output mode "$mode"
	output version "$version"
	output source "$source"
	output dir "$dir"
	output key "mcplint-${version:-source}-$plat-archive"
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
	output save false
	if [ "$mode" != download ]; then
		output build true
		return
	fi
	local plat exe=mcplint
	plat=$(platform)
	[[ "$plat" == windows_* ]] && exe=mcplint.exe
	if [[ "$plat" == *unknown* ]]; then
		fallback "no mcplint release is built for this runner ($RUNNER_OS $RUNNER_ARCH)"
		return
	fi
	local base="${RELEASE_BASE_URL:-$DEFAULT_RELEASE_BASE_URL}" ext=tar.gz
	[[ "$plat" == windows_* ]] && ext=zip
	local archive="mcplint_${version}_${plat}.$ext" sums="mcplint_${version}_checksums.txt"
	local tmp
	tmp=$(mktemp -d "${RUNNER_TEMP:?}/mcplint-download.XXXXXX")
	# The checksums come from the release on every use, the cached archive
	# included: nothing in the tool folder vouches for itself.
	if ! curl -fsSL --retry 3 -o "$tmp/$sums" "$base/v$version/$sums"; then
		if [ -e "$dir/$archive" ]; then
			fallback "no mcplint release v$version at $base, so the cached archive cannot be verified"
		else
			fallback "no mcplint release v$version at $base"
		fi
		return
	fi
	local want got=""
	want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/$sums")
	local cached=false
	if [ -f "$dir/$archive" ] && [ ! -L "$dir/$archive" ]; then
		cp "$dir/$archive" "$tmp/$archive"
		got=$(sha256 "$tmp/$archive")
		if [ -n "$want" ] && [ "$want" = "$got" ]; then
			cached=true
			echo "mcplint: $archive from the tool cache ($dir): sha256 $got verified"
		else
			echo "::warning title=mcplint::the cached $archive (sha256 $got) does not match the release's checksums; not using it, downloading it again"
			rm -f "$tmp/$archive"
		fi
	fi
	if [ "$cached" = false ]; then
		if ! curl -fsSL --retry 3 -o "$tmp/$archive" "$base/v$version/$archive"; then
			fallback "the mcplint release v$version has no archive for $plat ($archive)"
			return
		fi
		got=$(sha256 "$tmp/$archive")
		if [ -z "$want" ]; then
			die "$sums does not list $archive: refusing an archive that cannot be verified"
		fi
		if [ "$want" != "$got" ]; then
			die "checksum mismatch for $archive: $sums says $want, the download is $got; refusing it"
		fi
		echo "mcplint: $archive: sha256 $got verified"
		# Only a folder with no archive before is saved: an entry that exists
		# under the key (even a bad one) cannot be replaced.
		if [ ! -e "$dir/$archive" ]; then
			rm -rf "$dir" && mkdir -p "$dir"
			cp "$tmp/$archive" "$dir/$archive"
			output save true
		fi
	fi
	# Unpacked from the verified copy into a folder of this run.
	local bin
	bin=$(mktemp -d "${RUNNER_TEMP:?}/mcplint-bin.XXXXXX")
	if [ "$ext" = zip ]; then
		if command -v unzip >/dev/null 2>&1; then
			unzip -q -o "$tmp/$archive" -d "$bin"
		else
			7z x -y -o"$bin" "$tmp/$archive" >/dev/null
		fi
	else
		tar -xzf "$tmp/$archive" -C "$bin"
	fi
	chmod +x "$bin/$exe"
	rm -rf "$tmp"
	echo "$bin" >>"${GITHUB_PATH:?}"
	output build false
	output bin "$bin"
	"$bin/$exe" --version
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

install_reviewdog() {
	command -v go >/dev/null 2>&1 || die "review: suggestions builds reviewdog with Go, and there is no go on PATH"
	local bindir
	bindir=$(mktemp -d "${RUNNER_TEMP:?}/reviewdog-bin.XXXXXX")
	# From the new folder (no go.mod, go.work or vendor of the workspace),
	# with checksum verification on whatever the job's environment says.
	(cd "$bindir" && env -u GONOSUMDB -u GONOSUMCHECK -u GOPRIVATE -u GOINSECURE -u GONOPROXY \
		GOFLAGS= GOWORK=off GOSUMDB="$(sumdb)" GOBIN="$bindir" \
		go install "$REVIEWDOG_MODULE/cmd/reviewdog@$REVIEWDOG_VERSION")
	output bin "$bindir/reviewdog"
	echo "reviewdog: $("$bindir/reviewdog" -version) built from $REVIEWDOG_MODULE@$REVIEWDOG_VERSION (checksums verified by go)"
}

# sumdb prints the checksum database go is to use: the job's, unless it
# is off.
sumdb() {
	local db
	db=$(go env GOSUMDB 2>/dev/null || true)
	case "$db" in "" | off) db=sum.golang.org ;; esac
	echo "$db"
}

# review_mode prints whether run posts a review: "post", or the reason it
# does not (then a notice says it).
review_mode() {
	case "${INPUT_REVIEW:-}" in
	"") echo off ;;
	suggestions)
		case "${GITHUB_EVENT_NAME:-}" in
		pull_request | pull_request_target) ;;
		*)
			echo "not a pull request (${GITHUB_EVENT_NAME:-no event})"
			return
			;;
		esac
		if [ "${GITHUB_EVENT_NAME:-}" = pull_request ] && [ -n "${PR_HEAD_REPO:-}" ] && [ "${PR_HEAD_REPO}" != "${GITHUB_REPOSITORY:-}" ]; then
			echo "a pull request from a fork gets a read-only token"
		elif [ -z "${INPUT_GITHUB_TOKEN:-}" ]; then
			echo "no github-token"
		else
			echo post
		fi
		;;
	esac
}

# review gives the rdjson FILE to reviewdog, which posts the review; what
# reviewdog says is printed with a prefix (no line of it is a workflow
# command: it quotes the API's answers).
review() {
	local rdjson="$1" log rc=0
	log=$(mktemp "${RUNNER_TEMP:?}/reviewdog-log.XXXXXX")
	REVIEWDOG_GITHUB_API_TOKEN="$INPUT_GITHUB_TOKEN" "${REVIEWDOG:-reviewdog}" -f=rdjson -name=mcplint \
		-reporter=github-pr-review -filter-mode=added -fail-level=none <"$rdjson" >"$log" 2>&1 || rc=$?
	sed 's/^/reviewdog: /' "$log"
	if grep -q "doesn't have write permission" "$log"; then
		echo "::notice title=mcplint::review: suggestions: the token cannot write reviews (give the job pull-requests: write); the findings are annotations only"
	elif [ "$rc" -ne 0 ]; then
		echo "::warning title=mcplint::review: suggestions: reviewdog failed (exit code $rc, its log above); the findings are annotations only"
	fi
	rm -f "$log"
}

# count KEY FILE prints the number of the summary's KEY in mcplint's JSON.
count() {
	local n
	n=$(grep -o "\"$1\": [0-9]*" "$2" | tail -n 1 | grep -o '[0-9]*$' || true)
	echo "${n:-0}"
}

# credentials_warning says in the log and the step summary that the job's
# token is stored in the repository's .git/config (actions/checkout's
# default persist-credentials: true writes it as an http extraheader) while
# SARIF is uploaded or findings are posted as a review: whatever could lead
# a quote to that file would publish it. Only whether the key exists is read (grep -q prints nothing); never
# its value. Included files (newer checkouts keep the header in a file
# under RUNNER_TEMP) are outside the workspace and not looked at.
credentials_warning() {
	local on=()
	[ "${INPUT_UPLOAD_SARIF:-false}" = true ] && on+=(upload-sarif)
	[ "${INPUT_REVIEW:-}" = suggestions ] && on+=("review: suggestions")
	[ ${#on[@]} -gt 0 ] || return 0
	local gitdir config
	# The common folder: a linked worktree's own has no config.
	gitdir=$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null) ||
		gitdir=$(git rev-parse --absolute-git-dir 2>/dev/null) ||
		gitdir="${GITHUB_WORKSPACE:-.}/.git"
	config="$gitdir/config"
	[ -f "$config" ] || return 0
	grep -Eqi '^[[:space:]]*extraheader[[:space:]]*(=|$)' "$config" || return 0
	local what
	what=$(printf '%s and ' "${on[@]}")
	local msg="the job's token is stored in .git/config (an http extraheader: actions/checkout's default persist-credentials: true) while ${what% and } is on; set persist-credentials: false on actions/checkout, so that no file of the workspace holds it"
	echo "::warning title=mcplint::$msg"
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		printf '> [!WARNING]\n> mcplint: %s.\n\n' "$msg" >>"$GITHUB_STEP_SUMMARY"
	fi
}

# sarif_path sets sarif to where the SARIF goes: sarif-file as given, or a
# file in this run's folder. A file or symlink at a given path is removed
# first (a pull request may have committed one there); a folder, or a path
# whose folder is inside the workspace but leads out of it (a committed
# symlink to a folder), is refused.
sarif_path() {
	local given="$1" tmp="$2"
	if [ -z "$given" ]; then
		sarif="$tmp/mcplint.sarif"
		return
	fi
	local dir logical physical ws wsp rt
	dir=$(dirname -- "$given")
	logical=$(cd -L -- "$dir" 2>/dev/null && pwd -L) || die "sarif-file $given: its folder does not exist"
	physical=$(cd -P -- "$dir" && pwd -P)
	ws=$(cd -L -- "${GITHUB_WORKSPACE:-.}" && pwd -L)
	wsp=$(cd -P -- "${GITHUB_WORKSPACE:-.}" && pwd -P)
	rt=$(cd -P -- "${RUNNER_TEMP:?}" && pwd -P)
	case "$logical/" in
	"$ws/"*)
		case "$physical/" in
		"$wsp/"* | "$rt/"*) ;;
		# The link's target is not printed: the pull request chose it (a
		# newline in it would start a workflow command).
		*) die "sarif-file $given: its folder is in the workspace but leads outside it (a symlink); not written" ;;
		esac
		;;
	esac
	if [ -d "$given" ] && [ ! -L "$given" ]; then
		die "sarif-file $given is a folder"
	fi
	rm -f -- "$given"
	sarif=$given
}

run() {
	local format="${INPUT_FORMAT:-both}" fail_on="${INPUT_FAIL_ON:-error}"
	local category="${INPUT_CATEGORY:-mcplint}"
	: "${GITHUB_OUTPUT:?}"
	case "$format" in github | sarif | both) ;; *) die "format must be github, sarif or both, not '$format'" ;; esac
	case "$fail_on" in error | warning | never) ;; *) die "fail-on must be error, warning or never, not '$fail_on'" ;; esac
	case "${INPUT_REVIEW:-}" in "" | suggestions) ;; *) die "review must be suggestions or empty, not '$INPUT_REVIEW'" ;; esac
	# A new folder for this run's outputs: nothing of an earlier run, or of
	# the workspace, is read back as this run's.
	local tmp
	tmp=$(mktemp -d "${RUNNER_TEMP:?}/mcplint-run.XXXXXX")
	cd "${INPUT_WORKING_DIRECTORY:-.}"
	local sarif=""
	if [ "$format" = "sarif" ] || [ "$format" = "both" ]; then
		sarif_path "${INPUT_SARIF_FILE:-}" "$tmp"
	fi
	credentials_warning

	# --no-cache: a fresh runner has a fresh cache key, so a cache would be
	# written for nothing (and a restored one rebuilt): docs/ci.md.
	local -a cmd=(mcplint check --exit-zero --no-cache)
	# Extra arguments, split on whitespace, newlines included (never
	# evaluated by a shell); read -d '' reads every line, and returns 1 at
	# the end of its input.
	if [ -n "${INPUT_ARGS:-}" ]; then
		local -a extra=()
		read -r -d '' -a extra <<<"$INPUT_ARGS" || true
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
	if [ -n "$sarif" ]; then
		cmd+=(--format sarif --output "$sarif" --sarif-category "$category")
	fi
	cmd+=(--format json --output "$tmp/mcplint.json" --format markdown --output "$tmp/summary.md")
	local review
	review=$(review_mode)
	case "$review" in
	off) ;;
	# Before github: the k-th --output is the k-th format's.
	post) cmd+=(--format rdjson --output "$tmp/mcplint.rdjson") ;;
	*) echo "::notice title=mcplint::review: suggestions: $review; the findings are annotations only" ;;
	esac
	if [ "$format" = "github" ] || [ "$format" = "both" ]; then
		cmd+=(--format github)
	fi
	# Paths last, split on whitespace (every line).
	local -a paths=()
	read -r -d '' -a paths <<<"${INPUT_PATHS:-.}" || true
	[ "${#paths[@]}" -gt 0 ] || paths=(.)
	cmd+=("${paths[@]}")

	echo "mcplint: ${cmd[*]}"
	local rc=0
	# The token is reviewdog's only: mcplint reads the pull request's files.
	env -u INPUT_GITHUB_TOKEN "${cmd[@]}" || rc=$?

	local findings=0 errors=0 warnings=0
	if [ -f "$tmp/mcplint.json" ]; then
		findings=$(count findings "$tmp/mcplint.json")
		errors=$(count errors "$tmp/mcplint.json")
		warnings=$(count warnings "$tmp/mcplint.json")
	fi
	if [ "$review" = post ] && [ -f "$tmp/mcplint.rdjson" ]; then
		review "$tmp/mcplint.rdjson"
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
	# Only a SARIF file this run wrote: the path was emptied before the run.
	local sarif_out=""
	if [ -n "$sarif" ] && [ -f "$sarif" ] && [ ! -L "$sarif" ]; then
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
reviewdog) install_reviewdog ;;
*)
	echo "usage: $0 resolve|install|build|run|reviewdog" >&2
	exit 2
	;;
esac
