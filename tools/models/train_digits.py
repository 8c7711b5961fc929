#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Train the digit classifier of the demo, deterministically, and write
it with its data into OUT_DIR (models/digits):

  digits.onnx     the trained network (opset 13, batch 1, input `data`
                  1x1x16x16 = pixel / 255, output `prob`: 10 softmax
                  probabilities), exported by torch.onnx.export
  input.pgm       a test image (16x16 8-bit PGM) and reference.txt, the
                  network's float64 outputs for it (tools/models/reference.py)
  calib/          100 training images, for int8 calibration
  test.pgm        the test split: its images as one multi-image PGM
  test.txt        the test split's labels, one a line, in test.pgm's order

The data is the digits set inside Debian's python3-sklearn (1797 8x8
images of 17 grey levels, 0..16), upscaled bilinearly to 16x16 and
quantised to 8-bit pixels, split 3:1 into training and test sets
(stratified, fixed seed). The network trains on exactly the pixels it is
later given, x = pixel / 255 of the 8-bit images, each batch moved by up
to a pixel each way; Adam, 45 epochs, one thread, deterministic
algorithms, fixed seeds: the same torch gives the same bytes.

Usage: tools/models/python.sh tools/models/train_digits.py OUT_DIR"""

import io
import os
import sys

import numpy as np
import onnx
import sklearn.datasets
import sklearn.model_selection
import torch
import torch.nn.functional as F

import onnx_torch
import pnm

SEED = 13
SIZE = 16
EPOCHS = 45
SHIFT = 1
BATCH = 32
CALIB = 100


def upscale_matrix(n, m):
    """m x n bilinear interpolation (align_corners=False) along one axis."""
    a = np.zeros((m, n))
    for i in range(m):
        src = min(max((i + 0.5) * n / m - 0.5, 0.0), n - 1.0)
        lo = int(np.floor(src))
        hi = min(lo + 1, n - 1)
        a[i, lo] += 1.0 - (src - lo)
        a[i, hi] += src - lo
    return a


def images():
    """The data set as uint8 N x 16 x 16 pixels and its labels."""
    d = sklearn.datasets.load_digits()
    a = upscale_matrix(8, SIZE)
    up = np.einsum("ij,njk,lk->nil", a, d.images / 16.0, a)
    pixels = np.clip(np.rint(up * 255.0), 0, 255).astype(np.uint8)
    return pixels, d.target.astype(np.int64)


class Digits(torch.nn.Module):
    """conv3x3(8)-relu-maxpool-conv3x3(16)-relu-maxpool-fc64-relu-fc10-softmax"""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(8, 16, 3, padding=1)
        self.fc1 = torch.nn.Linear(16 * (SIZE // 4) ** 2, 64)
        self.fc2 = torch.nn.Linear(64, 10)

    def logits(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc2(F.relu(self.fc1(torch.flatten(x, 1))))

    def forward(self, x):
        return torch.softmax(self.logits(x), 1)


def shift(x, gen):
    """@x with each image moved by up to SHIFT pixels each way, zero-filled:
    the images stay exactly pixels / 255."""
    p = SHIFT
    padded = F.pad(x, (p, p, p, p))
    d = torch.randint(0, 2 * p + 1, (len(x), 2), generator=gen)
    return torch.stack([padded[i, :, dy:dy + SIZE, dx:dx + SIZE]
                        for i, (dy, dx) in enumerate(d.tolist())])


def train(x, y):
    torch.manual_seed(SEED)
    model = Digits()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.StepLR(opt, EPOCHS // 3, 0.3)
    gen = torch.Generator().manual_seed(SEED)
    for _ in range(EPOCHS):
        order = torch.randperm(len(x), generator=gen)
        for i in range(0, len(x), BATCH):
            idx = order[i:i + BATCH]
            loss = F.cross_entropy(model.logits(shift(x[idx], gen)), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
    return model.eval()


def export(model, size=SIZE, outputs=("prob",)):
    """The ONNX file of @model on 1 x 1 x @size x @size inputs `data`,
    its outputs named @outputs."""
    f = io.BytesIO()
    torch.onnx.export(model, torch.zeros(1, 1, size, size), f,
                      opset_version=13, input_names=["data"],
                      output_names=list(outputs))
    return f.getvalue()


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    out = argv[1]
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    pixels, labels = images()
    tr, te = sklearn.model_selection.train_test_split(
        np.arange(len(labels)), test_size=0.25, random_state=SEED,
        stratify=labels)
    x = torch.from_numpy(pixels.astype(np.float32) / 255.0)[:, None]
    model = train(x[tr], torch.from_numpy(labels[tr]))
    with torch.no_grad():
        acc = (model(x[te]).argmax(1).numpy() == labels[te]).mean()
    print(f"float test accuracy: {acc:.4f} on {len(te)} images")

    os.makedirs(os.path.join(out, "calib"), exist_ok=True)
    data = export(model)
    with open(os.path.join(out, "digits.onnx"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "test.pgm"), "wb") as f:
        for i in te:
            f.write(pnm.encode(pixels[i]))
    with open(os.path.join(out, "test.txt"), "w") as f:
        f.writelines(f"{labels[i]}\n" for i in te)
    for n, i in enumerate(tr[:CALIB]):
        pnm.write(os.path.join(out, "calib", f"{n:03d}.pgm"), pixels[i])
    pnm.write(os.path.join(out, "input.pgm"), pixels[te[0]])

    # The reference goes through the exported file, and must agree with
    # the trained module it came from.
    onnx_model = onnx.load_from_string(data)
    ref = onnx_torch.run(onnx_model, {"data": pnm.to_input(pixels[te[0]])})[0]
    with torch.no_grad():
        direct = model.double()(torch.from_numpy(pnm.to_input(pixels[te[0]])))
    assert np.abs(ref - direct.numpy()).max() < 1e-12
    with open(os.path.join(out, "reference.txt"), "w") as f:
        f.writelines(f"{float(v)!r}\n" for v in ref.reshape(-1))
    print(f"input.pgm: label {labels[te[0]]}, class {ref.argmax()}, "
          f"probability {ref.max():.4f}")


if __name__ == "__main__":
    main(sys.argv)
