# shellcheck shell=sh disable=SC2154 # the variables of the sourcing script
# SPDX-License-Identifier: MIT
# Sourced by run-guest.sh and run-board.sh, from the repository root: what
# both do on the host to boot a guest and read its result. Needs $kver,
# $out (the guest's build directory), $root ($out/root), $ko (nvdla.ko),
# $kroot (the kernel's unpacked tree), $log (the console log) and
# $timeout_s; guest_report also $status (QEMU's exit status).

# fail TEXT: a "not ok" line for this kernel, and exit.
fail() {
	echo "not ok - [$kver] $*"
	exit 1
}

# root_start BUSYBOX INIT: a new root with BUSYBOX, INIT as /init next to
# the helpers it sources (guest-lib.sh), nvdla.ko and nvdla_sim.ko (not
# for the in-tree driver, $intree, which has no virtual device).
root_start() {
	rm -rf "$out"
	mkdir -p "$root/bin" "$root/modules" "$root/tests" "$root/proc" \
		"$root/sys" "$root/dev" "$root/tmp"
	cp "$1" "$root/bin/busybox"
	cp "$2" "$root/init"
	cp tools/qemu/guest-lib.sh "$root/guest-lib.sh"
	cp "$ko" "$root/nvdla.ko"
	# the virtual device, built beside the out-of-tree driver only
	[ -z "${intree:-}" ] || return 0
	cp "$(dirname "$ko")/nvdla_sim.ko" "$root/nvdla_sim.ko"
}

# root_modules [MODULE...]: drm, what nvdla.ko depends on and each MODULE,
# each after its own dependencies (as modprobe would load them),
# decompressed (busybox insmod reads plain .ko), in /modules.order.
root_modules() {
	for d in drm $(/sbin/modinfo -F depends "$ko" | tr ',' ' ') "$@"; do
		/sbin/modprobe -d "$kroot" -S "$kver" --show-depends "$d" |
			awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++' >"$out/modules.list"
	while read -r m; do
		name=$(basename "$m" .xz)
		case "$m" in
		*.xz) xz -dc "$m" >"$root/modules/$name" ;;
		*) cp "$m" "$root/modules/$name" ;;
		esac
		echo "$name"
	done <"$out/modules.list" >"$root/modules.order"
}

# root_pack: the root as $out/initrd.gz.
root_pack() {
	(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out/initrd.gz"
}

# guest_report: print the guest's TAP lines prefixed with the kernel
# version; exit 0 if the guest reached its end, else fail, showing why it
# stopped (panic_on_warn makes any kernel warning end the guest).
guest_report() {
	tr -d '\r' <"$log" >"$out/console"
	grep -E '^(not )?ok ' "$out/console" |
		sed "s/^\(\(not \)\{0,1\}ok\)\( [0-9]*\)\{0,1\} -\{0,1\} */\1 - [$kver] /"
	grep -q '^NVDLA-GUEST-DONE' "$out/console" && exit 0
	[ "$status" -eq 124 ] && fail "guest timed out after $timeout_s s"
	grep -E 'Kernel panic|WARNING:|BUG:|Oops|Call Trace|RIP:|pc :' \
		"$out/console" | head -20 | sed 's/^/#   /'
	fail "guest stopped before the end (qemu status $status)"
}
