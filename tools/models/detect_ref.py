# SPDX-License-Identifier: MIT
"""The reference of the library's detection decoding (nvdla_yolo_read()
and nvdla_detect_decode(), umd/runtime/detect_*.c): the heads' description
(a .yolo file), decoding YOLO heads into boxes, non-maximum suppression
across heads, and mAP@0.5 over a set of scenes.

A head of A anchors and K classes has A x (5 + K) channels on a GH x GW
grid, GH x stride and GW x stride the input's size; channel a * (5 + K) +
k of cell (gy, gx) is, for k = 0..4, x, y, w, h and objectness, then the
K class scores, all raw. Anchor a of a cell predicts the box centred at
((gx + sigmoid(x)) * stride, (gy + sigmoid(y)) * stride), anchor_w *
exp(w) wide and anchor_h * exp(h) high, clipped to the image, of the best
class c, scored sigmoid(objectness) * softmax(scores)[c]. The boxes of
every head, in the order of the heads, then anchor, row, column, go
through one suppression."""

import numpy as np

THRESHOLD = 0.25    # nvdla_runtime's default --detect-threshold
NMS = 0.45          # and --nms


class Head:
    """A .yolo file: the class count and names, and the heads, each
    (output index, stride, [(anchor w, h)...])."""

    def __init__(self, classes, names, heads):
        self.classes, self.names, self.heads = classes, names, heads

    @staticmethod
    def parse(text):
        classes, names, heads = None, None, []
        for line in text.splitlines():
            f = line.split("#")[0].split()
            if not f:
                continue
            if f[0] == "classes":
                classes = int(f[1])
            elif f[0] == "names":
                names = f[1:]
            elif f[0] == "head":
                heads.append((int(f[1]), float(f[2]), []))
            elif f[0] == "anchor":
                heads[-1][2].append((float(f[1]), float(f[2])))
            elif f != ["yolo", "2"]:
                raise ValueError(f"unknown line: {line}")
        return Head(classes, names, heads)

    @staticmethod
    def read(path):
        with open(path) as f:
            return Head.parse(f.read())


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def iou(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) +
                    (b[2] - b[0]) * (b[3] - b[1]) - inter)


def decode(head, outputs, width, height, threshold):
    """The boxes [x0, y0, x1, y1, class, score] of the heads among
    @outputs (the network's, each C x GH x GW) scoring at least
    @threshold, in head, anchor, row, column order."""
    boxes = []
    for output, stride, anchors in head.heads:
        raw = outputs[output]
        if raw.shape[1] * stride != height or raw.shape[2] * stride != width:
            raise ValueError(f"output {output}: {raw.shape} at stride "
                             f"{stride} is not {width}x{height}")
        boxes += decode_head(head.classes, anchors, stride, raw, width,
                             height, threshold)
    return boxes


def decode_head(classes, anchors, stride, raw, width, height, threshold):
    k = 5 + classes
    _, gh, gw = raw.shape
    sx = sy = stride
    boxes = []
    for a, (aw, ah) in enumerate(anchors):
        t = raw[a * k:(a + 1) * k].astype(np.float64)
        for gy in range(gh):
            for gx in range(gw):
                s = t[5:, gy, gx]
                p = np.exp(s - s.max())
                c = int(np.argmax(p))
                score = sigmoid(t[4, gy, gx]) * p[c] / p.sum()
                if score < threshold:
                    continue
                cx = (gx + sigmoid(t[0, gy, gx])) * sx
                cy = (gy + sigmoid(t[1, gy, gx])) * sy
                w, h = aw * np.exp(t[2, gy, gx]), ah * np.exp(t[3, gy, gx])
                boxes.append([max(cx - w / 2, 0.0), max(cy - h / 2, 0.0),
                              min(cx + w / 2, width), min(cy + h / 2, height),
                              c, score])
    return boxes


def nms(boxes, overlap):
    """@boxes best first (stable), without those that overlap a better one
    of their class by an IoU above @overlap."""
    kept = []
    for b in sorted(boxes, key=lambda b: -b[5]):
        if all(k[4] != b[4] or iou(k, b) <= overlap for k in kept):
            kept.append(b)
    return kept


def detect(head, outputs, width, height, threshold=THRESHOLD, overlap=NMS):
    return nms(decode(head, outputs, width, height, threshold), overlap)


def read_boxes(text):
    """The `box x0 y0 x1 y1 class [score [name]]` lines of @text, without
    the name."""
    return [[float(v) for v in line.split()[1:7]]
            for line in text.splitlines() if line.startswith("box ")]


def average_precision(found, truth, cls, least_iou=0.5):
    """AP of class @cls: @found and @truth list each scene's boxes; the
    area under the precision-recall curve, precision made monotone."""
    dets, total = [], 0
    for i, (f, t) in enumerate(zip(found, truth)):
        total += sum(1 for b in t if b[4] == cls)
        dets += [(b[5], i, b) for b in f if b[4] == cls]
    if not total:
        return None
    dets.sort(key=lambda d: -d[0])
    used = [np.zeros(len(t), bool) for t in truth]
    tp = np.zeros(len(dets))
    for n, (_, i, b) in enumerate(dets):
        best, j = 0.0, -1
        for m, t in enumerate(truth[i]):
            if t[4] == cls and iou(b, t) > best:
                best, j = iou(b, t), m
        if best >= least_iou and not used[i][j]:
            used[i][j] = True
            tp[n] = 1
    hits = np.cumsum(tp)
    recall = np.concatenate([[0], hits / total])
    precision = np.concatenate([[1], hits / np.arange(1, len(dets) + 1)])
    for n in range(len(precision) - 2, -1, -1):
        precision[n] = max(precision[n], precision[n + 1])
    return float(np.sum((recall[1:] - recall[:-1]) * precision[1:]))


def mean_ap(found, truth, classes):
    aps = [average_precision(found, truth, c) for c in range(classes)]
    aps = [a for a in aps if a is not None]
    return sum(aps) / len(aps)
