# SPDX-License-Identifier: MIT
"""torchvision's classifiers as torch 1.13 exports them (tools/models/zoo.py,
cached in BUILD/zoo), compiled by nvdla_compile for nv_full fp16 and run
on the in-process model (sim:nv_full) through the Python module: cosine
similarity to torch float32 at least 0.999 and the same top-1 class, the
loadable within its size limit where one is listed; a model the compiler
refuses must be refused with the message listed. TAP
lines, one per model, with the figures and the time.

Usage: zoo_check.py BUILD [NAME...]"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "tools", "models"))
import zoo  # noqa: E402
import nvdla  # noqa: E402

# The compiler's refusal, for the models it does not take yet.
REFUSED = {
    "shufflenet_v2_x1_0": "node '/stage2/stage2.0/Reshape' (Reshape): the "
                          "shape has rank 5 (at most 4)",
}

# Largest loadable, in bytes (the weights do not depend on the input size).
MAX_BYTES = {
    "mobilenet_v2": 15000000,
}


def check(build, name):
    t0 = time.time()
    zoo.export(name, os.path.join(build, "zoo"))
    d = os.path.join(build, "zoo", name)
    try:
        blob = nvdla.compile(os.path.join(d, name + ".onnx"), "nv_full",
                             precision="fp16")
    except nvdla.CompileError as e:
        want = REFUSED.get(name)
        ok = want is not None and want in str(e)
        return ok, "%s refused: %s" % (name, e)
    if name in REFUSED:
        return False, "%s compiled; expected the refusal '%s'" % (
            name, REFUSED[name])
    x = np.load(os.path.join(d, "input.npy"))
    ref = np.loadtxt(os.path.join(d, "reference.txt"))
    with nvdla.Device("sim:nv_full") as dev:
        y = dev.load(blob).run(x)[0].ravel().astype(np.float64)
    cos = float(np.dot(y, ref) / (np.linalg.norm(y) * np.linalg.norm(ref)))
    top = int(np.argmax(y)) == int(np.argmax(ref))
    small = len(blob) <= MAX_BYTES.get(name, len(blob))
    return cos >= 0.999 and top and small, \
        "%s fp16 nv_full: cosine %.6f, top-1 %s (%d / %d), %d bytes%s, " \
        "%.0f s" % (name, cos, "equal" if top else "differs",
                    int(np.argmax(y)), int(np.argmax(ref)), len(blob),
                    " (at most %d)" % MAX_BYTES[name] if name in MAX_BYTES
                    else "", time.time() - t0)


def main():
    build = sys.argv[1]
    names = sys.argv[2:] or list(zoo.MODELS)
    print("1..%d" % len(names))
    failed = 0
    for i, name in enumerate(names, 1):
        ok, msg = check(build, name)
        failed += not ok
        print("%s %d - zoo: %s" % ("ok" if ok else "not ok", i, msg),
              flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
