#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: nvdla_runtime through the kernel driver (its default device is the
# nvdla node) produces the expected outputs, byte for byte.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

# run NAME LOADABLE MD5FILE: run it and compare the output's md5.
run() {
	out=/tmp/$1.dimg
	nvdla_runtime --loadable "$2" -o "$out" >/tmp/run.log 2>&1
	status=$?
	sed 's/^/# /' /tmp/run.log
	[ $status -eq 0 ] && grep -q '^/dev/' /tmp/run.log &&
		[ "$(md5sum <"$out" | cut -d' ' -f1)" = "$(cut -d' ' -f1 "$3")" ]
	ok $? "$1 through the driver equals its expected md5"
}

run bdma_copy /loadables/bdma_copy.nvdla /loadables/bdma_copy.md5

for t in $(cat /tests/golden-loadables); do
	dir=/shared/loadables/$t
	if [ -d "$dir" ]; then
		run "$t" "$dir/$t.nvdla" "$dir/golden/lead.md5"
	else
		n=$((n + 1))
		echo "ok $n - $t through the driver # SKIP ../shared absent"
	fi
done

# A bad loadable is refused, and the device still works afterwards.
head -c 200 /loadables/bdma_copy.nvdla >/tmp/cut.nvdla
nvdla_runtime --loadable /tmp/cut.nvdla -o /tmp/x.dimg 2>/tmp/err
[ $? -eq 1 ] && grep -q "malformed loadable" /tmp/err
ok $? "truncated loadable refused with a message"
run again /loadables/bdma_copy.nvdla /loadables/bdma_copy.md5
