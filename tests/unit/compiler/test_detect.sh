#!/bin/sh
# SPDX-License-Identifier: MIT
# The detectors of the demo (models/detect: detect, one head; detect2, two
# heads at strides 16 and 8, the second fed by an upsampled neck): each
# compiled by nvdla_compile for nv_full in fp16 and for nv_small in int8,
# run by nvdla_runtime --detect on the in-process model on the bundled
# scene (and detect in fp16 the four of scenes/), whose digits it must
# find (each with its class, IoU at least 0.5, nothing else); the
# library's decoding
# against the Python reference (tests/unit/compiler/detect_check.py) on
# the same head values and on torch's; int8's mAP@0.5 on 50 held-out
# scenes within 0.02 of the float model's; malformed --detect arguments,
# .yolo files and heads that do not fit the network refused with their
# message, nothing written. Run from the repository root with the build
# directory as $1.
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

# detect MODEL LOADABLE CONFIG IMAGE OUT [ARG...]: the boxes into OUT,
# the heads' values into OUT.raw (and OUT.1.raw)
detect() {
	m=$1 l=$2 c=$3 i=$4 o=$5
	shift 5
	"$runtime" --loadable "$l" --device "sim:$c" --image "$i" \
		--detect "$dir/$m.yolo" --rawdump -o "$o.raw" "$@" >"$o" 2>"$o.err"
}

for model in detect detect2; do
for case in nv_full:fp16 nv_small:int8; do
	config=${case%:*} prec=${case#*:}
	l=$tmp/$model-$prec.nvdla
	calib=""
	[ "$prec" = int8 ] && calib="--calibrate $dir/calib"
	# shellcheck disable=SC2086 # no --calibrate in fp16
	if ! "$compile" "$dir/$model.onnx" --config "$config" --precision "$prec" \
		$calib -o "$l" >"$tmp/compile.log" 2>&1; then
		ok 1 "$model $prec $config: nvdla_compile failed: $(tail -1 "$tmp/compile.log")"
		continue
	fi
	# The scenes of scenes/ for detect in fp16; in int8 two of their 16
	# digits fall just under the 0.25 threshold (the float model gives
	# them 0.27 and 0.29), and detect2's float model misses one digit in
	# two of them (an 8 it reads as a 7, a 9 under the threshold): those
	# are judged by their mAP below.
	scenes=""
	[ "$model-$prec" = detect-fp16 ] && scenes=$(echo "$dir"/scenes/*.pgm)
	for img in "$dir/input.pgm" $scenes; do
		out=$tmp/$model-$prec-$(basename "$img" .pgm)
		detect "$model" "$l" "$config" "$img" "$out"
		tools/models/python.sh "$check" truth "${img%.pgm}.txt" "$out" \
			>"$out.check" 2>&1
		ok $? "$model $prec $config $img: $(tail -1 "$out.check")"
	done
	sed 's/^/# /' "$tmp/$model-$prec-input"
	# Down to 0.0001 the heads give hundreds of overlapping boxes: the
	# suppression decides which remain.
	out=$tmp/$model-$prec-low
	detect "$model" "$l" "$config" "$dir/input.pgm" "$out" \
		--detect-threshold 0.0001 --nms 0.3
	tools/models/python.sh "$check" decode "$dir/$model.yolo" "$out.raw" \
		96 96 "$out" 0.0001 0.3 >"$out.check" 2>&1
	ok $? "$model $prec $config: the library's decoding is the reference's on the same values, threshold 0.0001: $(tr '\n' ' ' <"$out.check")"
done
tools/models/python.sh "$check" torch "$dir/$model.yolo" "$dir/$model.onnx" \
	"$dir/input.pgm" "$tmp/$model-fp16-input" >"$tmp/torch.check" 2>&1
ok $? "$model fp16 nv_full: the boxes of torch's float64 heads by the reference decoding: $(tr '\n' ' ' <"$tmp/torch.check")"

# The issue's bar: int8 within 0.02 of the float model's mAP.
tools/models/python.sh tools/models/bench_detect.py "$build" --scenes 50 \
	--max-drop 0.02 --model "$model" nv_small:int8 >"$tmp/bench" 2>&1
status=$?
sed 's/^/# /' "$tmp/bench"
ok $status "$model int8 nv_small on 50 held-out scenes: mAP@0.5 within 0.02 of the float model's"
done

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
	"$runtime" --loadable "$tmp/detect-fp16.nvdla" --device sim:nv_full \
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
# yolo NAME LINE...: a .yolo file of those lines after 'yolo 2' (none
# for NAME magic)
yolo() {
	f=$tmp/$1.yolo
	shift
	{ [ "${f##*/}" = magic.yolo ] || echo "yolo 2"; printf '%s\n' "$@"; } >"$f"
}
# bad NAME MESSAGE LINE...: that file refused with "NAME.yolo:MESSAGE"
bad() {
	name=$1 msg=$2
	shift 2
	yolo "$name" "$@"
	refused --detect "$tmp/$name.yolo" -- "$tmp/$name.yolo:$msg"
}
bad magic "1: not a YOLO head description: the first line is not 'yolo 2'" \
	"yolo 1" "classes 10" "head 0 8" "anchor 12 20"
printf '# nothing\n' >"$tmp/empty.yolo"
refused --detect "$tmp/empty.yolo" -- \
	"$tmp/empty.yolo: not a YOLO head description: no 'yolo 2' line"
bad classes0 "2: 'classes' takes one whole number from 1 to 1000" "classes 0"
bad classes_frac "2: 'classes' takes one whole number from 1 to 1000" "classes 2.5"
bad classes2 "4: a second 'classes' line" "classes 10" "# again" "classes 10"
bad noclasses " no 'classes' line" "head 0 8" "anchor 12 20"
bad nohead " no 'head' line" "classes 10"
bad names_early "2: 'names' before the 'classes' line" "names a b" "classes 2"
bad names_none "3: 'names' takes one or more names" "classes 2" "names"
bad names_many "4: more names than the 2 classes" "classes 2" "names a" "names b c"
bad names_few " 1 names for 2 classes" "classes 2" "names a" "head 0 8" "anchor 1 1"
bad head_args "3: 'head' takes an output (0 to 255) and a stride (1 to 4096 pixels), whole numbers" \
	"classes 10" "head 0"
bad head_stride "3: 'head' takes an output (0 to 255) and a stride (1 to 4096 pixels), whole numbers" \
	"classes 10" "head 0 0"
bad head_twice "5: a second head on output 0" "classes 10" "head 0 8" "anchor 12 20" \
	"head 0 16"
bad head_bare "4: the head on output 0 has no 'anchor' line" "classes 10" "head 0 8" \
	"head 1 16"
bad head_last " the head on output 1 has no 'anchor' line" "classes 10" "head 0 8" \
	"anchor 12 20" "head 1 16"
bad heads9 "19: more than 8 heads" "classes 1" \
	"head 0 8" "anchor 1 1" "head 1 8" "anchor 1 1" "head 2 8" "anchor 1 1" \
	"head 3 8" "anchor 1 1" "head 4 8" "anchor 1 1" "head 5 8" "anchor 1 1" \
	"head 6 8" "anchor 1 1" "head 7 8" "anchor 1 1" "head 8 8"
bad anchor_early "3: 'anchor' before any 'head' line" "classes 10" "anchor 12 20"
bad anchor1 "4: 'anchor' takes a width and a height in pixels, positive numbers" \
	"classes 10" "head 0 8" "anchor 12"
bad anchorneg "4: 'anchor' takes a width and a height in pixels, positive numbers" \
	"classes 10" "head 0 8" "anchor 12 -20"
# shellcheck disable=SC2046 # 17 lines
yolo anchors17 "classes 1" "head 0 8" $(yes "anchor-1-1" | head -17)
sed -i 's/-/ /g' "$tmp/anchors17.yolo"
refused --detect "$tmp/anchors17.yolo" -- "$tmp/anchors17.yolo:20: more than 16 anchors in a head"
bad unknown "3: unknown line 'stride' (yolo, classes, names, head or anchor)" \
	"classes 10" "stride 8"
awk 'BEGIN { printf "yolo 2\n# "; for (i = 0; i < 1100; i++) printf "x"; print "" }' \
	>"$tmp/long.yolo"
refused --detect "$tmp/long.yolo" -- "$tmp/long.yolo:2: line longer than 1022 bytes"
# Well-formed files that do not fit the network: found at the decoding.
yolo classes9 "classes 9" "head 0 8" "anchor 12 20" "anchor 20 26"
refused --detect "$tmp/classes9.yolo" -- \
	"--detect: output 0 has 30 channels, the head described has 2 anchors x (5 + 9 classes) = 28"
yolo stride16 "classes 10" "head 0 16" "anchor 12 20" "anchor 20 26"
refused --detect "$tmp/stride16.yolo" -- \
	"--detect: output 0's 12x12 grid at stride 16 does not cover the 96x96 input"
yolo output1 "classes 10" "head 1 8" "anchor 12 20" "anchor 20 26"
refused --detect "$tmp/output1.yolo" -- \
	"--detect: a head on output 1, of a network of 1 outputs"
