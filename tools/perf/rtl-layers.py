# SPDX-License-Identifier: MIT
"""The performance estimate against NVIDIA's nv_small RTL on layers of
real sizes: the convolutions of ResNet-18 and MobileNet (v1) on a
224x224 image, each built as a one-layer ONNX model (with its ReLU, as
tools/perf/spreadsheet.py builds the spreadsheet's layers), compiled for
nv_small in int8 by nvdla_compile, and run on the model and on the RTL
by tools/perf/rtl-loadable.sh (same bench memory, EST).

A layer of other than 3 channels is fed by a 1x1 convolution from a
one-channel image; that stem is compiled and run alone too, and its
cycles, on the RTL and in the estimate, are taken off the layer's
(the RTL's then include the bench programming the layer's registers
after the stem, a few hundred cycles). Layers of 3 channels read the
image in image input mode. Prints one line per layer: network, layer,
shape, RTL cycles, estimated cycles, estimate / RTL. docs/performance.md.
Usage: rtl-layers.py BUILD [--nets resnet18,mobilenet] [--only NAME,...]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import onnx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spreadsheet  # noqa: E402  (the layer builder)


def conv(name, c, h, k, r, stride=1, group=1):
    return {"name": name, "c": c, "h": h, "w": h, "k": k, "r": r, "s": r,
            "pad": True, "sv": stride, "sh": stride, "pool": False,
            "kind": "conv", "group": group}


# The distinct convolutions of each network at 224x224 (repeats once).
NETS = {
    "resnet18": [
        conv("conv1", 3, 224, 64, 7, 2),
        conv("layer1.conv", 64, 56, 64, 3),
        conv("layer2.0.conv1", 64, 56, 128, 3, 2),
        conv("layer2.0.downsample", 64, 56, 128, 1, 2),
        conv("layer2.conv", 128, 28, 128, 3),
        conv("layer3.0.conv1", 128, 28, 256, 3, 2),
        conv("layer3.0.downsample", 128, 28, 256, 1, 2),
        conv("layer3.conv", 256, 14, 256, 3),
        conv("layer4.0.conv1", 256, 14, 512, 3, 2),
        conv("layer4.0.downsample", 256, 14, 512, 1, 2),
        conv("layer4.conv", 512, 7, 512, 3),
        conv("fc", 512, 1, 1000, 1),
    ],
    "mobilenet": [
        conv("conv1", 3, 224, 32, 3, 2),
        conv("dw1", 32, 112, 32, 3, 1, 32),
        conv("pw1", 32, 112, 64, 1),
        conv("dw2", 64, 112, 64, 3, 2, 64),
        conv("pw2", 64, 56, 128, 1),
        conv("dw3", 128, 56, 128, 3, 1, 128),
        conv("pw3", 128, 56, 128, 1),
        conv("dw4", 128, 56, 128, 3, 2, 128),
        conv("pw4", 128, 28, 256, 1),
        conv("dw5", 256, 28, 256, 3, 1, 256),
        conv("pw5", 256, 28, 256, 1),
        conv("dw6", 256, 28, 256, 3, 2, 256),
        conv("pw6", 256, 14, 512, 1),
        conv("dw7", 512, 14, 512, 3, 1, 512),
        conv("pw7", 512, 14, 512, 1),
        conv("dw12", 512, 14, 512, 3, 2, 512),
        conv("pw12", 512, 7, 1024, 1),
        conv("dw13", 1024, 7, 1024, 3, 1, 1024),
        conv("pw13", 1024, 7, 1024, 1),
        conv("fc", 1024, 1, 1000, 1),
    ],
}


def run(args, tmp, m, c, h, w, tag):
    """(RTL cycles, estimated cycles) of the model @m on nv_small."""
    d = os.path.join(tmp, tag)
    os.makedirs(d)
    onnx.save(m, os.path.join(d, "m.onnx"))
    img = os.path.join(d, "in.ppm" if c == 3 else "in.pgm")
    spreadsheet.write_image(img, c, h, w)
    r = subprocess.run(
        [os.path.join(args.build, "bin", "nvdla_compile"),
         os.path.join(d, "m.onnx"), "--config", "nv_small", "--calibrate", d,
         "--input-format", "image" if c == 3 else "feature",
         "-o", os.path.join(d, "m.nvdla")], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("compile: " + r.stderr.strip().splitlines()[-1])
    r = subprocess.run(
        ["sh", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "rtl-loadable.sh"), args.build, tag,
         os.path.join(d, "m.nvdla"), "--image", img, "--normalize", "255"],
        capture_output=True, text=True)
    f = r.stdout.split()
    if r.returncode or len(f) < 3:
        raise RuntimeError(r.stdout.strip() or r.stderr.strip())
    return int(f[1]), int(f[2])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("build")
    p.add_argument("--nets", default="resnet18,mobilenet")
    p.add_argument("--only", default="")
    args = p.parse_args()
    only = set(filter(None, args.only.split(",")))
    print("# network layer C HxW K RxS/stride group | RTL cycles | "
          "estimate | estimate / RTL")
    for net in args.nets.split(","):
        for layer in NETS[net]:
            if only and layer["name"] not in only:
                continue
            c, h, w = layer["c"], layer["h"], layer["w"]
            label = "%s %s %d %dx%d %d %dx%d/%d %d" % (
                net, layer["name"], c, h, w, layer["k"], layer["r"],
                layer["s"], layer["sv"], layer["group"])
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    rtl, est = run(args, tmp, spreadsheet.model(layer, False),
                                   c, h, w, "layer")
                    if c != 3:
                        srtl, sest = run(args, tmp,
                                         spreadsheet.model(layer, True),
                                         c, h, w, "stem")
                        rtl, est = rtl - srtl, est - sest
                except RuntimeError as e:
                    print("%s | failed: %s" % (label, e))
                    continue
            print("%s | %d | %d | %.2f" % (label, rtl, est, est / rtl))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
