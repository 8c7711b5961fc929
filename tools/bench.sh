#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench: per-engine throughput of the hardware model next to plain C
# loops (nvdla_bench), then the wall time of the largest public traces.
set -eu
build=${1:-build}
"$build/bin/nvdla_bench"
traces=../shared/conformance/traces
[ -d "$traces" ] || { echo "traces: ../shared absent"; exit 0; }
for t in nv_full_txn/googlenet_conv2_3x3_int16 nv_small/dc_24x33x55_5x5x55x25_int8_0 \
	nv_small/dc_35x22x54_6x8x54x29_int8_0 nv_small/dc_32x26x76_6x3x76x16_int8_0; do
	start=$(date +%s%N)
	"$build/bin/nvdla_trace" "$traces/$t" >/dev/null
	end=$(date +%s%N)
	printf '%-45s %6d ms (whole trace: parse, load, run, check)\n' "$t" \
		$(((end - start) / 1000000))
done
