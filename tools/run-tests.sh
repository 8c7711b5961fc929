#!/bin/sh
# SPDX-License-Identifier: MIT
# Run the test suite and summarise it: every unit test in BUILD/tests (TAP
# programs, run from the repository root with BUILD as argument), then the
# driver tests in a QEMU guest per kernel in KVERS. Ends with the line
# "N passed, N failed, N skipped" (also left in BUILD/summary); exits
# non-zero if anything failed.
#
# Usage: tools/run-tests.sh [--no-qemu|--qemu-only] BUILD_DIR
set -u

unit=1
qemu=1
case ${1:-} in
--no-qemu) qemu=0; shift ;;
--qemu-only) unit=0; shift ;;
esac
build=${1:-build}
results=$(mktemp)
trap 'rm -f "$results"' EXIT

# Echo TAP lines, keep them for the count; a program that fails without a
# "not ok" line of its own fails as a whole.
report() {
	name=$1
	status=$2
	out=$3
	cat "$out"
	grep -E '^(not )?ok ' "$out" >>"$results"
	if [ "$status" -ne 0 ] && ! grep -q '^not ok ' "$out"; then
		echo "not ok - $name exited with status $status" | tee -a "$results"
	fi
}

run() {
	out=$(mktemp)
	"$@" >"$out" 2>&1
	report "$*" $? "$out"
	rm -f "$out"
}

if [ "$unit" -eq 1 ]; then
	for t in "$build"/tests/*; do
		[ -x "$t" ] && run "$t" "$build"
	done
fi
if [ "$qemu" -eq 1 ]; then
	kvers=${KVERS:-$(ls /usr/src | sed -n 's/^linux-headers-\(.*-amd64\)$/\1/p')}
	for kver in $kvers; do
		run tools/qemu/run-guest.sh "$kver" "$build"
	done
fi

skipped=$(grep -c '# SKIP' "$results")
failed=$(grep -c '^not ok ' "$results")
passed=$(($(grep -c '^ok ' "$results") - skipped))
echo "$passed passed, $failed failed, $skipped skipped" | tee "$build/summary"
[ "$failed" -eq 0 ]
