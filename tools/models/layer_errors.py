#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a compiled network loses accuracy: for each node output of
MODEL.onnx (or those named), the model cut after it, compiled by
nvdla_compile and run by nvdla_runtime on the in-process model, next to
torch's float64 values of that tensor: largest error, and both relative
to the tensor's largest float magnitude.

Usage: tools/models/python.sh tools/models/layer_errors.py BUILD_DIR
       MODEL.onnx IMAGE CONFIG PRECISION [CALIB_DIR] [-- TENSOR...]"""

import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnx.helper as oh

import onnx_torch
import pnm


def cut(model, tensor):
    """@model with @tensor as its only output and the nodes it needs."""
    need, nodes = {tensor}, []
    for node in reversed(model.graph.node):
        if need & set(node.output):
            nodes.insert(0, node)
            need |= set(i for i in node.input if i)
    g = oh.make_graph(nodes, model.graph.name, model.graph.input,
                      [oh.make_tensor_value_info(tensor,
                                                 onnx.TensorProto.FLOAT,
                                                 None)],
                      [t for t in model.graph.initializer if t.name in need])
    m = oh.make_model(g, opset_imports=model.opset_import)
    m.ir_version = model.ir_version
    return m


def main(argv):
    names = []
    if "--" in argv:
        names = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    if len(argv) not in (6, 7):
        sys.exit(__doc__)
    build, path, image, config, prec = argv[1:6]
    calib = argv[6] if len(argv) == 7 else None
    model = onnx.load(path)
    x = pnm.to_input(pnm.read(image))
    names = names or [n.output[0] for n in model.graph.node]
    with tempfile.TemporaryDirectory() as tmp:
        for t in names:
            m = cut(model, t)
            ref = onnx_torch.run(m, {onnx_torch.input_name(m): x})[0]
            f = os.path.join(tmp, "cut.onnx")
            onnx.save(m, f)
            cmd = [os.path.join(build, "bin", "nvdla_compile"), f,
                   "--config", config, "--precision", prec,
                   "-o", f + ".nvdla"]
            if calib:
                cmd += ["--calibrate", calib]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                print(f"{t}: nvdla_compile: {r.stderr.strip()}")
                continue
            r = subprocess.run(
                [os.path.join(build, "bin", "nvdla_runtime"), "--loadable",
                 f + ".nvdla", "--device", f"sim:{config}", "--image", image,
                 "--normalize", "255", "--rawdump", "-o", f + ".txt"],
                capture_output=True, text=True)
            if r.returncode:
                print(f"{t}: nvdla_runtime: {r.stderr.strip()}")
                continue
            with open(f + ".txt") as o:
                got = np.array([float(v) for v in o.read().split()])
            ref = ref.reshape(-1)
            if got.size != ref.size:
                print(f"{t}: {got.size} values, torch {ref.size}")
                continue
            err = np.abs(got - ref)
            scale = np.abs(ref).max()
            print(f"{t:28s} max |x| {scale:9.4f}  max error {err.max():8.4f}"
                  f" ({100 * err.max() / scale:5.1f} %), mean "
                  f"{err.mean():8.5f} ({100 * err.mean() / scale:5.2f} %)",
                  flush=True)


if __name__ == "__main__":
    main(sys.argv)
