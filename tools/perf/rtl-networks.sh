#!/bin/sh
# SPDX-License-Identifier: MIT
# The performance estimate against NVIDIA's nv_small RTL on whole
# networks in int8: the corpus's ONNX networks (CORPUS, default
# ../shared/conformance; the _logits graph where there is one), the digit
# demo and ResNet-18 at 64x64 (`make models`), compiled for nv_small by
# nvdla_compile (feature input, calibrated on the network's own input),
# and the corpus's loadables made by NVIDIA's compiler (*_int8_small),
# each run by tools/perf/rtl-loadable.sh (GATING as there). Prints its
# line per network: name, RTL cycles, estimate, estimate / RTL,
# operations; or why the run failed or stopped. docs/performance.md.
# NAMEs pick networks by the names printed.
# Usage: tools/perf/rtl-networks.sh BUILD [NAME...]
set -u
build=$1
shift
here=$(dirname "$0")
corpus=${CORPUS:-../shared/conformance}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wanted NAME [NAMES...]: NAME is among NAMES, or none is given.
wanted() {
	[ $# -eq 1 ] && return 0
	n=$1
	shift
	for w in "$@"; do
		[ "$w" = "$n" ] && return 0
	done
	return 1
}

# compile_run NAME ONNX INPUT-DIR IMAGE [NAMES...]
compile_run() {
	name=$1 onnx=$2 dir=$3 img=$4
	shift 4
	wanted "$name" "$@" || return 0
	if ! "$build/bin/nvdla_compile" "$onnx" --config nv_small \
		--precision int8 --calibrate "$dir" --input-format feature \
		-o "$tmp/$name.nvdla" 2>"$tmp/$name.err"; then
		echo "$name: compile failed: $(tail -1 "$tmp/$name.err")"
		return 0
	fi
	sh "$here/rtl-loadable.sh" "$build" "$name" "$tmp/$name.nvdla" \
		--image "$img" --normalize 255
}

for d in "$corpus"/onnx/*/; do
	net=$(basename "$d")
	onnx=$d/${net}_logits.onnx
	[ -f "$onnx" ] || onnx=$d/$net.onnx
	compile_run "$net" "$onnx" "$d" "$(ls "$d"/input.p?m | head -1)" "$@"
done
compile_run digits models/digits/digits.onnx models/digits/calib \
	models/digits/input.pgm "$@"
m=$build/models/resnet18_64
if [ -f "$m/resnet18_64_logits.onnx" ]; then
	compile_run resnet18_64 "$m/resnet18_64_logits.onnx" "$m/calib" \
		"$m/input.ppm" "$@"
fi
# NVIDIA's, run as their case.json says (the image alone); its ResNet-18
# at 224x224 (a few hours of RTL here) only when named.
for d in "$corpus"/networks/*_int8_small/; do
	name=$(basename "$d")
	if [ $# -eq 0 ] && [ "$name" = resnet18_int8_small ]; then
		continue
	fi
	wanted "$name" "$@" || continue
	# The model refuses them: the RTL stops on them (docs/model.md).
	sh "$here/rtl-loadable.sh" "$build" "$name" "$d/$name.nvdla" \
		--image "$(ls "$d"/input.p?m | head -1)" --allow-hw-hazards
done
