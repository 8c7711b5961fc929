#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-debug: the driver's QEMU guest suite (run-guest.sh, every
# tests/guest script and kselftest program) on the debug kernel of
# build-debug-kernel.sh (lockdep, KASAN, kmemleak, UBSAN, atomic-sleep
# checks; built once, cached), nvdla.ko built against it. The guest boots
# with panic_on_warn, scans for leaks at its end, and any report in the
# kernel log fails the run. Ends with "N passed, N failed" like
# run-tests.sh; exits non-zero if anything failed.
#
# Usage: tools/qemu/check-debug.sh BUILD_DIR
# The checkers make the kernel several times slower under TCG: the guest
# gets NVDLA_QEMU_TIMEOUT (default 3600 s), each test NVDLA_TEST_TIMEOUT
# (default 900 s).
set -eu

build=${1:-build}
cd "$(dirname "$0")/../.."
kver=$(tools/qemu/build-debug-kernel.sh)
make -s module KERNEL_VERSION="$kver" BUILD="$build"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
NVDLA_QEMU_TIMEOUT=${NVDLA_QEMU_TIMEOUT:-3600} \
NVDLA_TEST_TIMEOUT=${NVDLA_TEST_TIMEOUT:-900} \
	tools/qemu/run-guest.sh "$kver" "$build" | tee "$out"
failed=$(grep -c '^not ok ' "$out" || true)
passed=$(grep -c '^ok ' "$out" || true)
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
