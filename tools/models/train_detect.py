#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Train a detector of the second demo, deterministically, and write it
with its data into OUT_DIR (models/detect). MODEL is one of

  detect          one head: output `yolo`, 2 x (5 + 10) channels on the
                  12x12 grid (stride 8)
  detect2         two heads, YOLOv3-tiny's shape: output `yolo16` on the
                  6x6 grid (stride 16) from the deepest features, output
                  `yolo8` on the 12x12 grid from those upsampled x2 and
                  concatenated with the shallower 12x12 features; 2
                  anchors each

and the files written are

  MODEL.onnx      the trained network (opset 13, batch 1, input `data`
                  1x1x96x96 = pixel / 255, the raw heads as outputs)
  MODEL.yolo      how to decode them: classes and their names, per head
                  its output, stride and anchors (nvdla_runtime --detect
                  and nvdla_yolo_read() read it)
  input.pgm       a test scene (96x96 8-bit PGM) and input.txt, its
                  ground-truth boxes, `box x0 y0 x1 y1 class` a line
  scenes/         more test scenes, N.pgm with N.txt
  calib/          training scenes as PNG, for int8 calibration

A scene is a black 96x96 canvas with 1 to 4 of the digits of Debian's
python3-sklearn (8x8 images of 17 grey levels) pasted on it, each scaled
bilinearly to 14..32 pixels high and 0.7..1 of that wide, not touching
each other; a digit's box is the extent of its pixels brighter than
BOX_INK. The digit images are split 3:1 into training and test images
(stratified, fixed seed, as models/digits does): training scenes use only
the former, the test scenes (and make bench's, scenes(TEST_SEED, ...))
only the latter. Training draws fresh scenes every epoch; Adam, one
thread, deterministic algorithms, fixed seeds: the same torch gives the
same bytes. A truth box is the target of the one anchor, of all heads,
that fits its size best, in the cell of that head holding its centre.

Usage: tools/models/python.sh tools/models/train_detect.py OUT_DIR [MODEL]
(MODEL detect by default)"""

import os
import struct
import sys
import zlib

import numpy as np
import onnx
import sklearn.datasets
import sklearn.model_selection
import torch
import torch.nn as nn
import torch.nn.functional as F

import detect_ref
import onnx_torch
import pnm
import train_digits

SEED = 25
TEST_SEED = 2500          # the held-out scenes of make bench
SIZE = 96                 # canvas side
CLASSES = 10
DIGIT_H = (14, 32)        # a pasted digit's height, pixels
DIGIT_ASPECT = (0.7, 1.0)  # its width over its height
DIGITS_PER_SCENE = (1, 4)
BOX_INK = 64              # pixels above this belong to the digit's box
EPOCHS = 30
SCENES_PER_EPOCH = 2000
BATCH = 32
CALIB = 8
TEST_SCENES = 4


def digit_images():
    """sklearn's digits as float 8x8 in 0..1, their labels, and the
    indices of the training and test images."""
    d = sklearn.datasets.load_digits()
    labels = d.target.astype(np.int64)
    tr, te = sklearn.model_selection.train_test_split(
        np.arange(len(labels)), test_size=0.25, random_state=SEED,
        stratify=labels)
    return d.images / 16.0, labels, tr, te


def glyph(image, h, w):
    """An 8x8 digit scaled to h x w 8-bit pixels."""
    up = (train_digits.upscale_matrix(8, h) @ image @
          train_digits.upscale_matrix(8, w).T)
    return np.clip(np.rint(up * 255.0), 0, 255).astype(np.uint8)


def scene(rng, images, labels, pool):
    """A canvas with digits from @pool pasted on it, and their boxes as
    rows x0 y0 x1 y1 class (x1, y1 exclusive)."""
    canvas = np.zeros((SIZE, SIZE), np.uint8)
    boxes = []
    for _ in range(rng.integers(DIGITS_PER_SCENE[0],
                                DIGITS_PER_SCENE[1] + 1)):
        i = pool[rng.integers(len(pool))]
        h = int(rng.integers(DIGIT_H[0], DIGIT_H[1] + 1))
        w = int(round(h * rng.uniform(*DIGIT_ASPECT)))
        g = glyph(images[i], h, w)
        ys, xs = np.nonzero(g > BOX_INK)
        for _ in range(50):
            y, x = rng.integers(0, SIZE - h + 1), rng.integers(0, SIZE - w + 1)
            box = [x + xs.min(), y + ys.min(), x + xs.max() + 1,
                   y + ys.max() + 1]
            if all(box[0] >= b[2] + 2 or b[0] >= box[2] + 2 or
                   box[1] >= b[3] + 2 or b[1] >= box[3] + 2 for b in boxes):
                region = canvas[y:y + h, x:x + w]
                np.maximum(region, g, out=region)
                boxes.append(box + [int(labels[i])])
                break
    return canvas, np.array(boxes, np.int64).reshape(-1, 5)


def scenes(seed, count, images, labels, pool):
    rng = np.random.default_rng(seed)
    return [scene(rng, images, labels, pool) for _ in range(count)]


def conv(cin, cout, k):
    return [nn.Conv2d(cin, cout, k, padding=k // 2, bias=False),
            nn.BatchNorm2d(cout), nn.LeakyReLU(0.1)]


def early():
    """Conv-BN-LeakyReLU with max pooling down to the 12x12 grid."""
    return nn.Sequential(
        *conv(1, 8, 3), nn.MaxPool2d(2),
        *conv(8, 16, 3), nn.MaxPool2d(2),
        *conv(16, 32, 3), nn.MaxPool2d(2))


class Detect(nn.Module):
    """A tiny-YOLO: the early layers, a stride-1 max pooling, a route that
    concatenates the grid's first features with the deeper ones, and a
    1x1 head."""
    # per head: output name, stride (pixels per cell), anchors (w, h)
    HEADS = [("yolo", 8, [(12.0, 20.0), (20.0, 26.0)])]

    def __init__(self):
        super().__init__()
        self.early = early()
        self.deep = nn.Sequential(
            *conv(32, 64, 3), nn.MaxPool2d(3, 1, 1), *conv(64, 32, 1))
        self.neck = nn.Sequential(*conv(64, 64, 3))
        self.head = nn.Conv2d(64, 2 * (5 + CLASSES), 1)

    def forward(self, x):
        e = self.early(x)
        return self.head(self.neck(torch.cat([self.deep(e), e], 1)))


class Detect2(nn.Module):
    """YOLOv3-tiny's shape: the early layers (12x12), one more pooling to
    6x6 with a stride-1 max pooling there, a head at 6x6, and a second at
    12x12 fed by the 6x6 features reduced, upsampled x2 (nearest) and
    concatenated with the early ones."""
    HEADS = [("yolo16", 16, [(18.0, 24.0), (24.0, 30.0)]),
             ("yolo8", 8, [(9.0, 14.0), (13.0, 19.0)])]

    def __init__(self):
        super().__init__()
        self.early = early()
        self.deep = nn.Sequential(
            nn.MaxPool2d(2), *conv(32, 64, 3), nn.MaxPool2d(3, 1, 1),
            *conv(64, 64, 3))
        self.head16 = nn.Sequential(*conv(64, 64, 3),
                                    nn.Conv2d(64, 2 * (5 + CLASSES), 1))
        self.reduce = nn.Sequential(*conv(64, 32, 1),
                                    nn.Upsample(scale_factor=2))
        self.head8 = nn.Sequential(*conv(64, 64, 3),
                                   nn.Conv2d(64, 2 * (5 + CLASSES), 1))

    def forward(self, x):
        e = self.early(x)
        d = self.deep(e)
        return (self.head16(d),
                self.head8(torch.cat([self.reduce(d), e], 1)))


MODELS = {"detect": Detect, "detect2": Detect2}


def targets(heads, boxes):
    """The targets of each of @heads for one scene's boxes: per anchor and
    cell the responsibility mask, box offsets (sigmoid x, y in the cell;
    log w, h over the anchor) and class."""
    out = []
    for _, stride, anchors in heads:
        g = SIZE // stride
        out.append((torch.zeros(len(anchors), g, g),
                    torch.zeros(len(anchors), 4, g, g),
                    torch.zeros(len(anchors), g, g, dtype=torch.long)))
    every = [(h, a, aw, ah) for h, (_, _, anchors) in enumerate(heads)
             for a, (aw, ah) in enumerate(anchors)]
    for x0, y0, x1, y1, c in boxes.tolist():
        w, h = x1 - x0, y1 - y0
        ious = [min(w, aw) * min(h, ah) / (w * h + aw * ah -
                                           min(w, aw) * min(h, ah))
                for _, _, aw, ah in every]
        n, a, aw, ah = every[int(np.argmax(ious))]
        stride = heads[n][1]
        mask, box, cls = out[n]
        cx, cy = (x0 + x1) / 2 / stride, (y0 + y1) / 2 / stride
        gx, gy = int(cx), int(cy)
        mask[a, gy, gx] = 1
        box[a, :, gy, gx] = torch.tensor(
            [cx - gx, cy - gy, np.log(w / aw), np.log(h / ah)])
        cls[a, gy, gx] = c
    return out


def head_loss(out, anchors, mask, box, cls):
    n, g = out.shape[0], out.shape[-1]
    out = out.view(n, anchors, 5 + CLASSES, g, g)
    pos = mask > 0
    obj = F.binary_cross_entropy_with_logits(out[:, :, 4], mask,
                                             reduction="sum")
    xy = (torch.sigmoid(out[:, :, 0:2]) - box[:, :, 0:2]).pow(2).sum(2)
    wh = (out[:, :, 2:4] - box[:, :, 2:4]).pow(2).sum(2)
    logits = out[:, :, 5:].permute(0, 1, 3, 4, 2)[pos]
    ce = F.cross_entropy(logits, cls[pos], reduction="sum")
    return (obj + 5 * (xy[pos].sum() + wh[pos].sum()) + ce) / n


def loss_of(heads, outs, t):
    outs = outs if isinstance(outs, tuple) else (outs,)
    return sum(head_loss(o, len(h[2]), *v)
               for o, h, v in zip(outs, heads, t))


def to_batch(heads, batch):
    x = torch.from_numpy(np.stack([c for c, _ in batch]).astype(np.float32)
                         / 255.0)[:, None]
    t = [targets(heads, b) for _, b in batch]
    return x, [tuple(torch.stack([s[n][k] for s in t]) for k in range(3))
               for n in range(len(heads))]


def train(name, images, labels, pool):
    torch.manual_seed(SEED)
    model = MODELS[name]()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.StepLR(opt, EPOCHS // 3, 0.3)
    rng = np.random.default_rng(SEED)
    for epoch in range(EPOCHS):
        data = [scene(rng, images, labels, pool)
                for _ in range(SCENES_PER_EPOCH)]
        total = 0.0
        model.train()
        for i in range(0, len(data), BATCH):
            x, t = to_batch(model.HEADS, data[i:i + BATCH])
            loss = loss_of(model.HEADS, model(x), t)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss) * len(x)
        sched.step()
        print(f"epoch {epoch + 1}: loss {total / len(data):.3f}",
              flush=True)
    return model.eval()


def sidecar(name):
    """MODEL.yolo: what nvdla_runtime --detect needs to decode the heads."""
    lines = [f"# The heads of {name}.onnx (tools/models/train_detect.py):",
             "# per anchor, 5 + classes channels: x y w h objectness, then",
             "# the class scores, all raw (before sigmoid, exp, softmax).",
             "# 'head OUTPUT STRIDE': the network's output OUTPUT (from 0),",
             "# a cell every STRIDE pixels; its 'anchor W H' lines follow.",
             "yolo 2", f"classes {CLASSES}",
             "names " + " ".join(str(c) for c in range(CLASSES))]
    for n, (_, stride, anchors) in enumerate(MODELS[name].HEADS):
        lines.append(f"head {n} {stride}")
        lines += [f"anchor {w:g} {h:g}" for w, h in anchors]
    return "\n".join(lines) + "\n"


def png(pixels):
    """The bytes of an 8-bit grey PNG."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data)))
    h, w = pixels.shape
    rows = b"".join(b"\0" + pixels[y].tobytes() for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def write_scene(base, canvas, boxes):
    pnm.write(base + ".pgm", canvas)
    with open(base + ".txt", "w") as f:
        f.writelines("box %d %d %d %d %d\n" % tuple(b) for b in boxes)


def main(argv):
    if len(argv) not in (2, 3) or argv[2:3] and argv[2] not in MODELS:
        sys.exit(__doc__)
    out, name = argv[1], (argv[2:] or ["detect"])[0]
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    images, labels, tr, te = digit_images()
    model = train(name, images, labels, tr)

    os.makedirs(os.path.join(out, "calib"), exist_ok=True)
    os.makedirs(os.path.join(out, "scenes"), exist_ok=True)
    data = train_digits.export(model, SIZE,
                               [h[0] for h in model.HEADS])
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, name + ".yolo"), "w") as f:
        f.write(sidecar(name))
    rng = np.random.default_rng(SEED + 1)
    for n in range(CALIB):
        with open(os.path.join(out, "calib", f"{n}.png"), "wb") as f:
            f.write(png(scene(rng, images, labels, tr)[0]))
    # input.pgm: the first test scene of at least 3 digits.
    test = scenes(SEED + 2, 16, images, labels, te)
    test.sort(key=lambda s: len(s[1]) < 3)
    write_scene(os.path.join(out, "input"), *test[0])
    for n, s in enumerate(test[1:TEST_SCENES + 1]):
        write_scene(os.path.join(out, "scenes", str(n)), *s)

    # What the exported file finds, through the reference decode.
    onnx_model = onnx.load_from_string(data)
    head = detect_ref.Head.parse(sidecar(name))
    x = pnm.to_input(test[0][0])
    raw = [r[0] for r in onnx_torch.run(onnx_model, {"data": x})]
    with torch.no_grad():
        direct = model.double()(torch.from_numpy(x))
    direct = direct if isinstance(direct, tuple) else (direct,)
    # torch exports the batch normalisations folded into the convolutions
    # in float32.
    for r, d in zip(raw, direct):
        d = d[0].numpy()
        assert np.abs(r - d).max() < 1e-4 * np.abs(d).max()
    for b in detect_ref.detect(head, raw, SIZE, SIZE):
        print("input.pgm: box %.1f %.1f %.1f %.1f %d %.3f" % tuple(b))
    print("input.pgm truth:", test[0][1].tolist())


if __name__ == "__main__":
    main(sys.argv)
