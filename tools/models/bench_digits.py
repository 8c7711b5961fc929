#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The digit demo on its test split (models/digits/test.pgm, test.txt):
accuracy of the float model (torch, float64) and of the network compiled
by nvdla_compile and run by nvdla_runtime on the in-process model, in fp16
on nv_full and in int8 on each configuration, with the top-1 agreement
with the float model and the largest error on the probabilities.

Usage: tools/models/python.sh tools/models/bench_digits.py BUILD_DIR
       [--min-agreement PERCENT] [CONFIG:PRECISION...]
The cases default to nv_full:fp16 nv_full:int8 nv_large:int8
nv_small:int8. With --min-agreement, the exit status is 1 when a case's
top-1 agreement with the float model is below PERCENT."""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx

import onnx_torch
import pnm

DIGITS = "models/digits"
CASES = ["nv_full:fp16", "nv_full:int8", "nv_large:int8", "nv_small:int8"]


def compile_model(build, tmp, model_dir, name, config, prec):
    """@model_dir/@name.onnx compiled into @tmp, int8 calibrated on
    @model_dir/calib: the loadable's path."""
    loadable = os.path.join(tmp, f"{name}_{prec}_{config}.nvdla")
    cmd = [os.path.join(build, "bin", "nvdla_compile"),
           os.path.join(model_dir, f"{name}.onnx"), "--config", config,
           "--precision", prec, "-o", loadable]
    if prec == "int8":
        cmd += ["--calibrate", os.path.join(model_dir, "calib")]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return loadable


def run_case(build, tmp, files, config, prec):
    """The compiled network's outputs for every image (N x 10)."""
    loadable = compile_model(build, tmp, DIGITS, "digits", config, prec)
    out = os.path.join(tmp, "out.txt")
    rows = []
    for f in files:
        subprocess.run([os.path.join(build, "bin", "nvdla_runtime"),
                        "--loadable", loadable, "--device", f"sim:{config}",
                        "--image", f, "--normalize", "255", "--rawdump",
                        "-o", out], check=True, stdout=subprocess.DEVNULL)
        with open(out) as o:
            rows.append([float(v) for v in o.read().split()])
    return np.array(rows)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    build, cases, minimum = argv[1], argv[2:], None
    if cases[:1] == ["--min-agreement"] and len(cases) > 1:
        minimum, cases = float(cases[1]), cases[2:]
    cases = cases or CASES
    status = 0
    images = pnm.read_all(os.path.join(DIGITS, "test.pgm"))
    with open(os.path.join(DIGITS, "test.txt")) as f:
        labels = np.array([int(v) for v in f])
    model = onnx.load(os.path.join(DIGITS, "digits.onnx"))
    x = np.concatenate([pnm.to_input(p) for p in images])
    ref = onnx_torch.run(model, {"data": x})[0]
    top = ref.argmax(1)
    print(f"digits demo, {len(images)} test images "
          f"({DIGITS}/test.pgm), on the in-process model:")
    print(f"  float (torch)   accuracy {100 * (top == labels).mean():6.2f} %")
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, p in enumerate(images):
            files.append(os.path.join(tmp, f"{i:03d}.pgm"))
            pnm.write(files[-1], p)
        for case in cases:
            config, prec = case.split(":")
            start = time.monotonic()
            out = run_case(build, tmp, files, config, prec)
            ms = 1000 * (time.monotonic() - start) / len(files)
            got = out.argmax(1)
            differ = np.flatnonzero(got != top)
            print(f"  {prec} {config:8s} accuracy "
                  f"{100 * (got == labels).mean():6.2f} %, top-1 agreement "
                  f"with float {100 * (got == top).mean():6.2f} % "
                  f"({len(differ)} differ), max error "
                  f"{np.abs(out - ref).max():.4f}, {ms:.0f} ms an image")
            for i in differ:
                print(f"    image {i}: label {labels[i]}, float {top[i]} "
                      f"({ref[i].max():.3f}), {prec} {got[i]} "
                      f"({out[i].max():.3f})")
            if minimum is not None and 100 * (got == top).mean() < minimum:
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
