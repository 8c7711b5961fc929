#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: runtime power management of a virtual device. It powers down when
# idle (autosuspend), powers up for a job and for a register read, and a
# job after a power-down, which resets the model like a power-gated block,
# still computes the right output; the same across a system suspend.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

d=$(nvdla_classes | head -1)
if [ -n "$d" ]; then
	dev=$(basename "$(readlink -f "$d/device")")
	node=$(node_of "$d")
	dbg=$(debugfs_of "$d")
	pm=$d/device/power
fi
[ -n "$node" ] && [ -f "$pm/runtime_status" ]
ok $? "runtime PM attributes of $dev: ${pm:-none}"

job() {
	shipped_ok /tmp/power.dimg --device "$node"
}
status() {
	cat "$pm/runtime_status"
}

[ "$(cat "$pm/autosuspend_delay_ms")" = 50 ]
ok $? "autosuspend delay 50 ms"
idle
[ "$(status)" = suspended ]
ok $? "idle device is suspended ($(status))"

before=$(cat "$pm/runtime_active_time")
job
ok $? "job after a power-down: right output"
after=$(cat "$pm/runtime_active_time")
# Powered at least for the job and the autosuspend delay after it.
[ "$after" -gt "$before" ]
ok $? "the job powered the device up (active $before -> $after ms)"
idle
[ "$(status)" = suspended ]
ok $? "suspended again after the job ($(status))"

# A job whose interrupt never comes stays on the engine until the job
# timeout (3 s here): the device stays powered all that time, then the
# engine is reset and the next job runs.
job_timeout=$(cat /sys/module/nvdla/parameters/job_timeout_ms)
echo 3000 >/sys/module/nvdla/parameters/job_timeout_ms
echo 1 >/sys/module/nvdla_sim/parameters/fault
job &
pid=$!
sleep 2
[ "$(status)" = active ]
ok $? "powered while a job is on the engine ($(status))"
wait $pid
ok $((!$?)) "the job without interrupt failed"
echo 0 >/sys/module/nvdla_sim/parameters/fault
echo "$job_timeout" >/sys/module/nvdla/parameters/job_timeout_ms
job
ok $? "next job after the reset: right output"

grep -q '^GLB.S_NVDLA_HW_VERSION = 0x00303031$' "$dbg/regs"
ok $? "register dump of a suspended device powers it up"
idle
[ "$(status)" = suspended ]
ok $? "suspended again after the dump ($(status))"

echo on >"$pm/control"
[ "$(status)" = active ]
ok $? "control=on keeps it powered ($(status))"
job && job
ok $? "two jobs while held on: right outputs"

# System sleep (suspend to idle, stopped after the device phase by the PM
# test mode) takes the device down and brings it back as it was. Runtime PM
# keeps no time while system sleep disables it, so only the outcome shows.
echo devices >/sys/power/pm_test
echo 0 >/sys/module/suspend/parameters/pm_test_delay
if echo freeze >/sys/power/state; then slept=0; else slept=1; fi
ok $slept "system suspend and resume with the device powered"
echo none >/sys/power/pm_test
[ "$(status)" = active ] && dmesg | grep -q 'PM: suspend exit'
ok $? "powered again after the system resume ($(status))"
job
ok $? "job after the system resume: right output"

echo auto >"$pm/control"
idle
[ "$(status)" = suspended ]
ok $? "control=auto lets it suspend again ($(status))"
