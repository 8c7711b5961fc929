#!/bin/sh
# SPDX-License-Identifier: MIT
# The performance estimate against NVIDIA's nv_small RTL (Verilator,
# ../shared/oracle/A built under $ROOT, default $HOME/oracle): for each
# public nv_small trace test named, its RTL cycles, from the first memory
# read the RTL requests to the last data it writes (the bench logs every
# AXI beat with its half-cycle tick), next to the estimate of the same
# script by nvdla_trace at the bench's memory: 32 cycles of latency, and
# an address accepted every other cycle on each channel, one 8-byte beat
# (nv_small's bursts are one beat long), so 4 bytes a cycle: 4 GB/s at
# 1 GHz (EST overrides "MHZ,GBPS,NS"). Prints one line per test: name,
# RTL cycles, estimated cycles, estimate / RTL.
# Usage: tools/perf/rtl-compare.sh BUILD TEST...   (docs/performance.md)
set -u
build=$1
shift
root=${ROOT:-$HOME/oracle}
py2=${PY2:-$HOME/.pyenv/versions/2.7.18/bin/python2.7}
traces=${TRACES:-../shared/conformance/traces/nv_small}
runs=$root/A/hw/outdir/nv_small/verilator_fpgaram/test
for t in "$@"; do
	PY2=$py2 ROOT=$root bash ../shared/oracle/A/run_test.sh "$t" >/dev/null 2>&1 ||
		{ echo "$t: the RTL run failed"; continue; }
	rtl=$(awk '/read request from dla|write data from dla/ {
			gsub(/[()]/, "", $1)
			if (!first) first = $1
			last = $1
		} END { print int((last - first) / 2) }' "$runs/$t/run.log")
	est=$("$build/bin/nvdla_trace" --estimate "${EST:-1000,4,32}" "$traces/$t" |
		awk '/^  estimate/ { for (i = 1; i <= NF; i++)
			if ($(i + 1) == "cycles") { s += $i; break } }
			END { print s + 0 }')
	echo "$t $rtl $est" | awk '{ printf "%s %d %d %.2f\n", $1, $2, $3, $3 / $2 }'
done
