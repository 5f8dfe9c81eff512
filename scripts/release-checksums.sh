#!/usr/bin/env bash
# release-checksums.sh VERSION DIR
#
# Writes DIR/mcplint_VERSION_checksums.txt: the SHA-256 of every archive and
# wheel in DIR, one "HEX  NAME" line each (the sha256sum format; check with
# `sha256sum -c --ignore-missing`). The action verifies its download with it.
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: $0 VERSION DIR" >&2
	exit 2
fi
version=${1#v}
cd "$2"
sum=sha256sum
command -v sha256sum >/dev/null 2>&1 || sum="shasum -a 256"
shopt -s nullglob
files=(mcplint_"$version"_*.tar.gz mcplint_"$version"_*.zip mcplint-*.whl)
if [ ${#files[@]} -eq 0 ]; then
	echo "release-checksums: no release files for $version in $PWD" >&2
	exit 1
fi
$sum "${files[@]}" | LC_ALL=C sort -k 2 >"mcplint_${version}_checksums.txt"
cat "mcplint_${version}_checksums.txt"
