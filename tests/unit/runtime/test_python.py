# SPDX-License-Identifier: MIT
# Copyright (C) 2026 The open NVDLA stack authors
"""The nvdla module (python/nvdla) on the in-process model: pytest, run by
test_python.sh with the build's library, programs and module."""
import ctypes
import errno
import fcntl
import math
import os
import platform
import select
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import nvdla

DIGITS = Path(__file__).resolve().parents[3] / "models" / "digits"
IMAGE = DIGITS / "input.pgm"     # a 5
OTHER = DIGITS / "test.pgm"


def pgm(path):
    """A binary PGM's pixels as float32 (1, H, W), the test's own reader."""
    data = path.read_bytes()
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P5" and int(fields[3]) == 255
    w, h = int(fields[1]), int(fields[2])
    return np.frombuffer(data[-w * h:], np.uint8).reshape(1, h, w) \
        .astype(np.float32)


@pytest.fixture(scope="module", params=["fp16", "int8"])
def loadable(request, tmp_path_factory):
    """The digit demo compiled by nvdla.compile(), to a file."""
    calib = DIGITS / "calib" if request.param == "int8" else None
    data = nvdla.compile(DIGITS / "digits.onnx", precision=request.param,
                         calibrate=calib)
    path = tmp_path_factory.mktemp("loadable") / "digits.nvdla"
    path.write_bytes(data)
    return path


@pytest.fixture
def net(loadable):
    with nvdla.Device("sim:nv_full") as dev:
        yield dev.load(loadable)


def test_device_names():
    with nvdla.Device("sim:nv_small") as dev:
        assert dev.name == "sim:nv_small"
    with nvdla.Device() as dev:     # no NVDLA node here: the model
        assert dev.name.startswith(("sim:", "/dev/"))


def test_device_error_has_errno_and_message():
    with pytest.raises(nvdla.Error) as e:
        nvdla.Device("sim:nv_nothing")
    assert e.value.errno == errno.EINVAL
    assert "unknown model configuration 'nv_nothing'" in e.value.strerror


def test_closed_device_refuses():
    dev = nvdla.Device("sim:nv_full")
    dev.close()
    with pytest.raises(ValueError, match="closed"):
        dev.load(b"")


def test_load_bytes_and_describe(loadable):
    with nvdla.Device("sim:nv_full") as dev:
        net = dev.load(loadable.read_bytes())
        assert [(t.name, t.shape) for t in net.inputs] == [("data", (1, 16, 16))]
        assert [(t.name, t.shape) for t in net.outputs] == [("prob", (10, 1, 1))]
        with pytest.raises(nvdla.Error) as e:
            dev.load(b"not a loadable")
        assert e.value.errno == errno.EINVAL
        assert "malformed loadable" in e.value.strerror
        with pytest.raises(nvdla.Error) as e:
            dev.load("/nonexistent.nvdla")
        assert e.value.errno == errno.ENOENT


def test_image_classified(net):
    probs = net.run(nvdla.Image(IMAGE, normalize=255))[0]
    assert probs.shape == (10, 1, 1) and probs.dtype == np.float32
    assert probs.argmax() == 5 and probs.flat[5] > 0.99
    # Real numbers, int8 codes scaled too: a softmax sums to 1.
    assert abs(probs.sum() - 1) < 0.02


def test_image_mapping_from_the_loadable(net):
    """Without normalize, the mapping the loadable was compiled for."""
    assert np.array_equal(net.run(nvdla.Image(IMAGE))[0],
                          net.run(nvdla.Image(IMAGE, normalize=255))[0])
    assert not np.array_equal(net.run(nvdla.Image(IMAGE, normalize=1))[0],
                              net.run(nvdla.Image(IMAGE))[0])


def test_values_those_of_the_cli(net, loadable, tmp_path):
    """The same conversion as nvdla_runtime --rawdump, scales applied."""
    raw = tmp_path / "raw.txt"
    subprocess.run(["nvdla_runtime", "--loadable", str(loadable), "--image",
                    str(IMAGE), "--normalize", "255", "--rawdump", "-o",
                    str(raw)], check=True, capture_output=True)
    cli = np.array(raw.read_text().split(), dtype=np.float32)
    probs = net.run(nvdla.Image(IMAGE, normalize=255))[0]
    # %g: six significant digits
    assert np.allclose(probs.ravel(), cli, rtol=1e-5, atol=0)


def test_array_input_as_image(net):
    """Real values in an array become the codes the image path makes."""
    from_image = net.run(nvdla.Image(IMAGE, normalize=255))[0]
    x = pgm(IMAGE) / np.float32(255)
    assert np.array_equal(net.run(x)[0], from_image)
    assert np.array_equal(net.run(x[np.newaxis])[0], from_image)
    assert np.array_equal(net.run(x.astype(np.float64))[0], from_image)
    from_image = net.run(nvdla.Image(IMAGE, mean=(10,), normalize=255))[0]
    x = (pgm(IMAGE) - 10) / np.float32(255)
    assert np.array_equal(net.run(x)[0], from_image)


def test_bad_inputs(net):
    with pytest.raises(ValueError, match=r"shape \(16, 16\), not \(1, 16, 16\)"):
        net.run(np.zeros((16, 16)))
    with pytest.raises(ValueError, match="0 inputs for a network of 1"):
        net.run()
    with pytest.raises(nvdla.Error) as e:
        net.run(nvdla.Image(DIGITS / "digits.onnx"))
    assert e.value.errno == errno.EINVAL and "not a PGM" in e.value.strerror


def test_three_in_flight_in_order(net):
    inputs = [pgm(IMAGE) / 255, pgm(OTHER) / 255, pgm(IMAGE) / 255]
    expect = [net.run(x)[0] for x in inputs]
    runs = [net.submit(x) for x in inputs]
    for run, want in zip(runs, expect):
        assert np.array_equal(run.wait()[0], want)
    assert not np.array_equal(expect[0], expect[1])
    # Each run had its own buffers, kept for the next runs.
    assert len(net._buffers) == 3 * 2


# userfaultfd(2): its system call, ioctls (_IOWR(0xAA, nr, size)) and
# the page-fault event of its messages, as the kernel's UAPI defines them.
SYS_USERFAULTFD = {"x86_64": 323, "aarch64": 282, "riscv64": 282}
UFFD_USER_MODE_ONLY = 1
UFFD_EVENT_PAGEFAULT = 0x12


def _uffdio(nr, size):
    return (3 << 30) | (size << 16) | (0xAA << 8) | nr


UFFDIO_API = _uffdio(0x3F, 24)
UFFDIO_REGISTER = _uffdio(0x00, 32)
UFFDIO_ZEROPAGE = _uffdio(0x04, 32)


class Held:
    """The pages of a runtime buffer missing until release(): the first
    access to them, a run's, blocks (a userfaultfd of this test's)."""

    def __init__(self, buf, size):
        nr = SYS_USERFAULTFD.get(platform.machine())
        libc = ctypes.CDLL(None, use_errno=True)
        flags = os.O_CLOEXEC | os.O_NONBLOCK
        # User-mode faults only (Linux 5.11 on) need no privilege.
        if nr is None:
            pytest.skip("no userfaultfd number for " + platform.machine())
        self.fd = libc.syscall(nr, flags | UFFD_USER_MODE_ONLY)
        if self.fd < 0 and ctypes.get_errno() == errno.EINVAL:
            self.fd = libc.syscall(nr, flags)
        if self.fd < 0:
            pytest.skip("no userfaultfd here")
        fcntl.ioctl(self.fd, UFFDIO_API, struct.pack("QQQ", 0xAA, 0, 0))
        nvdla_buffer_map = nvdla._lib.lib.nvdla_buffer_map
        nvdla_buffer_map.restype = ctypes.c_void_p
        nvdla_buffer_map.argtypes = [ctypes.c_void_p]
        page = os.sysconf("SC_PAGE_SIZE")
        self.range = (nvdla_buffer_map(buf), -(-size // page) * page)
        fcntl.ioctl(self.fd, UFFDIO_REGISTER,
                    struct.pack("QQQQ", *self.range, 1, 0))

    def reached(self, timeout):
        """Whether an access to the pages blocks within @timeout s."""
        if not select.select([self.fd], [], [], timeout)[0]:
            return False
        msg = os.read(self.fd, 32)
        address = struct.unpack_from("Q", msg, 16)[0]
        return msg[0] == UFFD_EVENT_PAGEFAULT and \
            0 <= address - self.range[0] < self.range[1]

    def release(self):
        """Zero pages in place: the blocked access goes on."""
        fcntl.ioctl(self.fd, UFFDIO_ZEROPAGE,
                    struct.pack("QQQq", *self.range, 0, 0))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        # Closing lets any access go on: the network can be unloaded.
        os.close(self.fd)


def test_poll_fileno_timeout(net):
    """The first of three runs held at its output's first write, so the
    last is queued for certain until the test lets the first go on."""
    x = pgm(IMAGE) / 255
    first = nvdla.runtime._Buffers(net)
    net._free.append(first)     # the next run's buffers
    with Held(first.outputs[0], net.outputs[0].size) as held:
        runs = [net.submit(x) for _ in range(3)]
        assert held.reached(20)
        assert not runs[-1].poll()
        with pytest.raises(TimeoutError):
            runs[-1].wait(timeout=0)
        assert select.select([runs[-1]], [], [], 0)[0] == []
        held.release()
        readable, _, _ = select.select([runs[-1]], [], [], 60)
    assert readable == [runs[-1]] and runs[-1].poll()
    assert all(r.wait()[0].argmax() == 5 for r in runs)
    assert runs[0].poll() and runs[0].wait() is runs[0].wait()


def test_sync_file_in_process(net):
    run = net.submit(pgm(IMAGE) / 255)
    with pytest.raises(nvdla.Error) as e:
        run.sync_file()
    assert e.value.errno == errno.EOPNOTSUPP
    assert "no kernel fences" in str(e.value)
    assert run.wait()[0].argmax() == 5


def test_failed_run_on_its_own_handle(net):
    img = nvdla.Image(IMAGE, normalize=255)
    # An 8: the run after the failed one computes its own image (the
    # model is reset after a task stopped at its time limit).
    eight = nvdla.Image(DIGITS / "calib" / "001.pgm", normalize=255)
    assert net.submit(eight).wait()[0].argmax() == 8
    runs = [net.submit(img), net.submit(img, timeout=1e-12),
            net.submit(eight)]
    with pytest.raises(nvdla.Error) as e:
        runs[1].wait()
    assert e.value.errno == errno.ETIMEDOUT
    assert "timed out" in e.value.strerror
    assert runs[1].poll()
    with pytest.raises(nvdla.Error, match="timed out"):
        runs[1].wait()
    assert runs[0].wait()[0].argmax() == 5 and runs[2].wait()[0].argmax() == 8
    with pytest.raises(nvdla.Error) as e:
        net.submit(img, timeout=-1)
    assert e.value.errno == errno.EINVAL


def test_close_with_runs_queued(loadable):
    dev = nvdla.Device("sim:nv_full")
    net = dev.load(loadable)
    runs = [net.submit(nvdla.Image(IMAGE, normalize=255)) for _ in range(4)]
    dev.close()
    with pytest.raises(ValueError, match="network is closed"):
        runs[-1].wait()
    with pytest.raises(ValueError, match="network is closed"):
        net.submit(nvdla.Image(IMAGE))


def test_readme_three_lines(loadable, tmp_path):
    """The quick start's Python, with the loadable the fixture made."""
    readme = (DIGITS.parents[1] / "README.md").read_text()
    lines = readme.split("    import nvdla\n", 1)[1].split("\n")[:2]
    code = "import nvdla\n" + "\n".join(l.strip() for l in lines)
    code = code.replace("build/digits.nvdla", str(loadable))
    code = code.replace("models/digits/input.pgm", str(IMAGE))
    proc = subprocess.run([sys.executable, "-c", code], check=True,
                          capture_output=True, text=True)
    # nothing on stderr: the objects left to the collector close cleanly
    assert (proc.stdout, proc.stderr) == ("5\n", "")


def test_compile_errors(tmp_path, monkeypatch):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not onnx")
    with pytest.raises(nvdla.CompileError, match="nvdla_compile: .*bad.onnx"):
        nvdla.compile(bad)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(nvdla.CompileError, match="not on PATH"):
        nvdla.compile(DIGITS / "digits.onnx")


def test_compile_options_reach_the_compiler():
    image = nvdla.compile(DIGITS / "digits.onnx", input_format="image",
                          mean=(1, 2, 3), normalize=128)
    with nvdla.Device("sim:nv_full") as dev:
        net = dev.load(image)
        assert net.inputs[0].pixel_format == 8      # A16B16G16R16_F
        assert net.run(nvdla.Image(IMAGE, normalize=255))[0].argmax() == 5
    small = nvdla.compile(DIGITS / "digits.onnx", config="nv_small",
                          precision="int8", calibrate=DIGITS / "calib")
    with nvdla.Device("sim:nv_small") as dev:
        net = dev.load(small)
        assert net.run(nvdla.Image(IMAGE, normalize=255))[0].argmax() == 5
    for kw, message in [({"normalize": 0}, "--normalize 0"),
                        ({"precision": "int4"}, "--precision int4"),
                        ({"config": "nv_tiny"}, "--config nv_tiny")]:
        with pytest.raises(nvdla.CompileError, match=message):
            nvdla.compile(DIGITS / "digits.onnx", **kw)


def test_compile_cpu_fallback(tmp_path):
    """Erf is refused unless cpu_fallback=True makes it a CPU task."""
    onnx = pytest.importorskip("onnx")
    oh = onnx.helper
    graph = oh.make_graph(
        [oh.make_node("Erf", ["x"], ["y"], name="erf")], "erf",
        [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 2, 2, 2])],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)])
    model = tmp_path / "erf.onnx"
    onnx.save(oh.make_model(graph, opset_imports=[oh.make_opsetid("", 13)]),
              model)
    with pytest.raises(nvdla.CompileError, match="with --cpu-fallback"):
        nvdla.compile(model)
    x = np.linspace(-2, 2, 8, dtype=np.float32).reshape(1, 2, 2, 2)
    with nvdla.Device("sim:nv_full") as dev:
        y = dev.load(nvdla.compile(model, cpu_fallback=True)).run(x)[0]
    want = [math.erf(v) for v in x.ravel()]
    assert np.abs(y.ravel() - want).max() < 2e-3


DETECT = DIGITS.parent / "detect"
sys.path.insert(0, str(DIGITS.parents[1] / "tools" / "models"))
import detect_ref  # noqa: E402


@pytest.fixture(scope="module")
def detector():
    """The two-head detector in fp16, loaded, and its .yolo file."""
    data = nvdla.compile(DETECT / "detect2.onnx", precision="fp16")
    with nvdla.Device("sim:nv_full") as dev:
        yield dev.load(data), nvdla.Yolo(DETECT / "detect2.yolo")


def test_detect_two_heads(detector):
    """Run.detect() finds the scene's digits, as the reference decodes
    the same outputs of both heads (tools/models/detect_ref.py)."""
    net, yolo = detector
    assert yolo.classes == 10 and yolo.names == [str(c) for c in range(10)]
    run = net.submit(nvdla.Image(DETECT / "input.pgm"))
    boxes = run.detect(yolo)
    outputs = run.wait()
    assert [o.shape for o in outputs] == [(30, 6, 6), (30, 12, 12)]
    want = detect_ref.detect(detect_ref.Head.read(DETECT / "detect2.yolo"),
                             outputs, 96, 96)
    assert len(boxes) == len(want) and boxes
    for b, w in zip(boxes, want):
        assert b.cls == w[4] and b.name == str(b.cls)
        assert np.allclose(b[:4], w[:4], atol=1e-3)
        assert abs(b.score - w[5]) < 1e-5
    truth = detect_ref.read_boxes((DETECT / "input.txt").read_text())
    assert sorted(t[4] for t in truth) == sorted(b.cls for b in boxes)


def test_detect_decode_many_boxes(detector):
    """Down to a score of 0.0001 more boxes than a first guess holds:
    every one comes back, best first, as the reference's."""
    net, yolo = detector
    outputs = net.run(nvdla.Image(DETECT / "input.pgm"))
    boxes = yolo.decode(outputs, 96, 96, threshold=0.0001, nms=0.3)
    want = detect_ref.detect(detect_ref.Head.read(DETECT / "detect2.yolo"),
                             outputs, 96, 96, 0.0001, 0.3)
    assert len(boxes) == len(want) > 20
    assert [b.cls for b in boxes] == [w[4] for w in want]
    assert [b.score for b in boxes] == sorted((b.score for b in boxes),
                                              reverse=True)


def test_detect_errors(detector, tmp_path):
    net, yolo = detector
    with pytest.raises(nvdla.Error) as e:
        nvdla.Yolo(tmp_path / "absent.yolo")
    assert e.value.errno == errno.ENOENT
    assert e.value.strerror == f"{tmp_path}/absent.yolo: " \
        "No such file or directory"
    bad = tmp_path / "bad.yolo"
    bad.write_text("yolo 2\nclasses 10\nanchor 12 20\n")
    with pytest.raises(nvdla.Error) as e:
        nvdla.Yolo(bad)
    assert e.value.errno == errno.EINVAL
    assert e.value.strerror == f"{bad}:3: 'anchor' before any 'head' line"
    outputs = net.run(nvdla.Image(DETECT / "input.pgm"))
    with pytest.raises(nvdla.Error) as e:
        yolo.decode(outputs[::-1], 96, 96)
    assert e.value.errno == errno.EINVAL and e.value.strerror == \
        "output 0's 12x12 grid at stride 16 does not cover the 96x96 input"
    with pytest.raises(nvdla.Error, match="a head on output 1, of a "
                       "network of 1 outputs"):
        yolo.decode(outputs[:1], 96, 96)
    with pytest.raises(nvdla.Error, match=r"score threshold \(2\)"):
        yolo.decode(outputs, 96, 96, threshold=2)
    with pytest.raises(ValueError, match="arrays of C, H, W"):
        yolo.decode([o.ravel() for o in outputs], 96, 96)
