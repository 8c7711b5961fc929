#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: a convolution far longer than the job timeout on the virtual
# device (40x40x256 in, 640 3x3 kernels: 2.4e9 multiply-adds). The model
# runs it preemptibly in its work item: the job times out after the
# timeout with -ETIMEDOUT, the model stops at its next slice, the device
# works again, and the soft-lockup and RCU-stall detectors, which panic
# the guest (tools/qemu/run-guest.sh), stay quiet.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

timeout_param=/sys/module/nvdla/parameters/job_timeout_ms

# Milliseconds since boot.
now_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

job_timeout=$(cat $timeout_param)
echo 1000 >$timeout_param
start=$(now_ms)
nvdla_runtime --loadable /loadables/conv_long.nvdla -o /tmp/long.dimg \
	>/tmp/run.log 2>&1
status=$?
took=$(($(now_ms) - start))
sed 's/^/# /' /tmp/run.log
[ $status -ne 0 ] && grep -q 'timed out' /tmp/run.log && [ $took -lt 10000 ]
ok $? "a layer longer than the job timeout (1 s) fails with -ETIMEDOUT after $took ms"
echo "$job_timeout" >$timeout_param

# A time limit above the driver's most is refused before anything runs,
# with the limit named.
max_param=/sys/module/nvdla/parameters/max_job_timeout_ms
max_timeout=$(cat $max_param)
echo 2000 >$max_param
nvdla_runtime --loadable /loadables/conv_long.nvdla --timeout 5 \
	-o /tmp/long.dimg >/tmp/run.log 2>&1
status=$?
sed 's/^/# /' /tmp/run.log
[ $status -ne 0 ] && grep -q "above the driver's max_job_timeout_ms (2000 ms)" /tmp/run.log
ok $? "--timeout 5 above max_job_timeout_ms 2000 refused with the limit named"
echo "$max_timeout" >$max_param

start=$(now_ms)
nvdla_runtime --loadable /loadables/bdma_copy.nvdla -o /tmp/copy.dimg \
	>/tmp/run.log 2>&1 &&
	[ "$(md5sum </tmp/copy.dimg | cut -d' ' -f1)" = "$(cut -d' ' -f1 /loadables/bdma_copy.md5)" ]
ok $? "the device works again after it: bdma_copy right in $(($(now_ms) - start)) ms"

start=$(now_ms)
nvdla_runtime --loadable /loadables/conv_mid.nvdla -o /tmp/mid.dimg \
	>/tmp/run.log 2>&1
status=$?
sed 's/^/# /' /tmp/run.log
ok $status "a convolution of 3.8e7 multiply-adds completes in $(($(now_ms) - start)) ms"

dmesg | grep -E 'soft lockup|detected stall|blocked for more than' >/tmp/bad
[ ! -s /tmp/bad ]
ok $? "no soft lockup, RCU stall or hung task reported"
sed 's/^/# /' /tmp/bad
