# SPDX-License-Identifier: MIT
# Copyright (C) 2026 The open NVDLA stack authors
"""The C library through ctypes: its functions and the one error type.

ctypes rather than a C extension: nothing to build per Python version or
architecture, the installed libnvdla_runtime.so.1 does all the work.
"""
import ctypes
import os
from ctypes import (POINTER, Structure, c_char, c_char_p, c_float, c_int,
                    c_int32, c_int64, c_size_t, c_uint, c_uint8, c_uint32,
                    c_uint64, c_void_p)

TENSOR_NAME_MAX = 80


class Error(OSError):
    """A failure of the library: .errno and its message (.strerror)."""


class TensorDesc(Structure):
    """struct nvdla_tensor_desc of include/nvdla/runtime.h."""
    _fields_ = [("name", c_char * (TENSOR_NAME_MAX + 1)),
                ("size", c_uint64),
                ("n", c_int32), ("c", c_int32), ("h", c_int32), ("w", c_int32),
                ("data_format", c_uint8), ("data_type", c_uint8),
                ("data_category", c_uint8), ("pixel_format", c_uint8),
                ("pixel_mapping", c_uint8),
                ("stride", c_uint32 * 8)]


class ImageOptions(Structure):
    """struct nvdla_image_options."""
    _fields_ = [("mean", c_float * 4), ("normalize", c_float)]


class DetectOutput(Structure):
    """struct nvdla_detect_output."""
    _fields_ = [("values", c_void_p),
                ("c", c_int32), ("h", c_int32), ("w", c_int32)]


class DetectBox(Structure):
    """struct nvdla_detect_box."""
    _fields_ = [("x0", c_float), ("y0", c_float), ("x1", c_float),
                ("y1", c_float), ("score", c_float), ("cls", c_uint32)]


# The soname, found the way the dynamic loader finds any library
# (LD_LIBRARY_PATH, then ldconfig's cache): the installed one.
lib = ctypes.CDLL("libnvdla_runtime.so.1")

_RT, _NET, _BUF, _RUN, _YOLO = (c_void_p,) * 5
_PROTOTYPES = {
    "nvdla_runtime_new": (c_int, [c_char_p, POINTER(_RT), c_char_p,
                                  c_size_t]),
    "nvdla_runtime_del": (None, [_RT]),
    "nvdla_runtime_device": (c_char_p, [_RT]),
    "nvdla_runtime_error": (c_char_p, [_RT]),
    "nvdla_network_load": (c_int, [_RT, c_char_p, c_size_t, POINTER(_NET)]),
    "nvdla_network_load_file": (c_int, [_RT, c_char_p, POINTER(_NET)]),
    "nvdla_network_unload": (None, [_NET]),
    "nvdla_network_num_inputs": (c_uint, [_NET]),
    "nvdla_network_num_outputs": (c_uint, [_NET]),
    "nvdla_network_input_desc": (c_int, [_NET, c_uint, POINTER(TensorDesc)]),
    "nvdla_network_output_desc": (c_int, [_NET, c_uint, POINTER(TensorDesc)]),
    "nvdla_buffer_new": (c_int, [_RT, c_uint64, POINTER(_BUF)]),
    "nvdla_buffer_del": (None, [_BUF]),
    "nvdla_network_bind_input": (c_int, [_NET, c_uint, _BUF]),
    "nvdla_network_bind_output": (c_int, [_NET, c_uint, _BUF]),
    "nvdla_run_submit": (c_int, [_NET, c_int64, POINTER(_RUN)]),
    "nvdla_run_wait": (c_int, [_RUN, c_int64]),
    "nvdla_run_fd": (c_int, [_RUN]),
    "nvdla_run_sync_file": (c_int, [_RUN]),
    "nvdla_run_error": (c_char_p, [_RUN]),
    "nvdla_run_free": (None, [_RUN]),
    "nvdla_network_set_image": (c_int, [_NET, c_uint, c_char_p,
                                        POINTER(ImageOptions)]),
    "nvdla_network_input_mapping": (c_int, [_NET, c_uint,
                                            POINTER(ImageOptions)]),
    "nvdla_network_set_input_values": (c_int, [_NET, c_uint, c_void_p,
                                               c_size_t]),
    "nvdla_network_output_values": (c_int, [_NET, c_uint, c_void_p,
                                            c_size_t]),
    "nvdla_yolo_read": (c_int, [c_char_p, POINTER(_YOLO), c_char_p,
                                c_size_t]),
    "nvdla_yolo_free": (None, [_YOLO]),
    "nvdla_yolo_num_classes": (c_uint, [_YOLO]),
    "nvdla_yolo_class_name": (c_char_p, [_YOLO, c_uint]),
    "nvdla_detect_decode": (c_int, [_YOLO, POINTER(DetectOutput), c_uint,
                                    c_int32, c_int32, c_float, c_float,
                                    POINTER(DetectBox), c_size_t, c_char_p,
                                    c_size_t]),
}
for _name, (_res, _args) in _PROTOTYPES.items():
    _f = getattr(lib, _name)
    _f.restype, _f.argtypes = _res, _args


def text(b):
    """A message of the library as str (its bytes may be any encoding)."""
    return b.decode("utf-8", "replace") if b else ""


def check(ret, rt):
    """Raise Error with the runtime's last message for a negative errno."""
    if ret < 0:
        raise Error(-ret, text(lib.nvdla_runtime_error(rt)) or
                    os.strerror(-ret))
    return ret
