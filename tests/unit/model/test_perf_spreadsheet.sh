#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/perf/spreadsheet.py (docs/performance.md): NVIDIA's performance
# spreadsheet read from the bare nvdla/hw clone, its first ResNet-50
# layers built, compiled and estimated on nv_full: the sheet's own
# figures, the estimate of a 1x1 layer 5 to 20% over it (the sheet's
# KiB-per-GB/s rounding, the latency, and the first fetch followed by a
# compute the accumulator's delivery to the SDP bounds: 3 cycles for 32
# results, longer than the layer's memory traffic), and the first
# layer's difference tagged with its causes. Skipped without the clone. Run from
# the repository root with the build directory as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
git_dir=${NVDLA_HW_GIT:-/work/.mirror/nvdla+hw/repo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! git --git-dir="$git_dir" cat-file -e \
	nvdlav1:perf/NVDLA_OpenSource_Performance.xlsx 2>/dev/null; then
	skip "spreadsheet.py on ResNet-50's first layers" "no nvdla/hw clone"
	skip "spreadsheet.py refuses a missing file" "no nvdla/hw clone"
	echo "1..$n"
	exit 0
fi
/usr/bin/python3 tools/perf/spreadsheet.py "$build" --git-dir "$git_dir" \
	--sheets ResNet50 --layers 2 >"$tmp/out.txt" 2>&1
# Conv1 (7x7 stride 2 on the 224x224 image, pooled): the sheet's 153664
# MAC cycles (output channels rounded to 128) against image input mode.
# Res2a_branch1 (64x56x56 into 256 1x1): 99600 DRAM cycles in the sheet,
# 996 KiB at 10 GB/s; the estimate reads and writes 1,019,904 bytes
# (102,093 cycles), but its input and weights (21,709 cycles, the
# weights' reads taking turns with the input's) come before its
# compute, 392 stripes of 64 outputs that each wait for the delivery
# buffer (64 x 3 + 37 cycles): 111,607 in all.
grep -q "^# nv_full int8, 1000 MHz, 10 GB/s; sheet: 2048 MACs, 512 KB buffer, 1-byte data$" "$tmp/out.txt" &&
	grep -Eq "^ResNet50 Conv1_.* 3 224x224 64 7x7/2 \| 40800 153664 153664 \| .* \| [0-9.]+ \| image K-to-128 pool-apart fill$" "$tmp/out.txt" &&
	awk -F'|' '/^ResNet50 Res2a_branch1_/ {
		split($2, s, " "); split($3, e, " ")
		exit !(s[1] == 99600 && e[3] / s[3] > 1.05 && e[3] / s[3] < 1.2 &&
		       $5 ~ /^ *$/)
	}' "$tmp/out.txt" &&
	grep -Eq "^ResNet50 total \| 253264 \| [0-9]+ \| [0-9.]+$" "$tmp/out.txt"
ok $? "spreadsheet.py: ResNet-50's first two layers, the sheet's figures, a 1x1 layer 5 to 20% over, the first layer's causes"

/usr/bin/python3 tools/perf/spreadsheet.py "$build" --xlsx "$tmp/none.xlsx" \
	>/dev/null 2>"$tmp/err"
[ $? -ne 0 ] && grep -q "^spreadsheet.py: .*none.xlsx: No such file or directory$" "$tmp/err"
ok $? "spreadsheet.py --xlsx of a missing file: refused"
echo "1..$n"
