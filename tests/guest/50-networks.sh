#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest: small networks from the official compiler (run-guest.sh copies
# them into /networks with their arguments, one a line, and the output the
# in-process model gives, which test_networks.sh checks against the float
# reference) run through the driver on a virtual device of their
# configuration, to the same output values. The driver is reloaded with
# one device of each configuration they need, then as it was. Under TCG a
# network runs longer than the driver's job timeout of 5 s: --timeout
# gives each job more, and max_job_timeout_ms lets it.
# shellcheck source=tools/qemu/guest-lib.sh
. /guest-lib.sh

[ -d /networks ] || {
	echo "ok 1 - compiled networks through the driver # SKIP none copied (../shared or python3 absent)"
	exit 0
}
configs=$(cat /networks/*/config | sort -u | tr '\n' ',' | sed 's/,$//')
rmmod nvdla_sim && insmod /nvdla_sim.ko devices="$configs"
ok $? "virtual devices recreated, one each of $configs"
# The nodes in the order of the devices, which is that of the parameter.
i=0
for d in $(nvdla_classes); do
	i=$((i + 1))
	eval "node_$(echo "$configs" | cut -d, -f$i)=$(node_of "$d")"
done

echo 100000 >/sys/module/nvdla/parameters/max_job_timeout_ms
for dir in /networks/*/; do
	name=$(basename "$dir")
	cfg=$(cat "$dir/config")
	eval "node=\${node_$cfg:-}"
	# The arguments without their --device, one a line.
	args=$(awk 'skip { skip = 0; next } $0 == "--device" { skip = 1; next } { print }' \
		"$dir/args")
	# shellcheck disable=SC2086 # one argument a line
	(IFS='
'; cd "$dir" && nvdla_runtime $args --device "$node" --timeout 100 \
		--rawdump -o /tmp/net.txt) >/tmp/run.log 2>&1
	status=$?
	sed 's/^/# /' /tmp/run.log
	[ $status -eq 0 ] && grep -q "^$node:" /tmp/run.log &&
		cmp -s /tmp/net.txt "$dir/expected.txt"
	ok $? "$name through the driver on $cfg ($node): the model's output values"
done

echo 60000 >/sys/module/nvdla/parameters/max_job_timeout_ms

rmmod nvdla_sim && insmod /nvdla_sim.ko devices=nv_full,nv_full
ok $? "virtual devices as before (nv_full, nv_full)"
