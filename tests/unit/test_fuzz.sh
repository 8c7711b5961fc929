#!/bin/sh
# SPDX-License-Identifier: MIT
# A short libFuzzer run of the hardware model under ASan and UBSan
# (tests/fuzz/fuzz_sim.c): random register programs must never make the
# model crash, touch memory it was not given, or run away.
build=${1:-build}
fuzzer=$build/fuzz/fuzz_sim
seconds=${NVDLA_FUZZ_SECONDS:-20}
if [ ! -x "$fuzzer" ]; then
	echo "ok 1 - model fuzzing # SKIP no libFuzzer build (clang, libclang-rt-14-dev)"
	exit 0
fi
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
if "$fuzzer" -max_total_time="$seconds" -seed=1 -max_len=4096 \
	-rss_limit_mb=2048 "$corpus" >"$corpus.log" 2>&1; then
	echo "ok 1 - model fuzzing: $(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$corpus.log") inputs in ${seconds} s, no finding"
else
	echo "not ok 1 - model fuzzing found a problem"
	tail -40 "$corpus.log" | sed 's/^/# /'
fi
rm -f "$corpus.log"
