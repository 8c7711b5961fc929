#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian packages (debian/): dpkg-buildpackage -us -uc -b on a copy of
# the tree in a temporary directory (the packages, .buildinfo and .changes
# land beside the copy, in that directory), lintian on the .changes without
# errors, the library's symbols file checked (a symbol more or less fails
# dpkg-gensymbols -c4), then the packages unpacked with dpkg-deb -x into a
# fresh directory (nothing is installed on the system): examples/classify.c
# built outside the tree with pkg-config's flags alone and
# examples/classify.py with the unpacked module classify the digit demo,
# compiled by the unpacked nvdla_compile, as class 5. nvdla-dkms is checked
# by its contents and its maintainer scripts calling dkms, not run. Takes a
# few minutes (the whole build); skipped without dpkg-buildpackage or the
# build dependencies. Run from the repository root.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
show() {
	sed 's/^/# /' "$1"
}

if ! command -v dpkg-buildpackage >/dev/null; then
	echo "ok 1 - Debian packages # SKIP dpkg-buildpackage missing" \
		"(dpkg-dev, tools/setup.sh)"
	exit 0
fi
if ! unmet=$(dpkg-checkbuilddeps debian/control 2>&1); then
	echo "ok 1 - Debian packages # SKIP $(echo "$unmet" | sed -n \
		's/.*error: //p' | head -1) (tools/setup.sh)"
	exit 0
fi

# A build of Debian's own tools: no make of the caller's (make check)
# around it, no python3 but Debian's.
unset MAKEFLAGS MFLAGS MAKELEVEL
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
here=$(pwd)
version=$(dpkg-parsechangelog -S Version)
upstream=${version%-*}
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)

# The copy: the tree as it is, without builds or git.
src=$tmp/src/nvdla-$upstream
mkdir -p "$src"
tar -c --exclude=./build --exclude=./.git --exclude=./debian/build \
	--exclude=./debian/tmp --exclude=./debian/.debhelper . | tar -x -C "$src"
start=$(date +%s)
(cd "$src" && nice -n 10 dpkg-buildpackage -us -uc -b -J"$(nproc)") \
	>"$tmp/build.log" 2>&1
status=$?
[ $status -eq 0 ] || show "$tmp/build.log"
ok $status "dpkg-buildpackage -us -uc -b, $(($(date +%s) - start)) s"

debs=
missing=
for p in libnvdla-runtime1:$arch libnvdla-runtime-dev:$arch \
	nvdla-tools:$arch python3-nvdla:all nvdla-dkms:all; do
	f=$tmp/src/${p%:*}_${version}_${p#*:}.deb
	if [ -f "$f" ]; then debs="$debs $f"; else missing="$missing ${f##*/}"; fi
done
[ -z "$missing" ]
ok $? "the five packages built${missing:+, missing:$missing}"
if [ $status -ne 0 ]; then
	exit 1
fi
changes=$tmp/src/nvdla_${version}_$arch.changes
nice -n 10 lintian "$changes" >"$tmp/lintian.log" 2>&1
errors=$(grep -c '^E:' "$tmp/lintian.log")
show "$tmp/lintian.log"
[ -f "$changes" ] && [ "$errors" -eq 0 ]
ok $? "lintian: no errors ($(grep -c '^W:' "$tmp/lintian.log") warnings)"

# The symbols file went into the library's package and was checked
# against the library; one symbol fewer or one more in it fails.
dpkg-deb -I "$tmp/src/libnvdla-runtime1_${version}_$arch.deb" symbols \
	>"$tmp/symbols" 2>&1 &&
	[ "$(grep -c '@Base' "$tmp/symbols")" = \
		"$(grep -c '@Base' debian/libnvdla-runtime1.symbols)" ] &&
	grep -q 'dh_makeshlibs.*-c4' "$tmp/build.log"
ok $? "libnvdla-runtime1 carries the symbols file, checked with -c4"
# As dh_makeshlibs runs it: the version of the changelog (a symbol of
# the version being built would be forgiven its loss).
gensym() {
	(cd "$src" && dpkg-gensymbols -plibnvdla-runtime1 \
		-Pdebian/libnvdla-runtime1 -c4 -I"$1" -O"$tmp/symbols.out") \
		>"$tmp/gensym.log" 2>&1
}
sed '$d' debian/libnvdla-runtime1.symbols >"$tmp/fewer"
{ cat debian/libnvdla-runtime1.symbols
	echo " nvdla_no_such_function@Base $upstream"; } >"$tmp/more"
gensym debian/libnvdla-runtime1.symbols && gensym_ok=1 &&
	! gensym "$tmp/fewer" && ! gensym "$tmp/more"
status=$?
[ -n "${gensym_ok:-}" ] || show "$tmp/gensym.log"
ok $status "dpkg-gensymbols -c4 passes the symbols file, fails on a new or a lost symbol"

root=$tmp/root
lib=$root/usr/lib/$ma
mkdir "$root"
for f in $debs; do
	dpkg-deb -x "$f" "$root" || echo "# dpkg-deb -x $f failed"
done
[ -f "$root/usr/include/nvdla/runtime.h" ] &&
	[ "$(readlink "$lib/libnvdla_runtime.so.1")" = libnvdla_runtime.so.1.0.0 ] &&
	[ -f "$lib/libnvdla_runtime.a" ] &&
	[ -x "$root/usr/bin/nvdla_runtime" ] && [ -x "$root/usr/bin/nvdla_compile" ] &&
	[ -f "$root/usr/share/man/man1/nvdla_runtime.1.gz" ] &&
	[ -f "$root/usr/share/man/man3/libnvdla_runtime.3.gz" ] &&
	[ -f "$root/usr/lib/python3/dist-packages/nvdla/runtime.py" ]
ok $? "unpacked with dpkg-deb -x: header, library in $ma, programs, man pages, module"

# nvdla-dkms: make dkms-src's tree under /usr/src with the package's
# version, and the scripts that have dkms build it on installation and
# remove it on removal.
dkms=$tmp/dkms
dkmsdeb=$tmp/src/nvdla-dkms_${version}_all.deb
dpkg-deb -e "$dkmsdeb" "$dkms" &&
	grep -q "^PACKAGE_VERSION=\"$upstream\"$" "$root/usr/src/nvdla-$upstream/dkms.conf" &&
	[ -f "$root/usr/src/nvdla-$upstream/Kbuild" ] &&
	[ -f "$root/usr/src/nvdla-$upstream/drivers/accel/nvdla/nvdla_drv.c" ] &&
	dpkg-deb -f "$dkmsdeb" Depends | grep -q '^dkms' &&
	grep -q '/usr/lib/dkms/common.postinst' "$dkms/postinst" &&
	grep -q "^DKMS_VERSION=$upstream$" "$dkms/postinst" &&
	grep -q 'dkms remove' "$dkms/prerm"
ok $? "nvdla-dkms: /usr/src/nvdla-$upstream with its dkms.conf, depends on dkms, postinst runs DKMS's common.postinst, prerm dkms remove"

pc() {
	PKG_CONFIG_PATH='' PKG_CONFIG_LIBDIR="$lib/pkgconfig" \
		PKG_CONFIG_SYSROOT_DIR="$root" pkg-config "$@" nvdla-runtime
}
mkdir "$tmp/app"
cp examples/classify.c examples/classify.py models/digits/input.pgm "$tmp/app/"
cd "$tmp/app" || exit 1
# shellcheck disable=SC2046 # the flags are meant to split
cc -Wall -Wextra -Werror -o classify classify.c $(pc --cflags --libs) \
	>cc.log 2>&1
status=$?
show cc.log
[ $status -eq 0 ] &&
	readelf -d classify | grep -q 'NEEDED.*\[libnvdla_runtime.so.1\]'
ok $? "examples/classify.c built outside the tree with pkg-config nvdla-runtime: $(pc --cflags --libs 2>&1 | sed "s|$root|ROOT|g")"

"$root/usr/bin/nvdla_compile" "$here/models/digits/digits.onnx" \
	--config nv_full -o digits.nvdla >compile.log 2>&1
status=$?
show compile.log
ok $status "the packaged nvdla_compile compiles the digit demo"
out=$(NVDLA_SIM_THREADS=2 LD_LIBRARY_PATH="$lib" ./classify digits.nvdla \
	input.pgm 255 2>&1)
echo "$out" | sed 's/^/# /'
echo "$out" | grep -q '^class 5, 0\.9'
ok $? "classify with the packaged library: ${out%%
*}"

if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	skip "python3 examples/classify.py" "python3-numpy missing (tools/setup.sh)"
else
	out=$(NVDLA_SIM_THREADS=2 LD_LIBRARY_PATH="$lib" \
		PYTHONPATH="$root/usr/lib/python3/dist-packages" \
		/usr/bin/python3 classify.py digits.nvdla input.pgm 255 2>&1)
	echo "$out" | sed 's/^/# /'
	echo "$out" | grep -q '^class 5, 0\.9'
	ok $? "python3 examples/classify.py with python3-nvdla's module: ${out%%
*}"
fi
cd "$here" || exit 1
