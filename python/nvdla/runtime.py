# SPDX-License-Identifier: MIT
# Copyright (C) 2026 The open NVDLA stack authors
"""Devices, networks and runs: thin objects over libnvdla_runtime.

A Device, its networks and their runs belong to one thread at a time, as
in the C API (include/nvdla/runtime.h).
"""
import errno
import math
import os
from ctypes import byref, c_float, c_void_p, create_string_buffer

import numpy as np

from ._lib import Error, ImageOptions, TensorDesc, check, lib, text
from .detect import NMS, THRESHOLD


class Tensor:
    """An input or output: its name, shape (C, H, W) and loadable codes."""

    def __init__(self, desc):
        self.name = text(desc.name)
        self.shape = (desc.c, desc.h, desc.w)
        self.size = desc.size
        self.data_type = desc.data_type
        self.pixel_format = desc.pixel_format

    def __repr__(self):
        return "Tensor(%r, shape=%r)" % (self.name, self.shape)


class Image:
    """An image file as an input: pixels p become (p - mean) / normalize
    (nvdla_network_set_image(); mean per channel B, G, R, A or gray).
    Either left out (None) is the one the loadable records
    (nvdla_compile's), else mean 0 and normalize 1."""

    def __init__(self, path, mean=None, normalize=None):
        if mean is not None and len(mean) > 4:
            raise ValueError("mean: at most 4 channels, not %d" % len(mean))
        self.path = os.fspath(path)
        self.mean = None if mean is None else (tuple(mean) + (0.0,) * 4)[:4]
        self.normalize = normalize

    def options(self, net, index):
        """The ImageOptions for input @index of @net (a C handle)."""
        opt = ImageOptions((0.0,) * 4, 1.0)
        if lib.nvdla_network_input_mapping(net, index, byref(opt)) < 0:
            raise ValueError("input %d: no such input" % index)
        if self.mean is not None:
            opt.mean = (c_float * 4)(*self.mean)
        if self.normalize is not None:
            opt.normalize = self.normalize
        return opt


class Device:
    """A device: a DRM node, "sim:nv_full", "sim:nv_small", "sim:nv_large",
    or None for the first NVDLA node, else "sim:nv_full"."""

    def __init__(self, device=None):
        self._rt = c_void_p()
        self._networks = []
        err = create_string_buffer(256)
        ret = lib.nvdla_runtime_new(None if device is None else
                                    os.fsencode(device), byref(self._rt),
                                    err, len(err))
        if ret < 0:
            raise Error(-ret, text(err.value))

    @property
    def name(self):
        """The device in use, as Device() accepts it."""
        return text(lib.nvdla_runtime_device(self._live()))

    def load(self, loadable):
        """A Network from a loadable's path or its bytes."""
        net = c_void_p()
        if isinstance(loadable, (bytes, bytearray, memoryview)):
            data = bytes(loadable)
            ret = lib.nvdla_network_load(self._live(), data, len(data),
                                         byref(net))
        else:
            ret = lib.nvdla_network_load_file(self._live(),
                                              os.fsencode(loadable),
                                              byref(net))
        check(ret, self._rt)
        network = Network(self, net)
        self._networks.append(network)
        return network

    def _live(self):
        if not self._rt:
            raise ValueError("the device is closed")
        return self._rt

    def close(self):
        """Unload every network (their queued runs are cancelled), then
        close the device."""
        for net in list(self._networks):
            net.close()
        if self._rt:
            lib.nvdla_runtime_del(self._rt)
            self._rt = c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


class _Buffers:
    """One buffer per input and output: what one run in flight owns."""

    def __init__(self, net):
        self.inputs = [net._buffer(t.size) for t in net.inputs]
        self.outputs = [net._buffer(t.size) for t in net.outputs]


class Network:
    """A loaded network. Each submitted run gets its own input and output
    buffers (reused by later runs once its wait() has returned or raised),
    so several can be in flight."""

    def __init__(self, device, handle):
        self.device = device
        self._net = handle
        self._buffers = []
        self._free = []
        self._runs = []
        desc = TensorDesc()
        self.inputs, self.outputs = [], []
        for i in range(lib.nvdla_network_num_inputs(handle)):
            check(lib.nvdla_network_input_desc(handle, i, byref(desc)),
                  device._rt)
            self.inputs.append(Tensor(desc))
        for i in range(lib.nvdla_network_num_outputs(handle)):
            check(lib.nvdla_network_output_desc(handle, i, byref(desc)),
                  device._rt)
            self.outputs.append(Tensor(desc))

    def run(self, *inputs, timeout=None):
        """Run once on @inputs and wait: the outputs' values."""
        return self.submit(*inputs, timeout=timeout).wait()

    def submit(self, *inputs, timeout=None):
        """Queue a run on @inputs (numpy arrays of an input's shape, C, H,
        W or 1, C, H, W, or Images), one per input, and return its Run at
        once. @timeout (seconds; None or 0 for none) bounds it from its
        start, rounded up to whole nanoseconds."""
        if not self._net:
            raise ValueError("the network is closed")
        if len(inputs) != len(self.inputs):
            raise ValueError("%d inputs for a network of %d" %
                             (len(inputs), len(self.inputs)))
        bufs = self._free.pop() if self._free else _Buffers(self)
        try:
            for i, x in enumerate(inputs):
                self._check(lib.nvdla_network_bind_input(self._net, i,
                                                         bufs.inputs[i]))
                self._set_input(i, x)
            for i, buf in enumerate(bufs.outputs):
                self._check(lib.nvdla_network_bind_output(self._net, i, buf))
            handle = c_void_p()
            ns = 0 if timeout is None else math.ceil(timeout * 1e9)
            self._check(lib.nvdla_run_submit(self._net, ns, byref(handle)))
        except BaseException:
            self._free.append(bufs)
            raise
        run = Run(self, handle, bufs)
        self._runs.append(run)
        return run

    def _set_input(self, i, x):
        if isinstance(x, Image):
            opt = x.options(self._net, i)
            self._check(lib.nvdla_network_set_image(self._net, i,
                                                    os.fsencode(x.path),
                                                    byref(opt)))
            return
        shape = self.inputs[i].shape
        a = np.ascontiguousarray(x, dtype=np.float32)
        if a.shape not in (shape, (1,) + shape):
            raise ValueError("input %d: shape %r, not %r" %
                             (i, a.shape, shape))
        self._check(lib.nvdla_network_set_input_values(
            self._net, i, a.ctypes.data, a.size))

    def _outputs(self, bufs):
        """The values of the outputs @bufs hold, as the C API reads them."""
        values = []
        for i, buf in enumerate(bufs.outputs):
            self._check(lib.nvdla_network_bind_output(self._net, i, buf))
            v = np.empty(self.outputs[i].shape, dtype=np.float32)
            self._check(lib.nvdla_network_output_values(
                self._net, i, v.ctypes.data, v.size))
            values.append(v)
        return values

    def _buffer(self, size):
        buf = c_void_p()
        self._check(lib.nvdla_buffer_new(self.device._rt, size, byref(buf)))
        self._buffers.append(buf)
        return buf

    def _check(self, ret):
        return check(ret, self.device._rt)

    def close(self):
        """Unload: runs still queued end cancelled (ECANCELED), the one
        running completes first."""
        if not self._net:
            return
        lib.nvdla_network_unload(self._net)
        self._net = c_void_p()
        for run in self._runs:
            run._release()
        for buf in self._buffers:
            lib.nvdla_buffer_del(buf)
        self._buffers, self._free, self._runs = [], [], []
        self.device._networks.remove(self)


class Run:
    """A submitted run: wait() for its outputs, poll() whether it ended,
    fileno() for select/poll/epoll (readable once it has ended)."""

    def __init__(self, net, handle, bufs):
        self.network = net
        self._run = handle
        self._bufs = bufs
        self._outputs = None
        self._error = None

    def fileno(self):
        """An fd of the run (do not read or close it)."""
        return lib.nvdla_run_fd(self._handle())

    def sync_file(self):
        """Through the driver, a new sync_file fd of the kernel's fence of
        the run's device part (the job of its last DLA task), which the
        caller owns (os.close() it): readable once the run's device work
        has ended; CPU tasks after it (a final softmax) run after that, so
        wait() or fileno() say when the outputs are there. Waits until that
        job is queued (the runs before it have ended). Error EOPNOTSUPP with
        the reason in process, for a network without DLA tasks and for one
        where a CPU task comes before a DLA task; the run's error if it
        ended before that job was queued."""
        ret = lib.nvdla_run_sync_file(self._handle())
        if ret < 0:
            raise Error(-ret, text(lib.nvdla_run_error(self._handle())))
        return ret

    def poll(self):
        """Whether the run has ended (wait() then does not block)."""
        if self._outputs is not None or self._error is not None:
            return True
        return lib.nvdla_run_wait(self._handle(), 0) != -errno.EINPROGRESS

    def wait(self, timeout=None):
        """The outputs' values (float32 arrays of shape C, H, W; integer
        outputs scaled to real numbers), once the run has ended; waits at
        most @timeout seconds (TimeoutError). Error if the run failed, at
        this call and every later one."""
        if self._error is not None:
            raise self._error
        if self._outputs is not None:
            return self._outputs
        ns = -1 if timeout is None else int(timeout * 1e9)
        ret = lib.nvdla_run_wait(self._handle(), ns)
        if ret == -errno.EINPROGRESS:
            raise TimeoutError("the run has not ended after %g s" % timeout)
        net = self.network
        try:
            if ret < 0:
                self._error = Error(-ret, text(lib.nvdla_run_error(self._run))
                                    or os.strerror(-ret))
                raise self._error
            self._outputs = net._outputs(self._bufs)
        finally:
            self._release()
            net._runs.remove(self)
            net._free.append(self._bufs)
        return self._outputs

    def detect(self, yolo, threshold=THRESHOLD, nms=NMS):
        """The Boxes that @yolo (an nvdla.Yolo) finds in the outputs
        (wait()) for input 0's size, as Yolo.decode() gives them."""
        _, h, w = self.network.inputs[0].shape
        return yolo.decode(self.wait(), w, h, threshold, nms)

    def _handle(self):
        if not self._run:
            raise ValueError("the run's network is closed")
        return self._run

    def _release(self):
        lib.nvdla_run_free(self._run)
        self._run = c_void_p()
