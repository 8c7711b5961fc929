#!/bin/sh
# SPDX-License-Identifier: MIT
# The target libraries of a cross build (make cross, docs/testing.md), in
# a sysroot under the cache, idempotently:
#
#   tools/sysroot.sh arm64      Debian 12's arm64 packages, unpacked
#   tools/sysroot.sh riscv64    built from Debian 12's source packages
#
# Only the libraries the build links come from here (libdrm, libjpeg,
# libpng with zlib, protobuf-c), laid out as on the target
# (SYSROOT/usr/include, SYSROOT/usr/lib/TRIPLET); the C library is the
# cross compiler's own (libc6-dev-*-cross, which tools/setup.sh installs).
# Both use an apt state of their own in NVDLA_CACHE/sysroot/apt, with its
# own sources list: the system's apt configuration stays as it is (no
# foreign architecture is added). Debian 12 publishes no riscv64 binary
# packages (riscv64 became a release architecture with Debian 13), so the
# riscv64 libraries are compiled from bookworm's sources with the cross
# compiler. The file SYSROOT/packages (what it holds, with versions),
# written last, marks a complete sysroot: a second run downloads nothing.
set -eu

arch=${1:-}
cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
case $arch in
arm64) triplet=aarch64-linux-gnu ;;
riscv64) triplet=riscv64-linux-gnu ;;
*)
	echo "usage: tools/sysroot.sh arm64|riscv64" >&2
	exit 2 ;;
esac
root=$cache/sysroot/$arch
[ -f "$root/packages" ] && exit 0

# The private apt state: Debian 12's archive for arm64 binaries, and for
# sources (those of the security suite are not served from its mirror
# here), read with the host's keyring.
apt_dir=$cache/sysroot/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" \
	"$apt_dir/sources.list.d"
archive="http://deb.debian.org/debian"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$apt_dir/sources.list" <<EOF
deb [arch=arm64 signed-by=$keyring] $archive bookworm main
deb [arch=arm64 signed-by=$keyring] $archive bookworm-updates main
deb [arch=arm64 signed-by=$keyring] http://deb.debian.org/debian-security bookworm-security main
deb-src [signed-by=$keyring] $archive bookworm main
deb-src [signed-by=$keyring] $archive bookworm-updates main
EOF
set -- -q -o "Dir::Etc::SourceList=$apt_dir/sources.list" \
	-o "Dir::Etc::SourceParts=$apt_dir/sources.list.d" \
	-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" \
	-o Dir::State::status=/dev/null \
	-o APT::Architecture=arm64 -o APT::Architectures::=arm64
echo "setup: making the $arch sysroot in $root"
apt-get "$@" update
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$root"
mkdir -p "$root"

# The libraries' runtime and development packages, with zlib for libpng.
if [ "$arch" = arm64 ]; then
	(cd "$tmp" && apt-get "$@" download libdrm2 libdrm-dev \
		libjpeg62-turbo libjpeg62-turbo-dev libpng16-16 libpng-dev \
		zlib1g zlib1g-dev libprotobuf-c1 libprotobuf-c-dev)
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$root"
		dpkg-deb -W "$deb" >>"$root/packages.part"
	done
	mv "$root/packages.part" "$root/packages"
	exit 0
fi

# riscv64: each source package configured by its own build system for the
# target, installed into the sysroot with the target's paths; shared
# libraries only, their tests and programs left out.
jobs=${NVDLA_JOBS:-2}
cc=$triplet-gcc
cpu=${triplet%%-*}
libdir=/usr/lib/$triplet
(cd "$tmp" && apt-get "$@" source zlib libpng1.6 libjpeg-turbo libdrm \
	protobuf-c >/dev/null)
src() { find "$tmp" -mindepth 1 -maxdepth 1 -type d -name "$1-*"; }
# autotools: --host makes it a cross build; the sysroot's headers and
# libraries (zlib for libpng) are found through CPPFLAGS and LDFLAGS.
autotools() {
	(cd "$1" && shift && ./configure -q --host="$triplet" --prefix=/usr \
		--libdir="$libdir" --disable-static \
		CPPFLAGS="-I$root/usr/include" LDFLAGS="-L$root$libdir" "$@" &&
		make -s -j"$jobs" && make -s install DESTDIR="$root")
}

(cd "$(src zlib)" && CHOST=$triplet ./configure --prefix=/usr \
	--libdir="$libdir" --shared >/dev/null &&
	make -s -j"$jobs" && make -s install DESTDIR="$root")
autotools "$(src libpng1.6)"
autotools "$(src protobuf-c)" --disable-protoc
(cd "$(src libjpeg-turbo)" && cmake -S . -B build -DCMAKE_SYSTEM_NAME=Linux \
	-DCMAKE_SYSTEM_PROCESSOR="$cpu" -DCMAKE_C_COMPILER="$cc" \
	-DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_INSTALL_LIBDIR="$libdir" \
	-DENABLE_STATIC=0 -DWITH_TURBOJPEG=0 >/dev/null &&
	cmake --build build -j "$jobs" >/dev/null &&
	DESTDIR="$root" cmake --install build >/dev/null)
cat >"$tmp/cross.ini" <<EOF
[binaries]
c = '$cc'
ar = '$triplet-ar'
strip = '$triplet-strip'
[host_machine]
system = 'linux'
cpu_family = '$cpu'
cpu = '$cpu'
endian = 'little'
EOF
# libdrm: the core library alone (no vendor drivers, tests or man pages).
(cd "$(src libdrm)" && meson setup build --cross-file "$tmp/cross.ini" \
	--prefix=/usr --libdir="$libdir" --buildtype=release \
	-Dintel=disabled -Dradeon=disabled -Damdgpu=disabled \
	-Dnouveau=disabled -Dvmwgfx=disabled -Domap=disabled \
	-Dexynos=disabled -Dfreedreno=disabled -Dtegra=disabled \
	-Dvc4=disabled -Detnaviv=disabled -Dcairo-tests=disabled \
	-Dman-pages=disabled -Dvalgrind=disabled -Dtests=false \
	-Dudev=false >/dev/null &&
	ninja -C build -j "$jobs" >/dev/null &&
	DESTDIR="$root" meson install -C build --quiet)
# libtool archives name build paths; the build links the .so files.
find "$root" -name '*.la' -delete
for dsc in "$tmp"/*.dsc; do
	sed -n 's/^Source: //p; s/^Version: //p' "$dsc" | paste -sd' '
done >"$root/packages"
