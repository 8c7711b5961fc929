#!/bin/sh
# SPDX-License-Identifier: MIT
# A cross build's tests under qemu-user (make check-cross, docs/testing.md),
# run from the repository root: its unit test programs, then its programs,
# each output compared byte for byte with the same run of this machine's
# build: the digit model compiled by nvdla_compile (the loadables
# themselves compared) and run, then on the public data: the hardware
# traces (nvdla_trace checks each against its golden data), the official
# regression loadables (and their golden md5) and the corpus networks that
# TCG runs in seconds. TAP lines name the architecture.
#
# Usage: tools/cross-check.sh NATIVE_BUILD CROSS_BUILD
set -u
native=${1:?usage: tools/cross-check.sh NATIVE_BUILD CROSS_BUILD}
cross=${2:?usage: tools/cross-check.sh NATIVE_BUILD CROSS_BUILD}
arch=${cross##*/}
run=$cross/run
shared=../shared/conformance
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
# shellcheck source=tests/unit/lib/traces.sh
. tests/unit/lib/traces.sh

if [ ! -x "$run" ]; then
	skip "$arch: cross build" "$cross not built (make cross)"
	exit 0
fi
emulator=$(sed -n 's/^exec \([^ ]*\) .*/\1/p' "$run")
if ! command -v "$emulator" >/dev/null; then
	skip "$arch: cross build under qemu-user" "$emulator missing (tools/setup.sh)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# absolute: the networks run in their own directories
native=$(cd "$native" && pwd)
cross=$(cd "$cross" && pwd)
run=$cross/run
start=$(date +%s)

# lap WHAT: the seconds since the last lap, as a TAP comment.
lap() {
	now=$(date +%s)
	echo "# $arch: $1 in $((now - start)) s"
	start=$now
}

# The unit test programs, their lines renumbered and named by the
# architecture. Left out: test_sim_simd, which compares the vector paths
# with plain C, where the target has none (riscv64; arm64 has the
# Advanced SIMD dense tiles), and test_compiler_lower, about six minutes
# under TCG for its hundred lowered graphs (the digit model below goes
# through the same back end).
for t in "$cross"/tests/test_*; do
	name=${t##*/}
	case $name in
	test_sim_simd)
		ls "$cross"/obj/sim/user/*_neon.o >/dev/null 2>&1 || continue ;;
	test_compiler_lower) continue ;;
	esac
	status=0
	"$run" "$t" "$cross" >"$tmp/out" 2>&1 || status=$?
	awk -v n="$n" -v arch="$arch" '
		/^(not )?ok / {
			not = /^not /
			sub(/^(not )?ok [0-9]* *(- )?/, "")
			print (not ? "not ok " : "ok ") ++n " - " arch ": " $0
			next
		}
		/^#/' "$tmp/out"
	n=$((n + $(grep -c '^\(not \)\{0,1\}ok ' "$tmp/out")))
	if [ "$status" -ne 0 ] && ! grep -q '^not ok ' "$tmp/out"; then
		ok 1 "$arch: $name exited with status $status"
	fi
done

lap "unit tests"

# same NAME PROGRAM ARGS...: PROGRAM of both builds with ARGS, where the
# word OUT stands for the output file; true if both ran and wrote the same
# bytes, left in $tmp/NAME.
same() {
	name=$1
	prog=$2
	shift 2
	args_native='' args_cross=''
	for a in "$@"; do
		case $a in
		OUT) args_native="$args_native $tmp/$name.native"
			args_cross="$args_cross $tmp/$name" ;;
		*) args_native="$args_native $a"
			args_cross="$args_cross $a" ;;
		esac
	done
	# shellcheck disable=SC2086 # the arguments hold no blanks
	"$native/bin/$prog" $args_native >/dev/null 2>&1 &&
		"$run" "$cross/bin/$prog" $args_cross >/dev/null 2>&1 &&
		cmp -s "$tmp/$name.native" "$tmp/$name"
}

md5_of() { md5sum "$1" | cut -d' ' -f1; }

# The digit model compiled by either build's nvdla_compile (fp16 for
# nv_full; int8 for nv_small, calibrated on its images): the same
# loadable, and the same output on its image.
model=models/digits/digits.onnx
image="--image models/digits/input.pgm --normalize 255 --rawdump"
same digits16.nvdla nvdla_compile "$model" --config nv_full -o OUT
ok $? "$arch: digit model compiled for nv_full fp16 = the native build's loadable"
# shellcheck disable=SC2086
same digits16.txt nvdla_runtime --loadable "$tmp/digits16.nvdla" \
	--device sim:nv_full $image -o OUT
ok $? "$arch: digit model fp16 output = the native build's"
same digits8.nvdla nvdla_compile "$model" --config nv_small \
	--calibrate models/digits/calib -o OUT
ok $? "$arch: digit model compiled for nv_small int8 = the native build's loadable"
# shellcheck disable=SC2086
same digits8.txt nvdla_runtime --loadable "$tmp/digits8.nvdla" \
	--device sim:nv_small $image -o OUT
ok $? "$arch: digit model int8 output = the native build's"
lap "the digit model"

if [ ! -d "$shared" ]; then
	skip "$arch: traces, loadables and networks" "../shared absent"
	exit 0
fi

# Public hardware traces: nvdla_trace checks every output of each against
# its golden CRC or dump, or the RTL's CRC where the golden one is not.
for dir in "$shared"/traces/*/*/; do
	dir=${dir%/}
	name=${dir#"$shared"/traces/}
	"$run" "$cross/bin/nvdla_trace" "$dir" >"$tmp/out" 2>&1
	trace_ok "$name" $? "$(cat "$tmp/out")"
	ok $? "$arch: trace $name"
done
lap traces

# The official regression loadables, against their golden md5 too.
for t in $(cat tests/golden-loadables); do
	dir=$shared/loadables/$t
	same "$t.dimg" nvdla_runtime --loadable "$dir/$t.nvdla" -o OUT &&
		[ "$(md5_of "$tmp/$t.dimg")" = "$(cut -d' ' -f1 "$dir/golden/lead.md5")" ]
	ok $? "$arch: $t output = the native build's, golden md5"
done
lap "regression loadables"

# The corpus networks TCG runs in a few seconds each (of ResNet-18 the
# int8 build for nv_small; the others take 15 s to 5 min), with their
# case.json arguments, in their directories.
if ! command -v python3 >/dev/null; then
	skip "$arch: corpus networks" "python3 missing (tools/setup.sh)"
	exit 0
fi
for dir in "$shared"/networks/*/; do
	dir=${dir%/}
	case=${dir##*/}
	case $case in
	lenet_*|gnet_mini_nolrn_int8_*|alexnet_mini_*|mobilenet_mini_*|unet_mini_*|resnet18_int8_small) ;;
	*) continue ;;
	esac
	args=$(python3 -c 'import json, sys
print(" ".join(json.load(open(sys.argv[1]))["run"]["args"]))' "$dir/case.json")
	# The hardware stops on NVIDIA's int8 builds (docs/model.md).
	case $case in
	*_int8_*) args="$args --allow-hw-hazards" ;;
	esac
	# shellcheck disable=SC2086 # the arguments hold no blanks
	(cd "$dir" && same "$case.txt" nvdla_runtime $args --rawdump -o OUT)
	ok $? "$arch: network $case output = the native build's"
done
lap "networks"
