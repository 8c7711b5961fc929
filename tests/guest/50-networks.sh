#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: small networks from the official compiler (run-guest.sh copies
# them into /networks with their arguments, one a line, and the output the
# in-process model gives, which test_networks.sh checks against the float
# reference) run through the driver on a virtual device of their
# configuration, to the same output values (run_networks, guest-lib.sh);
# the int8 ones for nv_small, on which the hardware stops (its gated CDMA
# weight count, docs/model.md), refused, the kernel log naming the rule.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

[ -d /networks ] || {
	echo "ok 1 - compiled networks through the driver # SKIP none copied (../shared or python3 absent)"
	exit 0
}
run_networks /networks
