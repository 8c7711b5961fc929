#!/bin/sh
# SPDX-License-Identifier: MIT
# The library's links in the build tree after one make: a regular file an
# older build left as libnvdla_runtime.so, newer than the library, and a
# missing soname link are replaced by links to libnvdla_runtime.so.1.0.0,
# so that programs and Python load the library just built. Run from the
# repository root with the build directory as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
lib=$build/lib

real=$(cd "$lib" && ls libnvdla_runtime.so.*.*.*)
echo stale >"$lib/libnvdla_runtime.so.new" &&
	mv -f "$lib/libnvdla_runtime.so.new" "$lib/libnvdla_runtime.so" &&
	touch "$lib/libnvdla_runtime.so" &&
	rm -f "$lib/libnvdla_runtime.so.1"
make -s BUILD="$build" "$lib/libnvdla_runtime.so" \
	"$lib/libnvdla_runtime.so.1" 2>&1 | sed 's/^/# /'
[ "$(readlink "$lib/libnvdla_runtime.so")" = "$real" ] &&
	[ "$(readlink "$lib/libnvdla_runtime.so.1")" = "$real" ]
ok $? "one make replaces a newer regular libnvdla_runtime.so and a missing soname link with links to $real"
