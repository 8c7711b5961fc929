#!/bin/sh
# SPDX-License-Identifier: MIT
# nvdla_compile as a user runs it: its argument errors and their messages,
# --exec against the float64 reference of the committed digit model (and
# of the ONNX corpus when ../shared is present), --dump-ir, and compiles
# in fp16 and in int8 (each calibration method) whose loadables the
# runtime runs. Run from the repository root with the build directory
# as $1.
set -u
build=${1:-build}
nc=$build/bin/nvdla_compile
rt=$build/bin/nvdla_runtime
model=models/digits/digits.onnx
corpus=../shared/conformance/onnx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

# refuse STATUS MESSAGE ARGS...: exits with STATUS, says MESSAGE on stderr.
refuse() {
	want=$1
	msg=$2
	shift 2
	"$nc" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	[ "$status" -eq "$want" ] && grep -qF -- "$msg" "$tmp/err"
	ok $? "refused ($status): $*"
	[ "$status" -eq "$want" ] || sed 's/^/# /' "$tmp/err"
}

# max_error A B: the largest absolute difference of two value-a-line files.
max_error() {
	paste "$1" "$2" | awk 'BEGIN { m = 0; n = 0 }
		{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d; n++ }
		END { if (n == 0) m = 1; printf "%.3g\n", m }'
}

below() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'
}

# exec_matches NAME WHAT: --exec of NAME.onnx on NAME.npy is within 1e-5
# of NAME_ref.txt (in $tmp).
exec_matches() {
	"$nc" "$tmp/$1.onnx" --exec "$tmp/$1.npy" >"$tmp/$1.txt"
	e=$(max_error "$tmp/$1.txt" "$tmp/$1_ref.txt")
	below "$e" 1e-5
	ok $? "$2: --exec matches numpy (max error $e)"
}

# run_close STATUS NAME COUNT BOUND: a run that ended with STATUS wrote
# COUNT values into NAME_run.txt, within BOUND of NAME_ref.txt (its
# largest error in $e).
run_close() {
	e=$(max_error "$tmp/$2_run.txt" "$tmp/$2_ref.txt")
	[ "$1" -eq 0 ] && [ "$(wc -l <"$tmp/$2_run.txt")" -eq "$3" ] &&
		below "$e" "$4"
}

# run_values LOADABLE CONFIG NPY OUT: run it on the model with that input,
# its output's values into OUT, one a line.
run_values() {
	"$rt" --loadable "$1" --device "sim:$2" --input "$3" --rawdump \
		-o "$tmp/run.txt" >/dev/null 2>&1 &&
		tr ' ' '\n' <"$tmp/run.txt" | grep . >"$4"
}

# each_target NAME COUNT WHAT REF: NAME.onnx compiled for nv_full in fp16
# (within 0.01) and for nv_full, nv_large and nv_small in int8 (within
# 0.05, calibrated on NAME.npy), each run on NAME.npy against
# NAME_ref.txt (REF says what computed it).
each_target() {
	mkdir "$tmp/$1.cal" && cp "$tmp/$1.npy" "$tmp/$1.cal/"
	for run in nv_full:fp16:0.01 nv_full:int8:0.05 nv_large:int8:0.05 \
		nv_small:int8:0.05; do
		IFS=: read -r cfg prec bound <<-END
		$run
		END
		"$nc" "$tmp/$1.onnx" --config "$cfg" --precision "$prec" \
			--calibrate "$tmp/$1.cal" -o "$tmp/$1.nvdla" &&
			run_values "$tmp/$1.nvdla" "$cfg" "$tmp/$1.npy" \
				"$tmp/$1_run.txt"
		run_close $? "$1" "$2" "$bound"
		ok $? "$3: $cfg $prec matches $4 (max error $e, bound $bound)"
	done
}

refuse 2 "usage:"
refuse 2 "nv_full, nv_large or nv_small" "$model" --config nv_huge -o "$tmp/x"
refuse 2 "fp16 or int8" "$model" --config nv_full --precision int4 -o "$tmp/x"
refuse 2 "minmax, percentile" "$model" --dump-ir --calib-method kl
refuse 2 "minmax, percentile" "$model" --dump-ir --calib-method percentile=101
refuse 2 "image or feature" "$model" --dump-ir --input-format planar
refuse 2 "one to three numbers" "$model" --dump-ir --mean 1,x
refuse 2 "a non-zero number" "$model" --dump-ir --normalize 0
refuse 2 "compiling needs --config and -o" "$model" --config nv_full
refuse 2 "usage:" "$model" "$model" --dump-ir
refuse 2 "--jobs 0: a number of threads from 1 to 64" "$model" --dump-ir --jobs 0
refuse 2 "--jobs 65: a number of threads from 1 to 64" "$model" --dump-ir --jobs 65
refuse 2 "--jobs x: a number of threads from 1 to 64" "$model" --dump-ir --jobs x
refuse 2 "--report estimates what it compiles: it needs --config and -o" \
	"$model" --exec models/digits/input.pgm --report
refuse 2 "--equalize=relu5: relu6, data or both, comma separated" "$model" --dump-ir --equalize=relu5
refuse 2 "--equalize=data measures activations on calibration images: it needs --calibrate" \
	"$model" --dump-ir --equalize=relu6,data
refuse 2 "--bias-correct corrects int8 weights from calibration images: it needs --calibrate and int8" \
	"$model" --config nv_small --bias-correct -o "$tmp/x"
refuse 2 "--bias-correct corrects int8 weights from calibration images: it needs --calibrate and int8" \
	"$model" --config nv_full --calibrate models/digits/calib --bias-correct -o "$tmp/x"
refuse 1 "int8 needs --calibrate DIR" "$model" --config nv_small -o "$tmp/x"
refuse 1 "int8 needs --calibrate DIR" "$model" --config nv_full --precision int8 -o "$tmp/x"
refuse 1 "$tmp/none.onnx: No such file" "$tmp/none.onnx" --dump-ir
printf 'not a model' >"$tmp/junk.onnx"
refuse 1 "not an ONNX model" "$tmp/junk.onnx" --dump-ir
refuse 1 "$tmp/none.npy" "$model" --exec "$tmp/none.npy"
printf 'P5\n4 4\n255\n0123456789abcdef' >"$tmp/small.pgm"
refuse 1 "4x4 with 1 channels; input 'data' is 16x16 with 1" "$model" --exec "$tmp/small.pgm"
mkdir "$tmp/empty"
refuse 1 "no .pgm, .ppm, .png or .jpg images and no .npy arrays" "$model" --dump-ir --calibrate "$tmp/empty"
[ -f "$tmp/x" ]
ok $((!$?)) "no output file is left by a refused compile"

"$nc" "$model" --exec models/digits/input.pgm --jobs 1 >"$tmp/digits1.txt"
"$nc" "$model" --exec models/digits/input.pgm --jobs 3 >"$tmp/digits.txt"
cmp -s "$tmp/digits1.txt" "$tmp/digits.txt"
ok $? "--exec gives the same values with 1 and 3 threads (--jobs)"

e=$(max_error "$tmp/digits.txt" models/digits/reference.txt)
below "$e" 1e-5
ok $? "--exec on the digit model matches torch's float64 outputs (max error $e)"

"$nc" "$model" --dump-ir --calibrate models/digits/calib --calib-method entropy \
	>"$tmp/ir.txt"
grep -q "^node 0 '/conv1/Conv' (Conv) conv .* act=relu" "$tmp/ir.txt" &&
	grep -q "^tensor 15 'prob' 1x10x1x1 range=" "$tmp/ir.txt"
ok $? "--dump-ir after the passes, with entropy-calibrated ranges"

"$nc" "$model" --dump-ir --calibrate models/digits/calib \
	--calib-method percentile=99.9 --mean 25.5 --normalize 229.5 >"$tmp/ir.txt"
grep -q "^tensor 0 'data' 1x1x16x16 range=\[-0.111111,1\]" "$tmp/ir.txt"
ok $? "--mean 25.5 --normalize 229.5: the input's range is [-0.111, 1]"

# The calibration images as .npy arrays of their input values, p / 255:
# the same ranges (the input's is measured, and the images hold 0 and 255).
mkdir "$tmp/npy"
for f in models/digits/calib/*.pgm; do
	/usr/bin/python3 -c 'import sys, numpy as np
d = open(sys.argv[1], "rb").read()
p = np.frombuffer(d[-256:], np.uint8).astype(np.float32) / np.float32(255)
np.save(sys.argv[2], p.reshape(1, 16, 16))' "$f" "$tmp/npy/$(basename "$f" .pgm).npy"
done
"$nc" "$model" --dump-ir --calibrate models/digits/calib >"$tmp/ir_img.txt"
"$nc" "$model" --dump-ir --calibrate "$tmp/npy" >"$tmp/ir_npy.txt"
cmp -s "$tmp/ir_npy.txt" "$tmp/ir_img.txt" &&
	grep -q "^tensor 0 .data. 1x1x16x16 range=\[0,1\]" "$tmp/ir_npy.txt"
ok $? "--calibrate on .npy arrays of the images' values: the same ranges"
cp models/digits/calib/000.pgm "$tmp/npy/"
"$nc" "$model" --dump-ir --calibrate "$tmp/npy" >/dev/null 2>"$tmp/err"
grep -qF "nvdla_compile: $tmp/npy: calibrating on its 1 images; its 100 .npy arrays are left out" \
	"$tmp/err"
ok $? "--calibrate on a directory of images and .npy arrays: the images, said on stderr"

"$nc" "$model" --config nv_full -o "$tmp/digits.nvdla" &&
	"$rt" --loadable "$tmp/digits.nvdla" --device sim:nv_full \
		--image models/digits/input.pgm --normalize 255 --rawdump \
		-o "$tmp/run.txt" >/dev/null
status=$?
tr ' ' '\n' <"$tmp/run.txt" | grep . >"$tmp/run1.txt"
e=$(max_error "$tmp/run1.txt" models/digits/reference.txt)
[ "$status" -eq 0 ] && below "$e" 0.01
ok $? "the digit model compiled for nv_full (fp16) runs in process (max error $e)"

# The loadable records the mapping it was compiled for (pixel / 255):
# the runtime applies it without --normalize, says so, and warns when the
# command line disagrees.
"$rt" --loadable "$tmp/digits.nvdla" --device sim:nv_full \
	--image models/digits/input.pgm --rawdump -o "$tmp/run.txt" \
	>/dev/null 2>"$tmp/err.txt"
status=$?
tr ' ' '\n' <"$tmp/run.txt" | grep . >"$tmp/run1.txt"
e=$(max_error "$tmp/run1.txt" models/digits/reference.txt)
[ "$status" -eq 0 ] && below "$e" 0.01 &&
	grep -q "was compiled for pixels p as (p - 0,0,0) / 255 (B, G, R); applied" "$tmp/err.txt"
ok $? "--image without --normalize: the loadable's mapping, said on stderr (max error $e)"
"$rt" --loadable "$tmp/digits.nvdla" --device sim:nv_full \
	--image models/digits/input.pgm --normalize 1 --rawdump \
	-o "$tmp/run.txt" >/dev/null 2>"$tmp/err.txt"
grep -q "^nvdla_runtime: warning: .* / 255 (B, G, R); the command line's --mean or --normalize differ, and are used" "$tmp/err.txt"
ok $? "--normalize 1 against a loadable compiled for / 255: a warning"

# Each calibration method, then the int8 quality tools (the digit
# model's conv2 and fc1 read conv1 and conv2 through ReLU and a max
# pooling, fc2 reads fc1 through ReLU: three pairs to equalize).
for variant in minmax percentile entropy "minmax --equalize --bias-correct" \
	"minmax --equalize=data,relu6"; do
	# shellcheck disable=SC2086 # the method, then options
	set -- $variant
	method=$1
	shift
	"$nc" "$model" --config nv_small --calibrate models/digits/calib \
		--calib-method "$method" "$@" -o "$tmp/digits8.nvdla" 2>"$tmp/err.txt" &&
		"$rt" --loadable "$tmp/digits8.nvdla" --device sim:nv_small \
			--image models/digits/input.pgm --normalize 255 --rawdump \
			-o "$tmp/run.txt" >/dev/null
	status=$?
	tr ' ' '\n' <"$tmp/run.txt" | grep . >"$tmp/run1.txt"
	e=$(max_error "$tmp/run1.txt" models/digits/reference.txt)
	[ "$status" -eq 0 ] && below "$e" 0.05
	ok $? "the digit model in int8 for nv_small, $variant calibration, runs in process (max error $e)"
done
grep -q "^nvdla_compile: 3 pairs of convolutions equalized" "$tmp/err.txt"
ok $? "--equalize says how many pairs it equalized: $(grep pairs "$tmp/err.txt")"

# --report: each layer's estimate is its operations' in the runtime's
# --estimate of the same loadable (each of the digit model's layers one
# operation, in order), the totals the same; on nv_full (fp16) the first
# 3x3 convolution (16x16, 1 channel) is estimated faster in Winograd
# mode and takes it, the second (8x8, 8 channels) faster direct and
# stays so, each line giving both estimates. On nv_small (int8, no
# Winograd), fc1's weights (16 kernels of 256 bytes, 8 a group) fill two
# banks: with one, the second group streams while the first computes,
# estimated faster, and taken.
# report_matches REPORT ESTIMATE: per layer and total cycles agree
report_matches() {
	awk 'FNR == 1 { f++ }
		f == 1 && $1 ~ /^[0-9]+$/ && NF >= 8 { r[n++] = $5 }
		f == 1 && /^total:/ { rt = $2 }
		f == 2 && $1 ~ /^[0-9]+$/ && NF == 13 { e[m++] = $5 }
		f == 2 && /^total:/ { et = $2 }
		END {
			if (n == 0 || n != m || rt != et) exit 1
			for (i = 0; i < n; i++) if (r[i] != e[i]) exit 1
		}' "$1" "$2"
}
"$nc" "$model" --config nv_full --report -o "$tmp/rep.nvdla" >"$tmp/rep.txt" &&
	"$rt" --loadable "$tmp/rep.nvdla" --device sim:nv_full --estimate \
		-o "$tmp/rep.dimg" >"$tmp/est.txt" &&
	report_matches "$tmp/rep.txt" "$tmp/est.txt" &&
	awk '$2 == "/conv1/Conv" && $8 == "winograd" {
			w = $10; d = $13; sub(":", "", d); ok1 = w + 0 < d + 0 }
		$2 == "/conv2/Conv" && $8 == "direct" {
			w = $10; d = $13; sub(":", "", d); ok2 = d + 0 <= w + 0 }
		END { exit !(ok1 && ok2) }' "$tmp/rep.txt" &&
	cmp -s "$tmp/rep.nvdla" "$tmp/digits.nvdla"
ok $? "--report nv_full: conv1 Winograd, conv2 direct, each as estimated faster; layers and total as nvdla_runtime --estimate"
"$nc" "$model" --config nv_small --calibrate models/digits/calib --report \
	-o "$tmp/rep8.nvdla" >"$tmp/rep8.txt" &&
	"$rt" --loadable "$tmp/rep8.nvdla" --device sim:nv_small --estimate \
		-o "$tmp/rep.dimg" >"$tmp/est8.txt" &&
	report_matches "$tmp/rep8.txt" "$tmp/est8.txt" &&
	! grep -q "winograd" "$tmp/rep8.txt" &&
	grep -q "^report: nv_small at 400 MHz, 2 GB/s" "$tmp/rep8.txt" &&
	awk '$2 == "/fc1/Gemm" && $8 == "weight" {
			l = $12; a = $15; sub(":", "", a)
			ok = $10 == "least" ? l + 0 < a + 0 : a + 0 <= l + 0 }
		END { exit !ok }' "$tmp/rep8.txt"
ok $? "--report nv_small int8: 400 MHz, 2 GB/s, no Winograd, fc1's weight banks the split estimated faster (all on a tie), layers and total as nvdla_runtime --estimate"

# A network of two outputs: --rawdump writes both (out.txt, out.1.txt),
# the values --exec prints for each in turn.
if ! /usr/bin/python3 -c 'import onnx, numpy' 2>/dev/null; then
	skip "every output written" "python3-onnx missing (tools/setup.sh)"
else
	/usr/bin/python3 - "$tmp/two.onnx" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import helper as oh, numpy_helper as nh, TensorProto as T
rng = np.random.default_rng(5)
w = [nh.from_array(rng.uniform(-1, 1, (n, 1, 3, 3)).astype(np.float32), f"w{n}")
     for n in (4, 8)]
g = oh.make_graph(
    [oh.make_node("Conv", ["data", "w4"], ["first"], pads=[1, 1, 1, 1]),
     oh.make_node("Conv", ["data", "w8"], ["c8"], strides=[2, 2]),
     oh.make_node("Relu", ["c8"], ["second"])],
    "two", [oh.make_tensor_value_info("data", T.FLOAT, [1, 1, 16, 16])],
    [oh.make_tensor_value_info("first", T.FLOAT, None),
     oh.make_tensor_value_info("second", T.FLOAT, None)], w)
onnx.save(oh.make_model(g, opset_imports=[oh.make_opsetid("", 13)]), sys.argv[1])
EOF
	"$nc" "$tmp/two.onnx" --exec models/digits/input.pgm >"$tmp/ref.txt" &&
		"$nc" "$tmp/two.onnx" --config nv_full -o "$tmp/two.nvdla" &&
		"$rt" --loadable "$tmp/two.nvdla" --device sim:nv_full \
			--image models/digits/input.pgm --rawdump \
			-o "$tmp/two.txt" >"$tmp/out" 2>/dev/null
	status=$?
	cat "$tmp/two.txt" "$tmp/two.1.txt" 2>/dev/null | tr ' ' '\n' |
		grep . >"$tmp/run1.txt"
	e=$(max_error "$tmp/run1.txt" "$tmp/ref.txt")
	[ "$status" -eq 0 ] && below "$e" 0.01 &&
		[ "$(wc -l <"$tmp/run1.txt")" -eq $((4 * 256 + 8 * 49)) ] &&
		grep -q "wrote $tmp/two.txt, $tmp/two.1.txt$" "$tmp/out"
	ok $? "--rawdump writes both outputs of a network (two.txt, two.1.txt; max error $e)"
	"$rt" --loadable "$tmp/two.nvdla" --device sim:nv_full \
		--image models/digits/input.pgm -o "$tmp/two" >/dev/null 2>&1 &&
		[ -s "$tmp/two" ] && [ -s "$tmp/two.1" ]
	ok $? "-o without an extension: two and two.1"

	# GELU as torch exports it: its Erf refused without --cpu-fallback,
	# a CPU task with it (listed on stderr), the run as --exec says.
	/usr/bin/python3 - "$tmp/gelu.onnx" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import helper as oh, numpy_helper as nh, TensorProto as T
rng = np.random.default_rng(6)
c = [nh.from_array(np.array(v, np.float32), n)
     for n, v in (("r2", 2 ** 0.5), ("one", 1), ("half", 0.5))]
w = nh.from_array(rng.uniform(-1, 1, (8, 1, 3, 3)).astype(np.float32), "w")
g = oh.make_graph(
    [oh.make_node("Conv", ["data", "w"], ["x"], pads=[1, 1, 1, 1]),
     oh.make_node("Div", ["x", "r2"], ["xs"]),
     oh.make_node("Erf", ["xs"], ["e"], name="erf"),
     oh.make_node("Add", ["e", "one"], ["e1"]),
     oh.make_node("Mul", ["x", "e1"], ["xe"]),
     oh.make_node("Mul", ["xe", "half"], ["gelu"])],
    "gelu", [oh.make_tensor_value_info("data", T.FLOAT, [1, 1, 16, 16])],
    [oh.make_tensor_value_info("gelu", T.FLOAT, None)], [w] + c)
onnx.save(oh.make_model(g, opset_imports=[oh.make_opsetid("", 13)]), sys.argv[1])
EOF
	refuse 1 "node 'erf' (Erf): the DLA does not compute it; it runs as a CPU task with --cpu-fallback" \
		"$tmp/gelu.onnx" --config nv_full -o "$tmp/gelu.nvdla"
	"$nc" "$tmp/gelu.onnx" --exec models/digits/input.pgm >"$tmp/ref.txt" &&
		"$nc" "$tmp/gelu.onnx" --config nv_full --cpu-fallback \
			-o "$tmp/gelu.nvdla" 2>"$tmp/err" &&
		"$rt" --loadable "$tmp/gelu.nvdla" --device sim:nv_full \
			--image models/digits/input.pgm --rawdump \
			-o "$tmp/gelu.txt" >/dev/null 2>&1
	status=$?
	tr ' ' '\n' <"$tmp/gelu.txt" | grep . >"$tmp/run1.txt"
	e=$(max_error "$tmp/run1.txt" "$tmp/ref.txt")
	[ "$status" -eq 0 ] && below "$e" 0.01 &&
		[ "$(cat "$tmp/err")" = "nvdla_compile: node 'erf' (Erf) runs on the CPU" ]
	ok $? "GELU's Erf on the CPU with --cpu-fallback, listed on stderr (max error $e)"

	# Tokens [1, 4, 8]: MatMul, bias, layer normalisation over the last
	# axis (torch's opset-13 pattern, and the opset-17 node), scale and
	# shift; a bilinear Resize; a ReduceMean over the last axis alone.
	# --exec against numpy; without --cpu-fallback refused naming the
	# first CPU node, with it every CPU node listed on stderr.
	/usr/bin/python3 - "$tmp" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import helper as oh, numpy_helper as nh, TensorProto as T
rng = np.random.default_rng(7)
d = sys.argv[1]
x = rng.uniform(-1, 1, (1, 4, 8)).astype(np.float32)
w = rng.uniform(-1, 1, (8, 16)).astype(np.float32)
b, g, beta = (rng.uniform(-1, 1, 16).astype(np.float32) for _ in range(3))
c = [nh.from_array(v, n) for n, v in (("w", w), ("b", b), ("g", g),
     ("beta", beta), ("two", np.float32(2)), ("eps", np.float32(1e-5)))]
mm = [oh.make_node("MatMul", ["data", "w"], ["xw"]),
      oh.make_node("Add", ["xw", "b"], ["h"])]
tail = [oh.make_node("Mul", ["n", "g"], ["ng"]),
        oh.make_node("Add", ["ng", "beta"], ["y"])]
pattern = [oh.make_node("ReduceMean", ["h"], ["m"], axes=[-1], name="mean"),
           oh.make_node("Sub", ["h", "m"], ["dv"]),
           oh.make_node("Pow", ["dv", "two"], ["sq"]),
           oh.make_node("ReduceMean", ["sq"], ["var"], axes=[-1]),
           oh.make_node("Add", ["var", "eps"], ["ve"]),
           oh.make_node("Sqrt", ["ve"], ["sd"]),
           oh.make_node("Div", ["dv", "sd"], ["n"])]
ln = [oh.make_node("LayerNormalization", ["h", "g", "beta"], ["y"],
                   epsilon=1e-5, name="ln")]
mean = [oh.make_node("ReduceMean", ["h"], ["y"], axes=[-1], name="mean")]


def save(name, nodes, opset, inputs):
    gr = oh.make_graph(nodes, name, inputs,
                       [oh.make_tensor_value_info("y", T.FLOAT, None)], c)
    onnx.save(oh.make_model(gr, opset_imports=[oh.make_opsetid("", opset)]),
              "%s/%s.onnx" % (d, name))


tokens = [oh.make_tensor_value_info("data", T.FLOAT, [1, 4, 8])]
save("ln13", mm + pattern + tail, 13, tokens)
save("ln17", mm + ln, 17, tokens)
save("mean", mm + mean, 13, tokens)
h = x[0] @ w + b
y = (h - h.mean(-1, keepdims=True)) / np.sqrt(h.var(-1, keepdims=True) + 1e-5)
np.save(d + "/tokens.npy", x)
np.savetxt(d + "/ln_ref.txt", (y * g + beta).ravel(), fmt="%.9g")
# Bilinear by 1.5 (the CPU's: by 2 it runs on the DLA), half_pixel
# (torch's align_corners=False) of 1 x 2 x 3 x 3 into 4 x 4.
xi = rng.uniform(-1, 1, (1, 2, 3, 3)).astype(np.float32)
c = [nh.from_array(np.array([1, 1, 1.5, 1.5], np.float32), "scales")]
save("up", [oh.make_node("Resize", ["data", "", "scales"], ["y"],
                         mode="linear", name="up")], 13,
     [oh.make_tensor_value_info("data", T.FLOAT, [1, 2, 3, 3])])
s = np.clip((np.arange(4) + 0.5) / 1.5 - 0.5, 0, 2)
i0 = np.floor(s).astype(int)
i1 = np.minimum(i0 + 1, 2)
f = s - i0
r = xi[0][:, i0] * (1 - f)[:, None] + xi[0][:, i1] * f[:, None]
r = r[:, :, i0] * (1 - f) + r[:, :, i1] * f
np.save(d + "/up.npy", xi)
np.savetxt(d + "/up_ref.txt", r.ravel(), fmt="%.9g")
EOF
	for m in ln13 ln17; do
		refuse 1 "node 'data/tokens' (Transpose): the DLA does not compute it; it runs as a CPU task with --cpu-fallback" \
			"$tmp/$m.onnx" --config nv_full -o "$tmp/$m.nvdla"
		"$nc" "$tmp/$m.onnx" --exec "$tmp/tokens.npy" >"$tmp/ln.txt"
		e=$(max_error "$tmp/ln.txt" "$tmp/ln_ref.txt")
		below "$e" 1e-5
		ok $? "$m: --exec of a MatMul on tokens and a layer normalisation matches numpy (max error $e)"
		node=mean
		[ $m = ln17 ] && node=ln
		"$nc" "$tmp/$m.onnx" --config nv_full --cpu-fallback \
			-o "$tmp/$m.nvdla" 2>"$tmp/err" &&
			[ "$(cat "$tmp/err")" = "nvdla_compile: node 'data/tokens' (Transpose) runs on the CPU
nvdla_compile: node '$node' (LayerNormalization) runs on the CPU
nvdla_compile: node 'y' (Transpose) runs on the CPU" ]
		ok $? "$m: with --cpu-fallback the layout swaps and the layer normalisation listed on stderr"
		# The tokens as numpy holds them, [1, T, D], into the
		# loadable's T x D x 1 input.
		run_values "$tmp/$m.nvdla" nv_full "$tmp/tokens.npy" \
			"$tmp/ln_run.txt"
		status=$?
		e=$(max_error "$tmp/ln_run.txt" "$tmp/ln_ref.txt")
		[ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/ln_run.txt")" -eq 64 ] &&
			below "$e" 0.01
		ok $? "$m: nvdla_runtime --input of the [1, 4, 8] .npy on nv_full fp16 matches numpy (max error $e)"
	done
	# int8 on nv_small, calibrated on the same tokens.
	mkdir "$tmp/tcal" && cp "$tmp/tokens.npy" "$tmp/tcal/" &&
		"$nc" "$tmp/ln17.onnx" --config nv_small --precision int8 \
			--calibrate "$tmp/tcal" --cpu-fallback \
			-o "$tmp/ln17_8.nvdla" 2>/dev/null &&
		run_values "$tmp/ln17_8.nvdla" nv_small "$tmp/tokens.npy" \
			"$tmp/ln_run.txt"
	status=$?
	e=$(max_error "$tmp/ln_run.txt" "$tmp/ln_ref.txt")
	[ "$status" -eq 0 ] && below "$e" 0.1
	ok $? "ln17 in int8 on nv_small, calibrated on the tokens' .npy: nvdla_runtime --input of it matches numpy (max error $e)"
	"$rt" --loadable "$tmp/ln17.nvdla" --device sim:nv_full \
		--input "$tmp/up.npy" >/dev/null 2>"$tmp/err"
	[ $? -ne 0 ] && grep -qF "up.npy: .npy shape (1, 2, 3, 3) is not that of input 'data' (1, 4, 8, 1: batch 1 optional)" "$tmp/err"
	ok $? "nvdla_runtime --input of a .npy of another shape refused: $(cat "$tmp/err")"
	refuse 1 "node 'up' (Resize): the DLA does not compute it; it runs as a CPU task with --cpu-fallback" \
		"$tmp/up.onnx" --config nv_full -o "$tmp/up.nvdla"
	"$nc" "$tmp/up.onnx" --exec "$tmp/up.npy" >"$tmp/up.txt"
	e=$(max_error "$tmp/up.txt" "$tmp/up_ref.txt")
	below "$e" 1e-6 &&
		"$nc" "$tmp/up.onnx" --config nv_full --cpu-fallback \
			-o "$tmp/up.nvdla" 2>"$tmp/err" &&
		[ "$(cat "$tmp/err")" = "nvdla_compile: node 'up' (Resize) runs on the CPU" ]
	ok $? "a bilinear Resize: --exec matches numpy (max error $e), a CPU task with --cpu-fallback"
	refuse 1 "node 'mean' (ReduceMean): a mean over the last axis is supported only as the start of a layer normalisation" \
		"$tmp/mean.onnx" --config nv_full --cpu-fallback -o "$tmp/x"

	# ConvNeXt's block on [1, 8, 3, 5]: Transpose (0, 2, 3, 1), a layer
	# normalisation over the channels (the opset-13 pattern), scale and
	# shift, MatMul and bias, Transpose (0, 3, 1, 2). The transposes are
	# views (nothing moves, no CPU task); the refusals: the view as an
	# output, added to an NCHW tensor of its shape, transposed otherwise,
	# averaged over another axis.
	/usr/bin/python3 - "$tmp" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import helper as oh, numpy_helper as nh, TensorProto as T
rng = np.random.default_rng(11)
d = sys.argv[1]
x = rng.uniform(-1, 1, (1, 8, 3, 5)).astype(np.float32)
g, beta = (rng.uniform(-1, 1, 8).astype(np.float32) for _ in range(2))
w = rng.uniform(-1, 1, (8, 16)).astype(np.float32)
b = rng.uniform(-1, 1, 16).astype(np.float32)
c = [nh.from_array(v, n) for n, v in (("g", g), ("beta", beta), ("w", w),
     ("b", b), ("two", np.float32(2)), ("eps", np.float32(1e-6)))]
last = [oh.make_node("Transpose", ["data"], ["v"], perm=[0, 2, 3, 1],
                     name="last")]
norm = [oh.make_node("ReduceMean", ["v"], ["m"], axes=[-1], name="mean"),
        oh.make_node("Sub", ["v", "m"], ["dv"]),
        oh.make_node("Pow", ["dv", "two"], ["sq"]),
        oh.make_node("ReduceMean", ["sq"], ["var"], axes=[-1]),
        oh.make_node("Add", ["var", "eps"], ["ve"]),
        oh.make_node("Sqrt", ["ve"], ["sd"]),
        oh.make_node("Div", ["dv", "sd"], ["n"]),
        oh.make_node("Mul", ["n", "g"], ["ng"]),
        oh.make_node("Add", ["ng", "beta"], ["h"]),
        oh.make_node("MatMul", ["h", "w"], ["hw"]),
        oh.make_node("Add", ["b", "hw"], ["o"])]
back = [oh.make_node("Transpose", ["o"], ["y"], perm=[0, 3, 1, 2])]


def save(name, nodes, out, shape=(1, 8, 3, 5)):
    gr = oh.make_graph(nodes, name,
                       [oh.make_tensor_value_info("data", T.FLOAT, shape)],
                       [oh.make_tensor_value_info(out, T.FLOAT, None)], c)
    onnx.save(oh.make_model(gr, opset_imports=[oh.make_opsetid("", 13)]),
              "%s/%s.onnx" % (d, name))


save("cl", last + norm + back, "y")
save("cl_out", last + norm, "o")
save("cl_mix", last + [oh.make_node("Add", ["v", "data"], ["y"],
                                    name="mix")], "y", (1, 4, 4, 4))
save("cl_swap", last + [oh.make_node("Transpose", ["v"], ["y"],
                                     perm=[0, 2, 1, 3], name="swap")], "y")
save("cl_mean", last + [oh.make_node("ReduceMean", ["v"], ["y"], axes=[1],
                                     name="hmean")], "y")
v = x[0].transpose(1, 2, 0)
n = (v - v.mean(-1, keepdims=True)) / np.sqrt(v.var(-1, keepdims=True) + 1e-6)
y = ((n * g + beta) @ w + b).transpose(2, 0, 1)
np.save(d + "/cl.npy", x)
np.savetxt(d + "/cl_ref.txt", y.ravel(), fmt="%.9g")
EOF
	exec_matches cl "channels last: ConvNeXt's normalisation and MatMul"
	"$nc" "$tmp/cl.onnx" --config nv_full --cpu-fallback -o "$tmp/cl.nvdla" \
		2>"$tmp/err" &&
		[ "$(cat "$tmp/err")" = "nvdla_compile: node 'mean' (LayerNormalization) runs on the CPU" ] &&
		run_values "$tmp/cl.nvdla" nv_full "$tmp/cl.npy" "$tmp/cl_run.txt"
	run_close $? cl 240 0.01
	ok $? "channels last: the transposes move nothing (only the normalisation on the CPU); nv_full fp16 matches numpy (max error $e)"
	refuse 1 "output 'o' is a channels-last [1, H, W, C] view (after a Transpose (0, 2, 3, 1)); only its Transpose (0, 3, 1, 2) back can be an output" \
		"$tmp/cl_out.onnx" --config nv_full --cpu-fallback -o "$tmp/x"
	refuse 1 "node 'mix' (Add): 'v' and 'data' differ in layout: one is a channels-last view" \
		"$tmp/cl_mix.onnx" --config nv_full -o "$tmp/x"
	refuse 1 "node 'swap' (Transpose): input 'v' is in token layout; only a channels-last view's Transpose (0, 3, 1, 2) back is supported" \
		"$tmp/cl_swap.onnx" --config nv_full -o "$tmp/x"
	refuse 1 "node 'hmean' (ReduceMean): a mean over a channels-last view is supported only over its last axis" \
		"$tmp/cl_mean.onnx" --config nv_full -o "$tmp/x"

	# nv_small has no SDP Y stage: HardSigmoid on the input, HardSwish
	# after a convolution and Clip(0, 1) after an element-wise sum clip
	# their upper bound by the int8 output's saturation, on the DLA
	# without --cpu-fallback (no CPU task, the same loadable with it):
	# within 2 int8 steps of numpy (of the widest tensor the activation
	# reads), the values nv_large computes (Y).
	/usr/bin/python3 - "$tmp" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import helper as oh, numpy_helper as nh, TensorProto as T
rng = np.random.default_rng(12)
d = sys.argv[1]
x = rng.uniform(-3, 3, (1, 4, 8, 8)).astype(np.float32)
w = rng.uniform(-0.25, 0.25, (8, 4, 3, 3)).astype(np.float32)
w1 = rng.uniform(-0.25, 0.25, (8, 4, 1, 1)).astype(np.float32)
slope = rng.uniform(0.05, 0.3, (8, 1, 1)).astype(np.float32)
c = [nh.from_array(v, n) for n, v in (("w", w), ("w1", w1),
     ("lo", np.float32(0)), ("hi", np.float32(1)), ("slope", slope),
     ("lo2", np.float32(-0.5)))]
conv = [oh.make_node("Conv", ["data", "w"], ["x"], pads=[1, 1, 1, 1])]


def save(name, nodes):
    gr = oh.make_graph(nodes, name,
                       [oh.make_tensor_value_info("data", T.FLOAT,
                                                  x.shape)],
                       [oh.make_tensor_value_info("y", T.FLOAT, None)], c)
    onnx.save(oh.make_model(gr, opset_imports=[oh.make_opsetid("", 14)]),
              "%s/%s.onnx" % (d, name))


def conv2d(v, k):
    p = k.shape[2] // 2
    v = np.pad(v[0].astype(np.float64), ((0, 0), (p, p), (p, p)))
    h, wd = v.shape[1] - 2 * p, v.shape[2] - 2 * p
    return sum(np.tensordot(k[:, :, i, j], v[:, i:i + h, j:j + wd], 1)
               for i in range(k.shape[2]) for j in range(k.shape[3]))


save("hsig", [oh.make_node("HardSigmoid", ["data"], ["y"], alpha=0.5)])
save("hswish", conv + [oh.make_node("HardSwish", ["x"], ["y"])])
save("clipadd", conv + [oh.make_node("Conv", ["data", "w1"], ["x1"]),
                        oh.make_node("Add", ["x", "x1"], ["s"]),
                        oh.make_node("Clip", ["s", "lo", "hi"], ["y"])])
add = conv + [oh.make_node("Conv", ["data", "w1"], ["x1"]),
              oh.make_node("Add", ["x", "x1"], ["s"])]
save("leakyadd", add + [oh.make_node("LeakyRelu", ["s"], ["y"], alpha=0.1)])
save("preluadd", add + [oh.make_node("PRelu", ["s", "slope"], ["y"])])
save("clipminadd", add + [oh.make_node("Clip", ["s", "lo2", "hi"], ["y"])])
save("cliphiadd", add + [oh.make_node("Clip", ["s", "", "hi"], ["y"])])
save("clipcat", add + [oh.make_node("Clip", ["s", "lo", "hi"], ["k"]),
                       oh.make_node("Concat", ["k", "x"], ["y"], axis=1)])
save("poolrelu", [oh.make_node("MaxPool", ["data"], ["p"], kernel_shape=[2, 2],
                               strides=[2, 2]),
                  oh.make_node("Relu", ["p"], ["y"])])
cx, cx1 = conv2d(x, w), conv2d(x, w1)
s = cx + cx1
# Each reference and the largest magnitude the activation reads.
refs = {"hsig": (np.clip(0.5 * x[0].astype(np.float64) + 0.5, 0, 1),
                 np.abs(x).max()),
        "hswish": (cx * np.clip(cx / 6 + 0.5, 0, 1), np.abs(cx).max()),
        "clipadd": (np.clip(cx + cx1, 0, 1),
                    max(np.abs(cx).max(), np.abs(cx1).max())),
        "leakyadd": (np.where(s < 0, 0.1 * s, s), np.abs(s).max()),
        "preluadd": (np.where(s < 0, slope * s, s), np.abs(s).max()),
        "clipminadd": (np.clip(s, -0.5, 1), np.abs(s).max()),
        "cliphiadd": (np.minimum(s, 1), np.abs(s).max()),
        "clipcat": (np.concatenate([np.clip(s, 0, 1), cx]),
                    max(np.abs(s).max(), np.abs(cx).max())),
        "poolrelu": (np.maximum(x[0].reshape(4, 4, 2, 4, 2).max((2, 4)), 0),
                     np.abs(x).max())}
np.save(d + "/hx.npy", x)
for name, (r, top) in refs.items():
    np.savetxt("%s/%s_ref.txt" % (d, name), r.ravel(), fmt="%.9g")
    with open("%s/%s.bound" % (d, name), "w") as f:
        f.write("%d %.9g\n" % (r.size, 2 * top / 127))
EOF
	mkdir "$tmp/hcal" && cp "$tmp/hx.npy" "$tmp/hcal/"
	# h_run M: M in int8 for nv_small and nv_large, calibrated on hx.npy,
	# run on it: M.CFG.status, M.CFG.txt and M.CFG.sdps (its SDP
	# operations); e the max error of nv_small's values against M's
	# reference, size and bound from M.bound.
	h_run() {
		for cfg in nv_small nv_large; do
			"$nc" "$tmp/$1.onnx" --config $cfg --precision int8 \
				--calibrate "$tmp/hcal" -o "$tmp/$1.$cfg.nvdla" \
				2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
				"$rt" --loadable "$tmp/$1.$cfg.nvdla" \
					--device sim:$cfg --input "$tmp/hx.npy" \
					--rawdump -o "$tmp/$1.$cfg.txt" >/dev/null 2>&1
			echo $? >"$tmp/$1.$cfg.status"
			"$rt" --loadable "$tmp/$1.$cfg.nvdla" --device sim:$cfg \
				--input "$tmp/hx.npy" --stats 2>/dev/null |
				awk '$4 == "sdp"' | wc -l >"$tmp/$1.$cfg.sdps"
		done
		tr ' ' '\n' <"$tmp/$1.nv_small.txt" | grep . >"$tmp/hrun.txt"
		e=$(max_error "$tmp/hrun.txt" "$tmp/${1}_ref.txt")
		read -r size bound <"$tmp/$1.bound"
	}
	for m in hsig hswish clipadd; do
		h_run "$m"
		"$nc" "$tmp/$m.onnx" --config nv_small --calibrate "$tmp/hcal" \
			--cpu-fallback -o "$tmp/$m.cpu.nvdla" 2>"$tmp/err"
		status=$?
		[ "$(cat "$tmp/$m.nv_small.status" "$tmp/$m.nv_large.status")" = "0
0" ] && [ $status -eq 0 ] && [ ! -s "$tmp/err" ] &&
			cmp -s "$tmp/$m.nv_small.nvdla" "$tmp/$m.cpu.nvdla" &&
			[ "$(wc -l <"$tmp/hrun.txt")" -eq "$size" ] &&
			below "$e" "$bound" &&
			cmp -s "$tmp/$m.nv_small.txt" "$tmp/$m.nv_large.txt"
		ok $? "$m on nv_small int8 without the SDP's Y stage, on the DLA: max error $e (bound $bound), nv_large's values"
	done
	# LeakyRelu and PRelu after an element-wise sum need Y's multiplier,
	# and Clip without a lower bound Y's ALU, which nv_small has not;
	# Clip(-0.5, 1) one more ALU, which no target has left (X2 takes the
	# sum): each runs as an SDP operation of its own there (3 SDP
	# operations with the two convolutions'), on the DLA; nv_large's SDP
	# computes the others with the sum (2). Clip(0, 1) concatenated with
	# a wider tensor, whose scale is then not the clip's (no saturation
	# at the bound), alike (SDP operations not counted). A ReLU alone
	# after pooling: X1 rescales and applies it (int8).
	for m in leakyadd:2 preluadd:2 clipminadd:3 cliphiadd:2 clipcat: \
		poolrelu:; do
		large=${m#*:}
		m=${m%:*}
		h_run "$m"
		[ "$(cat "$tmp/$m.nv_small.status" "$tmp/$m.nv_large.status")" = "0
0" ] && [ "$(wc -l <"$tmp/hrun.txt")" -eq "$size" ] &&
			below "$e" "$bound" &&
			{ [ -z "$large" ] ||
			{ [ "$(cat "$tmp/$m.nv_small.sdps")" -eq 3 ] &&
			[ "$(cat "$tmp/$m.nv_large.sdps")" -eq "$large" ]; }; }
		status=$?
		sdps="$(cat "$tmp/$m.nv_small.sdps") SDP operations, nv_large $(cat "$tmp/$m.nv_large.sdps")"
		ok $status "$m on nv_small int8, on the DLA ($sdps): max error $e (bound $bound)"
	done

	# Pad mode reflect (2, 1 before, 1, 3 after) on the input [1, 3, 6, 7],
	# Conv, Pad mode edge (1, 2 on each side), Conv: SDP copies on the
	# DLA, --exec and runs against numpy; reflect pads as large as the
	# size, pads of channels and negative pads refused.
	/usr/bin/python3 - "$tmp" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import helper as oh, numpy_helper as nh, TensorProto as T
rng = np.random.default_rng(11)
d = sys.argv[1]
x = rng.uniform(-1, 1, (1, 3, 6, 7)).astype(np.float32)
w1 = rng.uniform(-0.5, 0.5, (8, 3, 3, 3)).astype(np.float32)
w2 = rng.uniform(-0.5, 0.5, (4, 8, 3, 3)).astype(np.float32)


def save(name, pr, mode="reflect"):
    c = [nh.from_array(v, n) for n, v in (
        ("w1", w1), ("w2", w2), ("pr", np.array(pr, np.int64)),
        ("pe", np.array([0, 0, 1, 2, 0, 0, 1, 2], np.int64)))]
    nodes = [oh.make_node("Pad", ["data", "pr"], ["p0"], mode=mode,
                          name="refl"),
             oh.make_node("Conv", ["p0", "w1"], ["h"]),
             oh.make_node("Pad", ["h", "pe"], ["p1"], mode="edge"),
             oh.make_node("Conv", ["p1", "w2"], ["y"])]
    gr = oh.make_graph(nodes, name,
                       [oh.make_tensor_value_info("data", T.FLOAT, x.shape)],
                       [oh.make_tensor_value_info("y", T.FLOAT, None)], c)
    onnx.save(oh.make_model(gr, opset_imports=[oh.make_opsetid("", 13)]),
              "%s/%s.onnx" % (d, name))


def conv(a, w):
    ho, wo = a.shape[1] - 2, a.shape[2] - 2
    return sum(np.einsum("kc,chw->khw", w[:, :, i, j],
                         a[:, i:i + ho, j:j + wo])
               for i in range(3) for j in range(3))


save("pad", [0, 0, 2, 1, 0, 0, 1, 3])
save("pad_big", [0, 0, 6, 0, 0, 0, 0, 0])
save("pad_ch", [0, 1, 0, 0, 0, 0, 0, 0], "edge")
save("pad_neg", [0, 0, 0, -1, 0, 0, 0, 0], "edge")
p0 = np.pad(x[0].astype(np.float64), ((0, 0), (2, 1), (1, 3)), "reflect")
p1 = np.pad(conv(p0, w1), ((0, 0), (1, 1), (2, 2)), "edge")
np.save(d + "/pad.npy", x)
np.savetxt(d + "/pad_ref.txt", conv(p1, w2).ravel(), fmt="%.9g")
EOF
	exec_matches pad "Pad reflect and edge"
	"$nc" "$tmp/pad.onnx" --config nv_full -o "$tmp/pad.nvdla" 2>"$tmp/err" &&
		[ ! -s "$tmp/err" ] &&
		run_values "$tmp/pad.nvdla" nv_full "$tmp/pad.npy" "$tmp/pad_run.txt"
	run_close $? pad 308 0.01
	ok $? "Pad reflect and edge: nv_full fp16 on the DLA matches numpy (max error $e)"
	# int8: 2 steps of the output's scale (|y| < 7).
	mkdir "$tmp/pcal" && cp "$tmp/pad.npy" "$tmp/pcal/" &&
		"$nc" "$tmp/pad.onnx" --config nv_small --precision int8 \
			--calibrate "$tmp/pcal" -o "$tmp/pad8.nvdla" &&
		run_values "$tmp/pad8.nvdla" nv_small "$tmp/pad.npy" \
			"$tmp/pad_run.txt"
	run_close $? pad 308 0.11
	ok $? "Pad reflect and edge: nv_small int8 on the DLA matches numpy (max error $e)"
	refuse 1 "node 'refl' (Pad): mode 'reflect' pads 6 and 0 of a height of 6: each must be smaller than it" \
		"$tmp/pad_big.onnx" --dump-ir
	refuse 1 "node 'refl' (Pad): only a padding of height and width is supported (pads of batch and channels 0, 1, 0, 0)" \
		"$tmp/pad_ch.onnx" --dump-ir
	refuse 1 "node 'refl' (Pad): pad -1 is negative or too large" \
		"$tmp/pad_neg.onnx" --dump-ir

	# torch's F.interpolate(scale_factor=2, mode='bilinear') between two
	# convolutions, exported at opset 13: on the DLA without
	# --cpu-fallback (nearest by 2, Pad edge, a depthwise convolution),
	# nothing listed on stderr; nv_full fp16 within 0.01 of torch, nv_small
	# and nv_large int8 within 3 steps of the output's largest magnitude.
	if /usr/bin/python3 - "$tmp" <<'EOF'
import sys
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
d = sys.argv[1]
torch.manual_seed(3)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 4, 3, padding=1)

    def forward(self, x):
        h = F.interpolate(torch.relu(self.c1(x)), scale_factor=2,
                          mode="bilinear", align_corners=False)
        return self.c2(h)


net = Net().eval()
with torch.no_grad():
    net.c2.weight *= 8
x = torch.rand(1, 3, 6, 5) * 2 - 1
torch.onnx.export(net, x, d + "/bil.onnx", opset_version=13,
                  input_names=["data"], output_names=["y"])
with torch.no_grad():
    y = net.double()(x.double()).numpy()
np.save(d + "/bil.npy", x.numpy())
np.savetxt(d + "/bil_ref.txt", y.ravel(), fmt="%.9g")
with open(d + "/bil.bound", "w") as f:
    f.write("%.9g\n" % (3 * np.abs(y).max() / 127))
EOF
	then
		"$nc" "$tmp/bil.onnx" --config nv_full -o "$tmp/bil.nvdla" \
			2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
			run_values "$tmp/bil.nvdla" nv_full "$tmp/bil.npy" \
				"$tmp/bil_run.txt"
		run_close $? bil 480 0.01
		ok $? "torch's bilinear upsampling by 2 on the DLA: nv_full fp16 matches torch (max error $e)"
		mkdir "$tmp/bcal" && cp "$tmp/bil.npy" "$tmp/bcal/"
		read -r bound <"$tmp/bil.bound"
		for cfg in nv_small nv_large; do
			"$nc" "$tmp/bil.onnx" --config $cfg --precision int8 \
				--calibrate "$tmp/bcal" -o "$tmp/bil8.nvdla" \
				2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
				run_values "$tmp/bil8.nvdla" $cfg "$tmp/bil.npy" \
					"$tmp/bil_run.txt"
			run_close $? bil 480 "$bound"
			ok $? "torch's bilinear upsampling by 2 on the DLA: $cfg int8 matches torch (max error $e, bound $bound)"
		done
	else
		skip "torch's bilinear upsampling by 2 on the DLA" "no torch"
	fi

	# 1-D data through a transposed convolution: Conv (4 to 8 channels,
	# kernel 3, padding 1), Relu, ConvTranspose (8 to 4, stride 2,
	# output_shape [32]) on [1, 4, 16]: kernel 2 (the stride), and
	# kernel 4 (padding 1 from output_shape: a zero insertion and a
	# convolution of stride 1) on every configuration, fp16 and int8.
	/usr/bin/python3 - "$tmp" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import helper as oh, numpy_helper as nh, TensorProto as T
rng = np.random.default_rng(5)
d = sys.argv[1]
x = rng.uniform(-1, 1, (1, 4, 16)).astype(np.float32)
w1 = rng.uniform(-0.5, 0.5, (8, 4, 3)).astype(np.float32)
b1 = rng.uniform(-0.5, 0.5, 8).astype(np.float32)


def save(name, k):
    w2 = rng.uniform(-0.5, 0.5, (8, 4, k)).astype(np.float32)
    b2 = rng.uniform(-0.5, 0.5, 4).astype(np.float32)
    c = [nh.from_array(v, n) for n, v in (("w1", w1), ("b1", b1),
                                          ("w2", w2), ("b2", b2))]
    nodes = [oh.make_node("Conv", ["data", "w1", "b1"], ["h"], pads=[1, 1]),
             oh.make_node("Relu", ["h"], ["r"]),
             oh.make_node("ConvTranspose", ["r", "w2", "b2"], ["y"],
                          strides=[2], output_shape=[32], name="up")]
    gr = oh.make_graph(nodes, name,
                       [oh.make_tensor_value_info("data", T.FLOAT, x.shape)],
                       [oh.make_tensor_value_info("y", T.FLOAT, None)], c)
    onnx.save(oh.make_model(gr, opset_imports=[oh.make_opsetid("", 13)]),
              "%s/%s.onnx" % (d, name))
    return w2, b2


xp = np.pad(x[0], ((0, 0), (1, 1)))
h = sum(w1[:, :, t] @ xp[:, t:t + 16] for t in range(3))
r = np.maximum(h + b1[:, None], 0)
for name, k in (("ct1", 2), ("ct1_k4", 4)):
    w2, b2 = save(name, k)
    # Input i, tap t into output 2 i + t - padding (k - 2) / 2.
    y = np.zeros((4, 34), np.float64)
    for t in range(k):
        y[:, t:t + 32:2] += w2[:, :, t].T @ r
    y = y[:, (k - 2) // 2:(k - 2) // 2 + 32] + b2[:, None]
    np.save("%s/%s.npy" % (d, name), x)
    np.savetxt("%s/%s_ref.txt" % (d, name), y.ravel(), fmt="%.9g")
EOF
	exec_matches ct1 "1-D ConvTranspose"
	"$nc" "$tmp/ct1.onnx" --config nv_full -o "$tmp/ct1.nvdla" &&
		run_values "$tmp/ct1.nvdla" nv_full "$tmp/ct1.npy" "$tmp/ct1_run.txt"
	run_close $? ct1 128 0.01
	ok $? "1-D ConvTranspose: nv_full fp16 matches numpy (max error $e)"
	exec_matches ct1_k4 "1-D ConvTranspose, kernel 4 stride 2"
	each_target ct1_k4 128 "1-D ConvTranspose, kernel 4 stride 2" numpy
fi

# Atrous convolutions padded beyond the hardware's 31 (DeepLabv3's
# pooling: dilation and padding 36): over a 5x6 map only the centre row
# of taps reads the input, the others only padding; the rows go, and
# with them the padding (pass_taps.c). Rows trimmed, columns kept (their
# dilation 2 and padding 2 the hardware's); against numpy on every
# target. Refused where more than one row reads the input (a 40x6 map).
if ! /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
	skip "convolutions padded beyond the hardware" "no python3-onnx"
else
	/usr/bin/python3 - "$tmp" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import helper as oh, numpy_helper as nh, TensorProto as T
rng = np.random.default_rng(7)
d = sys.argv[1]
w = rng.uniform(-0.5, 0.5, (8, 8, 3, 3)).astype(np.float32)
b = rng.uniform(-0.5, 0.5, 8).astype(np.float32)
for name, h in (("atrous", 5), ("atrous40", 40)):
    x = rng.uniform(-1, 1, (1, 8, h, 6)).astype(np.float32)
    node = oh.make_node("Conv", ["data", "w", "b"], ["y"], dilations=[36, 2],
                        pads=[36, 2, 36, 2], name="aspp")
    gr = oh.make_graph([node], name,
                       [oh.make_tensor_value_info("data", T.FLOAT, x.shape)],
                       [oh.make_tensor_value_info("y", T.FLOAT, None)],
                       [nh.from_array(w, "w"), nh.from_array(b, "b")])
    onnx.save(oh.make_model(gr, opset_imports=[oh.make_opsetid("", 13)]),
              "%s/%s.onnx" % (d, name))
    xp = np.pad(x[0].astype(np.float64), ((0, 0), (36, 36), (2, 2)))
    y = np.zeros((8, h, 6)) + b[:, None, None]
    for ky in range(3):
        for kx in range(3):
            y += np.einsum("kc,chw->khw", w[:, :, ky, kx],
                           xp[:, 36 * ky:36 * ky + h, 2 * kx:2 * kx + 6])
    np.save("%s/%s.npy" % (d, name), x)
    np.savetxt("%s/%s_ref.txt" % (d, name), y.ravel(), fmt="%.9g")
EOF
	exec_matches atrous "dilation 36 padding 36 over 5 rows"
	each_target atrous 240 "dilation 36 padding 36 over 5 rows (its centre row of taps)" numpy
	refuse 1 "node 'aspp' (Conv): padding 36: the hardware pads 0 to 31" \
		"$tmp/atrous40.onnx" --config nv_full -o "$tmp/x"
fi

# A decoder as torch exports it: ConvTranspose2d kernel 4 stride 2
# padding 1, BatchNorm, ReLU; kernel 3 stride 2 padding 1 output padding
# 1 in 2 groups, plus a convolution of the input upsampled (Resize
# nearest), ReLU; kernel 3 stride 1 dilation 2 padding 2. --exec against
# torch in float64; its loadables for every configuration, fp16 and int8
# (calibrated on the input), against --exec.
if ! /usr/bin/python3 -c 'import torch, onnx' 2>/dev/null; then
	skip "a torch decoder's transposed convolutions" "python3-torch or python3-onnx missing (tools/setup.sh)"
else
	/usr/bin/python3 - "$tmp" <<'EOF' >"$tmp/torch.log" 2>&1
import sys
import numpy as np
import torch
from torch import nn
d = sys.argv[1]
torch.manual_seed(3)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.up1 = nn.ConvTranspose2d(8, 8, 4, stride=2, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.up2 = nn.ConvTranspose2d(8, 6, 3, stride=2, padding=1,
                                      output_padding=1, groups=2)
        self.skip = nn.Conv2d(8, 6, 1)
        self.out = nn.ConvTranspose2d(6, 4, 3, padding=2, dilation=2)

    def forward(self, x):
        h = torch.relu(self.bn(self.up1(x)))
        s = self.skip(nn.functional.interpolate(x, scale_factor=4.0))
        return self.out(torch.relu(self.up2(h) + s))


m = Decoder().eval()
with torch.no_grad():
    m.bn.running_mean.uniform_(-0.2, 0.2)
    m.bn.running_var.uniform_(0.5, 1.5)
x = torch.rand(1, 8, 5, 6) * 2 - 1
torch.onnx.export(m, x, d + "/dec.onnx", opset_version=13,
                  input_names=["data"], output_names=["y"])
np.save(d + "/dec.npy", x.numpy())
with torch.no_grad():
    y = m.double()(x.double()).numpy()
np.savetxt(d + "/dec_torch.txt", y.ravel(), fmt="%.9g")
EOF
	ok $? "a torch decoder exported to ONNX" || sed 's/^/# /' "$tmp/torch.log"
	"$nc" "$tmp/dec.onnx" --exec "$tmp/dec.npy" >"$tmp/dec_ref.txt"
	e=$(max_error "$tmp/dec_ref.txt" "$tmp/dec_torch.txt")
	below "$e" 1e-5
	ok $? "torch decoder: --exec matches torch (max error $e)"
	each_target dec 1920 "torch decoder" --exec
fi

if [ ! -d "$corpus" ]; then
	skip "--exec on the ONNX corpus" "../shared absent"
else
	for dir in "$corpus"/*/; do
		net=$(basename "$dir")
		"$nc" "$dir/$net.onnx" --exec "$dir/input.npy" >"$tmp/out.txt"
		e=$(max_error "$tmp/out.txt" "$dir/reference.txt")
		below "$e" 1e-4
		ok $? "--exec $net on input.npy: max error $e against reference.txt"
	done
fi
