#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The float reference for a model: torch's outputs (float64) for an
input, one value per line in C, H, W order, like the corpus's
reference.txt.

Usage: tools/models/python.sh tools/models/reference.py MODEL.onnx INPUT
INPUT is a PGM/PPM image (x = pixel / 255, colour as B, G, R planes) or a
float .npy of the input's shape."""

import sys

import numpy as np
import onnx

import onnx_torch
import pnm


def load_input(path):
    if path.endswith(".npy"):
        return np.load(path).astype(np.float64)
    return pnm.to_input(pnm.read(path))


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    model = onnx.load(argv[1])
    outs = onnx_torch.run(model, {onnx_torch.input_name(model):
                                  load_input(argv[2])})
    for v in outs[0].reshape(-1):
        print(repr(float(v)))


if __name__ == "__main__":
    main(sys.argv)
