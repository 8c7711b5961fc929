#!/bin/sh
# SPDX-License-Identifier: MIT
# The detector demo (models/detect): compiled by nvdla_compile for nv_full
# in fp16 and for nv_small in int8, run by nvdla_runtime --detect on the
# in-process model on the bundled scene (and in fp16 the four of scenes/),
# whose digits it must find (each with its class, IoU at least 0.5,
# nothing else); the C decoding against the Python reference
# (tests/unit/compiler/detect_check.py) on the same head values and on torch's;
# int8's mAP@0.5 on 50 held-out scenes within 0.02 of the float model's;
# malformed --detect arguments and head files refused with their message,
# nothing written. Run from the repository root with the build directory
# as $1.
set -u
build=${1:-build}
compile=$build/bin/nvdla_compile
runtime=$build/bin/nvdla_runtime
dir=models/detect
check=tests/unit/compiler/detect_check.py
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! tools/models/python.sh -c 'import torch, onnx, sklearn' 2>/dev/null; then
	skip "detect demo" "python3-torch, -onnx or -sklearn missing (tools/setup.sh)"
	exit 0
fi

# detect LOADABLE CONFIG IMAGE OUT [ARG...]: the boxes into OUT, the head
# values into OUT.raw
detect() {
	l=$1 c=$2 i=$3 o=$4
	shift 4
	"$runtime" --loadable "$l" --device "sim:$c" --image "$i" \
		--detect "$dir/detect.yolo" --rawdump -o "$o.raw" "$@" >"$o" 2>"$o.err"
}

for case in nv_full:fp16 nv_small:int8; do
	config=${case%:*} prec=${case#*:}
	l=$tmp/$prec.nvdla
	calib=""
	[ "$prec" = int8 ] && calib="--calibrate $dir/calib"
	# shellcheck disable=SC2086 # no --calibrate in fp16
	if ! "$compile" "$dir/detect.onnx" --config "$config" --precision "$prec" \
		$calib -o "$l" >"$tmp/compile.log" 2>&1; then
		ok 1 "detect $prec $config: nvdla_compile failed: $(tail -1 "$tmp/compile.log")"
		continue
	fi
	# The scenes of scenes/ in fp16; in int8 two of their 16 digits fall
	# just under the 0.25 threshold (the float model gives them 0.27 and
	# 0.29): int8 is judged by its mAP below.
	scenes=""
	[ "$prec" = fp16 ] && scenes=$(echo "$dir"/scenes/*.pgm)
	for img in "$dir/input.pgm" $scenes; do
		out=$tmp/$prec-$(basename "$img" .pgm)
		detect "$l" "$config" "$img" "$out"
		tools/models/python.sh "$check" truth "${img%.pgm}.txt" "$out" \
			>"$out.check" 2>&1
		ok $? "detect $prec $config $img: $(tail -1 "$out.check")"
	done
	sed 's/^/# /' "$tmp/$prec-input"
	# Down to 0.0001 the head gives hundreds of overlapping boxes: the
	# suppression decides which remain.
	out=$tmp/$prec-low
	detect "$l" "$config" "$dir/input.pgm" "$out" --detect-threshold 0.0001 \
		--nms 0.3
	tools/models/python.sh "$check" decode "$dir/detect.yolo" "$out.raw" \
		96 96 "$out" 0.0001 0.3 >"$out.check" 2>&1
	ok $? "detect $prec $config: the C decoding is the reference's on the same values, threshold 0.0001: $(tr '\n' ' ' <"$out.check")"
done
tools/models/python.sh "$check" torch "$dir/detect.yolo" "$dir/detect.onnx" \
	"$dir/input.pgm" "$tmp/fp16-input" >"$tmp/torch.check" 2>&1
ok $? "detect fp16 nv_full: the boxes of torch's float64 head by the reference decoding: $(tr '\n' ' ' <"$tmp/torch.check")"

# The issue's bar: int8 within 0.02 of the float model's mAP.
tools/models/python.sh tools/models/bench_detect.py "$build" --scenes 50 \
	--max-drop 0.02 nv_small:int8 >"$tmp/bench" 2>&1
status=$?
sed 's/^/# /' "$tmp/bench"
ok $status "detect int8 nv_small on 50 held-out scenes: mAP@0.5 within 0.02 of the float model's"

# refused ARGS... -- MESSAGE: nvdla_runtime with ARGS exits 2 (usage) or 1
# with MESSAGE on stderr and writes no output.
refused() {
	args=""
	while [ "$1" != -- ]; do
		args="$args $1"
		shift
	done
	rm -f "$tmp/r.raw"
	# shellcheck disable=SC2086 # the arguments, none with spaces
	"$runtime" --loadable "$tmp/fp16.nvdla" --device sim:nv_full \
		--image "$dir/input.pgm" --rawdump -o "$tmp/r.raw" $args \
		>"$tmp/r.out" 2>"$tmp/r.err"
	status=$?
	[ "$status" -ne 0 ] && [ ! -e "$tmp/r.raw" ] &&
		grep -qF -- "$2" "$tmp/r.err"
	ok $? "refused:$args: $(tail -1 "$tmp/r.err")"
}
# head NAME LINE...: a head file of those lines
head_file() {
	f=$tmp/$1.yolo
	shift
	printf '%s\n' "$@" >"$f"
}
refused --nms 0.5 -- "--detect-threshold and --nms need --detect"
refused --detect-threshold 0.3 -- "--detect-threshold and --nms need --detect"
refused --detect "$dir/detect.yolo" --detect-threshold 1.5 -- \
	"--detect-threshold takes a number from 0 to 1: '1.5'"
refused --detect "$dir/detect.yolo" --nms x -- "--nms takes a number from 0 to 1: 'x'"
refused --detect "$dir/detect.yolo" --nms -0.1 -- "--nms takes a number from 0 to 1: '-0.1'"
refused --detect "$tmp/absent.yolo" -- "--detect: $tmp/absent.yolo: No such file or directory"
head_file magic "classes 10" "anchor 12 20"
refused --detect "$tmp/magic.yolo" -- \
	"$tmp/magic.yolo:1: not a YOLO head description: the first line is not 'yolo 1'"
head_file empty "# nothing"
refused --detect "$tmp/empty.yolo" -- \
	"$tmp/empty.yolo: not a YOLO head description: no 'yolo 1' line"
head_file classes0 "yolo 1" "classes 0"
refused --detect "$tmp/classes0.yolo" -- \
	"$tmp/classes0.yolo:2: 'classes' takes one whole number from 1 to 1000"
head_file classes_frac "yolo 1" "classes 2.5"
refused --detect "$tmp/classes_frac.yolo" -- \
	"$tmp/classes_frac.yolo:2: 'classes' takes one whole number from 1 to 1000"
head_file classes2 "yolo 1" "classes 10" "# again" "classes 10"
refused --detect "$tmp/classes2.yolo" -- "$tmp/classes2.yolo:4: a second 'classes' line"
head_file noclasses "yolo 1" "anchor 12 20"
refused --detect "$tmp/noclasses.yolo" -- "$tmp/noclasses.yolo: no 'classes' line"
head_file noanchor "yolo 1" "classes 10"
refused --detect "$tmp/noanchor.yolo" -- "$tmp/noanchor.yolo: no 'anchor' line"
head_file anchor1 "yolo 1" "classes 10" "anchor 12"
refused --detect "$tmp/anchor1.yolo" -- \
	"$tmp/anchor1.yolo:3: 'anchor' takes a width and a height in pixels, positive numbers"
head_file anchorneg "yolo 1" "classes 10" "anchor 12 -20"
refused --detect "$tmp/anchorneg.yolo" -- \
	"$tmp/anchorneg.yolo:3: 'anchor' takes a width and a height in pixels, positive numbers"
# shellcheck disable=SC2046 # 17 lines
head_file anchors17 "yolo 1" "classes 1" $(yes "anchor-1-1" | head -17)
sed -i 's/-/ /g' "$tmp/anchors17.yolo"
refused --detect "$tmp/anchors17.yolo" -- "$tmp/anchors17.yolo:19: more than 16 anchors"
head_file unknown "yolo 1" "classes 10" "stride 8"
refused --detect "$tmp/unknown.yolo" -- \
	"$tmp/unknown.yolo:3: unknown line 'stride' (yolo, classes or anchor)"
awk 'BEGIN { printf "yolo 1\n# "; for (i = 0; i < 300; i++) printf "x"; print "" }' \
	>"$tmp/long.yolo"
refused --detect "$tmp/long.yolo" -- "$tmp/long.yolo:2: line longer than 254 bytes"
head_file classes9 "yolo 1" "classes 9" "anchor 12 20" "anchor 20 26"
refused --detect "$tmp/classes9.yolo" -- \
	"--detect: output 0 has 30 channels, the head described has 2 anchors x (5 + 9 classes) = 28"
# A 7x7 input onto a 4x4 grid of 15 channels: no whole number of cells.
tools/models/python.sh -c 'import onnx, onnx.helper as h, numpy as np
w = h.make_tensor("w", 1, [15, 1, 1, 1], np.ones(15))
g = h.make_graph([h.make_node("Conv", ["data", "w"], ["yolo"], strides=[2, 2])],
                 "odd", [h.make_tensor_value_info("data", 1, [1, 1, 7, 7])],
                 [h.make_tensor_value_info("yolo", 1, [1, 15, 4, 4])], [w])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), "'"$tmp/odd.onnx"'")' &&
	"$compile" "$tmp/odd.onnx" --config nv_full --precision fp16 \
		-o "$tmp/odd.nvdla" >/dev/null 2>&1 &&
	printf 'P5\n7 7\n255\n%049d' 0 >"$tmp/odd.pgm"
head_file one "yolo 1" "classes 10" "anchor 12 20"
rm -f "$tmp/odd.raw"
"$runtime" --loadable "$tmp/odd.nvdla" --device sim:nv_full --image "$tmp/odd.pgm" \
	--detect "$tmp/one.yolo" --rawdump -o "$tmp/odd.raw" >/dev/null 2>"$tmp/odd.err"
[ $? -eq 1 ] && [ ! -e "$tmp/odd.raw" ] && grep -qF -- \
	"--detect: the 7x7 input is not a whole number of cells of output 0's 4x4 grid" "$tmp/odd.err"
ok $? "refused: a 7x7 input on a 4x4 grid: $(tail -1 "$tmp/odd.err")"
