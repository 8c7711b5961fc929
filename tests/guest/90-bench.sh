#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the runtime benchmark in process (sim:nv_full) and through the
# kernel driver (the first device node), on the same emulated CPU so the
# two compare; the tables go out as TAP comments for tools/bench.sh.
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
