#!/bin/sh
# SPDX-License-Identifier: MIT
# The public NVDLA hardware tests (../shared/conformance/traces) on the
# model, one TAP line per test, each played by nvdla_trace.
build=${1:-build}
traces=../shared/conformance/traces
if [ ! -d "$traces" ]; then
	echo "ok 1 - hardware traces # SKIP ../shared absent"
	exit 0
fi
# shellcheck source=tests/unit/lib/traces.sh
. tests/unit/lib/traces.sh
n=0
for dir in "$traces"/*/*/; do
	n=$((n + 1))
	dir=${dir%/}
	name=${dir#"$traces"/}
	out=$("$build/bin/nvdla_trace" "$dir" 2>&1)
	status=$?
	crc=$(rtl_crc "$name")
	if trace_ok "$name" "$status" "$out"; then
		[ -z "$crc" ] || name="$name: the RTL's CRC $crc, not the C model's"
		echo "ok $n - trace $name"
	else
		[ -z "$crc" ] || name="$name: not the RTL's CRC $crc"
		echo "not ok $n - trace $name"
		echo "$out" | sed 's/^/# /'
	fi
done
