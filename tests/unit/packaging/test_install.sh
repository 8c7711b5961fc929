#!/bin/sh
# SPDX-License-Identifier: MIT
# make install into a temporary DESTDIR as a Debian library is laid out:
# only the public header, the soname and its links, the static library,
# the pkg-config file, the programs, the man pages and the Python module;
# then the digit demo compiled by the installed nvdla_compile and
# classified by examples/classify.c built outside the tree with pkg-config
# alone, against the shared and the static library, and by
# examples/classify.py with the installed module: class 5, and
# examples/stream.c the same way. Run from the
# repository root with the build directory as $1.
set -u
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

root=$tmp/root
lib=$root/usr/lib
make -s install BUILD="$build" DESTDIR="$root" PREFIX=/usr >"$tmp/make.log" 2>&1
status=$?
sed 's/^/# /' "$tmp/make.log"
ok $status "make install DESTDIR=... PREFIX=/usr"

headers=$(cd "$root/usr/include" && find . -type f | sort)
[ "$headers" = "./nvdla/runtime.h" ]
ok $? "the public header alone under include/nvdla/: $(echo $headers)"

soname=$(readelf -d "$lib/libnvdla_runtime.so.1.0.0" 2>/dev/null |
	sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libnvdla_runtime.so.1 ] &&
	[ "$(readlink "$lib/libnvdla_runtime.so.1")" = libnvdla_runtime.so.1.0.0 ] &&
	[ "$(readlink "$lib/libnvdla_runtime.so")" = libnvdla_runtime.so.1.0.0 ] &&
	[ -f "$lib/libnvdla_runtime.a" ]
ok $? "libnvdla_runtime.so.1.0.0 with soname $soname, links .so.1 and .so, the static library"

[ -x "$root/usr/bin/nvdla_runtime" ] && [ -x "$root/usr/bin/nvdla_compile" ]
ok $? "the programs in bin/"

warnings=
for page in man1/nvdla_runtime.1 man1/nvdla_compile.1 man3/libnvdla_runtime.3; do
	f=$root/usr/share/man/$page
	[ -f "$f" ] || warnings="$warnings $page missing;"
	[ -f "$f" ] && w=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$f" 2>&1) &&
		[ -z "$w" ] || warnings="$warnings $page: $w"
done
[ -z "$warnings" ]
ok $? "man pages nvdla_runtime(1), nvdla_compile(1), libnvdla_runtime(3), no groff warnings${warnings:+:$warnings}"

# pkg-config finds the installed file; the sysroot prefixes its paths.
pc() {
	PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$lib/pkgconfig" \
		PKG_CONFIG_SYSROOT_DIR="$root" pkg-config "$@" nvdla-runtime
}
[ "$(pc --modversion)" = 1.0.0 ]
ok $? "pkg-config nvdla-runtime: version $(pc --modversion 2>&1)"

# Outside the tree: a copy of the example, the flags pkg-config gives.
mkdir "$tmp/app"
cp examples/classify.c examples/classify.py examples/stream.c \
	models/digits/input.pgm "$tmp/app/"
here=$(pwd)
cd "$tmp/app" || exit 1
# shellcheck disable=SC2046 # the flags are meant to split
cc -Wall -Wextra -Werror -o classify classify.c $(pc --cflags --libs) 2>&1 |
	sed 's/^/# /'
readelf -d classify 2>/dev/null | grep -q 'NEEDED.*\[libnvdla_runtime.so.1\]'
ok $? "examples/classify.c built outside the tree with pkg-config, needing libnvdla_runtime.so.1"
# shellcheck disable=SC2046
cc -Wall -Wextra -Werror -o classify-static classify.c $(pc --cflags) \
	-L"$lib" -Wl,-Bstatic -lnvdla_runtime -Wl,-Bdynamic \
	$(pc --static --libs-only-l | sed 's/-lnvdla_runtime//') 2>&1 | sed 's/^/# /'
[ -x classify-static ] && ! readelf -d classify-static | grep -q libnvdla_runtime
ok $? "and against the static library with pkg-config --static's libraries"

"$root/usr/bin/nvdla_compile" "$here/models/digits/digits.onnx" --config nv_full \
	-o digits.nvdla >compile.log 2>&1
ok $? "the installed nvdla_compile compiles the digit demo"
for prog in classify classify-static; do
	out=$(NVDLA_SIM_THREADS=2 LD_LIBRARY_PATH="$lib" "./$prog" digits.nvdla \
		input.pgm 255 2>&1)
	echo "$out" | sed 's/^/# /'
	echo "$out" | grep -q '^class 5, 0\.9'
	ok $? "$prog classifies the demo's image: ${out%%
*}"
done

# shellcheck disable=SC2046
cc -Wall -Wextra -Werror -o stream stream.c $(pc --cflags --libs) 2>&1 | sed 's/^/# /'
out=$(NVDLA_SIM_THREADS=2 LD_LIBRARY_PATH="$lib" ./stream -k 0,3 -s 255 \
	digits.nvdla input.pgm input.pgm 2>&1)
echo "$out" | sed 's/^/# /'
[ "$(echo "$out" | grep -c '^frame [01] input.pgm: 5 0\.9')" -eq 4 ]
ok $? "examples/stream.c built the same way classifies the image twice per mode"

# Debian's python3 with the module where a python3-nvdla package puts it,
# the library where the loader finds it.
pydir=$root/usr/lib/python3/dist-packages
if ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	skip "python3 examples/classify.py" "python3-numpy missing (run tools/setup.sh)"
else
	[ "$(cd "$pydir" && find nvdla -type f | sort | tr '\n' ' ')" = \
		"nvdla/__init__.py nvdla/_lib.py nvdla/compiler.py nvdla/detect.py nvdla/runtime.py " ]
	ok $? "the Python module nvdla in lib/python3/dist-packages"
	out=$(NVDLA_SIM_THREADS=2 PYTHONPATH="$pydir" LD_LIBRARY_PATH="$lib" \
		/usr/bin/python3 classify.py digits.nvdla input.pgm 255 2>&1)
	echo "$out" | sed 's/^/# /'
	echo "$out" | grep -q '^class 5, 0\.9'
	ok $? "python3 examples/classify.py with the installed module: ${out%%
*}"
	# nvdla.compile() runs the installed nvdla_compile, found on PATH.
	out=$(NVDLA_SIM_THREADS=2 PYTHONPATH="$pydir" LD_LIBRARY_PATH="$lib" \
		PATH="$root/usr/bin:/usr/bin:/bin" /usr/bin/python3 -c '
import nvdla
net = nvdla.Device().load(nvdla.compile("'"$here"'/models/digits/digits.onnx"))
print(net.run(nvdla.Image("input.pgm", normalize=255))[0].argmax())' 2>&1)
	[ "$out" = 5 ]
	ok $? "nvdla.compile() with the installed nvdla_compile, then run: class $out"
	# Under /usr/local: the versioned dist-packages python3 searches there.
	make -s -C "$here" install BUILD="$build" DESTDIR="$tmp/local" PREFIX=/usr/local \
		>/dev/null 2>&1
	found=
	for d in $(/usr/bin/python3 -c 'import sys; print(" ".join(sys.path))'); do
		case $d in /usr/local/*) [ -f "$tmp/local$d/nvdla/runtime.py" ] &&
			found=$d ;;
		esac
	done
	[ -n "$found" ]
	ok $? "PREFIX=/usr/local: the module in python3's search path there, ${found:-none}"
fi
cd "$here" || exit 1
