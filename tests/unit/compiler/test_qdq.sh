#!/bin/sh
# SPDX-License-Identifier: MIT
# QDQ models through nvdla_compile (tests/unit/compiler/qdq_check.py):
# int8 from the model's own scales without calibration, fp16 with Q/DQ
# folded, and the refused forms. Skipped without python3-onnx. Run from
# the repository root with the build directory as $1.
set -u
build=${1:-build}
python=/usr/bin/python3
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

if ! $python -c 'import numpy, onnx' 2>/dev/null; then
	skip "QDQ models" "python3-onnx missing (run tools/setup.sh)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LD_LIBRARY_PATH="$build/lib" PYTHONPATH=python PATH="$build/bin:$PATH" \
	NVDLA_SIM_THREADS=1 $python tests/unit/compiler/qdq_check.py "$tmp"
