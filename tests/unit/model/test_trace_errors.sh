#!/bin/sh
# SPDX-License-Identifier: MIT
# nvdla_trace on malformed tests: each is a FAIL naming the file and line.
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# check NAME FORMAT LINE... : the script, then the expected message part.
check() {
	name=$1
	want=$2
	n=$((n + 1))
	out=$("$build/bin/nvdla_trace" --config nv_small "$tmp/$name" 2>&1)
	if [ $? -ne 0 ] && echo "$out" | grep -q -- "$want"; then
		echo "ok $n - $name: $want"
	else
		echo "not ok $n - $name: expected '$want'"
		echo "$out" | sed 's/^/# /'
	fi
}

# script NAME FILE LINE...: write a test directory with one script.
script() {
	mkdir -p "$tmp/$1"
	file=$tmp/$1/$2
	shift 2
	printf '%s\n' "$@" >"$file"
}

script cfg_cmd t.cfg "// comment" "frobnicate(1);"
check cfg_cmd "t.cfg:2: unknown command frobnicate"
script cfg_reg t.cfg "reg_write(NVDLA_PDP.D_NO_SUCH_0, 1);"
check cfg_reg "t.cfg:1: no register NVDLA_PDP.D_NO_SUCH_0"
script cfg_num t.cfg "mem_init(pri_mem, 0x8000000g, 0x10, ALL_ZERO);"
check cfg_num "t.cfg:1: '0x8000000g' is not a number"
script cfg_file t.cfg 'mem_load(pri_mem, 0x80000000, "none.dat");'
check cfg_file "t.cfg:1: .*none.dat: No such file"
script cfg_irq t.cfg "intr_notify(PDP_0, s);"
check cfg_irq "t.cfg:1: interrupt PDP_0 was never raised"
script cfg_crc t.cfg "mem_init(pri_mem, 0x80000000, 0x10, ALL_ZERO);" \
	"check_crc(s, 1, 0x80000000, 0x10, 0x12345678);"
check cfg_crc "t.cfg:2: CRC of 0x80000000+0x10 is"
script txn_read input.txn "read_reg 0xffff1000 0xff 0x31"
check txn_read "input.txn:1: register 0x4000 reads 0x0"
script txn_bad input.txn "write_reg 0xffff1000" "poke"
check txn_bad "input.txn:1: cannot parse 'write_reg'"
