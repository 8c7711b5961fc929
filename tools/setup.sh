#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what the project needs from Debian 12 packages, idempotently.
#
#   tools/setup.sh build   compiler and libraries: enough to build and run
#   tools/setup.sh         everything the test suite needs as well: both
#                          kernels' headers, their images unpacked into the
#                          cache (never installed into /boot), QEMU, busybox,
#                          the kselftest harness and checkpatch.pl from the
#                          kernel source package, dt-schema, dtc and dkms,
#                          and the arm64 kernels for the emulated board
#
# NVDLA_CACHE (default ~/.cache/nvdla) holds the unpacked files. When all is
# there, nothing is downloaded and apt is not called.
set -eu

mode=${1:-all}
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}

build_pkgs="gcc make libc6-dev pkg-config libdrm-dev libjpeg-dev libpng-dev"
# perl: checkpatch.pl; sparse: the kernel's static checker; clang and its
# runtime: the libFuzzer targets; dt-schema, dtc and python3-yaml: the
# device-tree binding check; python3: that and the compiled-network corpus
# test; dkms: the DKMS build test; QEMU for arm64 and
# the cross compiler: the emulated board.
test_pkgs="linux-headers-amd64 linux-headers-6.12-amd64 qemu-system-x86
	busybox-static cpio kmod xz-utils ca-certificates perl linux-source-6.1
	sparse clang libclang-rt-14-dev dt-schema device-tree-compiler
	python3 python3-yaml dkms
	qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross"

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

# Kernel versions whose headers are installed, e.g. 6.1.0-56-amd64.
kernel_versions() {
	for d in /usr/src/linux-headers-*-amd64; do
		[ -d "$d" ] && echo "${d#/usr/src/linux-headers-}"
	done
}

# Unpack linux-image-<kver> (kernel and modules), the same package version
# as the headers the module is built against, and index its modules.
# depmod's modules.dep is written last: it marks a complete unpack.
unpack_kernel() {
	kver=$1
	dir=$cache/kernels/$kver
	[ -f "$dir/lib/modules/$kver/modules.dep" ] && return 0
	pkg=linux-image-$kver=$(dpkg-query -W -f='${Version}' "linux-headers-$kver")
	echo "setup: unpacking $pkg into $dir"
	tmp=$(mktemp -d)
	# The package lists may have been cleaned since the headers came.
	(cd "$tmp" && { apt-get download -q "$pkg" ||
		{ as_root apt-get update -q && apt-get download -q "$pkg"; }; })
	rm -rf "$dir"
	mkdir -p "$dir"
	dpkg-deb -x "$tmp"/linux-image-*.deb "$dir"
	rm -rf "$tmp"
	/sbin/depmod -b "$dir" "$kver"
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

# Unpack an emulated board's arm64 packages into $cache/board/KVER: Debian's
# arm64 kernel KVER (the release of amd64 headers installed here), its
# headers and busybox, fetched with an apt state of its own in
# $cache/board/apt (the system's apt stays amd64 only). The headers use the
# host's kbuild tools of their release; depmod's modules.dep, written last,
# marks a complete unpack.
unpack_board() {
	kver=$1
	dir=$cache/board/$kver
	[ -f "$dir/lib/modules/$kver/modules.dep" ] && return 0
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
	hdr=$dir/usr/src/linux-headers-$kver
	for link in scripts tools; do
		target=$(readlink "$hdr/$link")
		ln -sfn "/usr/lib/${target#*/lib/}" "$hdr/$link"
	done
	/sbin/depmod -b "$dir" "$kver"
}

# shellcheck disable=SC2086 # one word per package
install $build_pkgs
[ "$mode" = build ] && exit 0
ensure_security_suite
# shellcheck disable=SC2086
install $test_pkgs
for kver in $(kernel_versions); do
	unpack_kernel "$kver"
done
unpack_kernel_tools
rm -rf "$cache/board/root"	# the single board of earlier versions
for kver in $(kernel_versions); do
	unpack_board "${kver%-amd64}-arm64"
done
