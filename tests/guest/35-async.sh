#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the runtime's asynchronous runs through the driver (test_async on
# the first nvdla device): three in flight in order, wait, poll and the fd,
# a failing run among others, cancellation by unloading.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

set -- $(nvdla_classes)
if [ -x /bin/test_async ]; then
	/bin/test_async "$(node_of "$1")" >/tmp/async.tap 2>&1
	status=$?
	sed -n -e 's/^\(\(not \)\{0,1\}ok [0-9]* - \)/\1async through the driver: /p' \
		-e '/^#/p' /tmp/async.tap
	[ $status -eq 0 ] || echo "not ok - test_async exited with status $status"
else
	echo "ok 1 - async through the driver # SKIP no test_async in the guest"
fi
