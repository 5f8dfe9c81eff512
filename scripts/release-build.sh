#!/usr/bin/env bash
# release-build.sh VERSION OUTDIR
#
# Builds the release files of one platform, natively (cgo: tree-sitter is C,
# built by this machine's C compiler), into OUTDIR:
#
#   mcplint_VERSION_OS_ARCH[_musl].tar.gz   (.zip on Windows): mcplint, README.md
#   mcplint-VERSION-py3-none-PLATFORM.whl   the same binary as a Python wheel
#
# VERSION is the release tag with or without its v (v0.2.0 or 0.2.0). The
# binary is stripped (-s -w), built with -trimpath, and versioned with
# -ldflags (main.Version, main.Commit, main.Date). The checksums of all
# platforms are written by the release workflow once every build is done
# (scripts/release-checksums.sh).
#
# Environment: GOOS, GOARCH and CC as for go build; COMMIT (default: git
# rev-parse HEAD); DATE (default: SOURCE_DATE_EPOCH, else now, RFC 3339 UTC);
# LIBC=musl names the archive *_musl; PYTHON (default python3);
# EXPECT_PLAT, when set, fails the build unless the wheel's platform tag is
# that one (the workflow uses it to hold the manylinux baseline).
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 VERSION OUTDIR" >&2
	exit 2
fi
version=${1#v}
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

goos=$(go env GOOS)
goarch=$(go env GOARCH)
commit=${COMMIT:-$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)}
if [ -z "${DATE:-}" ]; then
	if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
		DATE=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -r "$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
	else
		DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	fi
fi
exe=mcplint
[ "$goos" = windows ] && exe=mcplint.exe
name=mcplint_${version}_${goos}_${goarch}
[ "${LIBC:-}" = musl ] && name=${name}_musl

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/$name"

export CGO_ENABLED=1
(cd "$root" && go build -trimpath \
	-ldflags "-s -w -X main.Version=$version -X main.Commit=$commit -X main.Date=$DATE" \
	-o "$work/$name/$exe" ./cmd/mcplint)
cp "$root/README.md" "$work/$name/"
"$work/$name/$exe" --version

# The archive holds the binary and README.md at its top, like GoReleaser's.
py=${PYTHON:-python3}
if [ "$goos" = windows ]; then
	(cd "$work/$name" && "$py" -m zipfile -c "$out/$name.zip" "$exe" README.md)
	echo "$out/$name.zip"
else
	tar -C "$work/$name" -czf "$out/$name.tar.gz" "$exe" README.md
	echo "$out/$name.tar.gz"
fi

wheel=$("$py" "$root/scripts/build_wheel.py" --binary "$work/$name/$exe" --version "$version" --out "$out")
echo "$wheel"
if [ -n "${EXPECT_PLAT:-}" ]; then
	case $(basename "$wheel") in
	*-py3-none-"$EXPECT_PLAT".whl) ;;
	*)
		echo "release-build: the wheel's platform is not $EXPECT_PLAT: $wheel (see objdump -T)" >&2
		exit 1
		;;
	esac
fi
