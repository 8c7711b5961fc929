#!/bin/sh
# SPDX-License-Identifier: MIT
# The order a convolution's units are enabled in, end to end
# (NVDLA_CBUF_CDMA_AHEAD, NVDLA_CBUF_MAC_LATE, NVDLA_CBUF_OVERTAKES,
# docs/model.md):
# tests/unit/model/cdma-order holds register programs of two convolutions,
# the second in other banks (each directory's second line says how it was
# made). On nv_full, its CDMA enabled before its CSC is refused by
# nvdla_trace, naming the rule and its numbers (NVIDIA's nv_full C model
# never ends that convolution), and runs with --allow-hw-hazards, saying
# so, with the C model's output of the same program in NVIDIA's order;
# that order, and the early CDMA in the banks of the convolution before,
# run. On nv_small the early CDMA runs (its CDMA waits for its CSC). On
# both, a CMAC or CACC enabled after the CSC and the CDMA is refused (the
# C models stop). On nv_full a convolution whose CDMA was enabled before
# the one ahead of it had all its units enabled is refused in other
# banks (NVDLA_CBUF_OVERTAKES), also in a network nvdla_compile made
# with its old order (full_overtakes_rubik); in the same banks, with only
# the one ahead's SDP late, or its own CDMA after, and on nv_small, it
# runs. Run from the repository root with the build directory as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
dir=tests/unit/model/cdma-order
trace=$build/bin/nvdla_trace
need="CDMA D_OP_ENABLE before the CSC's, in other banks than the layer before: the CSC forgets the kernels the CDMA fetched and waits for them forever: 0 kernels, needs 8"

out=$("$trace" "$dir/full_cdma_ahead" 2>&1)
[ $? -ne 0 ] &&
	echo "$out" | grep -qF "1 layers the hardware cannot run, the last: $need"
ok $? "nv_full, the second CDMA enabled before its CSC: refused ($(echo "$out" | head -n 1))"

out=$("$trace" --allow-hw-hazards "$dir/full_cdma_ahead" 2>&1)
[ $? -eq 0 ] && echo "$out" | grep -qF "ran 1 layers the hardware cannot run"
ok $? "nv_full, allowed: it runs, saying so, with the C model's output of NVIDIA's order ($(echo "$out" | head -n 1))"

late="CMAC or CACC D_OP_ENABLE after both the CSC's and the CDMA's: the CSC feeds units not running (NVIDIA's C model stops)"
for case in "full_cacc_last 2" "small_cmac_last 1"; do
	set -- $case
	out=$("$trace" "$dir/$1" 2>&1)
	[ $? -ne 0 ] &&
		echo "$out" | grep -qF "the last: $late: $2 of CMAC_A, CMAC_B and CACC enabled, needs 3"
	ok $? "$1: refused ($(echo "$out" | head -n 1))"
done

# A convolution's CDMA enabled before the one ahead of it was (all five
# units) is fetched while the CSC runs that one: refused on nv_full where
# the banks change, whichever of them (NVIDIA's C model: no CACC done).
overtakes="CDMA D_OP_ENABLE before the convolution ahead had its CDMA, CSC, CMACs and CACC enabled, in other banks: the CSC forgets the kernels and waits forever"
for case in "full_overtakes 0" "full_overtakes_weight_banks 0" \
	"full_overtakes_cdma_last 4" "full_overtakes_rubik 0"; do
	set -- $case
	out=$("$trace" "$dir/$1" 2>&1)
	[ $? -ne 0 ] &&
		echo "$out" | grep -qF "the last: $overtakes: $2 of the one ahead's units enabled, needs 5"
	ok $? "$1: refused ($(echo "$out" | head -n 1))"
	out=$("$trace" --allow-hw-hazards "$dir/$1" 2>&1)
	[ $? -eq 0 ] && echo "$out" | grep -qF "ran 1 layers the hardware cannot run"
	ok $? "$1, allowed: it runs, saying so ($(echo "$out" | head -n 1))"
done

for case in full_csc_first full_cdma_ahead_same_banks small_cdma_ahead \
	full_overtakes_same_banks full_overtakes_sdp_last \
	full_cdma_after_ahead small_overtakes; do
	out=$("$trace" "$dir/$case" 2>&1)
	status=$?
	ok $status "$case runs ($(sed -n '2s/^# program: //p' "$dir/$case/input.txn"))"
	[ $status -eq 0 ] || echo "$out" | sed 's/^/# /'
done
echo "1..$n"
