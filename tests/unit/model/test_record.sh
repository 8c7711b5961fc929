#!/bin/sh
# SPDX-License-Identifier: MIT
# nvdla_runtime --record: runs recorded as hardware traces replay on the
# model with every check passing (nvdla_trace), a second recording of the
# same run is byte for byte the same, and a corrupted loaded region fails
# replay, in both formats. Cases: the shipped loadable, random layers
# (nvdla_randlayer), the official regression loadables and networks of
# ../shared/conformance with their case.json arguments (skipped without it).
build=${1:-build}
. tests/unit/lib/tap.sh
rt=$(realpath "$build/bin/nvdla_runtime")
player=$build/bin/nvdla_trace
shared=../shared/conformance
tmp=$(mktemp -d)
mkdir "$tmp/again"
trap 'rm -rf "$tmp"' EXIT

# record NAME DIR ARGS...: from DIR, record the run into $tmp/NAME and
# $tmp/again/NAME (a .cfg is named after its directory), replay the first
# (with $hazards, --allow-hw-hazards where the hardware would stop).
hazards=
record() {
	name=$1
	dir=$2
	shift 2
	(cd "$dir" && "$rt" "$@" -o "$tmp/out.dimg" --record "$tmp/$name") \
		>/dev/null 2>"$tmp/err"
	ok $? "$name recorded"
	# shellcheck disable=SC2086 # no option, or one
	out=$("$player" $hazards "$tmp/$name" 2>&1)
	ok $? "$name replays with every check passing"
	[ $? -eq 0 ] || echo "$out" | sed 's/^/# /'
	(cd "$dir" && "$rt" "$@" -o "$tmp/out.dimg" --record "$tmp/again/$name") \
		>/dev/null 2>&1
	diff -r "$tmp/$name" "$tmp/again/$name" >/dev/null
	ok $? "$name recorded twice: the same bytes"
}

# corrupt TRACE NEW: a copy of TRACE whose largest loaded region has every
# byte inverted (its script renamed after NEW's directory).
corrupt() {
	cp -r "$1" "$2"
	for s in "$2"/*.cfg; do
		[ -f "$s" ] && mv "$s" "$2/$(basename "$2").cfg"
	done
	/usr/bin/python3 - "$(ls -S "$2"/load_*.dat | head -1)" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = re.sub(r'0x([0-9a-f]{2})\b',
	   lambda m: '0x%02x' % (int(m.group(1), 16) ^ 0xff), s)
open(p, 'w').write(s)
PY
}

record bdma_copy . --loadable loadables/bdma_copy.nvdla
corrupt "$tmp/bdma_copy" "$tmp/bdma_bad"
"$player" "$tmp/bdma_bad" >"$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "differs from check_0_" "$tmp/out"
ok $? "a corrupted loaded region fails replay (input.txn)"

# Random SDP, PDP, CDP and convolution layers of every precision
# (nvdla_randlayer).
bad=0
for seed in $(seq 1 60); do
	"$build/bin/nvdla_randlayer" "$seed" "$tmp/layer.nvdla" >"$tmp/desc" &&
	"$rt" --loadable "$tmp/layer.nvdla" -o "$tmp/out.dimg" \
		--record "$tmp/layer" >/dev/null 2>&1 &&
	"$player" "$tmp/layer" >/dev/null 2>&1 ||
		{ bad=$((bad + 1)); echo "# seed $seed: $(cat "$tmp/desc")"; }
done
ok $bad "60 random layers recorded and replayed"

# The other kinds, and nv_small's layers (8-byte atoms, int8).
for run in "nv_full winograd" "nv_full image" "nv_full sdp-lut" \
	   "nv_full batch" "nv_small sdp,pdp,cdp,conv,image"; do
	set -- $run
	bad=0
	for seed in $(seq 1 10); do
		"$build/bin/nvdla_randlayer" --config "$1" --kinds "$2" "$seed" \
			"$tmp/layer.nvdla" >"$tmp/desc" &&
		"$rt" --loadable "$tmp/layer.nvdla" --device "sim:$1" \
			-o "$tmp/out.dimg" --record "$tmp/layer" >/dev/null 2>&1 &&
		"$player" "$tmp/layer" >/dev/null 2>&1 ||
			{ bad=$((bad + 1)); echo "# seed $seed: $(cat "$tmp/desc")"; }
	done
	ok $bad "10 random $1 layers ($2) recorded and replayed"
done

if [ ! -d "$shared" ]; then
	skip "official loadables and networks" "../shared absent"
	exit 0
fi

for t in BDMA_L0_0 CONV_D_L0_0 SDP_X1_L0_0 PDP_L0_0 CDP_L0_0 RBK_L0_0 NN_L0_0; do
	record "$t" "$shared/loadables/$t" --loadable "$t.nvdla"
done

# The official int8 builds for the v2 designs stop the hardware (the stale
# weight count, docs/model.md): recorded and replayed with the hazards.
for c in lenet_int8_small_ncxhwx lenet_fp16_full_ncxhwx \
	 gnet_mini_nolrn_int8_small_ncxhwx lenet_int8_large_ncxhwx; do
	dir=$shared/networks/$c
	args=$(/usr/bin/python3 -c 'import json, sys
print(" ".join(json.load(open(sys.argv[1]))["run"]["args"]))' "$dir/case.json")
	case $c in
	*_int8_*) hazards=--allow-hw-hazards ;;
	*) hazards= ;;
	esac
	# shellcheck disable=SC2086 # the case's arguments, split on spaces
	record "$c" "$dir" $args $hazards
done
hazards=

# The other format on request: nv_small as input.txn.
dir=$shared/networks/lenet_int8_small_ncxhwx
(cd "$dir" && "$rt" --loadable lenet_int8_small_ncxhwx.nvdla \
	--device sim:nv_small --image input.pgm -o "$tmp/out.dimg" \
	--allow-hw-hazards --record "$tmp/small_txn" --record-format txn) \
	>/dev/null 2>&1 && [ -f "$tmp/small_txn/input.txn" ] &&
	"$player" --allow-hw-hazards "$tmp/small_txn" >/dev/null
ok $? "lenet_int8_small_ncxhwx recorded as input.txn replays"

corrupt "$tmp/lenet_int8_small_ncxhwx" "$tmp/lenet_bad"
"$player" --allow-hw-hazards "$tmp/lenet_bad" >"$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "CRC of" "$tmp/out"
ok $? "a corrupted loaded region fails replay (.cfg)"
