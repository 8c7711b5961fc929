#!/bin/sh
# SPDX-License-Identifier: MIT
# Short libFuzzer runs under ASan and UBSan (tests/fuzz/): random register
# programs on the hardware model, mutated loadables through the whole
# runtime, any bytes as an image file, as a detector's .yolo file through
# its reader and the decoding, and as an ONNX model through the compiler's
# front end. None may crash, leak, touch
# memory it was not given, or hang. The register programs start from the
# public hardware tests (nvdla_trace --seed) and are steered by the values
# the model compares (value profile); they get longer, since the model
# runs in the kernel as the virtual device. ONNX models start from those
# the compiler's unit test builds, loadables also from the compiler's
# back-end test of CPU tasks. Two fuzzers run at a time.
build=${1:-build}
seconds=${NVDLA_FUZZ_SECONDS:-15}
sim_seconds=${NVDLA_FUZZ_SIM_SECONDS:-30}
traces=../shared/conformance/traces
# shellcheck source=tests/unit/lib/traces.sh
. tests/unit/lib/traces.sh
targets="fuzz_sim fuzz_loadable fuzz_image fuzz_yolo fuzz_onnx"

# The traces that pass on the model, as seeds.
seed_traces() {
	for dir in "$traces"/*/*; do
		[ -n "$(rtl_crc "${dir#"$traces"/}")" ] || echo "$dir"
	done
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# fuzz N TARGET: TAP line N of TARGET's run.
fuzz() {
	n=$1 target=$2
	fuzzer=$build/fuzz/$target
	if [ ! -x "$fuzzer" ]; then
		echo "ok $n - $target # SKIP no libFuzzer build (clang, libclang-rt-14-dev)"
		return
	fi
	corpus=$(mktemp -d)
	budget=$seconds
	options=
	if [ "$target" = fuzz_sim ]; then
		budget=$sim_seconds
		options=-use_value_profile=1
		# shellcheck disable=SC2046 # one word a trace directory
		if [ -d "$traces" ] && ! "$build/bin/nvdla_trace" --seed "$corpus" \
			$(seed_traces) >/dev/null; then
			echo "not ok $n - $target: the hardware tests do not record as seeds"
			rm -rf "$corpus"
			return
		fi
	fi
	# Seeds: the shipped loadable and the official ones, when present,
	# and the compiler's CPU tasks (swap, layer normalisation, resize).
	if [ "$target" = fuzz_loadable ]; then
		cp loadables/*.nvdla "$corpus/"
		cp ../shared/conformance/loadables/*/*.nvdla "$corpus/" 2>/dev/null
		if ! "$build/tests/test_compiler_lower" --write-loadables \
			"$corpus" >/dev/null; then
			echo "not ok $n - $target: the CPU tasks' loadables do not build"
			rm -rf "$corpus"
			return
		fi
	fi
	if [ "$target" = fuzz_onnx ]; then
		"$build/tests/test_compiler_onnx" --write-models "$corpus" >/dev/null
	fi
	if [ "$target" = fuzz_yolo ]; then
		cp models/detect/*.yolo "$corpus/"
	fi
	if [ "$target" = fuzz_image ]; then
		cp ../shared/conformance/images/*/*.pgm "$corpus/" 2>/dev/null
	fi
	if ASAN_OPTIONS=allocator_may_return_null=1 "$fuzzer" \
		-max_total_time="$budget" -seed=1 -max_len=65536 $options \
		-rss_limit_mb=2048 -timeout=10 -artifact_prefix="$corpus/" \
		"$corpus" >"$corpus.log" 2>&1; then
		echo "ok $n - $target: $(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$corpus.log") inputs in $budget s, no finding"
	else
		echo "not ok $n - $target found a problem"
		tail -40 "$corpus.log" | sed 's/^/# /'
	fi
	rm -rf "$corpus" "$corpus.log"
}

# lane TARGET...: each target's run in turn, its lines in $out/TARGET.
lane() {
	for target; do
		n=0
		for t in $targets; do
			n=$((n + 1))
			[ "$t" = "$target" ] && break
		done
		fuzz "$n" "$target" >"$out/$target"
	done
}

# Two fuzzers at a time, each on a core of its own: lanes of equal budget.
lane fuzz_sim fuzz_image &
lane fuzz_loadable fuzz_yolo fuzz_onnx
wait
for target in $targets; do
	cat "$out/$target"
done
