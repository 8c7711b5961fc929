#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the runtime benchmark in process (sim:nv_full) and through the
# kernel driver (the first device node), on the same emulated CPU so the
# two compare, then the pipelined example's frames/s (nvdla_stream: the
# synchronous loop next to 1, 2 and 3 runs in flight) on the digit demo
# and ResNet-18 int8 on 64 x 64 images (run-guest.sh's /models; the
# 224 x 224 one takes minutes a frame here), without and with a wait of
# 100 ms per frame for the input; the tables go out as TAP comments for
# tools/bench.sh.
runs=${NVDLA_BENCH_RUNS:-10}
n=0
for dev in sim:nv_full ""; do
	n=$((n + 1))
	# shellcheck disable=SC2046 # no --device: the first device node
	nvdla_runtime_bench --runs "$runs" $([ -n "$dev" ] && echo --device "$dev") \
		/shared/loadables/*/[A-Z]*_L0_0.nvdla >/tmp/bench.out 2>&1
	status=$?
	sed 's/^/# runtime-bench: /' /tmp/bench.out
	# Loadables the runtime cannot run yet (CPU tasks) fail on their own
	# line; the built-in workloads must run, on the path asked for.
	if [ $status -eq 0 ] && grep -q "^runtime on ${dev:-/dev/}" /tmp/bench.out; then
		echo "ok $n - runtime benchmark on ${dev:-the driver}"
	else
		echo "not ok $n - runtime benchmark on ${dev:-the driver}"
	fi
done

# The stream figures take minutes: under make bench only, which passes
# nvdla_bench_stream=1 (and a longer nvdla_test_timeout) on the kernel's
# command line. The virtual device computes on the guest's CPU under TCG:
# a job may run past the driver's default job timeout.
[ -n "${nvdla_bench_stream:-}" ] || exit 0
job_timeout=$(cat /sys/module/nvdla/parameters/job_timeout_ms)
echo 60000 >/sys/module/nvdla/parameters/job_timeout_ms
for m in "digits-fp16-nv_full input.pgm 255 20" \
	"resnet18_64-int8-nv_full input.ppm 255 4"; do
	# shellcheck disable=SC2086 # name, image, scale, frames
	set -- $m
	[ -f "/models/$1/net.nvdla" ] || {
		echo "ok - stream $1 # SKIP not in the guest (make models)"
		continue
	}
	for dev in sim:nv_full ""; do
		n=$((n + 1))
		failed=0
		for o in "-i 0" "-i 100000"; do
			# shellcheck disable=SC2046,SC2086 # no -d: the first device node
			out=$(nvdla_stream -q -k 0,1,2,3 -n "$4" -s "$3" $o \
				$([ -n "$dev" ] && echo -d "$dev") \
				"/models/$1/net.nvdla" "/models/$1/$2" 2>&1) || failed=1
			echo "# runtime-bench: stream: $1 on ${dev:-the driver}, $o: $out"
		done
		if [ $failed -eq 0 ]; then
			echo "ok $n - stream $1 on ${dev:-the driver}"
		else
			echo "not ok $n - stream $1 on ${dev:-the driver}"
		fi
	done
done
echo "$job_timeout" >/sys/module/nvdla/parameters/job_timeout_ms
