#!/bin/sh
# SPDX-License-Identifier: MIT
# Boot kernel KVER (one of Debian's, or the debug kernel of make
# check-debug) under QEMU (TCG) from a busybox initramfs holding nvdla.ko,
# nvdla_sim.ko and the modules nvdla.ko needs, nvdla_runtime, the guest
# tests and the test data; print the TAP lines the guest reports, prefixed
# with the kernel version. A guest that panics or hangs yields a "not ok"
# line; the console log is kept in BUILD_DIR/qemu/KVER.log.
#
# Usage: tools/qemu/run-guest.sh KVER BUILD_DIR
# Needs tools/setup.sh (kernel images in NVDLA_CACHE) and make module-all.
# NVDLA_GUEST_TESTS (a pattern, default all) picks the tests/guest scripts
# to run; with it set, the kselftest programs are left out unless
# NVDLA_GUEST_PROGRAMS (a pattern) picks some.
# NVDLA_QEMU_TIMEOUT (default 900 s) bounds the guest; NVDLA_QEMU_APPEND
# adds kernel parameters after the harness's own, which it overrides:
# nvdla_test_timeout=N (seconds, default 300, as on the virtual platform:
# the guests run two at a time) bounds each test in the guest,
# panic_on_warn=0 lets the guest go on after a warning to show every report
# of a run (the kernel log check still fails it).
set -eu

kver=$1
build=$(realpath -m "$2")
cd "$(dirname "$0")/../.."
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
kroot=$cache/kernels/$kver
ko=$build/kmod/$kver/nvdla.ko
out=$build/qemu/$kver
root=$out/root
log=$build/qemu/$kver.log
timeout_s=${NVDLA_QEMU_TIMEOUT:-900}

. tools/qemu/guest-host.sh

[ -f "$kroot/lib/modules/$kver/modules.dep" ] ||
	fail "no kernel image in $kroot (run tools/setup.sh)"
[ -f "$ko" ] && [ -f "$(dirname "$ko")/nvdla_sim.ko" ] ||
	fail "no $ko or nvdla_sim.ko (run make module-all)"
[ -x "$build/bin/nvdla_runtime" ] && [ -x "$build/bin/nvdla_mkconv" ] ||
	fail "no nvdla_runtime or nvdla_mkconv (run make all)"

root_start /bin/busybox tools/qemu/guest-init.sh
# vgem: a fence source for the tests.
root_modules vgem

# copy_program FILE DIR: FILE into DIR of the guest, with the shared
# libraries and the loader it needs at the paths ldd names.
copy_program() {
	cp "$1" "$root/$2/"
	ldd "$1" 2>/dev/null | awk '/=>/ { print $3 } !/=>/ && /^\t\// { print $1 }' |
		while read -r lib; do
			[ -f "$lib" ] && cp --parents -L "$lib" "$root/"
		done
}
copy_program "$build/bin/nvdla_runtime" bin
copy_program "$build/bin/nvdla_runtime_bench" bin
copy_program "$build/bin/nvdla_stream" bin
# The runtime's API tests, on the driver (35-runtime-api.sh).
for t in test_async test_buffer_share; do
	if [ -x "$build/tests/$t" ]; then copy_program "$build/tests/$t" bin; fi
done
if [ -z "${NVDLA_GUEST_TESTS:-}" ] || [ -n "${NVDLA_GUEST_PROGRAMS:-}" ]; then
	# shellcheck disable=SC2086 # the pattern is meant to expand
	for t in "$build"/guest-tests/${NVDLA_GUEST_PROGRAMS:-*}; do
		[ -f "$t" ] && [ -x "$t" ] && copy_program "$t" tests
	done
fi
# shellcheck disable=SC2086 # the pattern is meant to expand
cp tests/guest/${NVDLA_GUEST_TESTS:-*.sh} "$root/tests/"
cp tests/golden-loadables "$root/tests/"
[ -d loadables ] && cp -r loadables "$root/loadables"
# Convolutions for 60-long-layer.sh: one far beyond the job timeout.
mkdir -p "$root/loadables"
"$build/bin/nvdla_mkconv" 40 40 256 640 "$root/loadables/conv_long.nvdla"
"$build/bin/nvdla_mkconv" 32 32 64 64 "$root/loadables/conv_mid.nvdla"
if [ -d ../shared/conformance/loadables ]; then
	mkdir -p "$root/shared"
	cp -r ../shared/conformance/loadables "$root/shared/loadables"
fi

# Small networks from the official compiler (tests/guest/50-networks.sh):
# loadable, input, arguments one a line, configuration, and the output
# values the in-process model gives them here, or the rule a device must
# refuse them by.
networks=../shared/conformance/networks
if [ -d "$networks" ] && command -v python3 >/dev/null; then
	for c in lenet_int8_small_ncxhwx lenet_fp16_full_ncxhwx \
		gnet_mini_nolrn_int8_small_ncxhwx; do
		d=$root/networks/$c
		mkdir -p "$d"
		python3 -c 'import json, sys
print("\n".join(json.load(open(sys.argv[1]))["run"]["args"]))' \
			"$networks/$c/case.json" >"$d/args"
		sed -n '/^--device$/{n;s/^sim://p;}' "$d/args" >"$d/config"
		cp "$networks/$c/$c.nvdla" "$networks/$c"/input.* "$d/"
		# The hardware stops on the int8 ones (docs/model.md): the
		# device must refuse them, naming the rule.
		case $c in
		*_int8_*)
			echo "the CDMA's gated weight count" >"$d/refused"
			continue ;;
		esac
		# shellcheck disable=SC2046 # one argument a line
		(IFS='
'; cd "$d" && "$build/bin/nvdla_runtime" $(cat args) --rawdump \
			-o expected.txt >/dev/null) ||
			echo "not ok - [$kver] $c in process, for the guest"
	done
fi

# Networks compiled here by nvdla_compile (tests/guest/55-models.sh): the
# digit demo and, after make models, LeNet and ResNet-18 on 64 x 64
# images; as above, with the output values the in-process model gives.
# stage_model NAME DIR MODEL IMAGE CONFIG PRECISION
stage_model() {
	d=$root/models/$1-$6-$5
	calib=""
	[ "$6" = int8 ] && calib="--calibrate $2/calib"
	mkdir -p "$d"
	printf '%s\n' --loadable net.nvdla --device "sim:$5" --image "$4" \
		--normalize 255 >"$d/args"
	echo "$5" >"$d/config"
	cp "$2/$4" "$d/"
	# shellcheck disable=SC2046,SC2086 # one argument a line; no --calibrate in fp16
	"$build/bin/nvdla_compile" "$2/$3" --config "$5" --precision "$6" \
		$calib -o "$d/net.nvdla" >/dev/null &&
		(IFS='
'; cd "$d" && "$build/bin/nvdla_runtime" $(cat args) --rawdump \
			-o expected.txt >/dev/null) ||
		echo "not ok - [$kver] $1 $6 $5 compiled and run in process, for the guest"
}
if [ -x "$build/bin/nvdla_compile" ]; then
	for c in nv_full:fp16 nv_full:int8 nv_large:int8 nv_small:int8; do
		stage_model digits models/digits digits.onnx input.pgm \
			"${c%:*}" "${c#*:}"
	done
	m=$build/models
	if [ -f "$m/stamp" ]; then
		for c in nv_full:fp16 nv_small:int8; do
			stage_model lenet "$m/lenet" lenet.onnx input.pgm \
				"${c%:*}" "${c#*:}"
		done
		for c in nv_full:fp16 nv_full:int8 nv_small:int8; do
			stage_model resnet18_64 "$m/resnet18_64" resnet18_64.onnx \
				input.ppm "${c%:*}" "${c#*:}"
		done
	fi
fi

root_pack

# TCG: nested KVM hangs on the machines this runs on. A warning panics the
# guest (panic_on_warn), and so do a CPU that does not schedule for 10 s
# (soft lockup, twice watchdog_thresh) and an RCU stall of 10 s, so that
# long stretches with interrupts or preemption off fail the run; the
# panic ends QEMU at once (panic=-1 with -no-reboot); the host timeout
# catches a hung guest. tsc=unstable: the kernel otherwise marks
# sched_clock stable late in boot by patching a static branch while both
# vCPUs run, and under multi-threaded TCG the other vCPU now and then
# executes the patch's int3 after the patch is done (an int3 oops in
# sched_clock_cpu, seen once in CI).
start=$(date +%s)
status=0
# Parameters unknown to the kernel (nvdla_test_timeout) reach /init's
# environment.
timeout "$timeout_s" qemu-system-x86_64 -accel tcg -m 1024 -smp 2 \
	-nographic -nic none -no-reboot -kernel "$kroot/boot/vmlinuz-$kver" \
	-initrd "$out/initrd.gz" \
	-append "console=ttyS0 panic=-1 panic_on_warn=1 softlockup_panic=1 \
watchdog_thresh=5 rcupdate.rcu_cpu_stall_timeout=10 \
sysctl.kernel.panic_on_rcu_stall=1 tsc=unstable quiet ${NVDLA_QEMU_APPEND:-}" \
	</dev/null >"$log" 2>&1 || status=$?
echo "# [$kver] guest ran for $(($(date +%s) - start)) s, log in $log"

guest_report
