#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench, estimated frames/s (docs/performance.md): every network of
# the corpus (../shared/conformance/networks) on the configuration it was
# compiled for, then the digit demo (models/digits) compiled by
# nvdla_compile for nv_small and nv_large (int8) and nv_full (fp16), each
# at its configuration's default clock and memory bandwidth. A corpus
# network the hardware would not run (NVIDIA's wrongly split nv_small
# builds) is estimated with --allow-hw-hazards and says so.
set -eu
build=${1:-build}
networks=../shared/conformance/networks
runtime=$(cd "$build/bin" && pwd)/nvdla_runtime
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# line LABEL CONFIG ESTIMATE-OUTPUT [NOTE]: one line from its totals
line() {
	awk -v l="$1" -v c="$2" -v note="${4:-}" '
		/^estimate: / { clock = $2 " MHz, " $4 " GB/s" }
		/^total: / { fps = $6; us = $4; cyc = $2 }
		END {
			if (fps == "") exit 1
			printf "%-48s %-9s %12s frames/s %12s us %11s cycles (%s)%s\n",
				l, c, fps, us, cyc, clock, note
		}' "$3"
}

echo "Estimated frames/s (the performance model, docs/performance.md):"
for dir in "$networks"/*/; do
	[ -f "$dir/case.json" ] || continue
	c=$(basename "$dir")
	dev=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["device"])' "$dir/case.json")
	args=$(python3 -c 'import json, sys
print("\n".join(json.load(open(sys.argv[1]))["run"]["args"]))' "$dir/case.json")
	note=
	# shellcheck disable=SC2086 # one argument a line
	if ! (IFS='
'; cd "$dir" && "$runtime" $args --estimate -o /dev/null) >"$tmp/out" 2>&1; then
		note=" (with --allow-hw-hazards: the hardware would not run it)"
		# shellcheck disable=SC2086
		(IFS='
'; cd "$dir" && "$runtime" $args --estimate --allow-hw-hazards \
			-o /dev/null) >"$tmp/out" 2>&1 || true
	fi
	line "$c" "${dev#sim:}" "$tmp/out" "$note" ||
		echo "$c: failed: $(tail -1 "$tmp/out")"
done
[ -d "$networks" ] || echo "corpus networks: skipped ($networks absent)"

for cfg in nv_small nv_large nv_full; do
	case $cfg in
	nv_full) p=fp16 prec="--precision fp16" ;;
	*) p=int8 prec="--precision int8 --calibrate models/digits/calib" ;;
	esac
	# shellcheck disable=SC2086 # the precision options
	if "$build/bin/nvdla_compile" models/digits/digits.onnx --config "$cfg" \
		$prec --normalize 255 -o "$tmp/digits.nvdla" >/dev/null 2>"$tmp/err" &&
		"$runtime" --loadable "$tmp/digits.nvdla" --device "sim:$cfg" \
			--image models/digits/input.pgm --estimate -o /dev/null \
			>"$tmp/out" 2>&1; then
		line "digits demo (nvdla_compile, $p)" "$cfg" "$tmp/out"
	else
		echo "digits demo on $cfg: failed: $(tail -1 "$tmp/err" "$tmp/out")"
	fi
done
