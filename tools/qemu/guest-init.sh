#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the test guest: load the driver with a virtual device, run every
# test in /tests (each prints TAP), check the kernel log, power off.
/bin/busybox --install -s /bin
export PATH=/bin
echo
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp

for m in $(cat /modules.order); do
	insmod "/modules/$m" || echo "not ok - insmod $m"
done
if insmod /nvdla.ko nvdla_sim=nv_full,nv_full; then
	echo "ok - insmod nvdla.ko nvdla_sim=nv_full,nv_full (two virtual devices)"
else
	echo "not ok - insmod nvdla.ko nvdla_sim=nv_full,nv_full"
fi

cd /tests
for t in *; do
	[ -x "$t" ] || continue
	echo "# guest test $t"
	timeout 300 "./$t" 2>&1 || echo "# $t exited with status $?"
done

# Anything the kernel complained about fails the run.
if dmesg | grep -E 'WARNING:|BUG:|Oops|KASAN|UBSAN|circular locking|Call Trace' \
	>/tmp/bad; then
	echo "not ok - kernel log clean"
	sed 's/^/#   /' /tmp/bad
else
	echo "ok - kernel log clean"
fi
echo "NVDLA-GUEST-DONE"
poweroff -f
