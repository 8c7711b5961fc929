#!/bin/sh
# SPDX-License-Identifier: MIT
# Mixed precision (nvdla_compile --mixed-precision) on nv_full against
# plain int8 and the float executor, and its refusals
# (tests/unit/compiler/mixed_check.py). Skipped without python3-onnx.
# Run from the repository root with the build directory as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
# shellcheck source=tests/unit/lib/python.sh
. tests/unit/lib/python.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check_python "$build" numpy,onnx "mixed precision" \
	tests/unit/compiler/mixed_check.py "$tmp"
