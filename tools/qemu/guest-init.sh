#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: MIT
# /init of the test guest (built by run-guest.sh): load the driver and two
# virtual devices, run every test in /tests (each prints TAP), check the
# kernel log, power off. The last line tells the host the guest got there.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh
guest_start

guest_load_deps
# nvdla_job_timeout_ms=N on the kernel command line: the driver's default
# job time limit (make check-debug: its checkers slow the model down).
if insmod /nvdla.ko ${nvdla_job_timeout_ms:+job_timeout_ms=$nvdla_job_timeout_ms} &&
	insmod /nvdla_sim.ko devices=nv_full,nv_full; then
	echo "ok - insmod nvdla.ko, nvdla_sim.ko devices=nv_full,nv_full (two virtual devices)"
else
	echo "not ok - insmod nvdla.ko, nvdla_sim.ko devices=nv_full,nv_full"
fi
insmod /modules/vgem.ko || echo "not ok - insmod vgem.ko"

# A test that fails without a "not ok" line of its own (a crash, its time
# limit) fails under its name.
cd /tests || exit 1
for t in *; do
	{ [ -f "$t" ] && [ -x "$t" ]; } || continue
	echo "# guest test $t"
	{ timeout "${nvdla_test_timeout:-300}" "./$t" 2>&1; echo $? >/tmp/status; } |
		tee /tmp/out
	status=$(cat /tmp/status)
	if [ "$status" -ne 0 ] && ! grep -q '^not ok ' /tmp/out; then
		echo "not ok - $t exited with status $status"
	fi
done

guest_end
