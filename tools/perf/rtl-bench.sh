#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the path of NVIDIA's nv_small RTL bench the performance scripts
# replay on, built here once from the objects of the bench that
# ../shared/oracle/A built under $ROOT (default $HOME/oracle); only its
# top, nvdla.cpp, is recompiled. The bench gives up a register poll
# after 10 reads (about 200 cycles) and fails the run; a network's
# script polls the interrupt status for a unit's done bit once the
# interrupt is up, and the RTL may have raised another unit's bit first
# (a convolution's weights are fetched before its input), so every
# variant here retries a poll a million times (about 19 M cycles: a
# stopped RTL still fails). GATING picks the rest:
#   off (default): the design's clock-gating disable input
#     (tmc2slcg_disable_clock_gating) tied to 1;
#   on: as the oracle ties it, clocks gated. The CDMA's weight counter
#     misses releases there (docs/model.md), so chains of convolutions
#     stop and layers that stream weights crawl.
# Usage: tools/perf/rtl-bench.sh
set -eu
root=${ROOT:-$HOME/oracle}
out=$root/A/hw/outdir/nv_small
case ${GATING:-off} in
on) dir=$out/verilator_polls ;;
off) dir=$out/verilator_nogate_polls ;;
*)
	echo "rtl-bench.sh: GATING is on or off, not '$GATING'" >&2
	exit 2
	;;
esac
if [ ! -x "$dir/VNV_nvdla" ]; then
	[ -x "$out/verilator_fpgaram/VNV_nvdla" ] || {
		echo "rtl-bench.sh: no bench in $out/verilator_fpgaram" >&2
		exit 1
	}
	rm -rf "$dir.tmp"
	cp -a "$out/verilator_fpgaram" "$dir.tmp"
	sed -i 's/op\.tries = 10;/op.tries = 1000000;/' "$dir.tmp/nvdla.cpp"
	grep -q 'op\.tries = 1000000;' "$dir.tmp/nvdla.cpp" || {
		echo "rtl-bench.sh: the bench's nvdla.cpp sets no poll limit" >&2
		exit 1
	}
	if [ "${GATING:-off}" = off ]; then
		sed -i 's/\(tmc2slcg_disable_clock_gating\) = 0;/\1 = 1;/' "$dir.tmp/nvdla.cpp"
		grep -q 'tmc2slcg_disable_clock_gating = 1;' "$dir.tmp/nvdla.cpp" || {
			echo "rtl-bench.sh: the bench's nvdla.cpp sets no clock-gating input" >&2
			exit 1
		}
	fi
	rm -f "$dir.tmp/VNV_nvdla" "$dir.tmp/nvdla.o"
	make -s -C "$dir.tmp" -f VNV_nvdla.mk VM_PARALLEL_BUILDS=1 VNV_nvdla >&2
	mv "$dir.tmp" "$dir"
fi
echo "$dir/VNV_nvdla"
