#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: mutated loadables through the kernel driver. Each must end in a
# result or a clean refusal (status 0 or 1), never a crash or a hang; the
# kernel log is checked for warnings after all guest tests.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh
runs=${NVDLA_MUTATIONS:-60}
src=/loadables/bdma_copy.nvdla
size=$(wc -c <"$src")
refused=0
bad=0
i=0
while [ $i -lt $runs ]; do
	i=$((i + 1))
	cp "$src" /tmp/mut.nvdla
	for k in 1 2 3; do
		dd if=/dev/urandom of=/tmp/mut.nvdla bs=1 count=2 \
			seek=$((RANDOM % size)) conv=notrunc 2>/dev/null
	done
	timeout 30 nvdla_runtime --loadable /tmp/mut.nvdla -o /tmp/mut.dimg \
		>/dev/null 2>&1
	case $? in
	0) ;;
	1) refused=$((refused + 1)) ;;
	*) bad=$((bad + 1)) ;;
	esac
done
if [ $bad -eq 0 ]; then
	echo "ok 1 - $runs mutated loadables through the driver: $refused refused, no crash or hang"
else
	echo "not ok 1 - $bad of $runs mutated loadables crashed or hung nvdla_runtime"
fi
if shipped_ok /tmp/after.dimg; then
	echo "ok 2 - the device still computes correctly afterwards"
else
	echo "not ok 2 - the device still computes correctly afterwards"
fi
