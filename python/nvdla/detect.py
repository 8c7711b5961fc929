# SPDX-License-Identifier: MIT
# Copyright (C) 2026 The open NVDLA stack authors
"""A YOLO-style detector's heads decoded into boxes by the library
(nvdla_yolo_read(), nvdla_detect_decode())."""
import os
from collections import namedtuple
from ctypes import byref, c_void_p, create_string_buffer

import numpy as np

from ._lib import DetectBox, DetectOutput, Error, lib, text

# The defaults of nvdla_runtime --detect-threshold and --nms.
THRESHOLD = 0.25
NMS = 0.45

Box = namedtuple("Box", "x0 y0 x1 y1 score cls name")
Box.__doc__ = """A box in input pixels (x1, y1 past its edges), its score,
class and the class's name (None when the .yolo file names none)."""


class Yolo:
    """A .yolo file: its class count (.classes) and names (.names, or
    None), and per head the output, stride and anchors it decodes."""

    def __init__(self, path):
        self._yolo = c_void_p()
        err = create_string_buffer(4400)
        ret = lib.nvdla_yolo_read(os.fsencode(path), byref(self._yolo), err,
                                  len(err))
        if ret < 0:
            raise Error(-ret, text(err.value))
        self.classes = lib.nvdla_yolo_num_classes(self._yolo)
        names = [lib.nvdla_yolo_class_name(self._yolo, c)
                 for c in range(self.classes)]
        self.names = [text(n) for n in names] if names[0] else None

    def decode(self, outputs, width, height, threshold=THRESHOLD, nms=NMS):
        """The Boxes its heads find in @outputs (all outputs of a run,
        arrays of C, H, W real values) for a @width x @height input, best
        first, after suppression at IoU @nms."""
        arrays = [np.ascontiguousarray(o, dtype=np.float32) for o in outputs]
        if any(a.ndim != 3 for a in arrays):
            raise ValueError("outputs: arrays of C, H, W, not of shapes %r"
                             % [a.shape for a in arrays])
        desc = (DetectOutput * max(len(arrays), 1))(
            *[DetectOutput(a.ctypes.data, *a.shape) for a in arrays])
        err = create_string_buffer(512)
        boxes = None
        count, room = 0, 0
        while boxes is None or count > room:
            room = count
            boxes = (DetectBox * max(room, 1))()
            count = lib.nvdla_detect_decode(
                self._yolo, desc, len(arrays), width, height, threshold,
                nms, boxes, room, err, len(err))
            if count < 0:
                raise Error(-count, text(err.value) or os.strerror(-count))
        return [Box(b.x0, b.y0, b.x1, b.y1, b.score, b.cls,
                    self.names[b.cls] if self.names else None)
                for b in boxes[:count]]

    def close(self):
        lib.nvdla_yolo_free(self._yolo)
        self._yolo = c_void_p()

    def __del__(self):
        self.close()
