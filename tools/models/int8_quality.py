#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""int8 quality of nvdla_compile's post-training tools on torchvision's
classifiers (tools/models/zoo.py: seeded random weights, batch-norm
statistics from random batches, exported at opset 13) at SIDE x SIDE:
each model compiled for CONFIG in int8, calibrated on 8 images of uniform
random pixels, without and with each tool, and run on the in-process
model on 5 other such images against torch float32, pixels mapped as
torchvision's preprocessing does. Prints one line per
model and tool: the worst cosine similarity of the 5 outputs and in how
many of the 5 the top-1 class agrees, and the worst signal-to-noise
ratio, 10 log10(sum ref^2 / sum (y - ref)^2), which still shows
differences where the cosine is 0.9999.

Usage: tools/models/python.sh tools/models/int8_quality.py BUILD
       [--side N] [--config C] [NAME...]
(with BUILD/lib on LD_LIBRARY_PATH, BUILD/bin on PATH, python/ on
PYTHONPATH, as `make bench` runs it)."""

import argparse
import os
import time

import numpy as np
import torch

import zoo
import nvdla

# Tool name: nvdla_compile's options for it.
TOOLS = {
    "plain": [],
    "equalize": ["--equalize"],
    "equalize=relu6": ["--equalize=relu6"],
    "equalize=data": ["--equalize=data"],
    "equalize=data,relu6": ["--equalize=data,relu6"],
    "bias-correct": ["--bias-correct"],
    "both": ["--equalize", "--bias-correct"],
    "both,relu6": ["--equalize=relu6", "--bias-correct"],
    # nv_full only: the convolutions that lose most kept in fp16
    "mixed=10%": ["--mixed-precision", "10%"],
    "mixed=25%": ["--mixed-precision", "25%"],
}
CALIB, TESTS = 8, 5
# torchvision's preprocessing, (p / 255 - mean) / std, as nvdla_compile
# maps pixels: B, G, R means, and one divisor (std's mean, 0.226).
MEAN = (0.406 * 255, 0.456 * 255, 0.485 * 255)
NORMALIZE = 0.226 * 255


def pixels(rng, n, side):
    """@n images of uniform random pixels, H x W x 3 (B, G, R) uint8."""
    return [(rng.random((side, side, 3)) * 255).astype(np.uint8)
            for _ in range(n)]


def write_ppm(path, img):
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (img.shape[1], img.shape[0]))
        f.write(img.tobytes())


def as_input(img):
    """Pixels as the network's input: planes B, G, R of (p - MEAN) /
    NORMALIZE, as nvdla_compile maps them."""
    x = img.transpose(2, 0, 1)[None].astype(np.float32)
    return ((x - np.array(MEAN, np.float32).reshape(1, 3, 1, 1)) /
            np.float32(NORMALIZE)).astype(np.float32)


def compile_int8(onnx, config, cal, opts):
    """The loadable's bytes, through the CLI (which has every option)."""
    out = onnx + ".q.nvdla"
    cmd = ["nvdla_compile", onnx, "--config", config, "--precision", "int8",
           "--calibrate", cal, "--mean", ",".join("%g" % m for m in MEAN),
           "--normalize", "%g" % NORMALIZE, "-o", out] + opts
    if os.spawnvp(os.P_WAIT, cmd[0], cmd):
        raise RuntimeError("nvdla_compile failed: " + " ".join(cmd))
    with open(out, "rb") as f:
        return f.read()


def measure(blob, config, xs, refs):
    """Worst cosine, worst signal-to-noise ratio (dB), top-1 agreements."""
    cos, snr, top = [], [], 0
    with nvdla.Device("sim:" + config) as dev:
        net = dev.load(blob)
        for x, ref in zip(xs, refs):
            y = net.run(x)[0].ravel().astype(np.float64)
            cos.append(float(np.dot(y, ref) /
                             (np.linalg.norm(y) * np.linalg.norm(ref))))
            snr.append(10 * np.log10(np.sum(ref ** 2) /
                                     np.sum((y - ref) ** 2)))
            top += int(np.argmax(y)) == int(np.argmax(ref))
    return min(cos), min(snr), top


def model(build, name, side, config, tools):
    d = os.path.join(build, "zoo-int8-%d" % side)
    zoo.export(name, d, side)
    onnx = os.path.join(d, name, name + ".onnx")
    rng = np.random.default_rng(2026)
    cal = os.path.join(d, "calib")
    if not os.path.isdir(cal):
        os.makedirs(cal + ".tmp", exist_ok=True)
        for i, img in enumerate(pixels(rng, CALIB, side)):
            write_ppm(os.path.join(cal + ".tmp", "%d.ppm" % i), img)
        os.replace(cal + ".tmp", cal)
    rng = np.random.default_rng(7)
    xs = [as_input(img) for img in pixels(rng, TESTS, side)]
    m, _ = zoo.build(name, side)
    with torch.no_grad():
        refs = [m(torch.from_numpy(x)).numpy().ravel().astype(np.float64)
                for x in xs]
    for tool in tools:
        t0 = time.time()
        blob = compile_int8(onnx, config, cal, TOOLS[tool])
        cos, snr, top = measure(blob, config, xs, refs)
        print("%-13s %4d %-8s %-15s cosine %.6f  SNR %5.1f dB  top-1 %d/%d"
              "  %4.0f s" % (name, side, config, tool, cos, snr, top, TESTS,
                             time.time() - t0), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("build")
    p.add_argument("--side", type=int, default=224)
    p.add_argument("--config", default="nv_large")
    p.add_argument("--tools", default=" ".join(
        t for t in TOOLS if not t.startswith("mixed")))
    p.add_argument("names", nargs="*",
                   default=["mobilenet_v2", "resnet18", "resnet50",
                            "googlenet"])
    a = p.parse_intermixed_args()
    torch.set_num_threads(1)
    for name in a.names:
        model(a.build, name, a.side, a.config, a.tools.split())


if __name__ == "__main__":
    main()
