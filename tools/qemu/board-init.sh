#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: MIT
# /init of the emulated arm64 board (built by run-board.sh), whose device
# tree has two NVDLA nodes (tools/qemu/board/nvdla-virt.dtsi): load the
# driver without parameters and check that the nodes' compatible strings,
# clocks, reset lines and memory region are used, that runtime PM switches
# them, and that a job without interrupt times out; then the kernel log.
# The last line tells the host the guest got there.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh
guest_start

dev=/sys/bus/platform/devices/7f000000.npu
pm=$dev/power
bare=/sys/bus/platform/devices/7f200000.npu
clk=/sys/kernel/debug/clk
# rst_line BIT: a line of the reset controller (active low: 0 asserted).
rst_line() {
	echo $((($(devmem 0x7f100000 32) >> $1) & 1))
}
# power_state: runtime status, enable counts of both clocks, reset line of
# the first device.
power_state() {
	echo "$(cat "$pm/runtime_status")" \
		"$(cat "$clk/npu_core/clk_enable_count")" \
		"$(cat "$clk/npu_csb/clk_enable_count")" "$(rst_line 0)"
}
# debugfs NAME: the debugfs directory of platform device NAME.
debugfs() {
	for d in $(nvdla_classes); do
		if [ "$(basename "$(readlink "$d/device")")" = "$1" ]; then
			debugfs_of "$d"
		fi
	done
}

guest_load_deps
insmod /nvdla.ko
ok $? "insmod nvdla.ko without parameters"

[ "$(basename "$(readlink "$dev/driver")")" = nvdla ] &&
	[ "$(basename "$(readlink "$bare/driver")")" = nvdla ]
ok $? "both device-tree nodes are bound to nvdla"
dmesg | grep -q '7f000000.npu: .*NVDLA nv_small$' &&
	dmesg | grep -q '7f200000.npu: .*NVDLA nv_full$'
ok $? "configurations nv_small and nv_full from the compatible strings"
dmesg | grep -q '7f000000.npu: assigned reserved memory node npu-pool@70000000'
ok $? "memory-region assigned to the first"
[ -c /dev/dri/renderD128 ] && [ -c /dev/dri/renderD129 ]
ok $? "render nodes /dev/dri/renderD128 and renderD129"
grep -q '7f000000.npu' /proc/interrupts && grep -q '7f200000.npu' /proc/interrupts
ok $? "interrupts requested under the devices' names"

idle
state=$(power_state)
[ "$state" = "suspended 0 0 0" ]
ok $? "idle: suspended, clocks off, reset asserted ($state)"
echo on >"$pm/control"
state=$(power_state)
[ "$state" = "active 1 1 1" ]
ok $? "control=on: active, clocks on, reset deasserted ($state)"
echo auto >"$pm/control"
idle
state=$(power_state)
[ "$state" = "suspended 0 0 0" ]
ok $? "control=auto: suspended again ($state)"

[ "$(grep -c '^GLB\.' "$(debugfs 7f000000.npu)/regs")" -gt 0 ]
ok $? "register dump of the suspended device"
idle
state=$(power_state)
[ "$state" = "suspended 0 0 0" ]
ok $? "suspended after the dump ($state)"

# The first device's interrupt (GIC SPI 120, INTID 152) made pending at the
# virt board's GIC distributor (0x08000000, GICD_ISPENDR4 bit 24): while the
# device is suspended its line is disabled and nothing is delivered (the
# kernel drops a level-triggered interrupt that comes while its line is
# off: a device would keep the line raised). Raised again while the device
# is powered, it comes; its status register (GLB_S_INTR_STATUS, RAM here)
# reads 0: not the device's, so the handler returns IRQ_NONE and the
# kernel counts it unhandled.
irq=$(awk -F: '/7f000000.npu/ { gsub(/ /, "", $1); print $1 }' /proc/interrupts)
irq_state() {
	awk -v n="$irq:" '$1 == n { s = 0
		for (i = 2; $i ~ /^[0-9]+$/; i++) s += $i
		printf "%d ", s }' /proc/interrupts
	awk '/^unhandled/ { print $2 }' "/proc/irq/$irq/spurious"
}
devmem 0x7f00100c 32 0
before=$(irq_state)
devmem 0x08000210 32 0x01000000
sleep 1
state=$(irq_state)
[ "$state" = "$before" ]
ok $? "interrupt held back while the device is suspended ($before -> $state)"
echo on >"$pm/control"
devmem 0x08000210 32 0x01000000
sleep 1
state=$(irq_state)
echo auto >"$pm/control"
# shellcheck disable=SC2086 # two numbers
set -- $before
[ "$state" = "$(($1 + 1)) $(($2 + 1))" ]
ok $? "delivered once powered, unhandled: not the device's ($before -> $state)"
idle

state="$(cat "$bare/power/runtime_status") $(rst_line 1)"
[ "$state" = "suspended 0" ]
ok $? "second device idle: suspended, reset asserted ($state)"

# The second device's registers are RAM: make its BDMA status read as the
# hardware model's does when idle (20 free command slots, idle), so that a
# job starts and then waits for its interrupt.
devmem 0x7f204040 32 0x114

echo "# guest test nvdla_board_test"
/tests/nvdla_board_test
ok $? "board tests"
jobs=$(debugfs 7f200000.npu)/jobs
grep -q '^timed out: 1$' "$jobs"
ok $? "the job without interrupt counted as timed out"
sed 's/^/#   /' "$jobs"
idle
state="$(cat "$bare/power/runtime_status") $(rst_line 1)"
[ "$state" = "suspended 0" ]
ok $? "second device suspended again after the reset ($state)"

# A node whose clock provider never comes waits, with the reason; one whose
# memory-region is no reserved memory is refused with a message. A
# deferred probe is retried whenever another device binds: while a retry
# runs, the device has its driver link, so the link must be gone within a
# few seconds, not at the instant of the check.
unbound() {
	for _ in 1 2 3; do
		[ ! -e "/sys/bus/platform/devices/$1/driver" ] && return 0
		sleep 1
	done
	return 1
}
grep -q '^7f400000.npu.*cannot get clocks' /sys/kernel/debug/devices_deferred &&
	unbound 7f400000.npu
ok $? "missing clock provider: probe deferred ($(grep npu /sys/kernel/debug/devices_deferred))"
dmesg | grep -q '7f500000.npu: .*cannot use the memory-region' &&
	[ ! -e /sys/bus/platform/devices/7f500000.npu/driver ]
ok $? "memory-region that is no reserved memory: refused"

# A node the driver has no configuration for, forced onto it: refused.
odd=/sys/bus/platform/devices/7f300000.npu
echo nvdla >"$odd/driver_override"
! echo 7f300000.npu >/sys/bus/platform/drivers/nvdla/bind 2>/dev/null &&
	[ ! -e "$odd/driver" ] &&
	dmesg | grep -q '7f300000.npu: .*unknown configuration'
ok $? "a node without configuration is refused"

rmmod nvdla
ok $? "rmmod nvdla"
[ ! -e "$dev/driver" ] && [ ! -e "$bare/driver" ] &&
	[ "$(cat "$clk/npu_core/clk_enable_count") $(rst_line 0) $(rst_line 1)" = "0 0 0" ]
ok $? "unbound: clocks off, resets asserted"
insmod /nvdla.ko && [ -e "$dev/driver" ] && [ -e "$bare/driver" ]
ok $? "loads and binds again"

guest_end
