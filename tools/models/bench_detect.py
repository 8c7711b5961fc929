#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The detector demo (models/detect) on held-out scenes: mAP@0.5 of the
float model (torch, float64, decoded by tools/models/detect_ref.py) next
to the network compiled by nvdla_compile and run by nvdla_runtime --detect
on the in-process model, in fp16 on nv_full and in int8 on nv_small.

The scenes are made by tools/models/train_detect.py from the digit images
held out of training (scenes(TEST_SEED, N)), the same every time.

Usage: tools/models/python.sh tools/models/bench_detect.py BUILD_DIR
       [--scenes N] [--max-drop D] [CONFIG:PRECISION...]
N defaults to 200 scenes. With --max-drop, the exit status is 1 when a
case's mAP is below the float model's by more than D."""

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
CASES = ["nv_full:fp16", "nv_small:int8"]
# mAP counts every box down to a low score: what the precision-recall
# curve is drawn from.
THRESHOLD = 0.01


def run_case(build, tmp, files, config, prec):
    """The boxes the compiled network finds in each scene."""
    loadable = bench_digits.compile_model(build, tmp, DETECT, "detect",
                                          config, prec)
    found = []
    for f in files:
        out = subprocess.run(
            [os.path.join(build, "bin", "nvdla_runtime"), "--loadable",
             loadable, "--device", f"sim:{config}", "--image", f,
             "--detect", os.path.join(DETECT, "detect.yolo"),
             "--detect-threshold", str(THRESHOLD), "--rawdump", "-o",
             os.path.join(tmp, "out.txt")],
            check=True, capture_output=True, text=True).stdout
        found.append(detect_ref.read_boxes(out))
    return found


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    build, args = argv[1], argv[2:]
    count, most = 200, None
    while args[:1] in (["--scenes"], ["--max-drop"]) and len(args) > 1:
        if args[0] == "--scenes":
            count = int(args[1])
        else:
            most = float(args[1])
        args = args[2:]
    cases = args or CASES
    head = detect_ref.Head.read(os.path.join(DETECT, "detect.yolo"))
    images, labels, _, te = train_detect.digit_images()
    test = train_detect.scenes(train_detect.TEST_SEED, count, images,
                               labels, te)
    truth = [b.tolist() for _, b in test]
    model = onnx.load(os.path.join(DETECT, "detect.onnx"))
    x = np.concatenate([pnm.to_input(c) for c, _ in test])
    raw = onnx_torch.run(model, {"data": x})[0]
    size = train_detect.SIZE
    found = [detect_ref.detect(head, r, size, size, THRESHOLD) for r in raw]
    ref = detect_ref.mean_ap(found, truth, head.classes)
    print(f"detect demo, {count} held-out scenes with "
          f"{sum(len(t) for t in truth)} digits, on the in-process model:")
    print(f"  float (torch)      mAP@0.5 {ref:.4f}")
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, (c, _) in enumerate(test):
            files.append(os.path.join(tmp, f"{i:03d}.pgm"))
            pnm.write(files[-1], c)
        for case in cases:
            config, prec = case.split(":")
            start = time.monotonic()
            got = detect_ref.mean_ap(run_case(build, tmp, files, config,
                                              prec), truth, head.classes)
            ms = 1000 * (time.monotonic() - start) / len(files)
            print(f"  {prec} {config:13s} mAP@0.5 {got:.4f} "
                  f"({got - ref:+.4f}), {ms:.0f} ms an image")
            if most is not None and got < ref - most:
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
