#!/bin/sh
# SPDX-License-Identifier: MIT
# The model's user-space paths give the same bytes: the public hardware
# traces (each checked against its golden output) with the vector path off
# on one thread (the kernel module's path) and on with one thread, the
# default (all CPUs) being test_traces.sh's run; then compiled networks
# whose layers cover int8 and fp16 convolution from images and cubes,
# post-extension, SDP, PDP and CDP (LRN in alexnet_mini), their outputs compared byte for byte
# across the same settings and two threads; and random layers of every
# engine and precision with the vector path off and on. Run from the
# repository root with the build directory as $1.
set -u
build=${1:-build}
traces=../shared/conformance/traces
corpus=${NVDLA_NETWORKS:-../shared/conformance/networks}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

settings="off:1 auto:1 auto:2"

if [ ! -d "$traces" ]; then
	skip "traces with every vector path and thread count" "$traces absent"
else
	for s in off:1 auto:1; do
		out=$(NVDLA_SIM_SIMD=${s%:*} NVDLA_SIM_THREADS=${s#*:} \
			sh tests/unit/model/test_traces.sh "$build" 2>&1)
		failed=$(echo "$out" | grep -c '^not ok' || true)
		ok "$failed" "public traces, NVDLA_SIM_SIMD=${s%:*} NVDLA_SIM_THREADS=${s#*:}: $(echo "$out" | grep -c '^ok') pass, $failed fail"
		[ "$failed" -eq 0 ] || echo "$out" | grep -A3 '^not ok' | sed 's/^/# /'
	done
fi

runtime=$(cd "$build/bin" && pwd)/nvdla_runtime
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# random_layers COUNT "SETTINGS" RANDLAYER-OPTION...: nvdla_randlayer's
# layers of seeds 1 to COUNT give the same output bytes and --stats
# counters under each of SETTINGS (SIMD:THREADS) as under the first; the
# count of those that do not.
random_layers() {
	count=$1 modes=$2
	shift 2
	bad=0
	for seed in $(seq 1 "$count"); do
		"$build/bin/nvdla_randlayer" "$@" "$seed" "$tmp/layer.nvdla" >"$tmp/desc" || {
			bad=$((bad + 1))
			continue
		}
		differ=0
		for s in $modes; do
			NVDLA_SIM_SIMD=${s%:*} NVDLA_SIM_THREADS=${s#*:} "$runtime" --stats \
				--loadable "$tmp/layer.nvdla" -o "$tmp/$s.dimg" 2>&1 |
				awk '$1 ~ /^[0-9]+$/ { $5 = ""; print }' >"$tmp/$s.stats"
			[ -s "$tmp/$s.stats" ] || differ=1
			cmp -s "$tmp/${modes%% *}.dimg" "$tmp/$s.dimg" &&
				cmp -s "$tmp/${modes%% *}.stats" "$tmp/$s.stats" || differ=1
		done
		[ "$differ" -eq 0 ] ||
			{ bad=$((bad + 1)); echo "# seed $seed: $(cat "$tmp/desc")" >&2; }
		rm -f "$tmp"/*.dimg
	done
	echo "$bad"
}

# Random SDP, PDP, CDP and convolution layers of every precision: the
# vector path off and on, one thread each.
ok "$(random_layers 150 "off:1 auto:1")" "150 random layers: the same outputs and counters with the vector path off and on"
# Random Winograd layers (nv_full; integer ones on the dense tiles, unless
# a weight times the output transform leaves int16): off and alone (the
# kernel module's path), on with one and two threads, off with two.
ok "$(random_layers 60 "off:1 auto:1 auto:2 off:2" --config nv_full --kinds winograd)" \
	"60 random Winograd layers: the same outputs and counters with the vector path off and on, 1 and 2 threads"

if [ ! -d "$corpus" ] || ! command -v python3 >/dev/null; then
	skip "networks with every vector path and thread count" \
		"$corpus or python3 absent"
	exit 0
fi
for c in lenet_int8_small gnet_mini_nolrn_int8_small lenet_fp16_full \
	unet_mini_fp16_full mobilenet_mini_fp16_full_profdefault \
	alexnet_mini_fp16_full; do
	if [ ! -f "$corpus/$c/case.json" ]; then
		skip "$c with every vector path and thread count" "case absent"
		continue
	fi
	args=$(python3 -c 'import json, sys
print("\n".join(json.load(open(sys.argv[1]))["run"]["args"]))' "$corpus/$c/case.json")
	# The hardware stops on NVIDIA's int8 builds (docs/model.md).
	case $c in
	*_int8_*) args="$args
--allow-hw-hazards" ;;
	esac
	sums=""
	for s in $settings; do
		# shellcheck disable=SC2086 # one argument a line
		(IFS='
'; cd "$corpus/$c" && NVDLA_SIM_SIMD=${s%:*} NVDLA_SIM_THREADS=${s#*:} \
			"$runtime" $args --rawdump -o "$tmp/$s") >/dev/null 2>&1 ||
			echo failed >"$tmp/$s"
		sums="$sums $s=$(md5sum <"$tmp/$s" | cut -c1-12)"
	done
	distinct=$(for s in $settings; do md5sum <"$tmp/$s"; done | sort -u | wc -l)
	[ "$distinct" -eq 1 ] && ! grep -q '^failed$' "$tmp/off:1"
	ok $? "$c: the same output with every vector path and thread count ($sums)"
done
