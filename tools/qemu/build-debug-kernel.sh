#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the debug kernel of make check-debug once: Debian's linux-source-6.1
# (installed by tools/setup.sh) configured by "make ARCH=x86_64
# allnoconfig" plus tools/qemu/debug-kernel.config, installed into NVDLA_CACHE the way setup
# unpacks Debian's kernels (kernels/KVER/boot/vmlinuz-KVER and
# kernels/KVER/lib/modules/KVER, its build tree as lib/modules/KVER/build),
# so that run-guest.sh boots it and kmd.mk builds the module against it.
# Prints the kernel version. Rebuilds only when the fragment or this script
# changed.
#
# Usage: tools/qemu/build-debug-kernel.sh
# NVDLA_JOBS (default 2) parallel jobs; the build runs at nice 19.
set -eu

cd "$(dirname "$0")/../.."
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
fragment=$PWD/tools/qemu/debug-kernel.config
tarball=/usr/src/linux-source-6.1.tar.xz
top=$cache/debug
src=$top/linux-source-6.1
obj=$top/build
stamp=$top/config.sha256

sum=$(cat "$fragment" "$0" | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] &&
	[ -f "$top/kernelrelease" ]; then
	cat "$top/kernelrelease"
	exit 0
fi

[ -f "$tarball" ] || { echo "no $tarball (run tools/setup.sh)" >&2; exit 1; }
if [ ! -f "$src/Makefile" ]; then
	echo "build-debug-kernel: unpacking $tarball" >&2
	rm -rf "$src" "$top/unpack"
	mkdir -p "$top/unpack"
	tar -xJf "$tarball" -C "$top/unpack"
	mv "$top/unpack/linux-source-6.1" "$src"
	rmdir "$top/unpack"
fi

# kmake TARGET...: make in the kernel tree, niced, output in $obj. ARCH=x86_64
# from the first step: a plain allnoconfig is 32-bit, and the values it
# derives from that (FRAME_WARN=1024, which KASAN's stack redzones make the
# driver exceed) would stay after the fragment turns 64BIT on.
kmake() {
	nice -n 19 make -C "$src" O="$obj" ARCH=x86_64 -j"${NVDLA_JOBS:-2}" "$@" >&2
}

rm -f "$stamp" "$top/kernelrelease"
mkdir -p "$obj"
kmake allnoconfig
KCONFIG_CONFIG=$obj/.config "$src/scripts/kconfig/merge_config.sh" -m \
	-O "$obj" "$obj/.config" "$fragment" >&2
kmake olddefconfig
# An option Kconfig dropped (a missing dependency) would go unnoticed.
grep '^CONFIG_' "$fragment" | while read -r line; do
	grep -qx "$line" "$obj/.config" || {
		echo "build-debug-kernel: $line did not stick" >&2
		exit 1
	}
done
grep '^# CONFIG_.* is not set' "$fragment" | while read -r line; do
	opt=${line#\# }
	opt=${opt%% *}
	! grep -q "^$opt=" "$obj/.config" || {
		echo "build-debug-kernel: $opt is set" >&2
		exit 1
	}
done

echo "build-debug-kernel: building (nice 19, -j${NVDLA_JOBS:-2})" >&2
start=$(date +%s)
kmake bzImage modules
kver=$(make -s -C "$src" O="$obj" ARCH=x86_64 kernelrelease)
dir=$cache/kernels/$kver
rm -rf "$dir"
mkdir -p "$dir/boot"
kmake INSTALL_MOD_PATH="$dir" INSTALL_MOD_STRIP=1 modules_install
cp "$obj/arch/x86/boot/bzImage" "$dir/boot/vmlinuz-$kver"
rm -f "$dir/lib/modules/$kver/build" "$dir/lib/modules/$kver/source"
ln -s "$obj" "$dir/lib/modules/$kver/build"
/sbin/depmod -b "$dir" "$kver"
echo "build-debug-kernel: $kver built in $(($(date +%s) - start)) s" >&2
echo "$kver" >"$top/kernelrelease"
echo "$sum" >"$stamp"
echo "$kver"
