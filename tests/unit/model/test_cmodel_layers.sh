#!/bin/sh
# SPDX-License-Identifier: MIT
# Random layers on which the model once differed from NVIDIA's C model
# (tools/cmodel-check.sh --layers, docs/recording.md): each directory of
# tests/unit/model/cmodel-layers is the layer's trace as nvdla_runtime --record
# wrote it, its expected outputs replaced by the C model's dumps (its
# second line names the nvdla_randlayer seed). nvdla_trace plays each and
# compares byte for byte. Run from the repository root, build dir as $1.
set -u
build=${1:-build}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

for dir in tests/unit/model/cmodel-layers/*/; do
	dir=${dir%/}
	out=$("$build/bin/nvdla_trace" "$dir" 2>&1)
	status=$?
	ok $status "$(basename "$dir"): $(sed -n '2s/^# layer: //p' "$dir/input.txn")"
	[ $status -eq 0 ] || echo "$out" | sed 's/^/# /'
done
echo "1..$n"
