#!/bin/sh
# SPDX-License-Identifier: MIT
# make upstream-series as a test: the series written against Debian's
# linux-source-6.12 and checked in that tree (tools/upstream/check.sh);
# each PASS or FAIL line of the check becomes a TAP line. The check's
# output is kept in the cache under the hash of the series and of the
# tools that check it, so a run on an unchanged series replays it (the
# series itself is written every time). Run from the repository root.
set -u
build=${1:-build}
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

if ! dpkg-query -W linux-source-6.12 >/dev/null 2>&1 ||
	[ -z "$(find "$cache/kernels" -maxdepth 1 -name '6.12.*-amd64' 2>/dev/null)" ]; then
	skip "upstream series" "linux-source-6.12 or Debian's 6.12 kernel missing (tools/setup.sh)"
	exit 0
fi
series=$build/upstream-series
log=$(mktemp)
trap 'rm -f "$log"' EXIT
tools/upstream/series.sh "$series" >"$log" 2>&1
st=$?
ok $st "series written ($(find "$series" -name '*.patch' 2>/dev/null | wc -l) patches)"
[ $st -eq 0 ] || { sed 's/^/# /' "$log"; exit 0; }

# The patches less what changes with every commit of this repository
# (their commit hashes and dates), and the tools that check them.
key=$( (sed '/^From [0-9a-f]\{40\} /d; /^Date: /d' "$series"/*.patch
	cat tools/upstream/check.sh tools/upstream/kernel-tree.sh) |
	sha256sum | cut -c1-16)
kept=$cache/upstream/check-$key.log
if [ -f "$kept" ]; then
	echo "# the check's result for this series, kept from an earlier run"
	cp "$kept" "$log"
else
	LOGDIR=$build/upstream-check tools/upstream/check.sh "$series" >"$log" 2>&1
	# only a complete run is kept
	grep -q '^upstream series: ' "$log" &&
		{ rm -f "$cache"/upstream/check-*.log; cp "$log" "$kept"; }
fi
while IFS= read -r line; do
	case $line in
	"PASS: "*) ok 0 "${line#PASS: }" ;;
	"FAIL: "*) ok 1 "${line#FAIL: }" ;;
	"SKIP: "*) skip "${line#SKIP: }" "see tools/upstream/check.sh" ;;
	*) echo "# $line" ;;
	esac
done <"$log"
grep -q '^upstream series: ' "$log"
ok $? "the check ran to its end"
