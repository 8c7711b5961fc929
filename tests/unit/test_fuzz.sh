#!/bin/sh
# SPDX-License-Identifier: MIT
# Short libFuzzer runs under ASan and UBSan (tests/fuzz/): random register
# programs on the hardware model, mutated loadables through the whole
# runtime, and any bytes as an image file. None may crash, leak, touch
# memory it was not given, or hang.
build=${1:-build}
seconds=${NVDLA_FUZZ_SECONDS:-15}
n=0
for target in fuzz_sim fuzz_loadable fuzz_image; do
	n=$((n + 1))
	fuzzer=$build/fuzz/$target
	if [ ! -x "$fuzzer" ]; then
		echo "ok $n - $target # SKIP no libFuzzer build (clang, libclang-rt-14-dev)"
		continue
	fi
	corpus=$(mktemp -d)
	# Seeds: the shipped loadable and the official ones, when present.
	if [ "$target" = fuzz_loadable ]; then
		cp loadables/*.nvdla "$corpus/"
		cp ../shared/conformance/loadables/*/*.nvdla "$corpus/" 2>/dev/null
	fi
	if [ "$target" = fuzz_image ]; then
		cp ../shared/conformance/images/*/*.pgm "$corpus/" 2>/dev/null
	fi
	if ASAN_OPTIONS=allocator_may_return_null=1 "$fuzzer" \
		-max_total_time="$seconds" -seed=1 -max_len=65536 \
		-rss_limit_mb=2048 -timeout=10 -artifact_prefix="$corpus/" \
		"$corpus" >"$corpus.log" 2>&1; then
		echo "ok $n - $target: $(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$corpus.log") inputs in $seconds s, no finding"
	else
		echo "not ok $n - $target found a problem"
		tail -40 "$corpus.log" | sed 's/^/# /'
	fi
	rm -rf "$corpus" "$corpus.log"
done
