#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write LeNet and ResNet-18 with fixed-seed random weights as ONNX, with
inputs, calibration images and float64 references, into OUT_DIR (make
models: build/models):

  lenet/        LeNet, 1x28x28 grey (Caffe's MNIST layout)
  resnet18/     ResNet-18 in torchvision's layout, 3x224x224, 1000 classes
  resnet18_64/  the same network on 3x64x64 (for the driver in QEMU)

each with NAME.onnx (output `prob`, softmax), NAME_logits.onnx (without
the softmax: output `ip2` / `fc`), input.pgm / input.ppm, reference.txt and reference_logits.txt
(torch float64, one value a line), and calib/ (images for int8
calibration). The networks are written node by node (opset 13, batch 1,
input `data` = pixel / 255, colour as B, G, R planes), ResNet's batch
normalisations as BatchNormalization nodes; the references come from the
written files through tools/models/onnx_torch.py and are checked against
the torch modules they were made from.

Usage: tools/models/python.sh tools/models/gen_models.py OUT_DIR"""

import os
import sys

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper
import sklearn.datasets
import torch
import torch.nn as nn
import torch.nn.functional as F

import onnx_torch
import pnm

SEED = 2026
CALIB = 16          # calibration images per model
CANDIDATES = 8      # images tried as the model's input


class Graph:
    """An ONNX graph under construction: nodes in order and initializers."""

    def __init__(self):
        self.nodes, self.inits = [], []

    def const(self, name, t):
        self.inits.append(onnx.numpy_helper.from_array(
            t.detach().numpy().astype(np.float32), name))
        return name

    def add(self, op, name, inputs, **attrs):
        self.nodes.append(oh.make_node(op, inputs, [name], name=name,
                                       **attrs))
        return name

    def conv(self, name, x, m):
        ins = [x, self.const(name + ".weight", m.weight)]
        if m.bias is not None:
            ins.append(self.const(name + ".bias", m.bias))
        p = list(m.padding)
        return self.add("Conv", name, ins, kernel_shape=list(m.kernel_size),
                        strides=list(m.stride), pads=p + p,
                        dilations=list(m.dilation), group=m.groups)

    def bn(self, name, x, m):
        ins = [x] + [self.const(f"{name}.{k}", getattr(m, k)) for k in
                     ("weight", "bias", "running_mean", "running_var")]
        return self.add("BatchNormalization", name, ins, epsilon=m.eps)

    def max_pool(self, name, x, k, s, p=0):
        return self.add("MaxPool", name, [x], kernel_shape=[k, k],
                        strides=[s, s], pads=[p] * 4)

    def fc(self, name, x, m):
        return self.add("Gemm", name, [x, self.const(name + ".weight",
                                                     m.weight),
                                       self.const(name + ".bias", m.bias)],
                        transB=1)

    def model(self, shape, out, classes, name):
        f = onnx.TensorProto.FLOAT
        g = oh.make_graph(self.nodes, name,
                          [oh.make_tensor_value_info("data", f, shape)],
                          [oh.make_tensor_value_info(out, f, [1, classes])],
                          self.inits)
        m = oh.make_model(g, producer_name="nvdla gen_models.py",
                          opset_imports=[oh.make_opsetid("", 13)])
        m.ir_version = 7
        onnx.checker.check_model(m, full_check=True)
        return m


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5)
        self.conv2 = nn.Conv2d(20, 50, 5)
        self.ip1 = nn.Linear(800, 500)
        self.ip2 = nn.Linear(500, 10)

    def forward(self, x):
        x = F.max_pool2d(self.conv1(x), 2)
        x = F.max_pool2d(self.conv2(x), 2)
        return self.ip2(F.relu(self.ip1(x.flatten(1))))

    def export(self, g):
        x = g.max_pool("pool1", g.conv("conv1", "data", self.conv1), 2, 2)
        x = g.max_pool("pool2", g.conv("conv2", x, self.conv2), 2, 2)
        x = g.add("Flatten", "flatten", [x], axis=1)
        x = g.add("Relu", "relu1", [g.fc("ip1", x, self.ip1)])
        return g.fc("ip2", x, self.ip2)


class Block(nn.Module):
    """torchvision's BasicBlock."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False),
                nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x)))))
        return F.relu(y + (x if self.downsample is None
                           else self.downsample(x)))

    def export(self, g, name, x):
        y = g.bn(name + ".bn1", g.conv(name + ".conv1", x, self.conv1),
                 self.bn1)
        y = g.add("Relu", name + ".relu1", [y])
        y = g.bn(name + ".bn2", g.conv(name + ".conv2", y, self.conv2),
                 self.bn2)
        if self.downsample is not None:
            d = name + ".downsample"
            x = g.bn(d + ".1", g.conv(d + ".0", x, self.downsample[0]),
                     self.downsample[1])
        return g.add("Relu", name + ".relu2", [g.add("Add", name + ".add",
                                                     [y, x])])


class ResNet18(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        layers, cin = [], 64
        for i, cout in enumerate((64, 128, 256, 512)):
            stride = 1 if i == 0 else 2
            layers.append(nn.Sequential(Block(cin, cout, stride),
                                        Block(cout, cout, 1)))
            cin = cout
        self.layer1, self.layer2, self.layer3, self.layer4 = layers
        self.fc = nn.Linear(512, 1000)

    def layers(self):
        return (self.layer1, self.layer2, self.layer3, self.layer4)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.max_pool2d(x, 3, 2, 1)
        for layer in self.layers():
            x = layer(x)
        return self.fc(x.mean((2, 3)))

    def export(self, g):
        x = g.add("Relu", "relu", [g.bn("bn1", g.conv("conv1", "data",
                                                      self.conv1), self.bn1)])
        x = g.max_pool("maxpool", x, 3, 2, 1)
        for i, layer in enumerate(self.layers()):
            for j, block in enumerate(layer):
                x = block.export(g, f"layer{i + 1}.{j}", x)
        x = g.add("GlobalAveragePool", "avgpool", [x])
        x = g.add("Flatten", "flatten", [x], axis=1)
        return g.fc("fc", x, self.fc)


def init_weights(model, classifier, gen):
    """He-normal convolutions and fully connected layers, small random
    biases and batch-normalisation affines; the @classifier's weights
    scaled so that its logits spread over a few units and the softmax
    has a clear winner."""
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            gain = 9.0 if m is classifier else 2.0
            with torch.no_grad():
                m.weight.normal_(0, (gain / m.weight[0].numel()) ** 0.5,
                                 generator=gen)
                if m.bias is not None:
                    m.bias.uniform_(-0.1, 0.1, generator=gen)
        elif isinstance(m, nn.BatchNorm2d):
            with torch.no_grad():
                m.weight.uniform_(0.5, 1.5, generator=gen)
                m.bias.uniform_(-0.2, 0.2, generator=gen)


def set_bn_stats(model, x):
    """Each batch normalisation's statistics: those of its input over the
    images @x (one pass in training mode, momentum 1), so that every
    normalised activation has mean 0 and variance 1 there."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.momentum = 1.0
    model.train()
    with torch.no_grad():
        model(x)
    model.eval()


def digit_images(size, count, gen):
    """@count sklearn digits (random, fixed seed) as size x size grey."""
    d = sklearn.datasets.load_digits()
    idx = torch.randperm(len(d.images), generator=gen)[:count].numpy()
    x = torch.from_numpy(d.images[idx] / 16.0)[:, None]
    x = F.interpolate(x, size=(size, size), mode="bilinear",
                      align_corners=False)
    return np.clip(np.rint(x[:, 0].numpy() * 255), 0, 255).astype(np.uint8)


def scene_images(size, count, gen):
    """@count colour images size x size (H x W x RGB): smooth random colour
    fields with a few sharp-edged shapes, a stand-in for photographs."""
    out = []
    for _ in range(count):
        base = torch.rand(1, 3, 5, 5, generator=gen, dtype=torch.float64)
        img = F.interpolate(base, size=(size, size), mode="bicubic",
                            align_corners=False)[0]
        yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size),
                                indexing="ij")
        for _ in range(4):
            cy, cx, r = (torch.rand(3, generator=gen) *
                         torch.tensor([size, size, size / 3])).tolist()
            colour = torch.rand(3, 1, generator=gen, dtype=torch.float64)
            mask = (yy - cy) ** 2 + (xx - cx) ** 2 < r * r
            img[:, mask] = colour
        pixels = np.clip(np.rint(img.numpy() * 255), 0, 255)
        out.append(pixels.astype(np.uint8).transpose(1, 2, 0))
    return np.stack(out)


def inputs(pixels):
    return torch.from_numpy(np.concatenate([pnm.to_input(p)
                                            for p in pixels]))


def write_values(path, values):
    with open(path, "w") as f:
        f.writelines(f"{float(v)!r}\n" for v in values.reshape(-1))


def make(out, name, model, pixels, shape):
    """Write @model as @name into @out: the first CALIB of @pixels are the
    calibration images, the rest candidates for the input, of which the
    one whose top class stands out most (largest gap between the two best
    logits) is taken, so that a top-1 comparison means something."""
    model = model.double()
    calib, cand = pixels[:CALIB], pixels[CALIB:]
    if isinstance(model, ResNet18):
        set_bn_stats(model, inputs(calib))
    with torch.no_grad():
        logits = model(inputs(cand)).numpy()
    top2 = np.sort(logits, 1)[:, -2:]
    best = int(np.argmax(top2[:, 1] - top2[:, 0]))
    image = cand[best]

    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "calib"), exist_ok=True)
    ext = "ppm" if image.ndim == 3 else "pgm"
    for i, p in enumerate(calib):
        pnm.write(os.path.join(d, "calib", f"{i:03d}.{ext}"), p)
    pnm.write(os.path.join(d, f"input.{ext}"), image)
    x = pnm.to_input(image)
    classes = logits.shape[1]
    for suffix, softmax in (("", True), ("_logits", False)):
        g = Graph()
        y = model.float().export(g)
        if softmax:
            y = g.add("Softmax", "prob", [y], axis=1)
        m = g.model(shape, y, classes, name + suffix)
        onnx.save(m, os.path.join(d, name + suffix + ".onnx"))
        ref = onnx_torch.run(m, {"data": x})[0]
        with torch.no_grad():
            direct = model.double()(torch.from_numpy(x))
            if softmax:
                direct = torch.softmax(direct, 1)
        err = np.abs(ref - direct.numpy()).max()
        assert err < 1e-5, f"{name}{suffix}: ONNX and torch differ by {err}"
        write_values(os.path.join(d, f"reference{suffix}.txt"), ref)
    s = np.sort(ref.reshape(-1))
    p = np.sort(onnx_torch.run(onnx.load(os.path.join(d, name + ".onnx")),
                               {"data": x})[0].reshape(-1))
    print(f"{name}: class {int(ref.argmax())}, probability {p[-1]:.3f}, "
          f"logit gap to the next {s[-1] - s[-2]:.3f} (std {s.std():.3f})")


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    gen = torch.Generator().manual_seed(SEED)
    n = CALIB + CANDIDATES

    lenet = LeNet()
    init_weights(lenet, lenet.ip2, gen)
    make(argv[1], "lenet", lenet, digit_images(28, n, gen), [1, 1, 28, 28])

    resnet = ResNet18()
    init_weights(resnet, resnet.fc, gen)
    state = {k: v.clone() for k, v in resnet.state_dict().items()}
    make(argv[1], "resnet18", resnet, scene_images(224, n, gen),
         [1, 3, 224, 224])
    # The small variant: the same weights, its own statistics.
    small = ResNet18()
    small.load_state_dict(state)
    make(argv[1], "resnet18_64", small, scene_images(64, n, gen),
         [1, 3, 64, 64])


if __name__ == "__main__":
    main(sys.argv)
