#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Export torchvision classifiers, and a 1-D convolution net and a
transformer's token MLP block, as torch writes them (opset 13 unless
OPSET says otherwise, no editing), with fixed-seed random weights and
batch-norm statistics from a few random batches, into OUT_DIR/NAME/:
NAME.onnx, input.npy (float32, C order, the input's elements) and
reference.txt (torch float32 outputs, one a line). A model already
exported is kept (the directory is a cache).

Usage: tools/models/python.sh tools/models/zoo.py OUT_DIR [NAME...]"""

import os
import sys

import numpy as np
import torch
import torchvision

SEED = 2026


def hard_acts(weights=None):
    """Not torchvision's: the activations mobilenet_v3 and efficientnet
    use, each after a convolution (HardSwish, HardSigmoid, SiLU)."""
    assert weights is None
    nn = torch.nn
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.Hardswish(),
        nn.Conv2d(16, 16, 3, padding=1), nn.Hardsigmoid(),
        nn.Conv2d(16, 32, 3, stride=2), nn.SiLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))


def conv1d_net(weights=None):
    """Not torchvision's: a 1-D convolution net on a [1, 4, 64] signal."""
    assert weights is None
    nn = torch.nn
    return nn.Sequential(
        nn.Conv1d(4, 16, 5, padding=2), nn.BatchNorm1d(16), nn.ReLU(),
        nn.MaxPool1d(2),
        nn.Conv1d(16, 32, 3, padding=1), nn.BatchNorm1d(32), nn.ReLU(),
        nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, 10))


class TokenMLP(torch.nn.Module):
    """Not torchvision's: a transformer's MLP block on [1, T, D] tokens
    (Linear, GELU, Linear, residual Add, LayerNorm over D), then a Linear
    head per token."""

    def __init__(self, d=32, hidden=64, classes=10):
        super().__init__()
        nn = torch.nn
        self.fc1, self.act = nn.Linear(d, hidden), nn.GELU()
        self.fc2, self.norm = nn.Linear(hidden, d), nn.LayerNorm(d)
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        return self.head(self.norm(x + self.fc2(self.act(self.fc1(x)))))


def token_mlp(weights=None):
    assert weights is None
    return TokenMLP()


# name: (constructor, input side or shape), sides small to keep the test
# fast; a shape (without the batch) for inputs other than images.
MODELS = {
    "hard_acts": (hard_acts, 32),
    "conv1d_net": (conv1d_net, (4, 64)),
    "token_mlp": (token_mlp, (8, 32)),
    # LayerNorm as torch 1.13 writes it at opset 17: one node.
    "token_mlp_17": (token_mlp, (8, 32)),
    "resnet18": (torchvision.models.resnet18, 64),
    "resnet50": (torchvision.models.resnet50, 64),
    "googlenet": (torchvision.models.googlenet, 64),
    "resnext50_32x4d": (torchvision.models.resnext50_32x4d, 64),
    "mnasnet1_0": (torchvision.models.mnasnet1_0, 64),
    "mobilenet_v3_large": (torchvision.models.mobilenet_v3_large, 64),
    "squeezenet1_1": (torchvision.models.squeezenet1_1, 96),
    "densenet121": (torchvision.models.densenet121, 64),
    "mobilenet_v2": (torchvision.models.mobilenet_v2, 64),
    "mobilenet_v3_small": (torchvision.models.mobilenet_v3_small, 64),
    "regnet_y_400mf": (torchvision.models.regnet_y_400mf, 64),
    "efficientnet_b0": (torchvision.models.efficientnet_b0, 64),
    "shufflenet_v2_x1_0": (torchvision.models.shufflenet_v2_x1_0, 64),
    # Its layer normalisations over channels are channels-last views.
    "convnext_tiny": (torchvision.models.convnext_tiny, 64),
    # The classifiers' adaptive pooling needs the features of 224 (7x7
    # for vgg, 6x6 for alexnet).
    "alexnet": (torchvision.models.alexnet, 224),
    "vgg11": (torchvision.models.vgg11, 224),
    "vgg16": (torchvision.models.vgg16, 224),
}


# Opsets other than 13.
OPSET = {"token_mlp_17": 17}

# Models with nodes the DLA does not compute (nvdla_compile --cpu-fallback).
CPU_FALLBACK = ("token_mlp", "token_mlp_17", "convnext_tiny")


def input_shape(side):
    """The input's shape for a side (3 x side x side) or a shape."""
    return (1,) + (tuple(side) if isinstance(side, tuple) else (3, side, side))


def build(name, side=None):
    """Model @name in eval mode, its batch-norm statistics from three
    random batches at @side (the table's by default); (model, side)."""
    make, default = MODELS[name]
    side = side or default
    torch.manual_seed(SEED)
    m = make(weights=None)
    m.train()
    with torch.no_grad():
        for _ in range(3):
            m(torch.randn((2,) + input_shape(side)[1:]))
    return m.eval(), side


def export(name, out, side=None):
    d = os.path.join(out, name)
    path = os.path.join(d, name + ".onnx")
    if os.path.exists(os.path.join(d, "reference.txt")):
        return
    os.makedirs(d, exist_ok=True)
    m, side = build(name, side)
    x = torch.rand(input_shape(side))
    with torch.no_grad():
        y = m(x)
    torch.onnx.export(m, x, path + ".tmp", opset_version=OPSET.get(name, 13),
                      input_names=["data"], output_names=["logits"])
    np.save(os.path.join(d, "input.npy"), x.numpy())
    np.savetxt(os.path.join(d, "reference.txt.tmp"), y.numpy().ravel(),
               fmt="%.9g")
    os.replace(path + ".tmp", path)
    os.replace(os.path.join(d, "reference.txt.tmp"),
               os.path.join(d, "reference.txt"))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    torch.set_num_threads(1)
    for name in sys.argv[2:] or MODELS:
        export(name, sys.argv[1])


if __name__ == "__main__":
    main()
