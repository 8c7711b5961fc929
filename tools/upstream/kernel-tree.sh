#!/bin/sh
# SPDX-License-Identifier: MIT
# The kernel tree the upstream series is made against and checked in,
# prepared once and cached:
#
#   tools/upstream/kernel-tree.sh src          the source of Debian's
#       linux-source-6.12 (installed by tools/setup.sh), unpacked into
#       $cache/upstream/linux-6.12 as a git repository of one commit
#       "Debian linux-source-6.12 <version>", tagged "base"
#   tools/upstream/kernel-tree.sh build ARCH   a build directory for that
#       tree, $cache/upstream/build-ARCH (ARCH amd64 or arm64): Debian's
#       config of the same kernel, olddefconfig, modules_prepare, and
#       Debian's Module.symvers, so that an in-tree module built there
#       carries the CRCs of Debian's kernel
#   tools/upstream/kernel-tree.sh make ARCH ARGS...   make ARGS in that
#       build directory, with its compiler and Debian's release string
#
# Prints the directory it made (or found). Every step is skipped when its
# mark is there, so a second run costs nothing. Heavy steps run niced.
set -eu

cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
up=$cache/upstream
src=$up/linux-6.12
tarball=/usr/src/linux-source-6.12.tar.xz
jobs=${JOBS:-2}
# Raised when make_build changes what it prepares, so that the build
# directories are made again.
prep_version=5

die() {
	echo "kernel-tree: $*" >&2
	exit 1
}

# The version of the installed linux-source-6.12, e.g. 6.12.117-1~deb12u1.
source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null ||
		die "linux-source-6.12 is not installed (run tools/setup.sh)"
}

make_src() {
	ver=$(source_version)
	if [ -f "$src/.nvdla-base" ] && [ "$(cat "$src/.nvdla-base")" = "$ver" ]; then
		echo "$src"
		return 0
	fi
	[ -f "$tarball" ] || die "no $tarball (run tools/setup.sh)"
	echo "kernel-tree: unpacking $tarball into $src" >&2
	rm -rf "$src" "$up"/build-*
	mkdir -p "$up"
	tmp=$(mktemp -d "$up/unpack.XXXXXX")
	nice -n 10 tar -xJf "$tarball" -C "$tmp"
	mv "$tmp/linux-source-6.12" "$src"
	rmdir "$tmp"
	(
		cd "$src"
		git init -q -b base-branch .
		git config user.name "NVDLA upstream check"
		git config user.email "nvdla-upstream@localhost"
		git config gc.auto 0
		# -f: Debian's .gitignore ignores everything at the top level.
		nice -n 10 git add -f -A
		GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" \
			GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
			git commit -q -m "Debian linux-source-6.12 $ver"
		git tag base
	)
	# The mark, untracked and ignored by git (.git/info/exclude).
	echo ".nvdla-base" >>"$src/.git/info/exclude"
	echo "$ver" >"$src/.nvdla-base"
	echo "$src"
}

# Debian's files of the 6.12 kernel for ARCH, unpacked by tools/setup.sh.
debian_kernel() {
	case $1 in
	amd64) find "$cache/kernels" -mindepth 1 -maxdepth 1 -name '6.12.*-amd64' | head -1 ;;
	arm64) find "$cache/board" -mindepth 1 -maxdepth 1 -name '6.12.*-arm64' | head -1 ;;
	*) die "unknown ARCH $1 (amd64, arm64)" ;;
	esac
}

# kmake ARCH ARGS...: make in the tree for ARCH, with Debian's compiler
# and the release string of Debian's kernel (the vermagic it checks):
# 6.12.117+deb12-amd64 is SUBLEVEL 117 and LOCALVERSION +deb12-amd64,
# whatever point release the source is (Debian keeps a kernel's release
# string across the point releases of its ABI: 6.12.118's is 6.12.117's).
kmake() {
	a=$1
	shift
	case $a in
	amd64) set -- ARCH=x86_64 CC=gcc-12 "$@" ;;
	arm64) set -- ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- "$@" ;;
	esac
	release=$(cat "$up/build-$a/.nvdla-release")
	numbers=${release%%[+-]*}
	nice -n 10 make -s -C "$src" O="$up/build-$a" -j"$jobs" \
		SUBLEVEL="${numbers##*.}" LOCALVERSION="${release#"$numbers"}" "$@"
}

make_build() {
	a=$1
	make_src >/dev/null
	deb=$(debian_kernel "$a")
	[ -n "$deb" ] || die "no Debian 6.12 $a kernel in the cache (run tools/setup.sh)"
	kver=${deb##*/}
	out=$up/build-$a
	config=$deb/boot/config-$kver
	symvers=$deb/usr/src/linux-headers-$kver/Module.symvers
	[ -f "$config" ] && [ -f "$symvers" ] || die "no config or Module.symvers in $deb"
	mark="$(source_version) $kver $(cksum <"$config") prep-$prep_version"
	if [ -f "$out/.nvdla-prepared" ] && [ "$(cat "$out/.nvdla-prepared")" = "$mark" ]; then
		echo "$out"
		return 0
	fi
	echo "kernel-tree: configuring and preparing $out (modules_prepare)" >&2
	rm -rf "$out"
	mkdir -p "$out"
	echo "$kver" >"$out/.nvdla-release"
	cp "$config" "$out/.config"
	# Debian's signing keys are not in the source.
	"$src/scripts/config" --file "$out/.config" \
		--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
		--set-str MODULE_SIG_KEY "certs/signing_key.pem" \
		-d MODULE_SIG_ALL
	# Debug information and BTF slow the build down, and a module needs
	# neither to be checked. But DEBUG_INFO_BTF_MODULES adds fields to
	# struct module, which Debian's kernel loads only at its own size:
	# arm64's modules run on the virtual platform
	# (tools/upstream/arm64-modules.sh), so arm64 keeps Debian's choice.
	[ "$a" = arm64 ] || "$src/scripts/config" --file "$out/.config" \
		-d DEBUG_INFO_DWARF5 -d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
		-d DEBUG_INFO_DWARF4 -e DEBUG_INFO_NONE -d DEBUG_INFO_BTF \
		-d DEBUG_INFO_BTF_MODULES
	# What the driver depends on and Debian's config of this
	# architecture lacks. amd64 has no device tree (CONFIG_OF), and
	# forcing it on would leave the module needing symbols Debian's kernel
	# does not export: COMPILE_TEST instead, under which the driver builds
	# with the OF stubs. arm64 lacks the accel subsystem: turned on, which
	# changes drm.ko, so a module built here cannot load into Debian's
	# arm64 kernel without a drm.ko built here too.
	case $a in
	amd64) "$src/scripts/config" --file "$out/.config" -e COMPILE_TEST ;;
	arm64) "$src/scripts/config" --file "$out/.config" -e DRM_ACCEL ;;
	esac
	kmake "$a" olddefconfig
	kmake "$a" modules_prepare
	cp "$symvers" "$out/Module.symvers"
	[ "$(cat "$out/include/config/kernel.release")" = "$kver" ] ||
		die "release $(cat "$out/include/config/kernel.release"), not $kver"
	echo "$mark" >"$out/.nvdla-prepared"
	echo "$out"
}

case ${1:-} in
src) make_src ;;
build) make_build "${2:?ARCH}" ;;
make)
	# make ARCH ARGS...: make in the prepared build directory of ARCH.
	shift
	a=${1:?ARCH}
	make_build "$a" >/dev/null
	shift
	kmake "$a" "$@" ;;
*) echo "usage: $0 src | build amd64|arm64 | make amd64|arm64 ARGS..." >&2; exit 2 ;;
esac
