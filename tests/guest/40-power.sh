#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: runtime power management of a virtual device. It powers down when
# idle (autosuspend), powers up for a job and for a register read, and a
# job after a power-down, which resets the model like a power-gated block,
# still computes the right output; the same across a system suspend.
n=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

node=
for d in /sys/class/accel/accel* /sys/class/drm/renderD*; do
	[ -e "$d/device/driver" ] || continue
	[ "$(basename "$(readlink "$d/device/driver")")" = nvdla ] || continue
	dev=$(basename "$(readlink -f "$d/device")")
	# debugfs: dri/<minor> on 6.1, accel/<device name> on 6.12.
	case $d in
	/sys/class/accel/*)
		node=/dev/accel/${d##*/}
		dbg=/sys/kernel/debug/accel/$dev ;;
	*)
		node=/dev/dri/${d##*/}
		dbg=/sys/kernel/debug/dri/${d##*/renderD} ;;
	esac
	pm=$d/device/power
	break
done
[ -n "$node" ] && [ -f "$pm/runtime_status" ]
ok $? "runtime PM attributes of $dev: ${pm:-none}"

want=$(cut -d' ' -f1 /loadables/bdma_copy.md5)
job() {
	nvdla_runtime --device "$node" --loadable /loadables/bdma_copy.nvdla \
		-o /tmp/power.dimg >/dev/null 2>&1 &&
		[ "$(md5sum </tmp/power.dimg | cut -d' ' -f1)" = "$want" ]
}
status() {
	cat "$pm/runtime_status"
}
# Longer than the 50 ms autosuspend delay, with room for a slow guest.
idle() {
	sleep 1
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
echo 3000 >/sys/module/nvdla/parameters/job_timeout_ms
echo 1 >/sys/module/nvdla/parameters/nvdla_sim_fault
job &
pid=$!
sleep 2
[ "$(status)" = active ]
ok $? "powered while a job is on the engine ($(status))"
wait $pid
ok $((!$?)) "the job without interrupt failed"
echo 0 >/sys/module/nvdla/parameters/nvdla_sim_fault
echo 5000 >/sys/module/nvdla/parameters/job_timeout_ms
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
