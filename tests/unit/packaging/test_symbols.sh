#!/bin/sh
# SPDX-License-Identifier: MIT
# libnvdla_runtime.so exports exactly the functions of the public header.
build=${1:-build}
exported=$(nm -D --defined-only "$build/lib/libnvdla_runtime.so" |
	awk '{ print $3 }' | sort)
declared=$(grep -o '^nvdla_[a-z_]*(\|[ *]nvdla_[a-z_]*(' include/nvdla/runtime.h |
	tr -d ' *(' | sort -u)
if [ "$exported" = "$declared" ]; then
	echo "ok 1 - exported symbols match include/nvdla/runtime.h"
else
	echo "not ok 1 - exported symbols match include/nvdla/runtime.h"
	printf '%s\n' "$exported" >/tmp/nvdla-exported.$$
	printf '%s\n' "$declared" | diff - /tmp/nvdla-exported.$$ | sed 's/^/# /'
	rm -f /tmp/nvdla-exported.$$
fi

# The driver holds no part of the hardware model: that is nvdla_sim.ko,
# which the driver binds through its platform device alone, sharing no
# symbol with it (make module-all).
n=1
for dir in "$build"/kmod/*/; do
	[ -f "$dir/nvdla.ko" ] || continue
	kver=$(basename "$dir")
	n=$((n + 1))
	model=$(nm "$dir/nvdla.ko" | grep -E ' [TtDdRrBb] (nvdla_sim_(init|run|size|reg_read|reg_write|config_by_name)|sim_[a-z_]*)$')
	[ -z "$model" ] && [ -f "$dir/nvdla_sim.ko" ] &&
		nm "$dir/nvdla_sim.ko" | grep -q ' T nvdla_sim_run$' &&
		[ -z "$(/sbin/modinfo -F depends "$dir/nvdla_sim.ko")" ] &&
		! nm "$dir/nvdla_sim.ko" | grep -q '__ksymtab'
	if [ $? -eq 0 ]; then
		echo "ok $n - [$kver] nvdla.ko holds no model code; nvdla_sim.ko holds it, exporting and importing nothing of ours"
	else
		echo "not ok $n - [$kver] nvdla.ko holds no model code; nvdla_sim.ko holds it, exporting and importing nothing of ours"
		echo "$model" | head -5 | sed 's/^/# /'
	fi
done
[ $n -gt 1 ] || echo "ok 2 - module symbols # SKIP no module built (make module-all)"
