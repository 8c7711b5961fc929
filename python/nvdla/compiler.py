# SPDX-License-Identifier: MIT
# Copyright (C) 2026 The open NVDLA stack authors
"""nvdla.compile(): ONNX models into loadables through nvdla_compile.

The compiler is a program, not an installed library, so this runs the
nvdla_compile found on PATH and gives back the loadable's bytes.
"""
import os
import shutil
import subprocess
import tempfile

from ._lib import Error


class CompileError(Error):
    """nvdla_compile refused the model: its message, no errno."""


def compile(model, config="nv_full", precision=None, calibrate=None,
            input_format=None, mean=None, normalize=None,
            cpu_fallback=False):
    """Compile the ONNX file @model for @config; the loadable's bytes.

    The options are nvdla_compile's (nvdla_compile(1)): precision "fp16"
    or "int8", calibrate a directory of images or .npy arrays (int8; a
    QDQ model needs none), input_format "image" or "feature", mean
    (B, G, R) and normalize for image inputs, cpu_fallback to run what
    the accelerator does not compute (Erf) as CPU tasks.
    """
    prog = shutil.which("nvdla_compile")
    if prog is None:
        raise CompileError("nvdla_compile is not on PATH")
    args = [prog, os.fspath(model), "--config", config]
    if precision is not None:
        args += ["--precision", precision]
    if calibrate is not None:
        args += ["--calibrate", os.fspath(calibrate)]
    if input_format is not None:
        args += ["--input-format", input_format]
    if mean is not None:
        args += ["--mean", ",".join(str(m) for m in mean)]
    if normalize is not None:
        args += ["--normalize", str(normalize)]
    if cpu_fallback:
        args += ["--cpu-fallback"]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "model.nvdla")
        proc = subprocess.run(args + ["-o", out], capture_output=True,
                              text=True, check=False)
        if proc.returncode != 0:
            raise CompileError(proc.stderr.strip() or
                               "nvdla_compile exited with status %d" %
                               proc.returncode)
        with open(out, "rb") as f:
            return f.read()
