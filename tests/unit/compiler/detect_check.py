#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of nvdla_runtime --detect for tests/unit/compiler/test_detect.sh; each
prints what it compared and exits 1 when it does not hold.

  truth TRUTH FOUND
      every box of TRUTH (box x0 y0 x1 y1 class lines) found in FOUND
      (the runtime's output) with its class and an IoU of at least 0.5,
      and nothing else found
  decode YOLO RAW WIDTH HEIGHT FOUND THRESHOLD NMS
      FOUND is the reference decode (tools/models/detect_ref.py) of the
      heads' values RAW (--rawdump's output 0, RAW.N.raw for output N
      when RAW ends in .raw) to the printed digits: the same boxes in the
      same order, corners within 0.01, scores 1e-4
  torch YOLO ONNX IMAGE FOUND
      FOUND is the reference decode of torch's float64 output for IMAGE,
      within what fp16 changes: the same boxes, corners within 0.5 pixel,
      scores within 0.01"""

import os
import sys

import numpy as np
import onnx

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "tools", "models"))
import detect_ref  # noqa: E402
import onnx_torch  # noqa: E402
import pnm  # noqa: E402


def read(path):
    with open(path) as f:
        return detect_ref.read_boxes(f.read())


def truth(truth_path, found_path):
    want, got = read(truth_path), read(found_path)
    missed = [t for t in want
              if not any(g[4] == t[4] and detect_ref.iou(g, t) >= 0.5
                         for g in got)]
    print(f"{len(want)} digits, {len(got)} boxes found, "
          f"{len(missed)} missed: {missed}")
    return not missed and len(got) == len(want)


def same(want, got, corner, score):
    """@got lists the boxes of @want, in order, within the tolerances."""
    print(f"reference {len(want)} boxes, runtime {len(got)}")
    if len(want) != len(got):
        return False
    worst = [0.0, 0.0]
    for w, g in zip(want, got):
        if w[4] != g[4]:
            print(f"class differs: {w} against {g}")
            return False
        worst[0] = max([worst[0]] + [abs(a - b) for a, b in zip(w[:4], g)])
        worst[1] = max(worst[1], abs(w[5] - g[5]))
    print(f"largest corner difference {worst[0]:.4f}, "
          f"score difference {worst[1]:.5f}")
    return worst[0] <= corner and worst[1] <= score


def decode(yolo, raw, width, height, found, threshold, nms):
    head = detect_ref.Head.read(yolo)
    width, height = int(width), int(height)
    outputs = {}
    for output, stride, _ in head.heads:
        path = raw if not output else f"{raw[:-4]}.{output}.raw"
        with open(path) as f:
            values = np.array([float(v) for v in f.read().split()])
        outputs[output] = values.reshape(-1, int(height // stride),
                                         int(width // stride))
    want = detect_ref.detect(head, outputs, width, height, float(threshold),
                             float(nms))
    return same(want, read(found), 0.011, 1.1e-4)


def torch(yolo, model, image, found):
    head = detect_ref.Head.read(yolo)
    pixels = pnm.read(image)
    raw = [r[0] for r in onnx_torch.run(onnx.load(model),
                                        {"data": pnm.to_input(pixels)})]
    want = detect_ref.detect(head, raw, pixels.shape[1], pixels.shape[0])
    return same(want, read(found), 0.5, 0.01)


def main(argv):
    checks = {"truth": (truth, 2), "decode": (decode, 7), "torch": (torch, 4)}
    if len(argv) < 2 or argv[1] not in checks or \
            len(argv) - 2 != checks[argv[1]][1]:
        sys.exit(__doc__)
    return 0 if checks[argv[1]][0](*argv[2:]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
