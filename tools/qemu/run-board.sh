#!/bin/sh
# SPDX-License-Identifier: MIT
# Boot Debian's arm64 kernel KVER on QEMU's "virt" board (TCG) with NVDLA
# nodes added to the board's device tree (tools/qemu/board/nvdla-virt.dtsi),
# from a busybox initramfs holding the cross-built nvdla.ko, the modules it
# needs and the board tests; print the TAP lines the guest reports
# (tools/qemu/board-init.sh), prefixed with [KVER]. A guest that panics or
# hangs yields a "not ok" line; the console log is kept in
# BUILD_DIR/qemu/KVER.log.
#
# Usage: tools/qemu/run-board.sh KVER BUILD_DIR
# Needs tools/setup.sh (the arm64 kernel in NVDLA_CACHE/board/KVER) and
# make module-board board-tests.
set -eu

kver=$1
build=$(realpath -m "$2")
cd "$(dirname "$0")/../.."
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
kroot=$cache/board/$kver
out=$build/qemu/$kver
root=$out/root
log=$build/qemu/$kver.log
timeout_s=${NVDLA_QEMU_TIMEOUT:-300}
hw="-cpu cortex-a57 -m 1024 -smp 2"

. tools/qemu/guest-host.sh

kernel=$kroot/boot/vmlinuz-$kver
[ -f "$kernel" ] || fail "no arm64 kernel in $kroot (run tools/setup.sh)"
ko=$build/kmod/$kver/nvdla.ko
[ -f "$ko" ] || fail "no $ko (run make module-board)"
[ -x "$build/board-tests/nvdla_board_test" ] ||
	fail "no board tests (run make board-tests)"

root_start "$kroot/bin/busybox" tools/qemu/board-init.sh
cp "$build"/board-tests/* "$root/tests/"
# shellcheck disable=SC2119 # no module beyond those nvdla.ko needs
root_modules
root_pack

# The board's own device tree as QEMU generates it, plus the NVDLA.
# shellcheck disable=SC2086 # one word per option
qemu-system-aarch64 -M virt,dumpdtb="$out/virt.dtb" $hw -nographic \
	>/dev/null 2>&1 || fail "QEMU cannot dump the virt device tree"
dtc -q -I dtb -O dts "$out/virt.dtb" >"$out/board.dts"
cat tools/qemu/board/nvdla-virt.dtsi >>"$out/board.dts"
dtc -q -I dts -O dtb -o "$out/board.dtb" "$out/board.dts" ||
	fail "board device tree does not compile"

# mem=1008M keeps the kernel out of the top 16 MiB, where the .dtsi puts
# the NVDLA's register window and its reset controller; iomem=relaxed lets
# the guest read the reset register through /dev/mem although the reset
# driver owns it; fw_devlink=permissive lets the driver's probe meet a
# missing clock itself, rather than the driver core holding it back.
start=$(date +%s)
status=0
# shellcheck disable=SC2086 # one word per option
timeout "$timeout_s" qemu-system-aarch64 -accel tcg -M virt $hw \
	-nographic -nic none -no-reboot -kernel "$kernel" \
	-initrd "$out/initrd.gz" -dtb "$out/board.dtb" \
	-append "console=ttyAMA0 panic=-1 panic_on_warn=1 mem=1008M iomem=relaxed fw_devlink=permissive quiet" \
	</dev/null >"$log" 2>&1 || status=$?
echo "# [$kver] board guest ran for $(($(date +%s) - start)) s, log in $log"

guest_report
