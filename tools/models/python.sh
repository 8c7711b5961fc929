#!/bin/sh
# SPDX-License-Identifier: MIT
# Run a script of tools/models with the python that sees Debian's
# python3-torch, python3-numpy, python3-sklearn and python3-onnx: the
# system one, unless NVDLA_PYTHON names another (a pyenv python3 first on
# PATH does not see Debian's packages).
exec "${NVDLA_PYTHON:-/usr/bin/python3}" "$@"
