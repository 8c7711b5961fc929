#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the path of NVIDIA's nv_small RTL bench the performance scripts
# replay on (built by ../shared/oracle/A under $ROOT, default
# $HOME/oracle). GATING picks the variant:
#   off (default): the bench with the design's clock-gating disable
#     input (tmc2slcg_disable_clock_gating) tied to 1, built here once
#     from the oracle's objects (only its top, nvdla.cpp, is recompiled);
#   on: the oracle's bench as built, clocks gated. The CDMA's weight
#     counter misses releases there (docs/model.md), so chains of
#     convolutions stop and layers that stream weights crawl.
# Usage: tools/perf/rtl-bench.sh
set -eu
root=${ROOT:-$HOME/oracle}
out=$root/A/hw/outdir/nv_small
case ${GATING:-off} in
on)
	echo "$out/verilator_fpgaram/VNV_nvdla"
	exit 0
	;;
off) ;;
*)
	echo "rtl-bench.sh: GATING is on or off, not '$GATING'" >&2
	exit 2
	;;
esac
dir=$out/verilator_nogate
if [ ! -x "$dir/VNV_nvdla" ]; then
	[ -x "$out/verilator_fpgaram/VNV_nvdla" ] || {
		echo "rtl-bench.sh: no bench in $out/verilator_fpgaram" >&2
		exit 1
	}
	rm -rf "$dir.tmp"
	cp -a "$out/verilator_fpgaram" "$dir.tmp"
	sed -i 's/\(tmc2slcg_disable_clock_gating\) = 0;/\1 = 1;/' "$dir.tmp/nvdla.cpp"
	grep -q 'tmc2slcg_disable_clock_gating = 1;' "$dir.tmp/nvdla.cpp" || {
		echo "rtl-bench.sh: the bench's nvdla.cpp sets no clock-gating input" >&2
		exit 1
	}
	rm -f "$dir.tmp/VNV_nvdla" "$dir.tmp/nvdla.o"
	make -s -C "$dir.tmp" -f VNV_nvdla.mk VM_PARALLEL_BUILDS=1 VNV_nvdla >&2
	mv "$dir.tmp" "$dir"
fi
echo "$dir/VNV_nvdla"
