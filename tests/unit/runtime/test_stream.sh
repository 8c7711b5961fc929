#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/stream.c (nvdla_stream) on the in-process model: the digit demo
# compiled in fp16 for nv_full and in int8 for nv_small, on the demo's image
# and its calibration images; with 1, 2 and 3 runs in flight the frames'
# top classes and values equal the synchronous loop's frame by frame, and
# a frame that cannot be decoded while runs are in flight, a missing
# image and bad options are refused with their message; NVIDIA's int8 LeNet
# for nv_small, which the hardware stops on, is refused naming the rule
# and runs with -a. Run from the
# repository root with the build directory as $1.
set -u
build=${1:-build}
stream=$build/bin/nvdla_stream
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
export NVDLA_SIM_THREADS=1

# 21 frames: the demo's image (a 5), then 20 calibration images.
images="models/digits/input.pgm $(find models/digits/calib -name '*.pgm' | sort | head -20)"
for variant in "nv_full fp16" "nv_small int8"; do
	# shellcheck disable=SC2086 # configuration and precision
	set -- $variant
	"$build/bin/nvdla_compile" models/digits/digits.onnx --config "$1" \
		--precision "$2" --calibrate models/digits/calib \
		-o "$tmp/digits_$2.nvdla" >"$tmp/compile.log" 2>&1
	ok $? "digit demo compiled for $1 in $2"
	# shellcheck disable=SC2086 # one image a word
	"$stream" -d "sim:$1" -k 0 -t 3 -s 255 "$tmp/digits_$2.nvdla" $images \
		>"$tmp/sync.out" 2>&1
	status=$?
	grep '^frame' "$tmp/sync.out" >"$tmp/sync.frames"
	first=$(head -1 "$tmp/sync.frames")
	[ $status -eq 0 ] && [ "$(wc -l <"$tmp/sync.frames")" -eq 21 ] &&
		echo "$first" | grep -q '^frame 0 models/digits/input.pgm: 5 0\.9[0-9]* '
	ok $? "$2: the synchronous loop, 21 frames, the demo's image first: ${first#frame 0 }"
	for k in 1 2 3; do
		# shellcheck disable=SC2086
		"$stream" -d "sim:$1" -k "$k" -t 3 -s 255 "$tmp/digits_$2.nvdla" \
			$images >"$tmp/k.out" 2>&1
		status=$?
		grep '^frame' "$tmp/k.out" | diff "$tmp/sync.frames" - | sed 's/^/# /'
		[ $status -eq 0 ] && grep '^frame' "$tmp/k.out" | cmp -s "$tmp/sync.frames" -
		ok $? "$2: $k in flight, the same frames in the same order: $(tail -1 "$tmp/k.out")"
	done
done

# A 28x28 image among the 16x16 ones: frame 4 fails to decode with frames
# 2 and 3 in flight (frames 0 and 1 are out); they end before the network
# is unloaded.
{ printf 'P5\n28 28\n255\n'; head -c 784 /dev/zero; } >"$tmp/big.pgm"
out=$("$stream" -d sim:nv_full -k 3 -s 255 "$tmp/digits_fp16.nvdla" \
	models/digits/calib/000.pgm models/digits/calib/001.pgm \
	models/digits/calib/002.pgm models/digits/calib/003.pgm \
	"$tmp/big.pgm" 2>"$tmp/err")
status=$?
err=$(cat "$tmp/err")
[ $status -eq 1 ] && [ "$(echo "$out" | grep -c '^frame [01] ')" -eq 2 ] &&
	[ "$(echo "$out" | wc -l)" -eq 2 ] &&
	[ "$err" = "frame 4: $tmp/big.pgm: 28x28, 1 channels; input 0 is 16x16, 1 channels" ]
ok $? "an image of the wrong size with runs in flight: $err"

out=$("$stream" -d sim:nv_full "$tmp/digits_fp16.nvdla" "$tmp/none.pgm" 2>&1)
status=$?
[ $status -eq 1 ] && [ "$out" = "frame 0: $tmp/none.pgm: No such file or directory" ]
ok $? "a missing image: $out"

for args in "-k 4" "-k 1,x" "-n 3x" "-s 0" "-w -1" "-i 1s"; do
	# shellcheck disable=SC2086
	out=$("$stream" $args "$tmp/digits_fp16.nvdla" models/digits/input.pgm 2>&1)
	status=$?
	[ $status -eq 2 ] && echo "$out" | grep -q '^usage: '
	ok $? "refused: $args: ${out%%
*}"
done

# NVIDIA's int8 LeNet for nv_small, on which the hardware stops (its gated
# CDMA weight count, docs/model.md): refused with the rule, run with -a.
lenet=../shared/conformance/networks/lenet_int8_small
if [ ! -d "$lenet" ]; then
	skip "-a: NVIDIA's lenet_int8_small" "../shared absent"
else
	out=$("$stream" -d sim:nv_small -k 0 "$lenet/lenet_int8_small.nvdla" \
		"$lenet/input.pgm" 2>&1)
	status=$?
	[ $status -ne 0 ] && echo "$out" | grep -qF "the CDMA's gated weight count"
	ok $? "a network the hardware stops on is refused with the rule: $(echo "$out" | tail -1)"
	out=$("$stream" -a -d sim:nv_small -k 0,2 "$lenet/lenet_int8_small.nvdla" \
		"$lenet/input.pgm" "$lenet/input.pgm" 2>&1)
	status=$?
	[ $status -eq 0 ] && [ "$(echo "$out" | grep -c '^frame ')" -eq 4 ]
	ok $? "-a runs it on the model: $(echo "$out" | tail -1)"
fi
