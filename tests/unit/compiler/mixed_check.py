# SPDX-License-Identifier: MIT
"""Mixed precision (nvdla_compile --mixed-precision) on nv_full: a small
network written with the onnx API whose second convolution loses most in
int8 (each kernel has one weight 60 times the others, on a channel the
first convolution makes nearly 0: the kernel's int8 scale rounds the
others to a step or two while that weight adds little), read from int8
and read by an int8 convolution whose SDP adds an int8 tensor, then max
pooling and a 1x1 convolution. Compiled in int8 with and without mixed
precision, run on the in-process model on inputs other than the
calibration ones and compared with the float executor (--exec): the
mixed build must be closer than the plain one, its max error below two
thirds of int8's (about half: what remains is mostly the rounding of the
second convolution's int8 input, which the outlier weight amplifies and
fp16 in that layer cannot take away; the 2 layers of lowest
int8 signal-to-noise ratio in fp16, the second convolution among them;
all four in fp16: within fp16's error); --report and stderr say which
layers run in fp16; the refusals, each with its message. TAP lines.

Usage: mixed_check.py WORKDIR"""

import os
import subprocess
import sys

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as onh

import nvdla

SIDE = 16
CH = 8
N_CALIB = 4
N_TEST = 3


def model(rng):
    """x -> relu(conv1) = a -> relu(conv2) = b -> conv3(b) + a -> maxpool
    -> conv4."""
    w1 = rng.normal(0, 0.5, (CH, 1, 3, 3))
    w1[0] *= 1e-3                       # channel 0 of a nearly 0
    w2 = rng.normal(0, 0.1, (CH, CH, 3, 3))
    w2[:, 0, 1, 1] = 6.0                # the outlier weight on it
    w3 = rng.normal(0, 0.3, (CH, CH, 3, 3))
    w4 = rng.normal(0, 0.3, (4, CH, 1, 1))
    init = [onh.from_array(w.astype(np.float32), n) for w, n in
            ((w1, "w1"), (w2, "w2"), (w3, "w3"), (w4, "w4"))]
    init += [onh.from_array(rng.normal(0, 0.1, n).astype(np.float32), b)
             for n, b in ((CH, "b1"), (CH, "b2"), (CH, "b3"), (4, "b4"))]
    conv = lambda i, o, w, b, k: oh.make_node(  # noqa: E731
        "Conv", [i, w, b], [o], kernel_shape=[k, k], pads=[k // 2] * 4,
        name=o)
    nodes = [conv("x", "c1", "w1", "b1", 3), oh.make_node("Relu", ["c1"], ["a"]),
             conv("a", "c2", "w2", "b2", 3), oh.make_node("Relu", ["c2"], ["b"]),
             conv("b", "c3", "w3", "b3", 3),
             oh.make_node("Add", ["c3", "a"], ["s"]),
             oh.make_node("MaxPool", ["s"], ["p"], kernel_shape=[2, 2],
                          strides=[2, 2]),
             conv("p", "y", "w4", "b4", 1)]
    graph = oh.make_graph(
        nodes, "mixed",
        [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT,
                                   [1, 1, SIDE, SIDE])],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT,
                                   [1, 4, SIDE // 2, SIDE // 2])], init)
    m = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    return m


def compile_(path, out, *args):
    return subprocess.run(["nvdla_compile", path, "--config", out[0],
                           "-o", out[1]] + list(args),
                          capture_output=True, text=True)


def run(blob, x):
    with nvdla.Device("sim:nv_full") as dev:
        return dev.load(blob).run(x[None].astype(np.float32))[0].ravel()


def reference(path, npy):
    p = subprocess.run(["nvdla_compile", path, "--exec", npy],
                       capture_output=True, text=True, check=True)
    return np.array(p.stdout.split(), dtype=np.float64)


def max_error(work, path, blob, tests):
    with open(blob, "rb") as f:
        b = f.read()
    return max(np.abs(run(b, x) - reference(path, npy)).max()
               for x, npy in tests)


def main():
    work = sys.argv[1]
    rng = np.random.default_rng(25)
    path = os.path.join(work, "mixed.onnx")
    onnx.save(model(rng), path)
    calib = os.path.join(work, "calib")
    os.mkdir(calib)
    for i in range(N_CALIB):
        np.save(os.path.join(calib, "c%d.npy" % i),
                rng.random((1, 1, SIDE, SIDE)).astype(np.float32))
    tests = []
    for i in range(N_TEST):
        x = rng.random((1, SIDE, SIDE)).astype(np.float32)
        npy = os.path.join(work, "t%d.npy" % i)
        np.save(npy, x[None])
        tests.append((x, npy))
    int8 = ["--precision", "int8", "--calibrate", calib]
    n = 0

    def ok(cond, what):
        nonlocal n
        n += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", n, what))

    blobs = {}
    for name, extra in (("int8", []), ("mixed2", ["--mixed-precision", "2"]),
                        ("all", ["--mixed-precision", "100%"])):
        blobs[name] = os.path.join(work, name + ".nvdla")
        r = compile_(path, ("nv_full", blobs[name]), *(int8 + extra +
                                                       ["--report"]))
        ok(r.returncode == 0, "int8 %s compiled: %s" %
           (" ".join(extra) or "alone",
            "; ".join(r.stderr.split("\n")).strip("; ") or "no message"))
        if r.returncode:
            print("# " + r.stdout.replace("\n", "\n# "))
            print("%d..%d" % (1, n))
            return
        rows = [l.split() for l in r.stdout.splitlines()
                if l.split()[-1:] and l.split()[3:4] in (["int8"], ["fp16"])]
        fp16 = [row[1] for row in rows if row[3] == "fp16"]
        want = {"int8": 0, "mixed2": 2, "all": 4}[name]
        ok(len(rows) == 4 and len(fp16) == want and
           all("node '%s' (Conv) runs in fp16" % f in r.stderr for f in fp16),
           "--report lists 4 convolutions, %d in fp16 (%s), named on stderr"
           % (want, ", ".join(fp16) or "none"))
        if name == "mixed2":
            snr = {row[1]: float(row[4]) for row in rows}
            ok("c2" in fp16 and snr["c2"] == min(snr.values()),
               "the second convolution loses most in int8 (%.1f dB, the "
               "others %s) and runs in fp16" %
               (snr["c2"], ", ".join("%.1f" % v for k, v in
                                     sorted(snr.items()) if k != "c2")))
    err = {k: max_error(work, path, b, tests) for k, b in blobs.items()}
    fp16 = os.path.join(work, "fp16.nvdla")
    compile_(path, ("nv_full", fp16), "--precision", "fp16")
    err["fp16"] = max_error(work, path, fp16, tests)
    ok(err["mixed2"] < err["int8"] * 2 / 3,
       "mixed precision closer to float than int8: max error %.5f, int8 "
       "%.5f" % (err["mixed2"], err["int8"]))
    ok(err["all"] <= 2 * err["fp16"] + 1e-3,
       "every convolution in fp16: max error %.5f, fp16 build %.5f" %
       (err["all"], err["fp16"]))

    refusals = [
        (("nv_small", "--calibrate", calib), 2,
         "--mixed-precision keeps layers in fp16: nv_small computes in int8 only (nv_full has fp16)"),
        (("nv_large", "--calibrate", calib), 2,
         "--mixed-precision keeps layers in fp16: nv_large computes in int8 only (nv_full has fp16)"),
        (("nv_full", "--calibrate", calib), 2,
         "--mixed-precision keeps layers of an int8 network in fp16: it needs --precision int8 (nv_full's default is fp16)"),
        (("nv_full", "--precision", "int8"), 2,
         "--mixed-precision ranks layers by their int8 error on calibration images: it needs --calibrate"),
    ]
    for (config, *args), code, msg in refusals:
        r = compile_(path, (config, os.path.join(work, "no.nvdla")),
                     *(args + ["--mixed-precision", "1"]))
        ok(r.returncode == code and msg in r.stderr,
           "refused: %s" % r.stderr.strip())
    for bad in ("x", "1.5", "101%", "-1"):
        r = compile_(path, ("nv_full", os.path.join(work, "no.nvdla")),
                     *(int8 + ["--mixed-precision", bad]))
        ok(r.returncode == 2 and
           "--mixed-precision %s: a number of layers, or a percentage of "
           "them (such as 10%%)" % bad in r.stderr,
           "--mixed-precision %s refused: %s" % (bad, r.stderr.strip()))
    print("1..%d" % n)


main()
