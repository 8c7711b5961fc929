#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench: per-engine throughput of the hardware model next to plain C
# loops (nvdla_bench), the compiler's float executor in GMAC/s
# (nvdla_exec_bench), the wall time of the largest public traces and of
# ResNet-18 from the official compiler, the digit demo's accuracy on its
# test split, the detector demo's mAP on held-out scenes, the int8
# quality tools on two torchvision models, the estimated
# frames/s of the corpus networks and the demo (tools/bench-estimate.sh),
# the pipelined example's frames/s (nvdla_stream) with 1, 2 and 3 runs in
# flight next to the synchronous loop's, then the runtime's own
# costs (nvdla_runtime_bench) in process and through the kernel driver in a
# QEMU guest per installed kernel (with nvdla_stream's figures there too),
# and ResNet-18 int8 through the driver on the arm64 board with the NVDLA
# device.
set -eu
build=${1:-build}
"$build/bin/nvdla_bench"
# The compiler's float executor (calibration's engine) on ResNet-18's
# convolutions at 224 x 224 (make models), reference kernel next to the
# blocked one.
resnet=$build/models/resnet18/resnet18.onnx
if [ -f "$resnet" ]; then
	"$build/bin/nvdla_exec_bench" "$resnet"
else
	echo "float executor: $resnet absent (make models)"
fi
traces=../shared/conformance/traces
[ -d "$traces" ] || echo "traces: ../shared absent"
[ -d "$traces" ] && for t in nv_full_txn/googlenet_conv2_3x3_int16 nv_small/dc_24x33x55_5x5x55x25_int8_0 \
	nv_small/dc_35x22x54_6x8x54x29_int8_0 nv_small/dc_32x26x76_6x3x76x16_int8_0; do
	start=$(date +%s%N)
	"$build/bin/nvdla_trace" "$traces/$t" >/dev/null
	end=$(date +%s%N)
	printf '%-45s %6d ms (whole trace: parse, load, run, check)\n' "$t" \
		$(((end - start) / 1000000))
done

# ResNet-18 compiled by the official compiler, in fp16 and in int8, on the
# in-process model (BENCH_NETWORKS names other cases of the corpus): wall
# time of nvdla_runtime with one and with two threads (NVDLA_SIM_THREADS),
# and the --stats operation times summed per engine, of the two-thread run.
# Operations overlap (a fused SDP runs with its convolution, the next
# operations are programmed ahead), so the sums may exceed the wall time.
# The int8 case runs once more on the plain C path, one thread: what the
# kernel module's virtual device computes (fp16 there takes minutes; the
# per-layer figures above show its rate).
networks=../shared/conformance/networks
runtime=$(cd "$build/bin" && pwd)/nvdla_runtime
echo
# run_case CASE SIMD THREADS OUT: wall ms of one run, its output in OUT
run_case() {
	args=$(python3 -c 'import json, sys
print("\n".join(json.load(open(sys.argv[1]))["run"]["args"]))' "$networks/$1/case.json")
	# The hardware stops on NVIDIA's int8 builds (docs/model.md).
	case $1 in
	*_int8_*) args="$args
--allow-hw-hazards" ;;
	esac
	start=$(date +%s%N)
	status=0
	# shellcheck disable=SC2086 # one argument a line
	(IFS='
'; cd "$networks/$1" && NVDLA_SIM_SIMD=$2 NVDLA_SIM_THREADS=$3 \
		"$runtime" $args --stats -o /dev/null) >"$4" 2>&1 || status=$?
	end=$(date +%s%N)
	[ "$status" -eq 0 ] || return 1
	echo $(((end - start) / 1000000))
}
for c in ${BENCH_NETWORKS:-resnet18_fp16_full resnet18_int8_small}; do
	if [ ! -d "$networks/$c" ] || ! command -v python3 >/dev/null; then
		echo "$c: skipped (needs $networks and python3)"
		continue
	fi
	out=$(mktemp)
	if ! one=$(run_case "$c" auto 1 "$out") ||
		! two=$(run_case "$c" auto 2 "$out"); then
		echo "$c: failed: $(tail -1 "$out")"
		rm -f "$out"
		continue
	fi
	printf '%s: %d ms wall with 1 thread, %d ms with 2; per engine (--stats, 2 threads):\n' \
		"$c" "$one" "$two"
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 { t[$4] += $5; n[$4]++ }
		END { for (e in t) printf "  %-5s %4d operations %10.1f ms\n", e, n[e], t[e] / 1000 }' \
		"$out" | sort
	case $c in
	*int8*)
		plain=$(run_case "$c" off 1 "$out") &&
			printf '%s: %d ms wall on the plain C path, 1 thread (the kernel module'"'"'s)\n' \
				"$c" "$plain"
		;;
	esac
	rm -f "$out"
done

# model_bench NAME MODULES: tools/models/bench_NAME.py, which needs
# nvdla_compile and the python modules MODULES (comma separated)
model_bench() {
	echo
	if [ -x "$build/bin/nvdla_compile" ] &&
		tools/models/python.sh -c "import $2" 2>/dev/null; then
		tools/models/python.sh "tools/models/bench_$1.py" "$build" ||
			echo "$1: failed (above)"
	else
		echo "$1: skipped (needs nvdla_compile and python3 modules $2)"
	fi
}
# The digit demo (models/digits) on its test split: the float model's
# accuracy next to the compiled network's in fp16 and int8, with their
# top-1 agreement.
model_bench digits torch,onnx
# The detector demo (models/detect) on 200 held-out scenes: mAP@0.5 of the
# float model next to the compiled network's in fp16 and int8.
model_bench detect torch,onnx,sklearn
# The int8 quality tools (docs/compiler.md) on torchvision's mobilenet_v2
# and resnet18 at 224x224 (tools/models/int8_quality.py): the worst
# cosine and signal-to-noise ratio of 5 inputs and the top-1 agreement,
# without and with equalization and bias correction, on nv_large.
echo
if [ -x "$build/bin/nvdla_compile" ] &&
	tools/models/python.sh -c "import torchvision, onnx" 2>/dev/null; then
	LD_LIBRARY_PATH="$build/lib" PYTHONPATH=python:tools/models \
		PATH="$build/bin:$PATH" tools/models/python.sh \
		tools/models/int8_quality.py "$build" \
		--tools "plain equalize bias-correct both" mobilenet_v2 resnet18 \
		2>/dev/null || echo "int8 quality: failed"
else
	echo "int8 quality: skipped (needs nvdla_compile and python3 torchvision)"
fi

# Estimated frames/s of the corpus networks and of the digit demo on
# nv_small, nv_large and nv_full at their default clocks (the model's
# performance estimate).
echo
tools/bench-estimate.sh "$build" || echo "estimated frames/s: failed (above)"

# The pipelined example (examples/stream.c): frames/s of the synchronous
# loop next to 1, 2 and 3 runs in flight, in the same run, on the digit
# demo (its 100 calibration images, each decoded per frame) and on
# ResNet-18 int8 from the official compiler (its image): with the
# decoding and the top classes alone, then with about a frame's run time
# more per frame, of CPU work (-w: heavier pre- and post-processing, which
# overlaps the run only on an otherwise idle CPU) or of waiting for the
# input (-i: a camera, a network read). The model gets one thread.
echo
resnet=$networks/resnet18_int8_small
# stream_bench LABEL OPTION ARGUMENT...: one line, every mode
stream_bench() {
	printf '%s, %s: ' "$1" "$2"
	o=$2
	shift 2
	# shellcheck disable=SC2086 # the option and its value
	NVDLA_SIM_THREADS=1 "$build/bin/nvdla_stream" -q -k 0,1,2,3 $o "$@" \
		2>&1 | tail -1
}
for o in "-w 0" "-w 2000" "-i 2000"; do
	stream_bench "stream: digits (fp16) on sim:nv_full" "$o" \
		-d sim:nv_full -n 300 -s 255 "$build/digits.nvdla" \
		models/digits/calib/*.pgm
done
if [ -d "$resnet" ]; then
	for o in "-w 0" "-w 150000" "-i 150000"; do
		# -a: the hardware stops on it (docs/model.md); the model runs it.
		stream_bench "stream: ResNet-18 int8 on sim:nv_small" "$o" \
			-a -d sim:nv_small -n 8 "$resnet/resnet18_int8_small.nvdla" \
			"$resnet/input.ppm"
	done
else
	echo "stream: ResNet-18 int8 skipped (needs $networks)"
fi

# The runtime: load time, run time of small tasks, submit to first register
# write and interrupt to next layer, in process on every configuration (the
# official loadables on nv_full, where they belong), then through the driver.
loadables=$(ls ../shared/conformance/loadables/*/[A-Z]*_L0_0.nvdla 2>/dev/null || true)
echo
# shellcheck disable=SC2086 # one word per loadable
"$build/bin/nvdla_runtime_bench" --device sim:nv_full $loadables
for cfg in nv_small nv_large; do
	"$build/bin/nvdla_runtime_bench" --device "sim:$cfg"
done
for kver in ${KVERS:-}; do
	echo
	if [ ! -f "$build/kmod/$kver/nvdla.ko" ]; then
		echo "driver on $kver: skipped, no module (make module-all)"
		continue
	fi
	echo "Linux $kver in a QEMU (TCG) guest, in process then through the driver:"
	NVDLA_GUEST_TESTS=90-bench.sh NVDLA_QEMU_APPEND="nvdla_bench_stream=1 nvdla_test_timeout=1800" \
		tools/qemu/run-guest.sh "$kver" "$build" |
		grep '^not ok' || true
	sed -n 's/^# runtime-bench: //p' "$build/qemu/$kver/console"
done

# ResNet-18 int8 on the arm64 board with the NVDLA device of QEMU
# (docs/qemu-device.md): the arm64 nvdla_runtime through nvdla.ko on an
# nv_large device, on the newest arm64 kernel, wall time in the guest.
echo
vp_kver=$(find "${NVDLA_CACHE:-$HOME/.cache/nvdla}/board" -mindepth 1 \
	-maxdepth 1 -name '*-arm64' 2>/dev/null | sed 's|.*/||' | sort | tail -1)
vp_case=resnet18_int8_large_ncxhwx
vp_runtime=${NVDLA_VP_RUNTIME:-$build/arm64/bin/nvdla_runtime}
if [ -z "$vp_kver" ] || [ ! -f "$build/kmod/$vp_kver/nvdla.ko" ] ||
	[ ! -f "$vp_runtime" ] || [ ! -d "$networks/$vp_case" ] ||
	[ ! -x "${NVDLA_CACHE:-$HOME/.cache/nvdla}/qemu/build/qemu-system-aarch64" ]; then
	echo "$vp_case on the QEMU board: skipped (needs tools/setup.sh, make module-board, the arm64 cross build and $networks)"
else
	files=$(mktemp -d)
	cp "$networks/$vp_case/$vp_case.nvdla" "$networks/$vp_case/input.ppm" "$files/"
	cat >"$files/run.sh" <<-RUN
	ms() { awk '{ printf "%d\n", \$1 * 1000 }' /proc/uptime; }
	echo 100000 >/sys/module/nvdla/parameters/max_job_timeout_ms
	cd /files
	start=\$(ms)
	nvdla_runtime --loadable $vp_case.nvdla --device /dev/dri/renderD128 \
		--image input.ppm --timeout 100 -o /tmp/out.dimg >/tmp/run.log 2>&1 &&
		echo "vp-bench: $vp_case on the arm64 board (QEMU TCG, nv_large device, nvdla.ko): \$((\$(ms) - start)) ms" ||
		echo "vp-bench: $vp_case failed: \$(tail -1 /tmp/run.log)"
	RUN
	NVDLA_VP_FILES=$files NVDLA_VP_RUNTIME=$vp_runtime NVDLA_VP_NETWORKS=none \
		NVDLA_QEMU_APPEND=nvdla_vp=run tools/qemu/run-vp.sh --shell nv_large \
		"$vp_kver" "$build" </dev/null 2>&1 | tr -d '\r' | sed -n 's/^vp-bench: //p'
	rm -rf "$files"
fi
