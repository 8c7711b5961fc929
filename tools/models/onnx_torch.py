# SPDX-License-Identifier: MIT
"""Run an ONNX graph with torch in float64: the float reference that
compiled networks are compared with. Each operator maps to the torch
function that computes it, independently of the compiler in umd/compiler.
Covers the operators of the models made here and of the corpus in
../shared/conformance/onnx; anything else is an error naming the node."""

import numpy as np
import onnx
import onnx.numpy_helper
import torch
import torch.nn.functional as F


def _attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _pads(a, rank=2):
    """ONNX pads (begin..., end...) as torch's F.pad order (last dim first)."""
    p = list(a.get("pads", [0] * 2 * rank))
    out = []
    for d in reversed(range(rank)):
        out += [p[d], p[d + rank]]
    return out


def _conv(x, w, b=None, **a):
    return F.conv2d(F.pad(x, _pads(a)), w, b, a.get("strides", [1, 1]), 0,
                    a.get("dilations", [1, 1]), a.get("group", 1))


def _conv_transpose(x, w, b=None, **a):
    p = a.get("pads", [0, 0, 0, 0])
    if p[0] != p[2] or p[1] != p[3]:
        raise ValueError("asymmetric ConvTranspose pads")
    return F.conv_transpose2d(x, w, b, a.get("strides", [1, 1]), p[:2],
                              a.get("output_padding", [0, 0]),
                              a.get("group", 1), a.get("dilations", [1, 1]))


def _max_pool(x, **a):
    x = F.pad(x, _pads(a), value=-np.inf)
    return F.max_pool2d(x, a["kernel_shape"], a.get("strides", [1, 1]),
                        ceil_mode=bool(a.get("ceil_mode", 0)))


def _avg_pool(x, **a):
    k, s = a["kernel_shape"], a.get("strides", [1, 1])
    ceil = bool(a.get("ceil_mode", 0))
    xp = F.pad(x, _pads(a))
    total = F.avg_pool2d(xp, k, s, ceil_mode=ceil, divisor_override=1)
    if a.get("count_include_pad", 0):
        ones = F.pad(torch.ones_like(x), _pads(a), value=1.0)
    else:
        ones = F.pad(torch.ones_like(x), _pads(a))
    count = F.avg_pool2d(ones, k, s, ceil_mode=ceil, divisor_override=1)
    return total / count


def _gemm(a_, b, c=None, **a):
    if a.get("transA", 0):
        a_ = a_.t()
    if a.get("transB", 0):
        b = b.t()
    y = a.get("alpha", 1.0) * (a_ @ b)
    return y if c is None else y + a.get("beta", 1.0) * c


def _batch_norm(x, scale, bias, mean, var, **a):
    return F.batch_norm(x, mean, var, scale, bias, False, 0.0,
                        a.get("epsilon", 1e-5))


def _lrn(x, **a):
    return F.local_response_norm(x, a["size"], a.get("alpha", 1e-4),
                                 a.get("beta", 0.75), a.get("bias", 1.0))


def _reshape(x, shape, **a):
    shape = [int(v) for v in shape]
    shape = [x.shape[i] if v == 0 else v for i, v in enumerate(shape)]
    return x.reshape(shape)


def _clip(x, lo=None, hi=None, **a):
    lo = a.get("min", -np.inf) if lo is None else float(lo)
    hi = a.get("max", np.inf) if hi is None else float(hi)
    return torch.clamp(x, lo, hi)


def _resize(x, roi=None, scales=None, sizes=None, **a):
    """Nearest neighbour by whole factors (asymmetric coordinates, floor):
    what nn.Upsample exports."""
    if (a.get("mode", b"nearest") != b"nearest" or sizes is not None or
            a.get("coordinate_transformation_mode",
                  b"half_pixel") != b"asymmetric"):
        raise ValueError("Resize: only nearest by scales, asymmetric")
    f = [int(v) for v in scales]
    if f[:2] != [1, 1] or [float(v) for v in scales] != f:
        raise ValueError(f"Resize: scales {scales.tolist()}")
    return x.repeat_interleave(f[2], 2).repeat_interleave(f[3], 3)


def _split(x, split=None, **a):
    axis = a.get("axis", 0)
    split = a.get("split", split)
    if split is None:
        return torch.chunk(x, len(a["_outputs"]), axis)
    return torch.split(x, [int(v) for v in split], axis)


OPS = {
    "Conv": _conv,
    "ConvTranspose": _conv_transpose,
    "Relu": lambda x, **a: F.relu(x),
    "LeakyRelu": lambda x, **a: F.leaky_relu(x, a.get("alpha", 0.01)),
    "PRelu": lambda x, s, **a: torch.where(x >= 0, x, x * s),
    "Clip": _clip,
    "Sigmoid": lambda x, **a: torch.sigmoid(x),
    "Tanh": lambda x, **a: torch.tanh(x),
    "MaxPool": _max_pool,
    "AveragePool": _avg_pool,
    "GlobalAveragePool": lambda x, **a: x.mean((2, 3), keepdim=True),
    "Gemm": _gemm,
    "MatMul": lambda x, y, **a: x @ y,
    "BatchNormalization": _batch_norm,
    "LRN": _lrn,
    "Add": lambda x, y, **a: x + y,
    "Mul": lambda x, y, **a: x * y,
    "Flatten": lambda x, **a: x.flatten(a.get("axis", 1)) if a.get("axis", 1) == 0
    else x.reshape(int(np.prod(x.shape[:a.get("axis", 1)])), -1),
    "Reshape": _reshape,
    "Transpose": lambda x, **a: x.permute(a["perm"]),
    "Concat": lambda *xs, **a: torch.cat(xs, a["axis"]),
    "Split": _split,
    "Resize": _resize,
    "Softmax": lambda x, **a: torch.softmax(x, a.get("axis", -1)),
    "Identity": lambda x, **a: x,
    "Dropout": lambda x, *r, **a: x,
}


def run(model, inputs):
    """Outputs (float64 numpy arrays, graph output order) of @model (an
    onnx.ModelProto) for @inputs (name -> array)."""
    env = {}
    for t in model.graph.initializer:
        env[t.name] = torch.from_numpy(
            onnx.numpy_helper.to_array(t).copy())
    for name, value in inputs.items():
        env[name] = torch.from_numpy(np.asarray(value, np.float64))
    for node in model.graph.node:
        if node.op_type == "Constant":
            env[node.output[0]] = torch.from_numpy(
                onnx.numpy_helper.to_array(_attrs(node)["value"]).copy())
            continue
        op = OPS.get(node.op_type)
        if op is None:
            raise ValueError(f"node {node.name}: operator {node.op_type} "
                             "is not supported by the reference")
        args = [env[i] if i else None for i in node.input]
        args = [a.double() if a is not None and a.is_floating_point() else a
                for a in args]
        attrs = _attrs(node)
        if node.op_type == "Split":
            attrs["_outputs"] = node.output
        out = op(*args, **attrs)
        outs = out if isinstance(out, (tuple, list)) else [out]
        for name, value in zip(node.output, outs):
            env[name] = value
    return [env[o.name].numpy() for o in model.graph.output]


def input_name(model):
    """The name of the graph's one non-constant input."""
    consts = {t.name for t in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in consts]
    if len(names) != 1:
        raise ValueError(f"model has {len(names)} inputs, expected 1")
    return names[0]
