# SPDX-License-Identifier: MIT
"""Run every compiled network of a corpus (../shared/conformance/networks)
on the in-process model and check its output against the float reference
with the case's tolerance, as the corpus README defines it: fp16, the
top-1 class (where required) and the largest absolute error; int8, the
output codes times int8_output_scale, the largest and the mean absolute
error, the top-5 overlap and, where required, the top-1 class among the
reference's top 5. Prints one TAP line per case with its error and time.

Usage: networks_check.py NVDLA_RUNTIME CORPUS_DIR [CASE...]
"""
import json
import os
import subprocess
import sys
import tempfile
import time


def top(values, k):
    """Indices of the k largest values, ties to the lower index."""
    return sorted(range(len(values)), key=lambda i: (-values[i], i))[:k]


def read_values(path):
    with open(path) as f:
        return [float(t) for t in f.read().split()]


def judge(case, got, ref):
    """(passed, text) for the output values @got against @ref."""
    tol = case["tolerance"]
    out = case["output"]
    if len(got) != len(ref):
        return False, "%d values, the reference has %d" % (len(got), len(ref))
    if case["precision"] == "int8":
        got = [v * out["int8_output_scale"] for v in got]
    err = [abs(a - b) for a, b in zip(got, ref)]
    max_err = max(err)
    mean_err = sum(err) / len(err)
    top1 = top(got, 1)[0]
    ref5 = top(ref, 5)
    overlap = len(set(top(got, 5)) & set(ref5))
    text = "max abs err %.3g (<= %g), mean %.3g" % (max_err,
                                                   tol["max_abs_err"],
                                                   mean_err)
    ok = max_err <= tol["max_abs_err"]
    if case["precision"] == "int8":
        text += " (<= %g), top-5 overlap %d (>= %d)" % (
            tol["mean_abs_err"], overlap, tol["min_top5_overlap"])
        ok = ok and mean_err <= tol["mean_abs_err"]
        ok = ok and overlap >= tol["min_top5_overlap"]
        if tol.get("top1_in_reference_top5"):
            text += ", top-1 %d %s the reference's top 5" % (
                top1, "in" if top1 in ref5 else "NOT in")
            ok = ok and top1 in ref5
    elif tol.get("top1_must_match"):
        text += ", top-1 %d (reference %d)" % (top1, ref5[0])
        ok = ok and top1 == ref5[0]
    return ok, text


def run_case(runtime, path, n):
    with open(os.path.join(path, "case.json")) as f:
        case = json.load(f)
    name = case["case"]
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "output.txt")
        cmd = [runtime] + case["run"]["args"] + ["--rawdump", "-o", dump]
        start = time.monotonic()
        res = subprocess.run(cmd, cwd=path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - start
        if res.returncode:
            print("not ok %d - %s: status %d: %s (%.2f s)" %
                  (n, name, res.returncode, res.stderr.strip(), wall))
            return False
        ok, text = judge(case, read_values(dump),
                         read_values(os.path.join(path, "reference.txt")))
    print("%sok %d - %s: %s, %.2f s" % ("" if ok else "not ", n, name, text,
                                        wall))
    return ok


def main():
    runtime, corpus = os.path.abspath(sys.argv[1]), sys.argv[2]
    names = sys.argv[3:] or sorted(
        d for d in os.listdir(corpus)
        if os.path.isfile(os.path.join(corpus, d, "case.json")))
    failed = 0
    for n, name in enumerate(names, 1):
        failed += not run_case(runtime, os.path.join(corpus, name), n)
    print("1..%d" % len(names))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
