#!/bin/sh
# SPDX-License-Identifier: MIT
# DKMS: "make dkms-src" gives a source tree that dkms adds, builds, installs
# and removes for a kernel, as a user would run it, except that
# every tree dkms writes (sources, its own tree, the install tree, the
# signing key) is a temporary directory: the system's /usr/src,
# /var/lib/dkms and /lib/modules are left as they were. Needs root and the
# dkms package (tools/setup.sh). Run from the repository root.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
show() {
	sed 's/^/# /' "$1"
}

if ! command -v dkms >/dev/null; then
	echo "ok 1 - dkms build # SKIP dkms not installed (tools/setup.sh)"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "ok 1 - dkms build # SKIP needs root"
	exit 0
fi
# The running kernel if its headers are installed (as a user of DKMS has
# them), else the newest Debian kernel tools/setup.sh unpacked into the
# cache, whose headers dkms is given with --kernelsourcedir (setup installs
# no kernel headers).
kver=$(uname -r)
ksrc=
if [ ! -d "/lib/modules/$kver/build" ]; then
	ksrc=$(find "${NVDLA_CACHE:-$HOME/.cache/nvdla}/kernels" -mindepth 5 \
		-maxdepth 5 -path '*-amd64/lib/modules/*/build' 2>/dev/null |
		sort -V | tail -1)
	kver=$(basename "$(dirname "$ksrc")")
fi
if [ -z "$kver" ] || [ "$kver" = . ]; then
	echo "ok 1 - dkms build # SKIP no kernel headers (tools/setup.sh)"
	exit 0
fi

# What must not change: the system's DKMS, source and module trees.
system_state() {
	ls -la /var/lib/dkms /usr/src "/lib/modules/$kver" 2>&1
	find "/lib/modules/$kver/" -name 'nvdla*.ko*' 2>/dev/null
}
system_state >"$tmp/before"

make -s dkms-src BUILD="$tmp/build" >"$tmp/make.log" 2>&1
src=$(ls -d "$tmp"/build/dkms/nvdla-* 2>/dev/null)
ver=${src##*/nvdla-}
[ -n "$ver" ] && [ -f "$src/Kbuild" ] &&
	grep -q "^PACKAGE_VERSION=\"$ver\"$" "$src/dkms.conf"
ok $? "make dkms-src: source tree nvdla-${ver:-?} with its version"
show "$tmp/make.log"

mkdir -p "$tmp/src" "$tmp/tree" "$tmp/inst/$kver"
trees="--sourcetree $tmp/src --dkmstree $tmp/tree --installtree $tmp/inst"
export mok_signing_key="$tmp/mok.key" mok_certificate="$tmp/mok.pub"
# dkms_run ACTION ARGS...: dkms on the temporary trees, its output in the log.
dkms_run() {
	# shellcheck disable=SC2086 # one word per option
	dkms "$@" $trees >>"$tmp/dkms.log" 2>&1
}

dkms_run add "$src"
ok $? "dkms add"
dkms_run build "nvdla/$ver" -k "$kver" ${ksrc:+--kernelsourcedir "$ksrc"}
built=$?
ok $built "dkms build for $kver"
[ $built -eq 0 ] || find "$tmp/tree" -name make.log -exec sed 's/^/# /' {} \;
ko=$(find "$tmp/tree/nvdla/$ver/$kver" -name 'nvdla.ko*' 2>/dev/null | head -1)
[ -n "$ko" ] && modinfo -F vermagic "$ko" | grep -q "^$kver " &&
	modinfo -F alias "$ko" | grep -q 'Cnvidia,nvdla-nv-small'
ok $? "built module is for $kver and matches the device tree"
sim=$(find "$tmp/tree/nvdla/$ver/$kver" -name 'nvdla_sim.ko*' 2>/dev/null | head -1)
[ -n "$sim" ] && modinfo -F vermagic "$sim" | grep -q "^$kver " &&
	modinfo -F parm "$sim" | grep -q '^devices:'
ok $? "the virtual devices' module nvdla_sim.ko is built too"

dkms_run install "nvdla/$ver" -k "$kver" --no-depmod &&
	[ -n "$(find "$tmp/inst/$kver" -name 'nvdla.ko*')" ] &&
	[ -n "$(find "$tmp/inst/$kver" -name 'nvdla_sim.ko*')" ] &&
	dkms_run status && grep -q "^nvdla/$ver, $kver, .*: installed" "$tmp/dkms.log"
ok $? "dkms install into the install tree, status installed"
dkms_run remove "nvdla/$ver" --all --no-depmod &&
	[ -z "$(find "$tmp/inst" "$tmp/tree" -name 'nvdla*.ko*')" ]
ok $? "dkms remove takes it out again"
# dkms's own words, in case a step failed.
show "$tmp/dkms.log" | grep -i -B2 -A5 'error' || true

system_state >"$tmp/after"
diff "$tmp/before" "$tmp/after" >"$tmp/diff"
ok $? "system DKMS, source and module trees unchanged"
show "$tmp/diff"
