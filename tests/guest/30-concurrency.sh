#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the two virtual devices the module was loaded with run jobs at the
# same time, and several processes share one device; every output must be
# right (no state shared between devices, jobs serialised per device).
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

nodes=
for d in $(nvdla_classes); do
	nodes="$nodes $(node_of "$d")"
done
set -- $nodes
[ $# -eq 2 ]
ok $? "two nvdla devices: $nodes"

# worker DEVICE TAG RUNS: run the shipped loadable RUNS times, count misses.
worker() {
	i=0
	miss=0
	while [ $i -lt "$3" ]; do
		i=$((i + 1))
		shipped_ok "/tmp/$2.$i.dimg" --device "$1" || miss=$((miss + 1))
	done
	echo $miss >/tmp/$2.miss
}

if [ $# -eq 2 ]; then
	worker "$1" a 10 &
	worker "$2" b 10 &
	wait
	[ "$(cat /tmp/a.miss)" = 0 ] && [ "$(cat /tmp/b.miss)" = 0 ]
	ok $? "both devices at once: 2 x 10 jobs, all outputs right"
fi

for p in 1 2 3 4; do
	worker "$1" p$p 5 &
done
wait
[ "$(cat /tmp/p1.miss /tmp/p2.miss /tmp/p3.miss /tmp/p4.miss | tr -d '\n')" = 0000 ]
ok $? "four processes on one device: 4 x 5 jobs, all outputs right"
