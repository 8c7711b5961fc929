#!/bin/sh
# SPDX-License-Identifier: MIT
# Build qemu-system-aarch64 with the NVDLA device (tools/qemu/device/) from
# Debian 12's own QEMU source package, once, into NVDLA_CACHE/qemu:
#
#   dl/      the source package, fetched with "apt-get source" through an
#            apt state of its own (apt/, a deb-src list of its own: the
#            system's apt configuration is never changed), unpacked with
#            Debian's patches applied by dpkg-source
#   src/     that tree with the device copied into hw/nvdla/ (with the
#            project's sim/ and sim/include/nvdla/) and device.patch applied
#   build/   configured for aarch64-softmmu only; build/qemu-system-aarch64
#
# build/stamp holds a hash of everything copied or applied: when it matches,
# nothing is done; otherwise the changed files are copied and ninja rebuilds
# what they touch. NVDLA_JOBS (default 2) bounds the build's parallelism.
#
# Usage: tools/qemu/build-qemu.sh
set -eu

cd "$(dirname "$0")/../.."
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
qdir=$cache/qemu
jobs=${NVDLA_JOBS:-2}
dev=tools/qemu/device
configure_args="--target-list=aarch64-softmmu --without-default-features
	--enable-fdt=system --disable-install-blobs --with-git-submodules=ignore"

# The model's headers: its own, those it shares with the engine scheduler,
# and the kernel headers it includes, for user space.
model_headers="sim/include/nvdla drivers/accel/nvdla/engine/include/nvdla
	include/user/linux"
# The inputs of the build, in a fixed order; their hash is the cache key.
inputs() {
	find "$dev" sim $model_headers tools/qemu/build-qemu.sh -type f |
		LC_ALL=C sort
}
key=$( (inputs | xargs cat; echo "$configure_args") | sha256sum | cut -c1-16)
# One build at a time in the cache (worktrees share it).
mkdir -p "$qdir"
exec 9>"$qdir/lock"
flock 9
if [ -x "$qdir/build/qemu-system-aarch64" ] &&
	[ "$(cat "$qdir/build/stamp" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
start=$(date +%s)

# The source package, with Debian's patches (the bare .orig tarball lacks
# what configure needs); "src.version" marks a complete unpack.
if [ ! -f "$qdir/dl/src.version" ]; then
	echo "build-qemu: fetching Debian's qemu source package"
	apt_dir=$qdir/apt
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" \
		"$apt_dir/sources.list.d"
	cat >"$apt_dir/sources.list" <<-LIST
	deb-src http://deb.debian.org/debian bookworm main
	deb-src http://deb.debian.org/debian bookworm-updates main
	deb-src http://deb.debian.org/debian-security bookworm-security main
	LIST
	set -- -q -o "Dir::Etc::SourceList=$apt_dir/sources.list" \
		-o "Dir::Etc::SourceParts=$apt_dir/sources.list.d" \
		-o "Dir::State::Lists=$apt_dir/lists" \
		-o "Dir::Cache=$apt_dir/cache" -o Dir::State::status=/dev/null
	apt-get "$@" update
	rm -rf "$qdir/dl"
	mkdir -p "$qdir/dl"
	(cd "$qdir/dl" && apt-get "$@" source qemu)
	tree=$(find "$qdir/dl" -mindepth 1 -maxdepth 1 -type d -name 'qemu-*')
	[ -f "$tree/configure" ] || { echo "build-qemu: no source tree" >&2; exit 1; }
	basename "$tree" >"$qdir/dl/src.version"
	rm -rf "$qdir/src" "$qdir/build"
fi

# The working tree: a copy of the unpacked source, patched once; the
# applied patch is kept to be reverted when ours changes.
src=$qdir/src
if [ ! -f "$src/.nvdla-copied" ]; then
	rm -rf "$src" "$qdir/build"
	cp -a "$qdir/dl/$(cat "$qdir/dl/src.version")" "$src"
	touch "$src/.nvdla-copied"
fi
if ! cmp -s "$dev/device.patch" "$src/.nvdla.patch"; then
	if [ -f "$src/.nvdla.patch" ]; then
		patch -s -d "$src" -p1 -R <"$src/.nvdla.patch"
		rm "$src/.nvdla.patch"
	fi
	patch -s -d "$src" -p1 <"$dev/device.patch"
	cp "$dev/device.patch" "$src/.nvdla.patch"
fi
# The device and the model, staged, then synced into the tree: only files
# that changed get a new time, so ninja recompiles only what they touch.
stage=$qdir/stage
rm -rf "$stage"
mkdir -p "$stage/hw/nvdla/include" "$stage/include/hw/nvdla"
cp "$dev"/*.c "$dev"/nvdla.h "$dev"/meson.build "$dev"/Kconfig "$stage/hw/nvdla/"
cp "$dev"/virt_nvdla.h "$stage/include/hw/nvdla/"
cp -r sim "$stage/hw/nvdla/sim"
for d in $model_headers; do
	mkdir -p "$stage/hw/nvdla/include/$(basename "$d")"
	cp "$d"/*.h "$stage/hw/nvdla/include/$(basename "$d")/"
done
(cd "$stage" && find . -type f) | while read -r f; do
	if ! cmp -s "$stage/$f" "$src/$f"; then
		mkdir -p "$(dirname "$src/$f")"
		cp "$stage/$f" "$src/$f"
	fi
done
for d in hw/nvdla include/hw/nvdla; do
	(cd "$src" && find "$d" -type f) | while read -r f; do
		[ -f "$stage/$f" ] || rm "$src/$f"
	done
done
# meson lists the model's sources when it configures: a file added or
# removed since the last build makes it configure again.
(cd "$stage" && find hw/nvdla -type f | LC_ALL=C sort) >"$qdir/files.new"
cmp -s "$qdir/files.new" "$qdir/files" || touch "$src/hw/nvdla/meson.build"
rm -rf "$stage"
mkdir -p "$qdir/build"
if [ ! -f "$qdir/build/build.ninja" ]; then
	echo "build-qemu: configuring"
	# shellcheck disable=SC2086 # one word per option
	(cd "$qdir/build" && "$src/configure" $configure_args) \
		>"$qdir/configure.log" 2>&1 ||
		{ tail -20 "$qdir/configure.log" >&2; exit 1; }
fi
echo "build-qemu: building qemu-system-aarch64 (-j$jobs)"
ninja -C "$qdir/build" -j "$jobs" qemu-system-aarch64 >"$qdir/build.log" 2>&1 ||
	{ grep -B5 -A10 -m3 'error' "$qdir/build.log" >&2 || tail -30 "$qdir/build.log" >&2; exit 1; }
echo "$key" >"$qdir/build/stamp"
mv "$qdir/files.new" "$qdir/files"
echo "build-qemu: $qdir/build/qemu-system-aarch64 built in $(($(date +%s) - start)) s"
