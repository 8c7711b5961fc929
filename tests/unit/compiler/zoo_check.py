# SPDX-License-Identifier: MIT
"""torchvision's classifiers, a 1-D convolution net and a token MLP block
as torch 1.13 exports them (tools/models/zoo.py, cached in BUILD/zoo;
those of zoo.CPU_FALLBACK with --cpu-fallback), compiled by nvdla_compile
for nv_full fp16 and run
on the in-process model (sim:nv_full) through the Python module: cosine
similarity to torch float32 at least 0.999 and the same top-1 class, the
loadable within its size limit where one is listed; every model also
compiled in int8 for nv_large and nv_small, calibrated on four
random images like the input (random arrays of the input's shape for
inputs other than images), at cosine 0.99 or more and a top-1 among the
reference's top 5.
TAP lines, one per model, with the figures and the time. Two models are
checked at a time (each on one thread, the model's too), in the order
given: the slowest first.

Usage: zoo_check.py BUILD [NAME...]"""

import multiprocessing
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "tools", "models"))
import zoo  # noqa: E402
import nvdla  # noqa: E402

# Largest loadable, in bytes (the weights do not depend on the input size).
MAX_BYTES = {
    "mobilenet_v2": 15000000,
}

# Configurations every model is also checked on in int8.
INT8 = ("nv_large", "nv_small")
# Of those, what a configuration's hardware cannot compute, compiled with
# --cpu-fallback (without, refused): nv_small's SDP has no LUT, so SiLU
# (x sigmoid(x)) and squeeze-and-excitation's Sigmoid run as CPU tasks
# (HardSwish and HardSigmoid on its SDP).
INT8_CPU_FALLBACK = {("efficientnet_b0", "nv_small"),
                     ("regnet_y_400mf", "nv_small"),
                     ("hard_acts", "nv_small")}


def calibration(d, shape):
    """Four images of uniform random pixels (as the input is), in D/calib;
    for an input other than an image (not 3 x side x side), four arrays of
    uniform random values."""
    cal = os.path.join(d, "calib")
    os.makedirs(cal, exist_ok=True)
    rng = np.random.default_rng(2026)
    side = shape[-1]
    if len(shape) != 4 or shape[1] != 3 or shape[2] != side:
        for i in range(4):
            np.save(os.path.join(cal, "%d.npy" % i),
                    rng.random(shape).astype(np.float32))
        return cal
    for i in range(4):
        pixels = (rng.random((side, side, 3)) * 255).astype(np.uint8)
        with open(os.path.join(cal, "%d.ppm" % i), "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (side, side))
            f.write(pixels.tobytes())
    return cal


def compare(y, ref):
    """Cosine similarity and whether the top-1 classes agree."""
    cos = float(np.dot(y, ref) / (np.linalg.norm(y) * np.linalg.norm(ref)))
    return cos, int(np.argmax(y)) == int(np.argmax(ref))


def ref_rank(y, ref):
    """Rank of @y's top-1 class among the reference's classes (0: the
    same top-1)."""
    return int(np.sum(ref > ref[int(np.argmax(y))]))


def run(blob, config, x):
    """Outputs on input @x, its elements in its shape as the loadable has
    it (C x H x W: the same order)."""
    with nvdla.Device("sim:" + config) as dev:
        net = dev.load(blob)
        return net.run(x.reshape(net.inputs[0].shape))[0].ravel().astype(
            np.float64)


def check_int8(d, name, x, ref):
    """The int8 builds on INT8: (all good, their figures). int8 is good at
    cosine 0.99 with its top-1 among the reference's top 5 (random weights
    leave some models' top logits within int8's error of each other)."""
    cal = calibration(d, x.shape)
    ok, figures = True, []
    for config in INT8:
        try:
            blob = nvdla.compile(
                os.path.join(d, name + ".onnx"), config, precision="int8",
                calibrate=cal, cpu_fallback=name in zoo.CPU_FALLBACK or
                (name, config) in INT8_CPU_FALLBACK)
        except nvdla.CompileError as e:
            ok = False
            figures.append("int8 %s refused: %s" % (config, e))
            continue
        y = run(blob, config, x)
        cos, _ = compare(y, ref)
        rank = ref_rank(y, ref)
        ok = ok and cos >= 0.99 and rank < 5
        figures.append("int8 %s: cosine %.4f, top-1 %s" % (
            config, cos, "equal" if not rank else
            "the reference's #%d" % (rank + 1)))
    return ok, "".join("; " + f for f in figures)


def check(build, name):
    t0 = time.time()
    zoo.export(name, os.path.join(build, "zoo"))
    d = os.path.join(build, "zoo", name)
    try:
        blob = nvdla.compile(os.path.join(d, name + ".onnx"), "nv_full",
                             precision="fp16",
                             cpu_fallback=name in zoo.CPU_FALLBACK)
    except nvdla.CompileError as e:
        return False, "%s refused: %s" % (name, e)
    x = np.load(os.path.join(d, "input.npy"))
    ref = np.loadtxt(os.path.join(d, "reference.txt"))
    y = run(blob, "nv_full", x)
    cos, top = compare(y, ref)
    small = len(blob) <= MAX_BYTES.get(name, len(blob))
    ok8, int8 = check_int8(d, name, x, ref)
    return cos >= 0.999 and top and small and ok8, \
        "%s fp16 nv_full: cosine %.6f, top-1 %s (%d / %d), %d bytes%s%s, " \
        "%.0f s" % (name, cos, "equal" if top else "differs",
                    int(np.argmax(y)), int(np.argmax(ref)), len(blob),
                    " (at most %d)" % MAX_BYTES[name] if name in MAX_BYTES
                    else "", int8, time.time() - t0)


def main():
    build = sys.argv[1]
    names = sys.argv[2:] or list(zoo.MODELS)
    print("1..%d" % len(names), flush=True)
    failed = 0
    jobs = min(2, os.cpu_count() or 1)
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        checks = [pool.apply_async(check, (build, name)) for name in names]
        for i, c in enumerate(checks, 1):
            ok, msg = c.get()
            failed += not ok
            print("%s %d - zoo: %s" % ("ok" if ok else "not ok", i, msg),
                  flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
