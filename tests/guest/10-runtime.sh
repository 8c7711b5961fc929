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

# --stats through the driver: the stat list is one more GEM object in the
# task's address list, filled by the firmware in the kernel. Its counters
# (the model's events and the performance model's estimated stalls) are
# those of the in-process model; the times are not.
# stats_counters LOG: each operation's line without its time column.
stats_counters() {
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 { $5 = ""; print }' "$1"
}
# stats_check LOADABLE MD5FILE: --stats through the driver and in process.
stats_check() {
	nvdla_runtime --loadable "$1" --device sim:nv_full --stats \
		-o /tmp/s_sim.dimg >/tmp/run_sim.log 2>&1 &&
		nvdla_runtime --loadable "$1" --stats -o /tmp/s.dimg \
			>/tmp/run.log 2>&1
	status=$?
	sed 's/^/# /' /tmp/run.log
	[ $status -eq 0 ] && [ -n "$(stats_counters /tmp/run.log)" ] &&
		[ "$(stats_counters /tmp/run.log)" = "$(stats_counters /tmp/run_sim.log)" ] &&
		[ "$(md5sum </tmp/s.dimg | cut -d' ' -f1)" = "$(cut -d' ' -f1 "$2")" ]
}
stats_check /loadables/bdma_copy.nvdla /loadables/bdma_copy.md5 &&
	grep -Eq '^ +0 +0 +0 bdma ' /tmp/run.log
ok $? "--stats through the driver: one bdma operation, the in-process model's counters, same output"
dir=/shared/loadables/CDP_L0_0
if [ -d "$dir" ]; then
	# Every lookup overflows both tables and every output clips (test_cli.sh).
	stats_check "$dir/CDP_L0_0.nvdla" "$dir/golden/lead.md5" &&
		grep -Eq '^ +0 +0 +0 cdp +[0-9]+ .* lut_oflow=2048 saturation=2048$' /tmp/run.log
	ok $? "--stats CDP_L0_0 through the driver: 2048 LUT overflows and saturations, the in-process model's counters"
else
	n=$((n + 1))
	echo "ok $n - --stats CDP_L0_0 through the driver # SKIP ../shared absent"
fi

# Recording needs the in-process model: through the driver it is refused
# with the reason, and nothing is written.
nvdla_runtime --loadable /loadables/bdma_copy.nvdla --record /tmp/rec \
	-o /tmp/x.dimg 2>/tmp/err
[ $? -eq 1 ] && grep -q "kernel owns the registers" /tmp/err &&
	[ ! -e /tmp/rec ]
ok $? "--record through the driver refused with the reason"

# A bad loadable is refused, and the device still works afterwards.
head -c 200 /loadables/bdma_copy.nvdla >/tmp/cut.nvdla
nvdla_runtime --loadable /tmp/cut.nvdla -o /tmp/x.dimg 2>/tmp/err
[ $? -eq 1 ] && grep -q "malformed loadable" /tmp/err
ok $? "truncated loadable refused with a message"
run again /loadables/bdma_copy.nvdla /loadables/bdma_copy.md5
