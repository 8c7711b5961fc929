#!/bin/sh
# SPDX-License-Identifier: MIT
# The in-tree driver for Debian's arm64 6.12 kernel, to run on the virtual
# platform (tools/qemu/run-vp.sh --intree): the upstream series applied to
# the kernel tree it was made against (tools/upstream/kernel-tree.sh, the
# same linux-source-6.12 release as the board's kernel), and built in its
# arm64 build directory (Debian's arm64 config with CONFIG_DRM_ACCEL=y):
#
#   drm.ko     Debian's arm64 kernel is built without CONFIG_DRM_ACCEL, so
#              its drm.ko has no accel_open() and the rest of the accel
#              core. The same source with CONFIG_DRM_ACCEL=y gives a
#              drm.ko that has them; the option changes no type that
#              drm.ko's exports use, so every symbol that Debian's drm.ko
#              exports keeps its CRC (checked: the build fails on any
#              difference), and Debian's modules that need drm.ko
#              (drm_dma_helper, gpu-sched, vgem) load against it.
#   nvdla.ko   the driver from the series alone (no compatibility layer),
#              linked against Debian's Module.symvers and that drm.ko's.
#
# drm.ko is built as an external module from the tree's sources (its
# Makefile's drm-* object lists), because Kbuild's single-module target
# cannot link without the vmlinux.o that a prepared tree has not built.
# The pair is cached in $cache/upstream/arm64-modules-<key>, the key
# hashing the series (less its commit hashes and dates) and the scripts
# that build it; prints that directory.
#
# Usage: tools/upstream/arm64-modules.sh SERIES_DIR
set -eu

root=$(git rev-parse --show-toplevel)
here=$root/tools/upstream
tree=$here/kernel-tree.sh
series=$(cd "${1:?SERIES_DIR}" && pwd)
up=${NVDLA_CACHE:-$HOME/.cache/nvdla}/upstream
drv=drivers/accel/nvdla

die() {
	echo "arm64-modules: $*" >&2
	exit 1
}

key=$( (sed '/^From [0-9a-f]\{40\} /d; /^Date: /d' "$series"/*.patch
	cat "$0" "$tree") | sha256sum | cut -c1-16)
dest=$up/arm64-modules-$key
if [ -f "$dest/nvdla.ko" ] && [ -f "$dest/drm.ko" ]; then
	echo "$dest"
	exit 0
fi

# The tree and its build directories are shared with tools/upstream/check.sh.
mkdir -p "$up"
exec 9>"$up/check.lock"
flock 9
src=$("$tree" src)
out=$("$tree" build arm64)
echo "arm64-modules: building drm.ko and nvdla.ko for $(cat "$out/include/config/kernel.release")" >&2

cd "$src"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f --detach base
git reset -q --hard base
git clean -fdxq -e .nvdla-base
for p in "$series"/*.patch; do
	git am -q "$p" || die "$p does not apply"
done

"$src/scripts/config" --file "$out/.config" -m DRM_ACCEL_NVDLA
"$tree" make arm64 olddefconfig
"$tree" make arm64 modules_prepare
for opt in CONFIG_DRM_ACCEL=y CONFIG_DRM_ACCEL_NVDLA=m; do
	grep -q "^$opt\$" "$out/.config" || die "$opt did not stay in $out/.config"
done

# drm.ko: its sources linked into a directory of its own, with a Kbuild
# of the objects drivers/gpu/drm/Makefile lists for it (the accel core,
# ../../accel/drm_accel.o there, is linked in beside them).
d=$out/nvdla-drm
rm -rf "$d"
mkdir -p "$d"
ln -s "$src"/drivers/gpu/drm/*.[ch] "$src/drivers/accel/drm_accel.c" "$d/"
{
	echo 'obj-m := drm.o'
	sed -n '/^drm-/,/^obj-/p' drivers/gpu/drm/Makefile |
		sed '/^obj-/d; s|\.\./\.\./accel/||'
} >"$d/Kbuild"
"$tree" make arm64 M="$d" modules
grep -q '	accel_open	' "$d/Module.symvers" || die "the drm.ko built has no accel_open"

# Every export of Debian's drm.ko, with its CRC, in the one built here.
grep '	drivers/gpu/drm/drm	' "$out/Module.symvers" | cut -f1,2 | sort >"$d/debian.crc"
cut -f1,2 "$d/Module.symvers" | sort >"$d/built.crc"
[ -s "$d/debian.crc" ] || die "no export of drm.ko in Debian's Module.symvers"
comm -23 "$d/debian.crc" "$d/built.crc" >"$d/differ.crc"
[ ! -s "$d/differ.crc" ] ||
	die "$(wc -l <"$d/differ.crc") exports of Debian's drm.ko differ in the one built here: $(head -3 "$d/differ.crc" | tr '\t\n' '  ')"

# nvdla.ko, with the accel core's symbols from the drm.ko built here.
"$tree" make arm64 M="$src/$drv" KBUILD_EXTRA_SYMBOLS="$d/Module.symvers" modules

rm -rf "$up"/arm64-modules-*
mkdir -p "$dest.tmp"
cp "$d/drm.ko" "$src/$drv/nvdla.ko" "$dest.tmp/"
mv "$dest.tmp" "$dest"
git clean -fdxq "$drv"
echo "$dest"
