#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what the project needs from Debian 12 packages, idempotently.
#
#   tools/setup.sh build     compiler and libraries: enough to build and run
#   tools/setup.sh           everything the test suite needs as well: QEMU,
#                            busybox, the kselftest harness and checkpatch.pl
#                            from the kernel source package, dt-schema, dtc,
#                            dkms, the arm64 kernels for the emulated board,
#                            the cross compilers, qemu-user and the arm64 and
#                            riscv64 sysroots of make cross (tools/sysroot.sh),
#                            and QEMU with the NVDLA device, built from
#                            Debian's source package into the cache
#   tools/setup.sh packages  print the packages it installs, one a line
#
# Debian's kernels (the 6.1 and 6.12 that linux-headers-amd64 and
# linux-headers-6.12-amd64 name), their headers and the headers' kernel
# specific dependencies (linux-headers-*-common, linux-kbuild-*) are
# downloaded and unpacked into the cache, never installed: installing a
# linux-image adds a kernel the boot loader starts and runs
# update-initramfs. Only ordinary packages (compilers, libraries, tools)
# are installed.
#
# NVDLA_CACHE (default ~/.cache/nvdla) holds the unpacked files. When all is
# there, nothing is downloaded or installed.
set -eu

mode=${1:-all}
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}

build_pkgs="gcc make libc6-dev pkg-config libdrm-dev libjpeg-dev libpng-dev"
# nvdla_compile: ONNX's onnx.proto (libonnx-dev) compiled by protoc-c.
build_pkgs="$build_pkgs protobuf-c-compiler libprotobuf-c-dev libonnx-dev"
# perl: checkpatch.pl; sparse: the kernel's static checker; clang and its
# runtime: the libFuzzer targets; dt-schema, dtc and python3-yaml: the
# device-tree binding check; python3: that and the compiled-network corpus
# test; dkms: the DKMS build test; QEMU for arm64 and
# the cross compiler: the emulated board; gcc-12, libelf1, libssl3 and
# pahole: what the unpacked kernel headers need (the compiler Debian's
# kernels were built with, the libraries of the kbuild programs); flex,
# bison, bc and libelf-dev: the debug kernel of make check-debug; libssl-dev:
# that and the arm64 in-tree driver of make check-vp-intree (the kernel
# tree's host program sign-file);
# python3-torch, -numpy, -sklearn and -onnx: the models of tools/models
# (the digit demo's training, LeNet and ResNet-18, their float references);
# python3-torchvision: the torchvision models of the compiler's zoo test.
# python3-numpy and python3-pytest: the Python module's tests.
# libsystemc-dev and g++: NVIDIA's C model for make check-cmodel; the Perl
# modules: nvdla/hw's generators for its nv_small C model and RTL;
# verilator: that RTL (docs/recording.md). The cross builds (make cross):
# the riscv64 cross compiler beside the arm64 one, qemu-user-static to run
# both, and what tools/sysroot.sh builds riscv64's libraries with (dpkg-dev
# for apt-get source, cmake, meson and ninja-build). dpkg-dev, meson,
# ninja-build, libglib2.0-dev, libpixman-1-dev and libfdt-dev: QEMU with the
# NVDLA device, built from Debian's source package (tools/qemu/build-qemu.sh).
# git, linux-source-6.12, yamllint and python3-sphinx: make upstream-series
# (tools/upstream/), the series written with git format-patch and checked
# in Debian's 6.12 source, whose
# dt_binding_check lints with yamllint and whose documentation Sphinx
# builds. build-essential, debhelper, dh-python, dh-dkms and lintian: the
# Debian packages
# (debian/, tests/unit/packaging/test_debian.sh).
test_pkgs="qemu-system-x86 busybox-static cpio kmod xz-utils ca-certificates
	perl linux-source-6.1 sparse clang libclang-rt-14-dev dt-schema
	device-tree-compiler python3 python3-yaml dkms
	qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	gcc-12 libelf1 libssl3 pahole flex bison bc libelf-dev libssl-dev
	python3-torch python3-torchvision python3-numpy python3-sklearn python3-onnx
	python3-pytest
	libsystemc-dev g++ libyaml-perl libcapture-tiny-perl libxml-simple-perl
	verilator gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user-static
	dpkg-dev cmake meson ninja-build libglib2.0-dev libpixman-1-dev
	libfdt-dev git linux-source-6.12 yamllint python3-sphinx
	build-essential debhelper dh-python dh-dkms lintian"
# The meta packages that name Debian's kernels the driver is tested on
# (6.1 and 6.12): read from the package lists, never installed.
kernel_metas="linux-headers-amd64 linux-headers-6.12-amd64"

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

# Debian 12's 6.12 kernel comes from the security suite, which a minimal
# system's sources may lack.
ensure_security_suite() {
	grep -rqs bookworm-security /etc/apt/sources.list \
		/etc/apt/sources.list.d/ && return 0
	echo "setup: adding bookworm-security to the apt sources"
	echo "deb http://deb.debian.org/debian-security bookworm-security main" |
		as_root tee /etc/apt/sources.list.d/nvdla-security.list >/dev/null
	as_root apt-get update -q
}

install() {
	need=$(missing "$@" | tr '\n' ' ')
	[ -z "$need" ] && return 0
	echo "setup: installing $need"
	as_root apt-get update -q
	# shellcheck disable=SC2086 # one word per package
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends $need
}

# depends PKG: the package names PKG's candidate version depends on, one a
# line (alternatives and versions dropped), from the package lists.
depends() {
	apt-cache show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Depends: //p' | tr ',' '\n' |
		sed 's/^ *//; s/[ |].*//'
}

# Kernel versions the meta packages name, e.g. 6.1.0-56-amd64; the package
# lists are fetched once if they lack them (a fresh system).
kernel_versions() {
	for meta in $kernel_metas; do
		if ! apt-cache show --no-all-versions "$meta" >/dev/null 2>&1; then
			as_root apt-get update -q >&2
		fi
		depends "$meta" | sed -n 's/^linux-headers-\(.*-amd64\)$/\1/p'
	done
}

# unpack DIR PKG...: download PKG... (candidate versions) into a temporary
# directory and unpack each into DIR (apt-get download installs nothing);
# "package version" of each in DIR/packages.part.
unpack() {
	dir=$1
	shift
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -q "$@")
	mkdir -p "$dir"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$dir"
		dpkg-deb -W "$deb" >>"$dir/packages.part"
	done
	rm -rf "$tmp"
}

# Unpack Debian's kernel KVER into $cache/kernels/KVER: linux-image-KVER
# (kernel and modules), linux-headers-KVER and the kernel-specific packages
# it depends on (linux-headers-*-common, linux-kbuild-*). The headers name
# each other by absolute path (the Makefile includes
# /usr/src/linux-headers-*-common/Makefile); fix_headers points them into
# the cache, and lib/modules/KVER/build at the headers, so that the module
# builds with KDIR=$cache/kernels/KVER/lib/modules/KVER/build. The file
# "packages" (what was unpacked, with versions), written last, marks a
# complete unpack.
unpack_kernel() {
	kver=$1
	dir=$cache/kernels/$kver
	[ -f "$dir/packages" ] && return 0
	pkgs="linux-image-$kver linux-headers-$kver $(depends "linux-headers-$kver" |
		grep -E '^linux-(headers|kbuild)-' | tr '\n' ' ')"
	echo "setup: unpacking $pkgs into $dir"
	rm -rf "$dir"
	# shellcheck disable=SC2086 # one word per package
	unpack "$dir" $pkgs
	fix_headers "$dir" "$kver" "$dir"
	ln -sfn "../../../usr/src/linux-headers-$kver" "$dir/lib/modules/$kver/build"
	/sbin/depmod -b "$dir" "$kver"
	mv "$dir/packages.part" "$dir/packages"
}

# fix_headers DIR KVER COMMON: in DIR's linux-headers-KVER, the include of
# its -common tree and the scripts and tools links (to linux-kbuild-*) made
# to point into COMMON, the unpacked tree that holds -common and kbuild.
fix_headers() {
	hdr=$1/usr/src/linux-headers-$2
	sed -i "s|^include /usr/src/|include $3/usr/src/|" "$hdr/Makefile"
	for link in scripts tools; do
		target=$(readlink "$hdr/$link")
		ln -sfn "$3/usr/lib/${target##*/lib/}" "$hdr/$link"
	done
}

# The kselftest harness and checkpatch.pl, streamed out of the source
# tarball (no Debian package ships them on their own).
unpack_kernel_tools() {
	[ -f "$cache/kselftest/kselftest_harness.h" ] &&
		[ -f "$cache/checkpatch/checkpatch.pl" ] && return 0
	echo "setup: extracting kselftest and checkpatch from linux-source-6.1"
	tmp=$(mktemp -d)
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$tmp" --wildcards \
		'*/tools/testing/selftests/kselftest_harness.h' \
		'*/tools/testing/selftests/kselftest.h' \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	mkdir -p "$cache/kselftest" "$cache/checkpatch"
	cp "$tmp"/*/scripts/checkpatch.pl "$tmp"/*/scripts/spelling.txt \
		"$tmp"/*/scripts/const_structs.checkpatch "$cache/checkpatch/"
	# The harness header last: make treats it as the mark of a full unpack.
	cp "$tmp"/*/tools/testing/selftests/kselftest.h "$cache/kselftest/"
	cp "$tmp"/*/tools/testing/selftests/kselftest_harness.h "$cache/kselftest/"
	rm -rf "$tmp"
}

# Unpack an emulated board's arm64 packages into $cache/board/KVER-arm64:
# Debian's arm64 kernel of the same release as the amd64 kernel KVER-amd64,
# its headers and busybox, fetched with an apt state of its own in
# $cache/board/apt (the system's apt stays amd64 only). The headers use the
# -common tree and the (amd64) kbuild tools unpacked with KVER-amd64;
# depmod's modules.dep, written last, marks a complete unpack.
unpack_board() {
	kver=$1-arm64
	dir=$cache/board/$kver
	if [ ! -f "$dir/lib/modules/$kver/modules.dep" ]; then
		echo "setup: unpacking the arm64 board kernel $kver into $dir"
		apt_dir=$cache/board/apt
		mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
		set -- -q -o "Dir::State::Lists=$apt_dir/lists" \
			-o "Dir::Cache=$apt_dir/cache" -o Dir::State::status=/dev/null \
			-o APT::Architecture=arm64 -o APT::Architectures::=arm64
		apt-get "$@" update
		tmp=$(mktemp -d)
		(cd "$tmp" && apt-get "$@" download "linux-image-$kver" \
			"linux-headers-$kver" busybox-static)
		rm -rf "$dir"
		mkdir -p "$dir"
		for deb in "$tmp"/*.deb; do
			dpkg-deb -x "$deb" "$dir"
		done
		rm -rf "$tmp"
		/sbin/depmod -b "$dir" "$kver"
	fi
	# Idempotent, and redone for boards unpacked by earlier versions
	# (which pointed at the installed headers).
	fix_headers "$dir" "$kver" "$cache/kernels/${kver%-arm64}-amd64"
}

case $mode in
packages)
	# shellcheck disable=SC2086 # one word per package
	printf '%s\n' $build_pkgs $test_pkgs
	exit 0 ;;
build|all) ;;
*)
	echo "usage: tools/setup.sh [build|packages]" >&2
	exit 2 ;;
esac
# shellcheck disable=SC2086 # one word per package
install $build_pkgs
[ "$mode" = build ] && exit 0
ensure_security_suite
# shellcheck disable=SC2086
install $test_pkgs
kvers=$(kernel_versions)
[ -n "$kvers" ] || { echo "setup: no kernel named by $kernel_metas" >&2; exit 1; }
for kver in $kvers; do
	unpack_kernel "$kver"
done
unpack_kernel_tools
rm -rf "$cache/board/root"	# the single board of earlier versions
for kver in $kvers; do
	unpack_board "${kver%-amd64}"
done
for arch in $(sed -n 's/^\([a-z0-9]*\) .*/\1/p' "$(dirname "$0")/cross-targets"); do
	"$(dirname "$0")/sysroot.sh" "$arch"
done
# QEMU with the NVDLA device, built once (again when the device changes).
"$(dirname "$0")/qemu/build-qemu.sh"
