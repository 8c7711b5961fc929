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
# gets NVDLA_QEMU_TIMEOUT (default 3600 s), each test 900 s, each job 60 s
# unless it sets its own limit, and the tests' set-up times five times
# theirs (nvdla_test.h's time_scale()). Warnings go to
# the console (loglevel=5), so that the log in BUILD_DIR/qemu keeps every
# report whole. NVDLA_QEMU_APPEND adds kernel parameters (panic_on_warn=0:
# go on after a report, to see them all).
set -eu

build=${1:-build}
cd "$(dirname "$0")/../.."
kver=$(tools/qemu/build-debug-kernel.sh)
make -s module KERNEL_VERSION="$kver" BUILD="$build"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
NVDLA_QEMU_TIMEOUT=${NVDLA_QEMU_TIMEOUT:-3600} \
NVDLA_QEMU_APPEND="nvdla_test_timeout=900 nvdla_job_timeout_ms=60000 \
nvdla_time_scale=5 \
loglevel=5 log_buf_len=8M \
${NVDLA_QEMU_APPEND:-}" \
	tools/qemu/run-guest.sh "$kver" "$build" | tee "$out"
failed=$(grep -c '^not ok ' "$out" || true)
passed=$(grep -c '^ok ' "$out" || true)
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
