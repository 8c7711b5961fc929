#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the digit demo, LeNet and ResNet-18 on 64 x 64 images compiled by
# nvdla_compile on the host (run-guest.sh puts them in /models with their
# arguments and the output the in-process model gives, which
# test_models.sh checks against torch) run through the driver on a
# virtual device of their configuration, to the same output values.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

[ -d /models ] || {
	echo "ok 1 - nvdla_compile's networks through the driver # SKIP none copied (no nvdla_compile)"
	exit 0
}
run_networks /models
