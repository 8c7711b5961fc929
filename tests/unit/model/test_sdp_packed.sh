#!/bin/sh
# SPDX-License-Identifier: MIT
# The SDP's 1x1 cubes (nvdla/sdp_layout.h, docs/model.md), end to end:
# tests/unit/model/sdp-packed holds nv_small register programs of one
# int8 SDP over 18 channels whose X1 adds operands from memory (each
# script's first lines say how it was made). Their CRCs are NVIDIA's
# nv_small RTL's. A 1x1 cube whose input, operands or output are not
# packed (NVIDIA's nv_small C model asserts on each) is refused by
# nvdla_trace naming the stream's rule and both strides, and runs with
# --allow-hw-hazards, saying so, with the RTL's output: the RTL moves
# such a cube packed whatever the surface strides say. Per-channel
# operands of a wider cube are read as one run (stride 0 runs). Run from
# the repository root with the build directory as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
dir=tests/unit/model/sdp-packed
trace=$build/bin/nvdla_trace

for case in small_1x1_packed small_2x1_channel_stride0; do
	out=$("$trace" "$dir/$case" 2>&1)
	[ $? -eq 0 ] && ! echo "$out" | grep -q "cannot run"
	ok $? "$case: runs with the RTL's output ($(echo "$out" | head -n 1))"
done

in="SDP_RDMA D_SRC_SURFACE_STRIDE of a 1x1 cube is not one atom (the RDMA reads it packed; NVIDIA's C models stop): 64 bytes, needs 8"
bs="SDP_RDMA D_BS_SURFACE_STRIDE of a 1x1 cube is not one group of operands (BRDMA reads them packed; NVIDIA's C models stop): 0 bytes, needs 8"
dst="SDP D_DST_SURFACE_STRIDE of a 1x1 cube is not one atom (the WDMA writes it packed; NVIDIA's C models stop): 64 bytes, needs 8"
for case in "small_1x1_strided:$in" "small_1x1_channel_stride0:$bs" \
	"small_1x1_out_strided:$dst"; do
	name=${case%%:*}
	need=${case#*:}
	out=$("$trace" "$dir/$name" 2>&1)
	[ $? -ne 0 ] &&
		echo "$out" | grep -qF "1 layers the hardware cannot run, the last: $need"
	ok $? "$name: refused ($(echo "$out" | head -n 1))"
	out=$("$trace" --allow-hw-hazards "$dir/$name" 2>&1)
	[ $? -eq 0 ] &&
		echo "$out" | grep -qF "ran 1 layers the hardware cannot run, the last: $need"
	ok $? "$name, allowed: moved packed, the RTL's output ($(echo "$out" | head -n 1))"
done
echo "1..$n"
