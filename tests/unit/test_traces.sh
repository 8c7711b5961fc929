#!/bin/sh
# SPDX-License-Identifier: MIT
# The public NVDLA hardware tests on the model, one TAP line per test, for
# the engines the model implements so far (the others are the work of the
# hardware-model issue). Each runs through nvdla_trace.
build=${1:-build}
traces=../shared/conformance/traces
if [ ! -d "$traces" ]; then
	echo "ok 1 - hardware traces # SKIP ../shared absent"
	exit 0
fi
n=0
for dir in "$traces"/nv_small/pdp_* "$traces"/nv_full_txn/pdp_* \
	"$traces"/nv_small/sdp_* "$traces"/nv_full_txn/sdp_* "$traces"/nv_small/cdp_* \
	"$traces"/nv_full_txn/sanity0 "$traces"/nv_full_txn/sanity1* \
	"$traces"/nv_full_txn/sanity2*; do
	n=$((n + 1))
	name=${dir#"$traces"/}
	if out=$("$build/bin/nvdla_trace" "$dir" 2>&1); then
		echo "ok $n - trace $name"
	else
		echo "not ok $n - trace $name"
		echo "$out" | sed 's/^/# /'
	fi
done
