#!/bin/sh
# validate-sarif.sh FILE...
#
# Validates SARIF logs with Microsoft's SARIF Multitool, with GitHub's
# ingestion rules ("Gh") and SARIF's own ("Sarif"), and fails when any
# error-level result or tool error remains. Warnings and notes are printed
# but do not fail.
#
# The Multitool comes from npm (@microsoft/sarif-multitool, a self-contained
# .NET binary per platform) and is installed once into a cache folder:
# $MCPLINT_TOOLS_CACHE, else $XDG_CACHE_HOME/mcplint-tools, else
# ~/.cache/mcplint-tools. It needs npm and node, and no other network.
#
# The native binary is called directly: the npm wrapper (bin.js) runs it
# through a shell, which would split the ";" of --rule-kind "Gh;Sarif".
set -eu

if [ $# -eq 0 ]; then
	echo "usage: $0 FILE.sarif..." >&2
	exit 2
fi

version=${SARIF_MULTITOOL_VERSION:-5.7.0}
cache=${MCPLINT_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcplint-tools}
dir=$cache/sarif-multitool-$version
case $(uname -s) in
Linux) platform=linux ;;
Darwin) platform=darwin ;;
*) platform=win32 ;;
esac
bin=$dir/node_modules/@microsoft/sarif-multitool-$platform/Sarif.Multitool
if [ ! -f "$bin" ]; then
	mkdir -p "$dir"
	echo "validate-sarif: installing @microsoft/sarif-multitool@$version into $dir" >&2
	npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "@microsoft/sarif-multitool@$version" >&2
fi
# npm may skip the package's postinstall (which only sets the mode).
[ -x "$bin" ] || chmod u+x "$bin"

status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for file in "$@"; do
	out=$tmp/validation.sarif
	rc=0
	"$bin" validate "$file" --rule-kind "Gh;Sarif" --output "$out" --log ForceOverwrite >"$tmp/log" 2>&1 || rc=$?
	# The validation log is itself SARIF: count error-level results and
	# error notifications (schema violations are results of rule JSON1xxx).
	errors=$(node -e '
		const fs = require("fs");
		let n = 0;
		let log;
		try { log = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); }
		catch (e) { console.error("validate-sarif: no validation log: " + e.message); console.log(1); process.exit(0); }
		for (const run of log.runs || []) {
			for (const r of run.results || []) {
				const level = r.level || "warning";
				const text = (r.message && (r.message.text || (r.message.arguments || []).join(" | "))) || "";
				console.error(`${level}: ${r.ruleId}: ${text}`);
				if (level === "error") n++;
			}
			for (const inv of run.invocations || []) {
				for (const k of ["toolExecutionNotifications", "toolConfigurationNotifications"]) {
					for (const note of inv[k] || []) {
						if ((note.level || "warning") === "error") {
							n++;
							console.error(`error: ${(note.descriptor || {}).id || ""}: ${(note.message || {}).text || ""}`);
						}
					}
				}
			}
		}
		console.log(n);
	' "$out")
	if [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ]; then
		cat "$tmp/log" >&2
		echo "validate-sarif: $file: FAILED ($errors errors, exit code $rc)" >&2
		status=1
	else
		echo "validate-sarif: $file: ok"
	fi
done
exit $status
