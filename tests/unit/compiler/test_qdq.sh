#!/bin/sh
# SPDX-License-Identifier: MIT
# QDQ models through nvdla_compile (tests/unit/compiler/qdq_check.py):
# int8 from the model's own scales without calibration, fp16 with Q/DQ
# folded, and the refused forms. Skipped without python3-onnx. Run from
# the repository root with the build directory as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
# shellcheck source=tests/unit/lib/python.sh
. tests/unit/lib/python.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check_python "$build" numpy,onnx "QDQ models" \
	tests/unit/compiler/qdq_check.py "$tmp"
