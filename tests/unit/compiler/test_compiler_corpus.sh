#!/bin/sh
# SPDX-License-Identifier: MIT
# The ONNX corpus (../shared/conformance/onnx, or $NVDLA_ONNX) compiled by
# nvdla_compile for every configuration, fp16 on nv_full and int8 on all
# three (calibrated on the network's own input image), run on the
# in-process model and compared with the float reference; int8 must beat
# the official compiler's error on the same network where it has one
# (compiler_corpus.py says how). Run from the repository root with the
# build directory as $1.
set -u
build=${1:-build}
corpus=${NVDLA_ONNX:-../shared/conformance/onnx}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

if [ ! -d "$corpus" ]; then
	skip "ONNX corpus compiled and run" "$corpus absent"
	exit 0
fi
if [ ! -x "$build/bin/nvdla_compile" ]; then
	skip "ONNX corpus compiled and run" "$build/bin/nvdla_compile not built"
	exit 0
fi
/usr/bin/python3 tests/unit/compiler/compiler_corpus.py "$build/bin" "$corpus" \
	"$corpus/../networks"
