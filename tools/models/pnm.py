# SPDX-License-Identifier: MIT
"""8-bit binary PGM (P5) and PPM (P6) images, as numpy arrays, and the
network input they stand for: x = pixel / 255, colour as B, G, R planes
(what nvdla_runtime --image feeds and the corpus in
../shared/conformance/onnx uses)."""

import numpy as np


def _fields(data, count):
    """The first @count whitespace-separated header fields (comments
    skipped) and the offset just past the single whitespace after them."""
    fields, i = [], 0
    while len(fields) < count:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] not in (b"\n", b""):
                i += 1
            continue
        start = i
        while i < len(data) and not data[i:i + 1].isspace():
            i += 1
        fields.append(data[start:i])
    return fields, i + 1


def _decode(data, off, path):
    """The image at @off of @data and the offset past it."""
    (magic, w, h, maxval), start = _fields(data[off:], 4)
    planes = {b"P5": 1, b"P6": 3}.get(magic)
    if planes is None or int(maxval) != 255:
        raise ValueError(f"{path}: not an 8-bit binary PGM/PPM")
    w, h = int(w), int(h)
    pixels = np.frombuffer(data, np.uint8, w * h * planes, off + start)
    end = off + start + w * h * planes
    return pixels.reshape((h, w, 3) if planes == 3 else (h, w)), end


def read(path):
    """An image as uint8 H x W (P5) or H x W x 3 in R, G, B order (P6)."""
    with open(path, "rb") as f:
        return _decode(f.read(), 0, path)[0]


def read_all(path):
    """Every image of a file of images one after the other."""
    with open(path, "rb") as f:
        data = f.read()
    images, off = [], 0
    while off < len(data):
        image, off = _decode(data, off, path)
        images.append(image)
    return images


def encode(pixels):
    """The bytes of a PGM (H x W) or PPM (H x W x 3, R, G, B)."""
    pixels = np.ascontiguousarray(pixels, np.uint8)
    magic = "P6" if pixels.ndim == 3 else "P5"
    h, w = pixels.shape[:2]
    return f"{magic}\n{w} {h}\n255\n".encode() + pixels.tobytes()


def write(path, pixels):
    with open(path, "wb") as f:
        f.write(encode(pixels))


def to_input(pixels):
    """The network input for an image: float64 1 x C x H x W, pixel / 255,
    colour as B, G, R planes."""
    x = pixels.astype(np.float64) / 255.0
    if x.ndim == 2:
        return x[None, None]
    return x[:, :, ::-1].transpose(2, 0, 1)[None].copy()
