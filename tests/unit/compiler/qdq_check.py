# SPDX-License-Identifier: MIT
"""QDQ models (QuantizeLinear / DequantizeLinear pairs, as onnxruntime's
quantize_static and torch's QAT export write them) through nvdla_compile:
a small convolution net with fixed-seed weights, written with the onnx
API in QDQ form (symmetric int8 activations, per-channel int8 weights
along axis 0, int32 biases at s_in * s_w), compiled in int8 with no
calibration and in fp16, run on the in-process model and compared with
the float model of the dequantized weights (the executor's --exec) and
with a numpy emulation of the QDQ graph (every activation rounded to its
scale); and the QDQ forms nvdla_compile refuses, each with its message.
TAP lines.

Usage: qdq_check.py WORKDIR"""

import os
import subprocess
import sys

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as onh

import nvdla

SIDE = 16
CONVS = [  # (out channels, kernel, stride, relu)
    (8, 3, 1, True),
    (16, 3, 2, True),
    (10, 1, 1, False),
]


def conv(x, w, b, stride):
    """NCHW convolution, padding kernel // 2, in float64."""
    k = w.shape[-1]
    p = k // 2
    x = np.pad(x, ((0, 0), (p, p), (p, p)))
    h = (x.shape[1] - k) // stride + 1
    wd = (x.shape[2] - k) // stride + 1
    y = np.zeros((w.shape[0], h, wd))
    for dy in range(k):
        for dx in range(k):
            patch = x[:, dy:dy + stride * h:stride, dx:dx + stride * wd:stride]
            y += np.einsum("oc,chw->ohw", w[:, :, dy, dx], patch)
    return y + b[:, None, None]


def fake_quant(x, s):
    return np.clip(np.rint(x / s), -128, 127) * s


def net(x, layers, scales=None):
    """The float net, or with scales its QDQ emulation; every activation."""
    acts = [x if scales is None else fake_quant(x, scales[0])]
    for i, ((w, b), (_, _, stride, relu)) in enumerate(zip(layers, CONVS)):
        y = conv(acts[-1], w, b, stride)
        y = np.maximum(y, 0) if relu else y
        acts.append(y if scales is None else fake_quant(y, scales[i + 1]))
    return acts


def make(rng):
    """Weights as their int8 codes, activation scales from random inputs."""
    layers, cin = [], 3
    for cout, k, _, _ in CONVS:
        w = rng.normal(0, 1 / np.sqrt(cin * k * k), (cout, cin, k, k))
        layers.append((w, rng.normal(0, 0.1, cout)))
        cin = cout
    coded, wscales = [], []
    for w, b in layers:
        sw = np.abs(w).reshape(len(w), -1).max(1) / 127
        coded.append(np.rint(w / sw[:, None, None, None]).astype(np.int8))
        wscales.append(sw.astype(np.float32))
    deq = [(q * s[:, None, None, None], b) for q, s, (_, b) in
           zip(coded, wscales, layers)]
    calib = [rng.random((3, SIDE, SIDE)) for _ in range(4)]
    amax = np.max([[np.abs(a).max() for a in net(x, deq)] for x in calib], 0)
    scales = (amax / 127).astype(np.float32)
    biases = []
    for i, (_, b) in enumerate(layers):
        sb = (scales[i] * wscales[i]).astype(np.float32)
        biases.append((np.rint(b / sb).astype(np.int32), sb))
    deq = [(q * s[:, None, None, None].astype(np.float64),
            qb * sb.astype(np.float64))
           for q, s, (qb, sb) in zip(coded, wscales, biases)]
    return coded, wscales, biases, scales, deq


def qdq_model(coded, wscales, biases, scales, zero=0, act_type=np.int8):
    """The QDQ graph: Q and DQ on every activation, DQ on every constant."""
    init, nodes = [], []

    def const(name, v):
        init.append(onh.from_array(np.asarray(v), name))
        return name

    def qdq(x, i):
        s = const("s%d" % i, np.float32(scales[i]))
        z = const("z%d" % i, np.array(zero, act_type))
        nodes.append(oh.make_node("QuantizeLinear", [x, s, z], [x + "_q"]))
        out = "y" if i == len(CONVS) else x + "_dq"
        nodes.append(oh.make_node("DequantizeLinear", [x + "_q", s, z], [out]))
        return out

    x = qdq("x", 0)
    for i, (cout, k, stride, relu) in enumerate(CONVS):
        w = const("w%d_q" % i, coded[i])
        ws = const("w%d_s" % i, wscales[i])
        wz = const("w%d_z" % i, np.zeros(cout, np.int8))
        nodes.append(oh.make_node("DequantizeLinear", [w, ws, wz], ["w%d" % i],
                                  axis=0))
        b = const("b%d_q" % i, biases[i][0])
        bs = const("b%d_s" % i, biases[i][1])
        nodes.append(oh.make_node("DequantizeLinear", [b, bs], ["b%d" % i],
                                  axis=0))
        y = "c%d" % i
        nodes.append(oh.make_node("Conv", [x, "w%d" % i, "b%d" % i], [y],
                                  kernel_shape=[k, k], strides=[stride] * 2,
                                  pads=[k // 2] * 4))
        if relu:
            nodes.append(oh.make_node("Relu", [y], [y + "r"]))
            y += "r"
        x = qdq(y, i + 1)
    side = SIDE // 2
    graph = oh.make_graph(
        nodes, "qdq",
        [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT,
                                   [1, 3, SIDE, SIDE])],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT,
                                   [1, CONVS[-1][0], side, side])], init)
    m = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    return m


def run(blob, config, x):
    with nvdla.Device("sim:" + config) as dev:
        return dev.load(blob).run(x[None].astype(np.float32))[0].ravel()


def exec_ref(path, x, work):
    npy = os.path.join(work, "x.npy")
    np.save(npy, x[None].astype(np.float32))
    out = subprocess.run(["nvdla_compile", path, "--exec", npy],
                         capture_output=True, text=True, check=True).stdout
    return np.array(out.split(), np.float64)


def refused(path, want):
    proc = subprocess.run(["nvdla_compile", path, "--config", "nv_small",
                           "-o", path + ".nvdla"], capture_output=True,
                          text=True, check=False)
    return proc.returncode == 1 and want in proc.stderr, proc.stderr.strip()


def main():
    work = sys.argv[1]
    rng = np.random.default_rng(2026)
    coded, wscales, biases, scales, deq = make(rng)
    path = os.path.join(work, "qdq.onnx")
    onnx.save(qdq_model(coded, wscales, biases, scales), path)
    x = rng.random((3, SIDE, SIDE))
    ref = net(x, deq)[-1].ravel()
    emu = net(x, deq, scales)[-1].ravel()
    lsb = scales[-1]
    results = []

    y = exec_ref(path, x, work)
    e = np.abs(y - ref).max()
    results.append((e < 1e-5, "--exec of the QDQ model is the float net of "
                    "its dequantized weights (max error %.2g)" % e))
    blob = nvdla.compile(path, "nv_full", precision="fp16")
    e = np.abs(run(blob, "nv_full", x) - ref).max()
    results.append((e < 0.01 * np.abs(ref).max(), "fp16 nv_full: Q/DQ folded "
                    "into float, max error %.3g (1%% of %.3g)" %
                    (e, np.abs(ref).max())))
    for config in ("nv_small", "nv_large"):
        blob = nvdla.compile(path, config, precision="int8")
        y = run(blob, config, x)
        e_emu = np.abs(y - emu).max() / lsb
        e_ref = np.abs(y - ref).max() / lsb
        results.append((e_emu <= 2 and e_ref <= 4,
                        "int8 %s without --calibrate: %.2f output steps from "
                        "the QDQ emulation (at most 2), %.2f from the float "
                        "net (at most 4)" % (config, e_emu, e_ref)))

    cal = os.path.join(work, "calib")
    os.makedirs(cal, exist_ok=True)
    for i in range(2):
        np.save(os.path.join(cal, "%d.npy" % i),
                rng.random((1, 3, SIDE, SIDE)).astype(np.float32))
    same = nvdla.compile(path, "nv_small", precision="int8", calibrate=cal) \
        == nvdla.compile(path, "nv_small", precision="int8")
    results.append((same, "int8 with --calibrate (.npy arrays): the QDQ "
                    "scales stay, the same loadable"))

    m = qdq_model(coded, wscales, biases, scales)
    for n in m.graph.node:
        if n.op_type == "Conv" and n.input[0] == "x_dq":
            n.input[0] = "x_q"
    p = os.path.join(work, "bad.onnx")
    onnx.save(m, p)
    ok, msg = refused(p, "input 'x_q' holds integer codes (the int8 output of a "
                      "QuantizeLinear), read only by DequantizeLinear")
    results.append((ok, "a Conv reading int8 codes refused: %s" % msg))
    bad = [
        ("zero point 3", dict(zero=3),
         "zero point 3: int8 activations need zero point 0 (symmetric)"),
        ("uint8 activations", dict(zero=0, act_type=np.uint8),
         "UINT8 activations are not supported: int8 with zero point 0"),
    ]
    for what, kw, want in bad:
        p = os.path.join(work, "bad.onnx")
        onnx.save(qdq_model(coded, wscales, biases, scales, **kw), p)
        ok, msg = refused(p, want)
        results.append((ok, "%s refused: %s" % (what, msg)))

    print("1..%d" % len(results))
    for i, (ok, msg) in enumerate(results, 1):
        print("%s %d - qdq: %s" % ("ok" if ok else "not ok", i, msg))
    sys.exit(0 if all(ok for ok, _ in results) else 1)


if __name__ == "__main__":
    main()
