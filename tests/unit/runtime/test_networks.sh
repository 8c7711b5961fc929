#!/bin/sh
# SPDX-License-Identifier: MIT
# Networks compiled by NVIDIA's own compiler (../shared/conformance/networks,
# or $NVDLA_NETWORKS) run on the in-process model, each checked against its
# float reference with the tolerance its case.json gives (networks_check.py
# says how); one line per case with its error and wall time. Run from the
# repository root with the build directory as $1.
set -u
build=${1:-build}
corpus=${NVDLA_NETWORKS:-../shared/conformance/networks}
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh

if [ ! -d "$corpus" ]; then
	skip "compiled networks on the model" "$corpus absent"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	skip "compiled networks on the model" "python3 missing (tools/setup.sh)"
	exit 0
fi
python3 tests/unit/runtime/networks_check.py "$build/bin/nvdla_runtime" "$corpus"
