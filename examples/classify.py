#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Copyright (C) 2026 The open NVDLA stack authors
"""Classify an image with a compiled classifier through the nvdla module:
the best class and its value (a probability for networks that end in
softmax), as examples/classify.c prints them.

Usage: classify.py LOADABLE IMAGE [NORMALIZE]
(the digit demo: classify.py digits.nvdla input.pgm 255 prints class 5)
"""
import sys

import nvdla


def main(argv):
    if len(argv) not in (3, 4):
        print("usage: %s LOADABLE IMAGE [NORMALIZE]" % argv[0],
              file=sys.stderr)
        return 2
    normalize = float(argv[3]) if len(argv) > 3 else 1.0
    try:
        # The first NVDLA device, else the in-process model.
        with nvdla.Device() as dev:
            net = dev.load(argv[1])
            values = net.run(nvdla.Image(argv[2], normalize=normalize))[0]
    except nvdla.Error as e:
        print(e.strerror, file=sys.stderr)
        return 1
    best = int(values.argmax())
    print("class %d, %f" % (best, values.flat[best]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
