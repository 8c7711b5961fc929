# shellcheck shell=dash
# SPDX-License-Identifier: MIT
# Sourced by the /init of both QEMU guests (guest-init.sh, board-init.sh),
# next to which run-guest.sh and run-board.sh put it in the initramfs.

# guest_start: busybox's commands on PATH, the file systems the tests use.
guest_start() {
	/bin/busybox --install -s /bin
	export PATH=/bin
	echo
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mount -t debugfs debugfs /sys/kernel/debug
	mount -t tmpfs tmpfs /tmp
}

# guest_load_deps: the modules nvdla.ko needs, in the dependency order of
# /modules.order; not vgem, which goes after nvdla so that the nvdla
# devices take the first DRM minors.
guest_load_deps() {
	while read -r m; do
		[ "$m" = vgem.ko ] && continue
		insmod "/modules/$m" || echo "not ok - insmod $m"
	done </modules.order
}

# guest_end: fail the run if the kernel log shows a warning, bug, oops,
# sanitizer or lockdep report; tell the host the guest got to its end (the
# last line it looks for) and power off.
guest_end() {
	if dmesg | grep -E 'WARNING:|BUG:|Oops|KASAN|UBSAN|circular locking|Call Trace' \
		>/tmp/bad; then
		echo "not ok - kernel log clean"
		sed 's/^/#   /' /tmp/bad
	else
		echo "ok - kernel log clean"
	fi
	echo "NVDLA-GUEST-DONE"
	poweroff -f
}
