#!/bin/sh
# SPDX-License-Identifier: MIT
# Boot Debian kernel KVER under QEMU (TCG) with a busybox initramfs holding
# nvdla.ko, the runtime, the guest tests and the test data; print the TAP
# lines the guest reports, prefixed with the kernel version.
#
# Usage: tools/qemu/run-guest.sh KVER BUILD_DIR
# Needs tools/setup.sh (kernel images in NVDLA_CACHE) and make module-all.
set -eu

kver=$1
build=$2
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
kroot=$cache/kernels/$kver
out=$build/qemu/$kver
root=$out/root
log=$build/qemu/$kver.log
timeout_s=${NVDLA_QEMU_TIMEOUT:-300}

fail() {
	echo "not ok - [$kver] $*"
	exit 1
}

[ -f "$kroot/boot/vmlinuz-$kver" ] || fail "no kernel image (run tools/setup.sh)"
[ -f "$build/kmod/$kver/nvdla.ko" ] || fail "no nvdla.ko (run make module-all)"

rm -rf "$out"
mkdir -p "$root/bin" "$root/modules" "$root/tests" "$root/proc" \
	"$root/sys" "$root/dev" "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
cp tools/qemu/guest-init.sh "$root/init"
cp "$build/kmod/$kver/nvdla.ko" "$root/nvdla.ko"

# The modules nvdla.ko needs, dependencies first, decompressed for insmod.
deps=$(/sbin/modinfo -F depends "$build/kmod/$kver/nvdla.ko" | tr ',' ' ')
for d in $deps; do
	/sbin/modprobe -d "$kroot" -S "$kver" --show-depends "$d" |
		awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' >"$out/modules.list"
: >"$root/modules.order"
while read -r m; do
	name=$(basename "$m" | sed 's/\.xz$//; s/\.zst$//')
	case "$m" in
	*.xz) xz -dc "$m" >"$root/modules/$name" ;;
	*.zst) zstd -qdc "$m" >"$root/modules/$name" ;;
	*) cp "$m" "$root/modules/$name" ;;
	esac
	echo "$name" >>"$root/modules.order"
done <"$out/modules.list"

# Programs with the shared libraries they load.
copy_program() {
	cp "$1" "$root/bin/"
	ldd "$1" | awk '/=>/ { print $3 } !/=>/ && /^\t\// { print $1 }' |
		while read -r lib; do
			[ -f "$lib" ] && cp --parents -L "$lib" "$root/"
		done
}
copy_program "$build/bin/nvdla_runtime"
for t in "$build"/guest-tests/* tests/guest/*.sh; do
	[ -f "$t" ] || continue
	case "$t" in
	*.sh) cp "$t" "$root/tests/" ;;
	*) copy_program "$t" && mv "$root/bin/$(basename "$t")" "$root/tests/" ;;
	esac
done
cp -r loadables "$root/loadables"
cp tests/golden-loadables "$root/tests/golden-loadables"
if [ -d ../shared/conformance/loadables ]; then
	mkdir -p "$root/shared"
	cp -r ../shared/conformance/loadables "$root/shared/loadables"
fi

(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out/initrd.gz"

status=0
timeout "$timeout_s" qemu-system-x86_64 -accel tcg -m 1024 -smp 2 \
	-nographic -no-reboot -kernel "$kroot/boot/vmlinuz-$kver" \
	-initrd "$out/initrd.gz" \
	-append "console=ttyS0 panic=-1 panic_on_warn=1 quiet" \
	</dev/null >"$log" 2>&1 || status=$?

tr -d '\r' <"$log" | grep -E '^(not )?ok ' | sed "s/^\(\(not \)\{0,1\}ok\)\( [0-9]*\)\{0,1\} -\{0,1\} */\1 - [$kver] /"
tr -d '\r' <"$log" | grep -q '^NVDLA-GUEST-DONE' ||
	fail "guest ran to the end (qemu status $status, see $log)"
