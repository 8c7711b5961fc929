#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the driver is loaded and its device node is there.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

grep -q '^nvdla ' /proc/modules
ok $? "nvdla module loaded"

d=$(nvdla_classes | head -1)
node=${d:+$(node_of "$d")}
[ -n "$node" ] && [ -c "$node" ]
ok $? "device node of the nvdla driver: ${node:-none}"

dbg=${d:+$(debugfs_of "$d")}
grep -q '^GLB.S_NVDLA_HW_VERSION = 0x00303031$' "$dbg/regs" 2>/dev/null
ok $? "debugfs regs dump in ${dbg:-(none)}"
grep -q '^submitted: 0$' "$dbg/jobs" 2>/dev/null
ok $? "debugfs job counters start at 0"
