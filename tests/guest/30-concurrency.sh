#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the two virtual devices the module was loaded with run jobs at the
# same time, and several processes share one device; every output must be
# right (no state shared between devices, jobs serialised per device).
n=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

nodes=
for d in /sys/class/accel/accel* /sys/class/drm/renderD*; do
	[ -e "$d/device/driver" ] || continue
	[ "$(basename "$(readlink "$d/device/driver")")" = nvdla ] || continue
	case $d in
	/sys/class/accel/*) nodes="$nodes /dev/accel/${d##*/}" ;;
	*) nodes="$nodes /dev/dri/${d##*/}" ;;
	esac
done
set -- $nodes
[ $# -eq 2 ]
ok $? "two nvdla devices: $nodes"

want=$(cut -d' ' -f1 /loadables/bdma_copy.md5)

# worker DEVICE TAG RUNS: run the shipped loadable RUNS times, count misses.
worker() {
	i=0
	miss=0
	while [ $i -lt "$3" ]; do
		i=$((i + 1))
		out=/tmp/$2.$i.dimg
		if ! nvdla_runtime --device "$1" --loadable /loadables/bdma_copy.nvdla \
			-o "$out" >/dev/null 2>&1 ||
			[ "$(md5sum <"$out" | cut -d' ' -f1)" != "$want" ]; then
			miss=$((miss + 1))
		fi
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
