#!/bin/sh
# SPDX-License-Identifier: MIT
# The performance estimate against NVIDIA's nv_small RTL on random
# single layers: for each seed from FIRST to LAST, nvdla_randlayer draws
# an nv_small layer of KINDS (default sdp,pdp,cdp,conv,image), the model
# runs and records it (nvdla_runtime --record), nvdla_trace writes the
# RTL bench's stream and estimates it, and the bench built by
# ../shared/oracle/A (under $ROOT, default $HOME/oracle) replays it. The
# RTL's cycles and the estimate are taken as tools/perf/rtl-compare.sh
# takes them (same bench memory: EST, default 1000,4,32). Prints one line
# per layer: seed, kind, RTL cycles, estimated cycles, estimate / RTL,
# the layer's description.
# Usage: tools/perf/rtl-random.sh BUILD FIRST LAST [KINDS]
set -u
build=$1
first=$2
last=$3
kinds=${4:-sdp,pdp,cdp,conv,image}
bench=$(sh "$(dirname "$0")/rtl-bench.sh") || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seed=$first
while [ "$seed" -le "$last" ]; do
	d=$tmp/l$seed
	desc=$("$build/bin/nvdla_randlayer" --config nv_small --kinds "$kinds" \
		"$seed" "$d.nvdla" | head -1)
	if "$build/bin/nvdla_runtime" --device sim:nv_small --loadable "$d.nvdla" \
		--record "$d" -o "$d.dimg" >/dev/null 2>&1 &&
		"$build/bin/nvdla_trace" --verilator "$tmp" "$d" >/dev/null &&
		(cd "$tmp" && timeout "${TMO:-600}" "$bench" "l$seed.bin" >"$d.log" 2>&1) &&
		grep -q '^\*\*\* PASS' "$d.log"; then
		rtl=$(awk '/read request from dla|write data from dla/ {
				gsub(/[()]/, "", $1)
				if (!f) f = $1
				l = $1
			} END { print int((l - f) / 2) }' "$d.log")
		est=$("$build/bin/nvdla_trace" --estimate "${EST:-1000,4,32}" "$d" |
			awk '/^  estimate/ { for (i = 1; i <= NF; i++)
				if ($(i + 1) == "cycles") { s += $i; break } }
				END { print s + 0 }')
		echo "$seed $rtl $est" | awk -v d="$desc" \
			'{ printf "%d %d %d %.2f %s\n", $1, $2, $3, $3 / $2, d }'
	else
		echo "$seed the RTL run failed: $desc"
	fi
	rm -rf "$d" "$d.nvdla" "$d.dimg" "$d.log" "$tmp/l$seed.bin"
	seed=$((seed + 1))
done
