#!/bin/sh
# SPDX-License-Identifier: MIT
# The convolution buffer's limits end to end (nvdla/cbuf_limits.h): the
# three int8 3x3 layers nvdla_mkconv used to give one data and one weight
# bank (28x28x64->64, 56x56x64->128, 13x13x384->256; NVIDIA's C model
# stalls on them) are refused by nvdla_mkconv, by the runtime at load and
# by the trace player, each naming the rule and its numbers; with
# --allow-hw-hazards they run, with a warning. nvdla_mkconv's own split
# of the same layers runs. The firmware and nvdla_trace word the gated
# weight count's verdict alike (with ../shared). Run from the repository
# root with the build directory as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
bin=$build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# layer W H C K, and the entries its input needs in nv_full's buffer
for layer in "28 28 64 64 392" "56 56 64 128 1568" "13 13 384 256 507"; do
	set -- $layer
	name=${1}x${2}x${3}-${4}
	need="CDMA insufficient cbuf space: the input does not fit its data banks: 256 entries, needs $5"

	"$bin/nvdla_mkconv" "$1" "$2" "$3" "$4" "$tmp/$name.nvdla" &&
		"$bin/nvdla_runtime" --loadable "$tmp/$name.nvdla" \
			--device sim:nv_full -o "$tmp/out.dimg" >/dev/null 2>&1
	ok $? "$name: nvdla_mkconv's split runs"

	out=$("$bin/nvdla_mkconv" --banks 1,1 "$1" "$2" "$3" "$4" \
		"$tmp/old.nvdla" 2>&1)
	[ $? -ne 0 ] && [ ! -e "$tmp/old.nvdla" ] &&
		echo "$out" | grep -qF "$need"
	ok $? "$name: one data bank and one weight bank refused by nvdla_mkconv ($out)"

	"$bin/nvdla_mkconv" --banks 1,1 --allow-hw-hazards "$1" "$2" "$3" \
		"$4" "$tmp/$name-old.nvdla" 2>/dev/null
	out=$("$bin/nvdla_runtime" --loadable "$tmp/$name-old.nvdla" \
		--device sim:nv_full -o "$tmp/out.dimg" 2>&1)
	[ $? -ne 0 ] && echo "$out" | grep -qF "op 0: $need"
	ok $? "$name: the old split refused at load ($out)"

	out=$("$bin/nvdla_runtime" --loadable "$tmp/$name-old.nvdla" \
		--device sim:nv_full -o "$tmp/old.dimg" --allow-hw-hazards \
		--record "$tmp/$name-rec" 2>&1)
	[ $? -eq 0 ] &&
		echo "$out" | grep -qF "warning: the hardware would not run 1 of these layers (last: $need)" &&
		cmp -s "$tmp/out.dimg" "$tmp/old.dimg"
	ok $? "$name: allowed, it runs with a warning and the same output"

	out=$("$bin/nvdla_trace" "$tmp/$name-rec" 2>&1)
	[ $? -ne 0 ] && echo "$out" | grep -qF "the last: $need"
	ok $? "$name: its recording refused by nvdla_trace ($out)"

	out=$("$bin/nvdla_trace" --allow-hw-hazards "$tmp/$name-rec" 2>&1)
	[ $? -eq 0 ] && echo "$out" | grep -qF "PASS $name-rec: ran 1 layers"
	ok $? "$name: nvdla_trace --allow-hw-hazards plays it, saying so"
done

# The same verdict in the firmware's words and the trace player's
# (nvdla_cbuf_verdict_text()): lenet_int8_large_ncxhwx of ../shared
# breaks the gated weight count at one layer (docs/model.md); the runtime
# refuses it at load, and its recording, run with the hazard allowed,
# nvdla_trace refuses, each with the same text and the stale count.
net=../shared/conformance/networks/lenet_int8_large_ncxhwx
if [ -d "$net" ]; then
	rt=$(realpath "$bin/nvdla_runtime")
	set -- --loadable lenet_int8_large_ncxhwx.nvdla --device sim:nv_large \
		--image input.pgm -o "$tmp/out.dimg"
	fw=$(cd "$net" && "$rt" "$@" 2>&1 >/dev/null |
		sed -n 's/.*: task [0-9]*: op [0-9]*: //p')
	(cd "$net" && "$rt" "$@" --allow-hw-hazards --record "$tmp/stale") \
		>/dev/null 2>&1
	player=$("$bin/nvdla_trace" "$tmp/stale" 2>&1 |
		sed -n 's/.* 1 layers the hardware cannot run, the last: //p')
	[ -n "$fw" ] && [ "$fw" = "$player" ] &&
		case $fw in *" (stale count "*) ;; *) false ;; esac
	ok $? "lenet_int8_large_ncxhwx: the firmware's refusal and nvdla_trace's the same text, with the stale count (firmware: $fw; nvdla_trace: $player)"
else
	skip "lenet_int8_large_ncxhwx: the firmware's refusal and nvdla_trace's" \
		"../shared absent"
fi

out=$("$bin/nvdla_mkconv" 64 64 256 256 "$tmp/big.nvdla" 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -qF "data and weight banks beyond the convolution buffer: 16 banks, needs"
ok $? "64x64x256 input: no split of nv_full's 16 banks holds it, refused ($out)"
echo "1..$n"
