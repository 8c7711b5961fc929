#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The detectors of the demo (models/detect: detect, one head, and
detect2, two heads) on held-out scenes: per model, mAP@0.5 of the float
model (torch, float64, decoded by tools/models/detect_ref.py) next to the
network compiled by nvdla_compile and run by nvdla_runtime --detect on
the in-process model, in fp16 on nv_full and in int8 on nv_small.

The scenes are made by tools/models/train_detect.py from the digit images
held out of training (scenes(TEST_SEED, N)), the same every time.

Usage: tools/models/python.sh tools/models/bench_detect.py BUILD_DIR
       [--scenes N] [--max-drop D] [--model M] [CONFIG:PRECISION...]
N defaults to 200 scenes, M to both models. With --max-drop, the exit
status is 1 when a case's mAP is below the float model's by more than D."""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx

import bench_digits
import detect_ref
import onnx_torch
import pnm
import train_detect

DETECT = "models/detect"
MODELS = ["detect", "detect2"]
CASES = ["nv_full:fp16", "nv_small:int8"]
# mAP counts every box down to a low score: what the precision-recall
# curve is drawn from.
THRESHOLD = 0.01


def run_case(build, tmp, files, name, config, prec):
    """The boxes the compiled network @name finds in each scene."""
    loadable = bench_digits.compile_model(build, tmp, DETECT, name,
                                          config, prec)
    found = []
    for f in files:
        out = subprocess.run(
            [os.path.join(build, "bin", "nvdla_runtime"), "--loadable",
             loadable, "--device", f"sim:{config}", "--image", f,
             "--detect", os.path.join(DETECT, name + ".yolo"),
             "--detect-threshold", str(THRESHOLD), "--rawdump", "-o",
             os.path.join(tmp, "out.txt")],
            check=True, capture_output=True, text=True).stdout
        found.append(detect_ref.read_boxes(out))
    return found


def bench_model(build, name, test, cases, most):
    """One model's lines; whether every case is within @most."""
    truth = [b.tolist() for _, b in test]
    head = detect_ref.Head.read(os.path.join(DETECT, name + ".yolo"))
    model = onnx.load(os.path.join(DETECT, name + ".onnx"))
    x = np.concatenate([pnm.to_input(c) for c, _ in test])
    raw = onnx_torch.run(model, {"data": x})
    size = train_detect.SIZE
    found = [detect_ref.detect(head, [r[n] for r in raw], size, size,
                               THRESHOLD) for n in range(len(test))]
    ref = detect_ref.mean_ap(found, truth, head.classes)
    heads = len(head.heads)
    print(f"{name} ({heads} head{'s' if heads > 1 else ''}), "
          f"{len(test)} held-out scenes with "
          f"{sum(len(t) for t in truth)} digits, on the in-process model:")
    print(f"  float (torch)      mAP@0.5 {ref:.4f}")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, (c, _) in enumerate(test):
            files.append(os.path.join(tmp, f"{i:03d}.pgm"))
            pnm.write(files[-1], c)
        for case in cases:
            config, prec = case.split(":")
            start = time.monotonic()
            got = detect_ref.mean_ap(run_case(build, tmp, files, name,
                                              config, prec),
                                     truth, head.classes)
            ms = 1000 * (time.monotonic() - start) / len(files)
            print(f"  {prec} {config:13s} mAP@0.5 {got:.4f} "
                  f"({got - ref:+.4f}), {ms:.0f} ms an image")
            ok = ok and (most is None or got >= ref - most)
    return ok


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    build, args = argv[1], argv[2:]
    count, most, models = 200, None, MODELS
    while args[:1] in (["--scenes"], ["--max-drop"], ["--model"]) and \
            len(args) > 1:
        if args[0] == "--scenes":
            count = int(args[1])
        elif args[0] == "--model":
            models = [args[1]]
        else:
            most = float(args[1])
        args = args[2:]
    cases = args or CASES
    images, labels, _, te = train_detect.digit_images()
    test = train_detect.scenes(train_detect.TEST_SEED, count, images,
                               labels, te)
    ok = [bench_model(build, name, test, cases, most) for name in models]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
