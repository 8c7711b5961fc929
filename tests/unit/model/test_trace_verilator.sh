#!/bin/sh
# SPDX-License-Identifier: MIT
# nvdla_trace --verilator: the command stream of nvdla/hw's RTL bench
# (docs/recording.md) holds what each .cfg script says, decoded by
# verilator_stream.py: public nv_small traces and a recorded network have
# every register write in order, every memory record, every CRC check and
# the interrupt registers; a recorded network's interrupt-status polls wait
# for the interrupt and read their own bits only. An input.txn test is
# refused, and a stream that cannot be created or written fails its test.
# Run from the repository root with the build directory as $1.
set -u
build=${1:-build}
traces=../shared/conformance/traces/nv_small
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
# shellcheck source=tests/unit/lib/traces.sh
. tests/unit/lib/traces.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
decode="python3 tests/unit/model/verilator_stream.py"

# same_as_cfg DIR: the stream of DIR's script matches the script; prints why not.
same_as_cfg() {
	name=$(basename "$1")
	cfg=$(ls "$1"/*.cfg)
	$decode "$tmp/$name.bin" >"$tmp/$name.txt" || return 1
	# the register writes, in order
	# (each interrupt-status poll masks the other sources and unmasks them)
	want=$(($(grep -c '^ *reg_write' "$cfg") +
		2 * $(grep -c 'poll_reg_equal(NVDLA_GLB.S_INTR_STATUS_0, 0x[0-9a-f]*[1-9a-f]' "$cfg")))
	got=$(grep -c '^write' "$tmp/$name.txt")
	[ "$want" = "$got" ] || { echo "$got register writes, the script has $want"; return 1; }
	# every CRC check, with its address, size and value
	grep '^ *check_crc' "$cfg" | sed 's,//.*,,' | tr -d ' ;)' | python3 -c 'import sys
for l in sys.stdin:
    f = l.strip().split(",")
    print("0x%x 0x%x 0x%08x" % tuple(int(x, 0) for x in f[2:5]))' |
		sort >"$tmp/want.crc"
	awk '$1 == "crc" { print $3, $4, $5 }' "$tmp/$name.txt" | sort >"$tmp/got.crc"
	cmp -s "$tmp/want.crc" "$tmp/got.crc" || { echo "CRC checks differ"; return 1; }
	# every memory record's bytes
	want=$(python3 -c 'import re, sys
d, total = sys.argv[1], 0
for l in open(sys.argv[2]):
    m = re.match(r"\s*mem_load\(\s*\w+\s*,\s*\w+\s*,\s*\"?([^\")]+)", l)
    if m:
        total += sum(int(x, 0) for x in re.findall(r"size:\s*(\w+)", open(d + "/" + m.group(1)).read()))
    m = re.match(r"\s*mem_init\(\s*\w+\s*,\s*\w+\s*,\s*(\w+)", l)
    if m:
        total += int(m.group(1), 0)
print(total)' "$1" "$cfg")
	got=$(awk '$1 == "load" { s += $3 } END { print s + 0 }' "$tmp/$name.txt")
	[ "$want" = "$got" ] || { echo "$got bytes loaded, the data files hold $want"; return 1; }
	tail -2 "$tmp/$name.txt" | head -1 | grep -q '^intr 0x403 0x401$' ||
		{ echo "no interrupt registers before the end"; return 1; }
}

if [ ! -d "$traces" ]; then
	skip "public nv_small traces as RTL bench streams" "$traces absent"
else
	count=0 bad=0
	for t in "$traces"/*/; do
		t=${t%/}
		# a test whose golden CRC is not the RTL's stops on the model
		[ -z "$(rtl_crc "nv_small/$(basename "$t")")" ] || continue
		count=$((count + 1))
		if ! "$build/bin/nvdla_trace" --verilator "$tmp" "$t" >/dev/null ||
			! why=$(same_as_cfg "$t"); then
			bad=$((bad + 1))
			echo "# $(basename "$t"): ${why:-nvdla_trace failed}"
		fi
	done
	ok $bad "$count public nv_small traces: each stream has the script's writes, records, CRC checks ($bad differ)"
fi

# The digit demo compiled for nv_small and recorded as a .cfg.
rec=$tmp/digits
if "$build/bin/nvdla_compile" models/digits/digits.onnx --config nv_small \
	--precision int8 --calibrate models/digits/calib -o "$tmp/digits.nvdla" >/dev/null &&
	"$build/bin/nvdla_runtime" --loadable "$tmp/digits.nvdla" --device sim:nv_small \
		--image models/digits/input.pgm --normalize 255 --record "$rec" \
		-o "$tmp/out.dimg" >/dev/null &&
	"$build/bin/nvdla_trace" --verilator "$tmp" "$rec" >/dev/null; then
	why=$(same_as_cfg "$rec")
	ok $? "recorded digits network: the stream has the script's writes, records, CRC checks ${why:+($why)}"
	# each interrupt-status read (0x403) follows a wait with every other
	# source masked (0x401) and the mask read back, reads its own bits, and
	# unmasks the script's
	python3 -c 'import sys
lines = [l.split() for l in open(sys.argv[1])]
polls = [i for i, l in enumerate(lines) if l[:2] == ["read", "0x403"]]
def good(i):
    mask, back, wait, read, unmask = lines[i - 3:i + 2]
    bits = int(read[3], 16)
    return (read[2] == read[3] and bits and wait == ["wait"] and
            mask[:2] == ["write", "0x401"] and int(mask[2], 16) == ~bits & 0xffffffff and
            back == ["read", "0x401", read[3], "0x0"] and
            unmask[:2] == ["write", "0x401"])
sys.exit(not polls or not all(good(i) for i in polls))' "$tmp/digits.txt"
	ok $? "recorded digits network: its interrupt-status polls mask every other source, read the mask back, wait for the interrupt, read their own bits and unmask"
else
	ok 1 "recorded digits network: compile, record or convert failed"
	ok 1 "recorded digits network: interrupt-status polls"
fi

# input.txn has no .cfg form for the bench.
mkdir -p "$tmp/txn"
printf 'write_reg 0xffff1000 0x0\n' >"$tmp/txn/input.txn"
"$build/bin/nvdla_trace" --verilator "$tmp" "$tmp/txn" 2>&1 | grep -q 'takes .cfg scripts only'
ok $? "an input.txn test is refused with the reason"

# A stream that cannot be created, or not written, fails its test with the
# reason and a failing exit status.
# refused DIR TEXT: nvdla_trace --verilator DIR on a public test fails saying TEXT
refused() {
	out=$("$build/bin/nvdla_trace" --verilator "$1" "$src" 2>&1) && return 1
	echo "$out" | grep -q "$2"
}
src=$(ls -d "$traces"/*/ 2>/dev/null | head -1)
src=${src%/}
if [ -z "$src" ]; then
	skip "a stream in a missing directory is refused" "$traces absent"
	skip "a stream that cannot be written fails its test" "$traces absent"
else
	refused "$tmp/missing" "cannot create $tmp/missing/"
	ok $? "a stream in a missing directory is refused with the reason"
	mkdir -p "$tmp/full"
	ln -s /dev/full "$tmp/full/$(basename "$src").bin"
	refused "$tmp/full" "cannot write the RTL bench's stream"
	ok $? "a stream that cannot be written (a full disk) fails its test with the reason"
fi
