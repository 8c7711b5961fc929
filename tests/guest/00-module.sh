#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the driver is loaded and its device node is there.
n=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

grep -q '^nvdla ' /proc/modules
ok $? "nvdla module loaded"

node=
for d in /sys/class/accel/accel* /sys/class/drm/renderD*; do
	[ -e "$d/device/driver" ] || continue
	if [ "$(basename "$(readlink "$d/device/driver")")" = nvdla ]; then
		node=/dev/${d#/sys/class/*/}
		case $d in /sys/class/accel/*) node=/dev/accel/${d##*/} ;;
		*) node=/dev/dri/${d##*/} ;; esac
		break
	fi
done
[ -n "$node" ] && [ -c "$node" ]
ok $? "device node of the nvdla driver: ${node:-none}"

# debugfs: dri/<minor> on 6.1, accel/<device name> on 6.12.
dbg=$(dirname "$(ls /sys/kernel/debug/accel/*/regs /sys/kernel/debug/dri/*/regs 2>/dev/null | head -1)")
grep -q '^GLB.S_NVDLA_HW_VERSION = 0x00303031$' "$dbg/regs" 2>/dev/null
ok $? "debugfs regs dump in ${dbg:-(none)}"
grep -q '^submitted: 0$' "$dbg/jobs" 2>/dev/null
ok $? "debugfs job counters start at 0"
