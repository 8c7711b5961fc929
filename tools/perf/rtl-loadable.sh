#!/bin/sh
# SPDX-License-Identifier: MIT
# The performance estimate against NVIDIA's nv_small RTL on a whole
# loadable (a network, or a layer compiled alone): the model runs it on
# nv_small and records it (nvdla_runtime --record) with its estimate at
# the RTL bench's memory (EST, default 1000,4,32: MHz, GB/s, ns), the
# bench built by ../shared/oracle/A (under $ROOT, default $HOME/oracle)
# replays the recording, and the RTL's cycles are taken as
# tools/perf/rtl-compare.sh takes them: from its first memory read to
# the last data it writes. Prints: name, RTL cycles, estimated cycles
# (the run's total), estimate / RTL, the number of operations. The
# RTL's figure includes the bench programming each next operation's
# registers, which the estimate leaves out. Further runtime options
# (--image IMG --normalize 255 ...) follow the loadable.
# Usage: tools/perf/rtl-loadable.sh BUILD NAME LOADABLE [RUNTIME-OPTION...]
set -u
build=$1
name=$2
loadable=$3
shift 3
bench=$(sh "$(dirname "$0")/rtl-bench.sh") || exit 1
est=${EST:-1000,4,32}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
IFS=, read -r mhz gbps ns <<EOF
$est
EOF
if ! "$build/bin/nvdla_runtime" --device sim:nv_small --loadable "$loadable" \
	"$@" --record "$tmp/rec" --estimate --clock "$mhz" --dram-gbps "$gbps" \
	--dram-latency "$ns" -o "$tmp/out" >"$tmp/est.txt" 2>"$tmp/err"; then
	echo "$name: the model's run failed: $(tail -1 "$tmp/err")"
	exit 1
fi
# The bench, stopped when its log has not grown for STALL seconds (the
# RTL stops on some networks: docs/performance.md).
replay() {
	(cd "$tmp" && exec "$bench" rec.bin >rec.log 2>&1) &
	pid=$!
	size=-1
	still=0
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		now=$(wc -c <"$tmp/rec.log")
		if [ "$now" = "$size" ]; then
			still=$((still + 5))
			if [ "$still" -ge "${STALL:-120}" ]; then
				kill "$pid"
				wait "$pid"
				return 1
			fi
		else
			still=0
		fi
		size=$now
	done
	wait "$pid"
}
# What the model's run allowed (--allow-hw-hazards), its replay allows.
if ! "$build/bin/nvdla_trace" --allow-hw-hazards --verilator "$tmp" \
	"$tmp/rec" >/dev/null ||
	! replay || ! grep -q '^\*\*\* PASS' "$tmp/rec.log"; then
	echo "$name: the RTL run failed or stopped: its last memory access at tick $(grep -E 'request from dla|data from dla' "$tmp/rec.log" | tail -1 | cut -d' ' -f1)"
	exit 1
fi
est_cycles=$(awk '/^total: / { print $2 }' "$tmp/est.txt")
ops=$(awk 'NF == 13 && $1 ~ /^[0-9]+$/' "$tmp/est.txt" | wc -l)
awk -v name="$name" -v est="$est_cycles" -v ops="$ops" '
	/read request from dla|write data from dla/ {
		gsub(/[()]/, "", $1)
		if (!n++) first = $1
		last = $1
	} END {
		rtl = int((last - first) / 2)
		printf "%s %d %d %.2f %d\n", name, rtl, est, est / rtl, ops
	}' "$tmp/rec.log"
