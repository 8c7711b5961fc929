#!/bin/sh
# SPDX-License-Identifier: MIT
# Kernel-side code passes sparse (the kernel's "make C=2") without a
# warning, for every kernel the module is built for (make module-all).
n=0
for src in "${1:-build}"/kmod/*/src; do
	[ -d "$src" ] || continue
	kver=$(basename "$(dirname "$src")")
	n=$((n + 1))
	# The tree kmd/kmd.mk built it against.
	kdir=${NVDLA_CACHE:-$HOME/.cache/nvdla}/kernels/$kver/lib/modules/$kver/build
	[ -d "$kdir" ] || kdir=/lib/modules/$kver/build
	if ! command -v sparse >/dev/null; then
		echo "ok $n - sparse on $kver # SKIP sparse not installed (tools/setup.sh)"
		continue
	fi
	out=$(make -s -C "$kdir" M="$(realpath "$src")" C=2 modules 2>&1 |
		grep -v '^  CHECK\|^make\|^Skipping BTF')
	echo "$out" | sed '/^$/d; s/^/# /'
	if [ -z "$out" ]; then
		echo "ok $n - sparse on $kver: no warnings"
	else
		echo "not ok $n - sparse on $kver: no warnings"
	fi
done
[ $n -gt 0 ] || echo "ok 1 - sparse # SKIP no module built (make module-all)"
