#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the runtime's asynchronous runs (test_async) and zero-copy buffers
# (test_buffer_share) through the driver, on the first nvdla device;
# run-guest.sh copies both programs in.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

set -- $(nvdla_classes)
node=$(node_of "$1")
for t in test_async test_buffer_share; do
	if [ ! -x "/bin/$t" ]; then
		echo "ok - $t through the driver # SKIP not in the guest"
		continue
	fi
	NVDLA_TEST_DEVICE=$node "/bin/$t" >/tmp/$t.tap 2>&1
	status=$?
	sed -n -e "s/^\(\(not \)\{0,1\}ok [0-9]* - \)/\1$t through the driver: /p" \
		-e '/^#/p' /tmp/$t.tap
	[ $status -eq 0 ] || echo "not ok - $t exited with status $status"
done
