# SPDX-License-Identifier: MIT
# Copyright (C) 2026 The open NVDLA stack authors
"""Run NVDLA loadables from Python on numpy arrays or images.

    import nvdla
    net = nvdla.Device("sim:nv_full").load("digits.nvdla")
    probs = net.run(nvdla.Image("input.pgm", normalize=255))[0]

Device() opens a device (a DRM node, or the in-process hardware model
"sim:nv_full", "sim:nv_small", "sim:nv_large"), Device.load() a loadable,
Network.run() runs it and Network.submit() queues a run and returns a Run
to wait for, poll or watch with select. nvdla.compile() turns an ONNX
model into a loadable. nvdla.Yolo() reads a detector's .yolo file, and
Run.detect() or Yolo.decode() give the boxes its heads find. Failures
raise nvdla.Error (an OSError) with the library's errno and message.
"""
from ._lib import Error
from .compiler import CompileError, compile
from .detect import Box, Yolo
from .runtime import Device, Image, Network, Run, Tensor

__all__ = ["Box", "CompileError", "Device", "Error", "Image", "Network",
           "Run", "Tensor", "Yolo", "compile"]
