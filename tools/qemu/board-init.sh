#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: MIT
# /init of the emulated arm64 board (built by run-board.sh), whose device
# tree has an NVDLA node (tools/qemu/board/nvdla-virt.dtsi): load the
# driver without parameters and check that the node's compatible string,
# clocks, reset line and memory region are used, and that runtime PM
# switches them; then the kernel log. The last line tells the host the
# guest got there.
/bin/busybox --install -s /bin
export PATH=/bin
echo
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp

n=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

dev=/sys/bus/platform/devices/7f000000.npu
pm=$dev/power
clk=/sys/kernel/debug/clk
# The reset controller's register, bit 0 the NVDLA's line (active low).
rst_line() {
	echo $(($(devmem 0x7f100000 32) & 1))
}
# power_state: runtime status, enable counts of both clocks, reset line.
power_state() {
	echo "$(cat "$pm/runtime_status")" \
		"$(cat "$clk/npu_core/clk_enable_count")" \
		"$(cat "$clk/npu_csb/clk_enable_count")" "$(rst_line)"
}
# Longer than the 50 ms autosuspend delay, with room for a slow guest.
idle() {
	sleep 1
}

while read -r m; do
	insmod "/modules/$m" || echo "not ok - insmod $m"
done </modules.order
insmod /nvdla.ko
ok $? "insmod nvdla.ko without parameters"

[ "$(basename "$(readlink "$dev/driver")")" = nvdla ]
ok $? "the device-tree node is bound to nvdla"
dmesg | grep -q 'NVDLA nv_small$'
ok $? "configuration nv_small from the compatible string"
dmesg | grep -q 'assigned reserved memory node npu-pool@70000000'
ok $? "memory-region assigned"
[ -c /dev/dri/renderD128 ]
ok $? "render node /dev/dri/renderD128"
grep -q '7f000000.npu' /proc/interrupts
ok $? "interrupt requested under the device's name"

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

[ "$(grep -c '^GLB\.' /sys/kernel/debug/dri/128/regs)" -gt 0 ]
ok $? "register dump of the suspended device"
idle
state=$(power_state)
[ "$state" = "suspended 0 0 0" ]
ok $? "suspended after the dump ($state)"

echo "# guest test nvdla_pool_test"
/tests/nvdla_pool_test
ok $? "buffers come from the memory-region"

rmmod nvdla
ok $? "rmmod nvdla"
[ ! -e "$dev/driver" ] &&
	[ "$(cat "$clk/npu_core/clk_enable_count") $(rst_line)" = "0 0" ]
ok $? "unbound: clocks off, reset asserted"
insmod /nvdla.ko && [ -e "$dev/driver" ]
ok $? "loads and binds again"

if dmesg | grep -E 'WARNING:|BUG:|Oops|KASAN|UBSAN|circular locking|Call Trace' \
	>/tmp/bad; then
	echo "not ok - kernel log clean"
	sed 's/^/#   /' /tmp/bad
else
	echo "ok - kernel log clean"
fi
echo "NVDLA-GUEST-DONE"
poweroff -f
