#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: the runtime's asynchronous runs (test_async) and zero-copy buffers
# (test_buffer_share) through the driver, on the first nvdla device;
# run-guest.sh copies both programs in. Then the pipelined example
# (nvdla_stream) on the digit demo there: with 3 runs in flight, the same
# frames as the synchronous loop's.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

set -- $(nvdla_classes)
node=$(node_of "$1")
runtime_api_tests "$node" /models/digits-fp16-nv_full/net.nvdla

d=/models/digits-fp16-nv_full
if [ ! -x /bin/nvdla_stream ] || [ ! -f "$d/net.nvdla" ]; then
	echo "ok - nvdla_stream through the driver # SKIP not in the guest"
	exit 0
fi
for k in 0 3; do
	nvdla_stream -d "$node" -k $k -n 6 -t 3 -s 255 "$d/net.nvdla" \
		"$d/input.pgm" >/tmp/stream$k.out 2>&1
	echo $? >/tmp/stream$k.status
	sed 's/^/# /' /tmp/stream$k.out
done
[ "$(cat /tmp/stream0.status)" = 0 ] && [ "$(cat /tmp/stream3.status)" = 0 ] &&
	[ "$(grep -c '^frame [0-5] .*: 5 0\.9' /tmp/stream0.out)" = 6 ] &&
	[ "$(grep '^frame' /tmp/stream0.out)" = "$(grep '^frame' /tmp/stream3.out)" ]
ok $? "nvdla_stream through the driver: 6 frames, 3 in flight as the synchronous loop, class 5"
