#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: MIT
# /init of the virtual platform (built by run-vp.sh): QEMU's virt board
# with NVDLA devices (tools/qemu/device/; "-M virt,nvdla=nv_full+
# nv_full+nv_small+nv_large"), whose registers, interrupt and DMA run the
# hardware model. The unmodified nvdla.ko binds from the board's device
# tree alone (no nvdla_sim.ko); the driver's guest tests run their jobs on
# the device, the arm64 nvdla_runtime the regression loadables and the
# networks staged by run-vp.sh; interrupts are counted; the reset line is checked; random
# register programs with addresses outside RAM go into every device with
# no driver bound, and the driver then binds again and computes. With
# "nvdla_vp=shell" on the kernel command line: the driver loaded, a shell;
# with "nvdla_vp=run": /files/run.sh.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh
guest_start

full=/sys/bus/platform/devices/b000000.npu
full2=/sys/bus/platform/devices/b100000.npu
small=/sys/bus/platform/devices/b200000.npu
large=/sys/bus/platform/devices/b300000.npu
rstc=0x0b800000

# irq_count NAME: the interrupts counted on every CPU for device NAME.
irq_count() {
	awk -v n="$1" '$NF == n { s = 0
		for (i = 2; $i ~ /^[0-9]+$/; i++) s += $i
		print s }' /proc/interrupts
}
# first: the device node of the first device, which runs the loadables.
first() {
	node_of_npu b000000.npu
}
# resets: the reset controller's lines of the four devices (1: released).
resets() {
	echo $(($(devmem $rstc 32) & 15))
}
# node_of_npu DEVICE: the device node of the board's DEVICE (b000000.npu):
# an accel node where the kernel has the accel subsystem (the in-tree
# driver's only kind), else a render node.
node_of_npu() {
	for d in $(nvdla_classes); do
		[ "$(basename "$(readlink "$d/device")")" = "$1" ] && node_of "$d"
	done
}
# node_of_config CONFIG: the device node of the board's device of CONFIG.
node_of_config() {
	case $1 in
	nv_full) node_of_npu b000000.npu ;;
	nv_small) node_of_npu b200000.npu ;;
	nv_large) node_of_npu b300000.npu ;;
	esac
}

guest_load_deps
insmod /nvdla.ko
ok $? "insmod nvdla.ko alone, without parameters"

# "nvdla_vp=run": /files/run.sh (run-vp.sh's NVDLA_VP_FILES), then off.
if grep -q 'nvdla_vp=run' /proc/cmdline; then
	insmod /modules/vgem.ko
	sh /files/run.sh
	poweroff -f
fi
if grep -q 'nvdla_vp=shell' /proc/cmdline; then
	insmod /modules/vgem.ko
	echo "NVDLA board: $(nvdla_classes | wc -l) device(s) bound (dmesg | grep npu)"
	echo "tests in /tests; poweroff -f to leave"
	setsid cttyhack sh
	poweroff -f
fi

[ "$(basename "$(readlink "$full/driver")")" = nvdla ] &&
	[ "$(basename "$(readlink "$full2/driver")")" = nvdla ] &&
	[ "$(basename "$(readlink "$small/driver")")" = nvdla ] &&
	[ "$(basename "$(readlink "$large/driver")")" = nvdla ]
ok $? "the four device-tree nodes bound to nvdla"
dmesg | grep -q 'b000000.npu: .*NVDLA nv_full$' &&
	dmesg | grep -q 'b200000.npu: .*NVDLA nv_small$' &&
	dmesg | grep -q 'b300000.npu: .*NVDLA nv_large$'
ok $? "configurations from the compatible strings"
[ -n "$(irq_count b000000.npu)" ] && [ -n "$(irq_count b300000.npu)" ]
ok $? "interrupts requested under the devices' names"
idle
state=$(resets)
[ "$state" = 0 ]
ok $? "idle: suspended, the four reset lines asserted ($state)"
insmod /modules/vgem.ko || echo "not ok - insmod vgem.ko"

before=$(irq_count b000000.npu)
board_tests
# The regression loadables on the first nv_full device.
board_goldens "$(first)"
# The timeout path: the driver pulses the device's reset line (the device
# stops the model and restarts it), and the device computes again.
if [ -x /bin/nvdla_runtime ] && [ -f /loadables/conv_long.nvdla ]; then
	timeout_then_golden "$(first)" bdma_copy-after-timeout
fi
# Networks on the device of their configuration.
board_networks
after=$(irq_count b000000.npu)
[ "$after" -gt "$before" ]
ok $? "the jobs completed by interrupt ($before -> $after on b000000.npu)"
grep npu /proc/interrupts | sed 's/^/#   /'
idle
state=$(resets)
[ "$state" = 0 ]
ok $? "idle again: reset lines asserted ($state)"

# No driver: every line released, then random programs into all four.
rmmod vgem
rmmod nvdla
ok $? "rmmod nvdla"
devmem $rstc 32 0xffffffff
# A recorded layer the hardware cannot run (tools/qemu/run-vp.sh) stops
# the device: no interrupt status; the same layer split to fit raises
# its done bits on the other nv_full.
s=$(/tests/nvdla_regplay 0b000000 /regplay/hazard.txn 2) && [ "$s" = 0x0 ]
ok $? "a recorded layer the hardware cannot run: the device stops (interrupt status $s after 2 s)"
s=$(/tests/nvdla_regplay 0b100000 /regplay/control.txn 30) &&
	[ -n "$s" ] && [ "$s" != 0x0 ]
ok $? "the same layer split to fit: the device raises its done bits (interrupt status $s)"
/tests/nvdla_regfuzz "${nvdla_fuzz_seconds:-20}" "${nvdla_fuzz_seed:-1}" \
	0b000000,0b100000,0b200000,0b300000
ok $? "random register programs and DMA addresses outside RAM: the emulator survives"
insmod /nvdla.ko && insmod /modules/vgem.ko
ok $? "the driver binds again"
# The legacy ioctls' test where the driver has them (not the in-tree
# driver's), else the shipped loadable through the runtime.
if [ -x /tests/nvdla_legacy_test ]; then
	echo "# guest test nvdla_legacy_test, after the random programs"
	/tests/nvdla_legacy_test >/tmp/out 2>&1
	status=$?
	sed 's/^/#   /' /tmp/out
	ok $status "jobs compute after the random programs (reset by the driver)"
elif [ -x /bin/nvdla_runtime ]; then
	run_golden bdma_copy-after-random-programs /loadables/bdma_copy.nvdla \
		/loadables/bdma_copy.md5 "$(first)"
else
	ok 0 "jobs compute after the random programs # SKIP no legacy test or arm64 nvdla_runtime"
fi

guest_end
