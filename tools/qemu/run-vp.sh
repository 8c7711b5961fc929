#!/bin/sh
# SPDX-License-Identifier: MIT
# The virtual platform: Debian's arm64 kernel KVER on QEMU's virt board
# with NVDLA devices (tools/qemu/device/, built by build-qemu.sh), from a
# busybox initramfs holding the cross-built nvdla.ko, the modules it needs
# and the guest tests built for arm64 (make vp-tests); /init is
# tools/qemu/vp-init.sh. Prints the TAP lines the guest reports, prefixed
# with [vp KVER]; a guest that panics or hangs yields a "not ok" line; the
# console log is kept in BUILD_DIR/qemu/vp-KVER.log.
#
# Usage: tools/qemu/run-vp.sh [--shell DEVICES] KVER BUILD_DIR
#   --shell DEVICES  boot the board with DEVICES (nv_small, nv_full+nv_small,
#                    ...) to a shell on the console, the driver loaded
# NVDLA_QEMU (default NVDLA_CACHE/qemu/build/qemu-system-aarch64) is the
# emulator; NVDLA_VP_RUNTIME (default BUILD_DIR/arm64/bin/nvdla_runtime, the
# arm64 cross build) the nvdla_runtime that runs the regression loadables
# in the guest, with its libraries from the cross toolchain and the arm64
# sysroot (skipped without it); NVDLA_QEMU_TIMEOUT (default 600 s) bounds the guest;
# NVDLA_QEMU_APPEND adds kernel parameters (nvdla_fuzz_seconds=N,
# nvdla_fuzz_seed=N, nvdla_test_timeout=N).
set -eu

shell=
if [ "${1:-}" = --shell ]; then
	shell=$2
	shift 2
fi
kver=$1
build=$(realpath -m "$2")
cd "$(dirname "$0")/../.."
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
qemu=${NVDLA_QEMU:-$cache/qemu/build/qemu-system-aarch64}
kroot=$cache/board/$kver
out=$build/qemu/vp-$kver
root=$out/root
log=$build/qemu/vp-$kver.log
timeout_s=${NVDLA_QEMU_TIMEOUT:-600}
hw="-cpu cortex-a57 -m 1024 -smp 2"
kver_tag="vp $kver"

. tools/qemu/guest-host.sh
kver_real=$kver
kver=$kver_tag

kernel=$kroot/boot/vmlinuz-$kver_real
[ -f "$kernel" ] || fail "no arm64 kernel in $kroot (run tools/setup.sh)"
[ -x "$qemu" ] || fail "no $qemu (run tools/setup.sh)"
ko=$build/kmod/$kver_real/nvdla.ko
[ -f "$ko" ] || fail "no $ko (run make module-board)"
[ -x "$build/vp-tests/nvdla_regfuzz" ] || fail "no guest tests (run make vp-tests)"

# guest-host.sh's helpers name the kernel by $kver: the real one for them.
kver=$kver_real
root_start "$kroot/bin/busybox" tools/qemu/vp-init.sh
cp "$build"/vp-tests/* "$root/tests/"

# copy_arm64 FILE DIR: an arm64 program into DIR of the guest, with the
# libraries it needs (its NEEDED entries, recursively) and the loader.
sysroot=$cache/sysroot/arm64
libdirs="$sysroot/usr/lib/aarch64-linux-gnu $sysroot/lib/aarch64-linux-gnu
	/usr/aarch64-linux-gnu/lib"
copy_arm64() {
	cp "$1" "$root/$2/"
	mkdir -p "$root/lib/aarch64-linux-gnu"
	cp /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 "$root/lib/"
	todo=$1
	while [ -n "$todo" ]; do
		set -- $todo
		todo=
		for f in "$@"; do
			for lib in $(aarch64-linux-gnu-readelf -d "$f" |
				sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
				[ -f "$root/lib/aarch64-linux-gnu/$lib" ] && continue
				for d in $libdirs; do
					if [ -f "$d/$lib" ]; then
						cp -L "$d/$lib" "$root/lib/aarch64-linux-gnu/"
						todo="$todo $d/$lib"
						break
					fi
				done
			done
		done
	done
}
runtime=${NVDLA_VP_RUNTIME:-$build/arm64/bin/nvdla_runtime}
if [ -f "$runtime" ]; then
	copy_arm64 "$runtime" bin
	cp -r loadables "$root/loadables"
	cp tests/golden-loadables "$root/tests/"
	if [ -d ../shared/conformance/loadables ]; then
		mkdir -p "$root/shared"
		cp -r ../shared/conformance/loadables "$root/shared/loadables"
	fi
fi
root_modules vgem
root_pack
kver=$kver_tag

if [ -n "$shell" ]; then
	# shellcheck disable=SC2086 # one word per option
	exec "$qemu" -accel tcg -M "virt,nvdla=$shell" $hw -nographic \
		-nic none -no-reboot -kernel "$kernel" -initrd "$out/initrd.gz" \
		-append "console=ttyAMA0 panic=-1 iomem=relaxed quiet nvdla_vp=shell ${NVDLA_QEMU_APPEND:-}"
fi

# -d guest_errors: the device's reports of bad programs, in the log.
start=$(date +%s)
status=0
# shellcheck disable=SC2086 # one word per option
timeout "$timeout_s" "$qemu" -accel tcg -M virt,nvdla=nv_full+nv_full+nv_small \
	$hw -nographic -nic none -no-reboot -kernel "$kernel" \
	-initrd "$out/initrd.gz" -d guest_errors -D "$out/guest_errors.log" \
	-append "console=ttyAMA0 panic=-1 panic_on_warn=1 iomem=relaxed quiet ${NVDLA_QEMU_APPEND:-}" \
	</dev/null >"$log" 2>&1 || status=$?
echo "# [$kver] board guest ran for $(($(date +%s) - start)) s, log in $log"
[ -s "$out/guest_errors.log" ] &&
	echo "# [$kver] $(wc -l <"$out/guest_errors.log") guest errors logged by QEMU" \
		"($(grep -c 'bus error' "$out/guest_errors.log") DMA bus errors)"
guest_report
