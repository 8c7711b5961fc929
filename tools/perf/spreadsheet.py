# SPDX-License-Identifier: MIT
"""The performance estimate against NVIDIA's performance spreadsheet
(perf/NVDLA_OpenSource_Performance.xlsx on nvdla/hw's nvdlav1 branch).

For each convolution or fully-connected layer of its AlexNet, GoogLeNet
and ResNet50 sheets, builds that layer as a one-layer ONNX model,
compiles it for CONFIG in int8 with nvdla_compile, runs it on the model
with nvdla_runtime --estimate at the sheet's clock and primary-interface
bandwidth, and prints the estimate's cycles for the layer next to the
sheet's cycles for it without on-chip SRAM (its "SRAM=0M" columns:
DRAM cycles, MAC cycles, their maximum).

A layer of C channels other than 3 is fed by a 1x1 convolution from a
one-channel image (the compiler calibrates on images); that stem's
operations, the first ones of the run, are left out: they are exactly
the operations of the stem alone, compiled and estimated the same way.
Layers of 3 channels read the image directly, in image input mode, as a
first layer does. "conv + elwise" layers add a second stem's output;
"Pooling after Conv" layers end with the max pooling the sheet names.

The xlsx is read at run time (zipfile + xml, the sheet's cached values),
from the bare nvdla/hw clone or a path given. docs/performance.md.
Usage: spreadsheet.py BUILD [--xlsx PATH | --git-dir DIR] [--config C]
                      [--sheets AlexNet,GoogLeNet,ResNet50] [--layers N]
"""

import argparse
import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
RELNS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
HEADER_ROW = 10
SHEETS = ("AlexNet", "GoogLeNet", "ResNet50")
# Input channels of one atomic operation, int8 (sim/config.c).
ATOMIC_C = {"nv_full": 64, "nv_large": 64}


def read_xlsx(args):
    if args.xlsx:
        try:
            with open(args.xlsx, "rb") as f:
                return f.read()
        except OSError as e:
            sys.exit("spreadsheet.py: %s: %s" % (args.xlsx, e.strerror))
    r = subprocess.run(
        ["git", "--git-dir", args.git_dir, "show",
         "nvdlav1:perf/NVDLA_OpenSource_Performance.xlsx"],
        capture_output=True)
    if r.returncode:
        sys.exit("spreadsheet.py: %s: %s" % (
            args.git_dir, r.stderr.decode().strip() or "git show failed"))
    return r.stdout


def col_index(ref):
    n = 0
    for ch in ref:
        if not ch.isalpha():
            break
        n = n * 26 + ord(ch.upper()) - 64
    return n


class Book:
    """The workbook's sheets as {name: {row: {column: value}}}."""

    def __init__(self, data):
        import io
        z = zipfile.ZipFile(io.BytesIO(data))
        strings = [''.join(t.text or '' for t in si.iter(NS + "t"))
                   for si in ET.fromstring(z.read("xl/sharedStrings.xml"))
                   .findall(NS + "si")]
        rels = {r.get("Id"): r.get("Target") for r in
                ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))}
        self.sheets = {}
        for s in ET.fromstring(z.read("xl/workbook.xml")).iter(NS + "sheet"):
            xml = z.read("xl/" + rels[s.get(RELNS + "id")])
            rows = {}
            for row in ET.fromstring(xml).iter(NS + "row"):
                cells = {}
                for c in row.findall(NS + "c"):
                    v = c.find(NS + "v")
                    if v is None or v.text is None:
                        continue
                    val = v.text
                    if c.get("t") == "s":
                        val = strings[int(val)]
                    elif c.get("t") != "str":
                        val = float(val) if c.get("t") != "b" else val == "1"
                    cells[col_index(c.get("r"))] = val
                rows[int(row.get("r"))] = cells
            self.sheets[s.get("name")] = rows

    def value(self, name, ref):
        row = int(''.join(ch for ch in ref if ch.isdigit()))
        return self.sheets[name].get(row, {}).get(col_index(ref))


def header(rows):
    """Column of each header (newlines folded); the last one of a name."""
    cols = {}
    for c, v in rows.get(HEADER_ROW, {}).items():
        if isinstance(v, str):
            cols[' '.join(v.split()).lower()] = c
    return cols


# The layer's fields, by the sheet's own letters in its headers.
FIELDS = {"c": "#input feature maps c", "h": "input height h",
          "w": "input width w", "k": "#output feature maps k",
          "r": "filter height r", "s": "filter width s",
          "pad": "zero padding z", "sv": "vertical conv srtide h",
          "sh": "horizontal conv stride v", "pool": "pooling after conv",
          "pd": "pooling height d", "pe": "pooling width e",
          "pf": "vertical pooling stride f",
          "pg": "horizontal pooling stride g"}


def layers(book, name):
    rows = book.sheets[name]
    cols = header(rows)
    # Names repeat across the sheet's blocks; the no-SRAM block is the
    # last, and header() keeps the last column of a name.
    for h in ("dram cycles", "mac cycles", "max cycle"):
        if h not in cols:
            sys.exit("%s: no '%s' column in row %d" % (name, h, HEADER_ROW))
    dram_c, mac_c, max_c = (cols["dram cycles"], cols["mac cycles"],
                            cols["max cycle"])
    attr_c = cols["layer attribute"]
    out = []
    for r in sorted(rows):
        cells = rows[r]
        kind = cells.get(attr_c)
        if r <= HEADER_ROW or kind not in ("conv", "fc", "conv + elwise"):
            continue
        if not isinstance(cells.get(max_c), float):
            continue  # a row the sheet counts in a combined one
        f = {k: cells.get(cols[v]) for k, v in FIELDS.items()}
        f.update(name=str(cells.get(cols["layer"])), kind=kind, row=r,
                 dram=cells[dram_c], mac=cells[mac_c], max=cells[max_c])
        out.append(f)
    return out


def conv_node(nodes, inits, x, y, cin, k, r, s, strides, pads, tag, group=1):
    rng = np.random.default_rng(len(inits) + 1)
    w = rng.uniform(-1, 1, (k, cin // group, r, s)).astype(np.float32)
    w /= math.sqrt(cin // group * r * s)
    inits.append(numpy_helper.from_array(w, tag + "_w"))
    inits.append(numpy_helper.from_array(
        rng.uniform(-0.1, 0.1, k).astype(np.float32), tag + "_b"))
    nodes.append(helper.make_node("Conv", [x, tag + "_w", tag + "_b"], [y],
                                  kernel_shape=[r, s], strides=strides,
                                  pads=pads, group=group))


def model(layer, stem_only):
    """The layer as an ONNX model, or only the stems that feed it."""
    c, h, w, k = (int(layer[f]) for f in "chwk")
    r, s = int(layer["r"]), int(layer["s"])
    sv, sh = int(layer["sv"] or 1), int(layer["sh"] or 1)
    image = c == 3
    nodes, inits, outs = [], [], []
    x = "image"
    if not image:
        conv_node(nodes, inits, "image", "stem", 1, c, 1, 1, [1, 1],
                  [0, 0, 0, 0], "stem")
        outs.append(("stem", c, h, w))
        x = "stem"
    pads = [0, 0, 0, 0]
    if layer["pad"] and layer["kind"] != "fc":
        pads = [(r - 1) // 2, (s - 1) // 2, (r - 1) // 2, (s - 1) // 2]
    oh = (h + pads[0] + pads[2] - r) // sv + 1
    ow = (w + pads[1] + pads[3] - s) // sh + 1
    if layer["kind"] == "conv + elwise":
        conv_node(nodes, inits, "image", "stem2", 1, k, 1, 1, [1, 1],
                  [0, 0, 0, 0], "stem2")
        outs.append(("stem2", k, oh, ow))
        if (oh, ow) != (h, w):
            raise ValueError("element-wise layer with a stride")
    if stem_only:
        return graph(nodes, inits, outs, 3 if image else 1, h, w)
    conv_node(nodes, inits, x, "conv", c, k, r, s, [sv, sh], pads, "layer",
              int(layer.get("group") or 1))
    y = "conv"
    if layer["kind"] == "conv + elwise":
        nodes.append(helper.make_node("Add", ["conv", "stem2"], ["sum"]))
        y = "sum"
    nodes.append(helper.make_node("Relu", [y], ["out"]))
    y, outs = "out", [("out", k, oh, ow)]
    if layer["pool"]:
        d, e = int(layer["pd"]), int(layer["pe"])
        f_, g = int(layer["pf"]), int(layer["pg"])
        ph = math.ceil((oh - d) / f_) + 1
        pw = math.ceil((ow - e) / g) + 1
        pads = [0, 0, (ph - 1) * f_ + d - oh, (pw - 1) * g + e - ow]
        nodes.append(helper.make_node("MaxPool", ["out"], ["pool"],
                                      kernel_shape=[d, e], strides=[f_, g],
                                      pads=pads))
        outs = [("pool", k, ph, pw)]
    return graph(nodes, inits, outs, 3 if image else 1, h, w)


def graph(nodes, inits, outs, c, h, w):
    g = helper.make_graph(
        nodes, "layer",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT,
                                       [1, c, h, w])],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, oc, oh, ow])
         for n, oc, oh, ow in outs], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    return m


def write_image(path, c, h, w):
    rng = np.random.default_rng(h * 1000 + w + c)
    pix = rng.integers(0, 256, (h, w, c), dtype=np.uint8)
    with open(path, "wb") as f:
        f.write(b"P%d\n%d %d\n255\n" % (6 if c == 3 else 5, w, h))
        f.write(pix.tobytes())


def estimate(args, tmp, m, c, h, w, tag):
    """Each operation's engines, cycles, mac_cyc, post_cyc, mem_cyc and
    MACs."""
    d = os.path.join(tmp, tag)
    os.makedirs(d, exist_ok=True)
    onnx.save(m, os.path.join(d, "m.onnx"))
    img = os.path.join(d, "in.ppm" if c == 3 else "in.pgm")
    write_image(img, c, h, w)
    fmt = "image" if c == 3 else "feature"
    r = subprocess.run(
        [os.path.join(args.build, "bin", "nvdla_compile"),
         os.path.join(d, "m.onnx"), "--config", args.config,
         "--precision", "int8", "--calibrate", d, "--input-format", fmt,
         "-o", os.path.join(d, "m.nvdla")], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("compile: " + r.stderr.strip().splitlines()[-1])
    r = subprocess.run(
        [os.path.join(args.build, "bin", "nvdla_runtime"), "--loadable",
         os.path.join(d, "m.nvdla"), "--device", "sim:" + args.config,
         "--image", img, "--normalize", "255", "--estimate",
         "--clock", str(args.clock), "--dram-gbps", str(args.gbps),
         "-o", os.path.join(d, "out.dimg")], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("run: " + r.stderr.strip().splitlines()[-1])
    ops, head = [], None
    for line in r.stdout.splitlines():
        f = line.split()
        if f and f[0] == "op":
            head = f
        elif head and f and f[0].isdigit() and len(f) == len(head):
            ops.append({k: f[head.index(k)] if k == "engines" else
                        int(f[head.index(k)]) for k in
                        ("engines", "cycles", "mac_cyc", "post_cyc",
                         "mem_cyc", "MACs")})
    return ops


def layer_ops(args, tmp, layer):
    c, h, w = (int(layer[f]) for f in "chw")
    ops = estimate(args, tmp, model(layer, False), c, h, w, "layer")
    if c == 3:
        return ops
    stem = estimate(args, tmp, model(layer, True), c, h, w, "stem")
    if ops[:len(stem)] != stem:
        raise RuntimeError("the stem's operations are not the run's first")
    return ops[len(stem):]


def causes(args, name, layer, est, rest):
    """Where the sheet and the estimate part (docs/performance.md)."""
    c, k, r, s = (int(layer[f]) for f in "ckrs")
    stride = int(layer["sv"] or 1)
    weights = c * k * r * s
    out = []
    if c == 3:
        out.append("image")
    elif c % ATOMIC_C[args.config]:
        out.append("atomic-C")
    if r == 3 and s == 3:
        out.append("winograd")
    if stride > 1 and c != 3:
        out.append("stride-folded")
    if name == "ResNet50" and k % 128:
        out.append("K-to-128")
    if layer["kind"] == "fc" and \
            layer["dram"] * args.gbps * 1000 < weights * args.clock:
        out.append("fc-batch")
    if layer["pool"] and rest:
        out.append("pool-apart")
    if est["post_cyc"] > est["mac_cyc"]:
        out.append("delivery")
    if est["cycles"] > 1.1 * max(est["mac_cyc"], est["post_cyc"],
                                 est["mem_cyc"]):
        out.append("fill")
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("build")
    p.add_argument("--xlsx")
    p.add_argument("--git-dir", default="/work/.mirror/nvdla+hw/repo")
    p.add_argument("--config", default="nv_full", choices=sorted(ATOMIC_C))
    p.add_argument("--sheets", default=",".join(SHEETS))
    p.add_argument("--layers", type=int, default=0,
                   help="only the first N layers of each sheet")
    args = p.parse_args()
    book = Book(read_xlsx(args))
    cfg = "Configuration Input"
    args.clock = int(book.value(cfg, "F3"))
    args.gbps = book.value(cfg, "I3")
    print("# %s int8, %d MHz, %g GB/s; sheet: %g MACs, %g KB buffer, "
          "%g-byte data" % (args.config, args.clock, args.gbps,
                            book.value(cfg, "E3"), book.value(cfg, "D3"),
                            book.value(cfg, "B3")))
    print("# layer C HxW K RxS/stride | sheet: DRAM, MAC, max cycles | "
          "estimate: memory, MAC cycles, cycles; other operations' cycles | "
          "estimate/sheet | causes of a difference over 20%")
    for name in args.sheets.split(","):
        total_s = total_e = 0
        for i, layer in enumerate(layers(book, name)):
            if args.layers and i >= args.layers:
                break
            label = "%s %s %d %dx%d %d %dx%d/%d" % (
                name, layer["name"].replace(" ", "_"), layer["c"], layer["h"],
                layer["w"], layer["k"], layer["r"], layer["s"],
                layer["sv"] or 1)
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    ops = layer_ops(args, tmp, layer)
                except (RuntimeError, ValueError) as e:
                    print("%s | not built: %s" % (label, e))
                    continue
            conv = [o for o in ops if o["engines"].startswith("conv")]
            est = {k: sum(o[k] for o in conv)
                   for k in ("cycles", "mac_cyc", "post_cyc", "mem_cyc")}
            rest = sum(o["cycles"] for o in ops) - est["cycles"]
            ratio = est["cycles"] / layer["max"]
            total_s += layer["max"]
            total_e += est["cycles"]
            print("%s | %d %d %d | %d %d %d; %d | %.2f | %s" % (
                label, layer["dram"], layer["mac"], layer["max"],
                est["mem_cyc"], est["mac_cyc"], est["cycles"], rest, ratio,
                " ".join(causes(args, name, layer, est, rest))
                if abs(ratio - 1) > 0.2 else ""))
            sys.stdout.flush()
        if total_s:
            print("%s total | %d | %d | %.2f" % (name, total_s, total_e,
                                                 total_e / total_s))


if __name__ == "__main__":
    main()
