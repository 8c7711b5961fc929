#!/bin/sh
# SPDX-License-Identifier: MIT
# nvdla_runtime as a user runs it, on the in-process model: the shipped
# loadable and the official BDMA regression loadable against their expected
# md5, and the command-line errors. Run from the repository root with the
# build directory as $1.
set -u
build=${1:-build}
rt=$build/bin/nvdla_runtime
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

md5_of() { md5sum "$1" | cut -d' ' -f1; }

# The shipped loadable is what tools/nvdla_mkloadable builds today.
"$build/bin/nvdla_mkloadable" "$tmp/fresh.nvdla" "$tmp/expect.dimg"
cmp -s "$tmp/fresh.nvdla" loadables/bdma_copy.nvdla
ok $? "loadables/bdma_copy.nvdla is fresh (make loadables)"
[ "$(md5_of "$tmp/expect.dimg")" = "$(cut -d' ' -f1 loadables/bdma_copy.md5)" ]
ok $? "loadables/bdma_copy.md5 matches the expected output"

(cd "$tmp" && "$OLDPWD/$rt" --loadable "$OLDPWD/loadables/bdma_copy.nvdla" \
	--device sim:nv_full >/dev/null)
ok $? "shipped loadable runs in process, default output name"
[ "$(md5_of "$tmp/output.dimg")" = "$(cut -d' ' -f1 loadables/bdma_copy.md5)" ]
ok $? "shipped loadable output equals the expected DIMG"

# The official regression loadables the firmware runs so far.
for t in $(cat tests/golden-loadables); do
	golden=../shared/conformance/loadables/$t
	n=$((n + 1))
	if [ ! -d "$golden" ]; then
		echo "ok $n - $t golden md5 in process # SKIP ../shared absent"
		continue
	fi
	"$rt" --loadable "$golden/$t.nvdla" -o "$tmp/$t.dimg" >/dev/null &&
		[ "$(md5_of "$tmp/$t.dimg")" = "$(cut -d' ' -f1 "$golden/golden/lead.md5")" ]
	if [ $? -eq 0 ]; then echo "ok $n - $t golden md5 in process"
	else echo "not ok $n - $t golden md5 in process"; fi
done

# --stats, checked against facts of the official loadables and goldens.
# int16 values at the limits of an output DIMG (header 36 bytes).
limits() { od -An -v -td2 -w2 -j36 "$1" | grep -cE '^ *(32767|-32768)$'; }
conf=../shared/conformance/loadables
if [ -d "$conf" ]; then
	# CDP_L0_0: LE and LO both linear from 0 with index select 0, and
	# every window's sum of squares of its int16 input is at least
	# 2218641, so all 8x8x32 lookups overflow both tables; the result
	# (at least 32767 times a non-zero input, times 2) clips every
	# output, as the golden's 2048 values at the int16 limits show.
	# Its write stall is the estimate's (docs/performance.md): 4096
	# bytes read and written take 410 cycles at 10 GB/s and 1 GHz,
	# 2048 elements at 8 a cycle 256.
	"$rt" --loadable "$conf/CDP_L0_0/CDP_L0_0.nvdla" --stats \
		-o "$tmp/cdp.dimg" >"$tmp/cdp.txt" &&
		grep -Eq '^ +0 +0 +0 cdp +[0-9]+  write_stall=154 lut_oflow=2048 saturation=2048$' "$tmp/cdp.txt" &&
		[ "$(limits "$conf/CDP_L0_0/golden/o_000000.dimg")" -eq 2048 ] &&
		[ "$(md5_of "$tmp/cdp.dimg")" = "$(cut -d' ' -f1 "$conf/CDP_L0_0/golden/lead.md5")" ]
	ok $? "--stats CDP_L0_0: 2048 LUT overflows and saturations, golden output unchanged"
	# CONV_D_L0_0: the SDP adds 0 and applies ReLU, so its converter
	# clips exactly the outputs the golden holds at the int16 limits;
	# the CACC saturates more (the negative ones ReLU then zeroes).
	"$rt" --loadable "$conf/CONV_D_L0_0/CONV_D_L0_0.nvdla" --stats \
		-o "$tmp/conv.dimg" >"$tmp/conv.txt"
	sat=$(sed -n 's/^ *0 *1 *0 sdp .* saturation=\([0-9]*\)$/\1/p' "$tmp/conv.txt")
	cacc=$(sed -n 's/^ *0 *0 *0 conv .* saturation=\([0-9]*\)$/\1/p' "$tmp/conv.txt")
	[ -n "$sat" ] && [ "$sat" -eq "$(limits "$conf/CONV_D_L0_0/golden/o_000000.dimg")" ] &&
		[ "${cacc:-0}" -ge "$sat" ]
	ok $? "--stats CONV_D_L0_0: SDP saturations ($sat) = golden outputs at the limits; CACC ${cacc:-none}"
else
	n=$((n + 2))
	echo "ok $((n - 1)) - --stats CDP_L0_0 # SKIP ../shared absent"
	echo "ok $n - --stats CONV_D_L0_0 # SKIP ../shared absent"
fi
# The BDMA's stalls are the estimate's: 4096 bytes at 10 GB/s and 1 GHz
# take 410 cycles, 346 more than its 64 words of 64 bytes.
"$rt" --loadable loadables/bdma_copy.nvdla --stats -o "$tmp/s.dimg" >"$tmp/s.txt" &&
	grep -Eq '^task +op +roi +type +time_us +counters' "$tmp/s.txt" &&
	grep -Eq '^ +0 +0 +0 bdma +[0-9]+  read_stall=346 write_stall=346$' "$tmp/s.txt" &&
	[ "$(md5_of "$tmp/s.dimg")" = "$(cut -d' ' -f1 loadables/bdma_copy.md5)" ]
ok $? "--stats on the shipped loadable: one bdma line, the estimated stalls"

"$rt" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--loadable is required" "$tmp/err"
ok $? "no --loadable: usage error, status 2"
"$rt" -h | grep -q "Usage: nvdla_runtime"
ok $? "-h prints the usage"
"$rt" --loadable "$tmp/missing.nvdla" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "missing.nvdla: No such file" "$tmp/err"
ok $? "missing loadable: message names the file, status 1"
head -c 100 loadables/bdma_copy.nvdla >"$tmp/cut.nvdla"
"$rt" --loadable "$tmp/cut.nvdla" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "malformed loadable" "$tmp/err"
ok $? "truncated loadable: 'malformed loadable', status 1"
"$rt" --loadable loadables/bdma_copy.nvdla --device sim:nv_small 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "bdma: nv_small has no such engine" "$tmp/err"
ok $? "BDMA loadable on nv_small (no BDMA): refused with a reason"
"$rt" --loadable loadables/bdma_copy.nvdla --device sim:nv_tiny 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "unknown model configuration 'nv_tiny'" "$tmp/err"
ok $? "unknown model configuration named in the error"
"$rt" --loadable loadables/bdma_copy.nvdla -o "$tmp/no/such/dir.dimg" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "dir.dimg" "$tmp/err"
ok $? "unwritable output path named in the error"
"$rt" --loadable loadables/bdma_copy.nvdla --image "$tmp/x.pgm" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "has no input for --image" "$tmp/err"
ok $? "--image on a network without input: refused with a reason"
"$rt" --loadable loadables/bdma_copy.nvdla --mean 1,x 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--mean takes up to 4 numbers" "$tmp/err"
ok $? "malformed --mean: usage error"
"$rt" --loadable loadables/bdma_copy.nvdla --rawdump -o "$tmp/raw.txt" >/dev/null &&
	[ "$(wc -w <"$tmp/raw.txt")" -eq 4096 ]
ok $? "--rawdump writes the 64x8x8 output values as text"

# Input data: a network that echoes input 0, fed the shipped loadable's
# source as a raw file, must write the shipped loadable's output.
"$build/bin/nvdla_mkloadable" --echo "$tmp/echo.nvdla" "$tmp/src.raw"
"$rt" --loadable "$tmp/echo.nvdla" --input "$tmp/src.raw" \
	-o "$tmp/echo.dimg" >/dev/null &&
	[ "$(md5_of "$tmp/echo.dimg")" = "$(cut -d' ' -f1 loadables/bdma_copy.md5)" ]
ok $? "--input: raw input data runs through the network unchanged"
head -c 100 "$tmp/src.raw" >"$tmp/short.raw"
"$rt" --loadable "$tmp/echo.nvdla" --input "$tmp/short.raw" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "short.raw: 100 bytes; input 0 (8x8x64) takes 4096" "$tmp/err"
ok $? "--input of the wrong size: file, size and tensor named, status 1"
"$rt" --loadable "$tmp/echo.nvdla" --input "$tmp/none.raw" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "none.raw: No such file" "$tmp/err"
ok $? "--input file missing: named, status 1"
"$rt" --loadable "$tmp/echo.nvdla" --input "$tmp/src.raw" --image "$tmp/x.pgm" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--image and --input both fill input 0" "$tmp/err"
ok $? "--image with --input: usage error, status 2"
printf 'P2 3 3 255 1 2 3 4 5 6 7 8 9\n' >"$tmp/small.pgm"
"$rt" --loadable "$tmp/echo.nvdla" --image "$tmp/small.pgm" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "small.pgm: 3x3, 1 channels; input 0 is 8x8, 64 channels" "$tmp/err"
ok $? "--image of the wrong size: both sizes named, status 1"
"$rt" --loadable "$tmp/echo.nvdla" --image "$tmp/none.png" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "none.png: No such file" "$tmp/err"
ok $? "--image file missing: named, status 1"
printf 'GIF89a' >"$tmp/pic.gif"
"$rt" --loadable "$tmp/echo.nvdla" --image "$tmp/pic.gif" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "pic.gif: not a PGM, PPM, JPEG or PNG image" "$tmp/err"
ok $? "--image of another format: refused, status 1"

# Rough edges a new user hit.
mkdir "$tmp/dir"
"$rt" --loadable "$tmp/dir" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "dir: is a directory" "$tmp/err"
ok $? "a directory as --loadable: 'is a directory', status 1"
"$rt" --loadable "$tmp/echo.nvdla" --input "$tmp/dir" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "dir: is a directory" "$tmp/err"
ok $? "a directory as --input: 'is a directory', status 1"
"$rt" --loadable "$tmp/echo.nvdla" --image "$tmp/dir" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "dir: is a directory" "$tmp/err"
ok $? "a directory as --image: 'is a directory', status 1"
"$rt" --loadable loadables/bdma_copy.nvdla --device sim:bogus 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "unknown model configuration 'bogus' (sim:NAME .*nv_full, nv_small, nv_large" "$tmp/err"
ok $? "--device sim:bogus lists the model's configurations"
"$rt" --loadable loadables/bdma_copy.nvdla --device "$tmp/bogus" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "bogus: No such file or directory (a device node, or sim:NAME" "$tmp/err"
ok $? "--device of a missing node points to sim:NAME"
"$rt" --loadable loadables/bdma_copy.nvdla stray 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "unexpected argument 'stray'" "$tmp/err"
ok $? "an unexpected argument is named, status 2"

# --timeout: a limit the network cannot meet stops it; malformed ones are
# usage errors; a generous one changes nothing.
"$rt" --loadable loadables/bdma_copy.nvdla --timeout 1e-9 -o "$tmp/t.dimg" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "task timed out" "$tmp/err"
ok $? "--timeout 1e-9 stops the network: 'task timed out', status 1"
for bad in 0 -1 x 1e12; do
	"$rt" --loadable loadables/bdma_copy.nvdla --timeout "$bad" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q -- "--timeout takes seconds" "$tmp/err" || break
done
ok $? "--timeout 0, -1, x and 1e12: usage errors, status 2"
"$rt" --loadable loadables/bdma_copy.nvdla --timeout 60 -o "$tmp/t.dimg" >/dev/null &&
	[ "$(md5_of "$tmp/t.dimg")" = "$(cut -d' ' -f1 loadables/bdma_copy.md5)" ]
ok $? "--timeout 60: the shipped loadable's expected output"

# nvdla_conv_weights (networks_check.py's weight reader) refuses with a
# reason and writes nothing.
cw=$build/bin/nvdla_conv_weights
"$cw" nv_tiny loadables/bdma_copy.nvdla "$tmp/w.bin" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "unknown configuration: nv_tiny" "$tmp/err" &&
	[ ! -e "$tmp/w.bin" ]
ok $? "nvdla_conv_weights: an unknown configuration is named"
"$cw" nv_full loadables/bdma_copy.nvdla "$tmp/w.bin" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "no convolution weights found" "$tmp/err" &&
	[ ! -e "$tmp/w.bin" ]
ok $? "nvdla_conv_weights: a loadable without a convolution is refused"
lenet=${NVDLA_NETWORKS:-../shared/conformance/networks}/lenet_fp16_full/lenet_fp16_full.nvdla
if [ -f "$lenet" ]; then
	printf 'x' >"$tmp/short.bin"
	"$cw" --replace "$tmp/short.bin" nv_full "$lenet" "$tmp/l.nvdla" \
		>/dev/null 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "weights missing or of another size" "$tmp/err" &&
		[ ! -e "$tmp/l.nvdla" ]
	ok $? "nvdla_conv_weights --replace: weights of another size are refused"
else
	skip "nvdla_conv_weights --replace of another size" "$lenet absent"
fi

# --top K: a classifier's K best classes, best first, as in its output;
# 5 by default; a count that is not from 1 to 65536 is a usage error.
if [ -f "$lenet" ]; then
	img=${lenet%/*}/input.pgm
	"$rt" --loadable "$lenet" --device sim:nv_full --image "$img" \
		--normalize 255 --rawdump -o "$tmp/l.txt" --top 3 >"$tmp/top3"
	tr ' ' '\n' <"$tmp/l.txt" | awk '{ print NR - 1, $1 }' | sort -k2,2gr |
		head -3 | awk '{ print "top " NR ": class " $1 ", " $2 }' >"$tmp/expect"
	[ -s "$tmp/expect" ] && grep '^top ' "$tmp/top3" | cmp -s - "$tmp/expect"
	ok $? "--top 3: the three largest values of the output, best first"
	"$rt" --loadable "$lenet" --device sim:nv_full --image "$img" \
		--normalize 255 -o "$tmp/l.dimg" >"$tmp/top"
	[ "$(grep -c '^top ' "$tmp/top")" -eq 5 ]
	ok $? "five classes by default"
else
	skip "--top on a classifier" "$lenet absent"
fi
# The README's main job (make run): the digit demo on its image of a 5
# prints that one class, with torch's probability (line 6 of
# models/digits/reference.txt) to fp16's precision.
"$build/bin/nvdla_compile" models/digits/digits.onnx --config nv_full \
	--precision fp16 -o "$tmp/digits.nvdla" >/dev/null &&
	"$rt" --loadable "$tmp/digits.nvdla" --device sim:nv_full --image \
		models/digits/input.pgm --normalize 255 --top 1 \
		-o "$tmp/d.dimg" >"$tmp/top"
[ $? -eq 0 ] && [ "$(grep -c '^top ' "$tmp/top")" -eq 1 ] &&
	awk -F', ' -v p="$(sed -n 6p models/digits/reference.txt)" \
		'/^top 1: class 5, / { d = $2 - p; hit = d < 0.001 && d > -0.001 }
		END { exit !hit }' "$tmp/top"
ok $? "the digit demo with --top 1: class 5, its probability"
for bad in 0 -1 x 65537; do
	"$rt" --loadable loadables/bdma_copy.nvdla --top "$bad" 2>"$tmp/err"
	[ $? -eq 2 ] && grep -q -- "--top takes a count of classes" "$tmp/err" || break
done
ok $? "--top 0, -1, x and 65537: usage errors, status 2"
