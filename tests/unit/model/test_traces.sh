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
# nv_small's tests of the SDP's Y stage, which nv_small is built without
# (NVIDIA's own nv_small test list leaves them out): their CRCs are the C
# model's; the RTL passes the data through Y and writes 0xc43621c5 (both
# tests, on ../shared/oracle/A's bench), and so must the model.
rtl_crc() {
	case $1 in
	nv_small/sdp_3x3x33_ew_le_exp_int8 | nv_small/sdp_3x3x33_ew_le_lin_int8)
		echo 0xc43621c5 ;;
	esac
}
n=0
for dir in "$traces"/*/*/; do
	n=$((n + 1))
	dir=${dir%/}
	name=${dir#"$traces"/}
	crc=$(rtl_crc "$name")
	if [ -n "$crc" ]; then
		out=$("$build/bin/nvdla_trace" "$dir" 2>&1)
		if echo "$out" | grep -q "is $crc, expected"; then
			echo "ok $n - trace $name: the RTL's CRC $crc, not the C model's"
		else
			echo "not ok $n - trace $name: not the RTL's CRC $crc"
			echo "$out" | sed 's/^/# /'
		fi
	elif out=$("$build/bin/nvdla_trace" "$dir" 2>&1); then
		echo "ok $n - trace $name"
	else
		echo "not ok $n - trace $name"
		echo "$out" | sed 's/^/# /'
	fi
done
