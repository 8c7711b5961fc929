#!/bin/sh
# SPDX-License-Identifier: MIT
# Image-input convolution layers on the model against NVIDIA's C model:
# each directory of tests/unit/model/cmodel-image is a trace nvdla_imgconv_gen
# wrote (its first line says the layer), whose output.dat the C model
# produced (docs/model.md); nvdla_trace plays it and compares byte for
# byte. Run from the repository root with the build directory as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

for dir in tests/unit/model/cmodel-image/*/; do
	dir=${dir%/}
	out=$("$build/bin/nvdla_trace" "$dir" 2>&1)
	status=$?
	ok $status "$(basename "$dir"): $(head -1 "$dir/input.txn" | cut -c3-)"
	[ $status -eq 0 ] || echo "$out" | sed 's/^/# /'
done
echo "1..$n"
