#!/bin/sh
# SPDX-License-Identifier: MIT
# The CDMA's early enable end to end (docs/model.md): networks compiled
# by nvdla_compile for nv_small in int8 (the digit demo, LeNet and
# ResNet-18 at 64x64 of `make models`, the ONNX corpus but U-Net mini,
# whose Tanh nv_small cannot compute), run on the
# model and recorded; in each recording no two convolutions in a row
# have the same data banks, and every convolution's CDMA is enabled
# before its CSC and before the CACC done of the convolution before
# (conv_banks.py). NVIDIA's nv_small loadables of the corpus, which give
# convolutions in a row the same banks, have those CDMAs enabled with the
# rest and the others early; checked strictly, they fail (recorded with
# --allow-hw-hazards: the model refuses them, as the hardware stops). Run from the
# repository root with the build directory as $1.
set -u
build=${1:-build}
corpus=${NVDLA_CORPUS:-../shared/conformance}
check=tests/unit/compiler/conv_banks.py
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# record NAME LOADABLE IMAGE [OPTION]: run it on nv_small, recorded in
# $tmp/NAME.
record() {
	"$build/bin/nvdla_runtime" --device sim:nv_small --loadable "$2" \
		--image "$3" --normalize 255 --record "$tmp/$1" ${4:+"$4"} \
		-o "$tmp/$1.out" >"$tmp/$1.log" 2>&1
}

# compiled NAME ONNX CALIB IMAGE
compiled() {
	if ! "$build/bin/nvdla_compile" "$2" --config nv_small --precision int8 \
		--calibrate "$3" -o "$tmp/$1.nvdla" >"$tmp/$1.log" 2>&1 ||
		! record "$1" "$tmp/$1.nvdla" "$4"; then
		ok 1 "$1: compiled and recorded: $(tail -1 "$tmp/$1.log")"
		return
	fi
	/usr/bin/python3 "$check" "$tmp/$1/$1.cfg" >"$tmp/$1.check"
	ok $? "$(cat "$tmp/$1.check")"
}

if [ ! -x "$build/bin/nvdla_compile" ]; then
	ok 1 "conv banks: $build/bin/nvdla_compile missing (make)"
	exit 0
fi
compiled digits models/digits/digits.onnx models/digits/calib \
	models/digits/input.pgm
if [ -f "$build/models/stamp" ]; then
	for m in lenet resnet18_64; do
		d=$build/models/$m
		compiled "$m" "$d/${m}_logits.onnx" "$d/calib" \
			"$(ls "$d"/input.p?m)"
	done
else
	skip "LeNet and ResNet-18 at 64x64" "$build/models absent (make models)"
fi
if [ ! -d "$corpus/onnx" ]; then
	skip "the ONNX corpus and NVIDIA's loadables" "$corpus absent"
	exit 0
fi
for d in "$corpus"/onnx/*/; do
	net=$(basename "$d")
	# Its Tanh needs the SDP's LUT, which nv_small has not.
	[ "$net" = unet_mini ] && continue
	onnx=$d/${net}_logits.onnx
	[ -f "$onnx" ] || onnx=$d/$net.onnx
	compiled "$net" "$onnx" "$d" "$(ls "$d"/input.p?m | head -1)"
done
# The hardware stops on them (the stale weight count): recorded anyway.
for net in lenet_int8_small gnet_mini_nolrn_int8_small; do
	d=$corpus/networks/$net
	if ! record "$net" "$d/$net.nvdla" "$(ls "$d"/input.p?m)" \
		--allow-hw-hazards; then
		ok 1 "$net: recorded: $(tail -1 "$tmp/$net.log")"
		continue
	fi
	/usr/bin/python3 "$check" "$tmp/$net/$net.cfg" --equal-allowed \
		>"$tmp/$net.check"
	ok $? "$(cat "$tmp/$net.check")"
	! /usr/bin/python3 "$check" "$tmp/$net/$net.cfg" >"$tmp/$net.check"
	ok $? "checked strictly, refused: $(cat "$tmp/$net.check")"
done
