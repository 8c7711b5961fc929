# shellcheck shell=dash
# SPDX-License-Identifier: MIT
# Sourced by the /init of both QEMU guests (guest-init.sh, board-init.sh)
# and by the guest tests (tests/guest/*.sh); root_start (guest-host.sh)
# puts it at /guest-lib.sh in the initramfs.

# guest_start: busybox's commands on PATH, the file systems the tests use.
guest_start() {
	/bin/busybox --install -s /bin
	export PATH=/bin
	echo
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	mount -t debugfs debugfs /sys/kernel/debug
	mount -t tmpfs tmpfs /tmp
}

# guest_load_deps: the modules nvdla.ko needs, in the dependency order of
# /modules.order; not vgem, which goes after nvdla so that the nvdla
# devices take the first DRM minors.
guest_load_deps() {
	while read -r m; do
		[ "$m" = vgem.ko ] && continue
		insmod "/modules/$m" || echo "not ok - insmod $m"
	done </modules.order
}

# runtime_api_tests NODE CPU_NETWORK: the runtime's asynchronous runs
# (test_async) and zero-copy buffers (test_buffer_share) through the
# driver on NODE, where the guest has them in /bin; CPU_NETWORK is a
# compiled network that ends with a CPU task. Their TAP lines, named.
runtime_api_tests() {
	local t status

	for t in test_async test_buffer_share; do
		if [ ! -x "/bin/$t" ]; then
			echo "ok - $t through the driver # SKIP not in the guest"
			continue
		fi
		NVDLA_TEST_DEVICE=$1 NVDLA_TEST_CPU_NETWORK=$2 "/bin/$t" \
			>"/tmp/$t.tap" 2>&1
		status=$?
		sed -n -e "s/^\(\(not \)\{0,1\}ok [0-9]* - \)/\1$t through the driver: /p" \
			-e '/^#/p' "/tmp/$t.tap"
		[ $status -eq 0 ] || echo "not ok - $t exited with status $status"
	done
}

# kmemleak_scan: on a kernel with kmemleak (the debug kernel of make
# check-debug), a scan now, after the tests freed what they used; its
# reports, if any, go to the kernel log. The second scan reports what the
# first one found still unreferenced, which spares objects in flight.
kmemleak_scan() {
	[ -w /sys/kernel/debug/kmemleak ] || return 0
	echo scan >/sys/kernel/debug/kmemleak
	sleep 6	# older than kmemleak's minimum age of 5 s
	echo scan >/sys/kernel/debug/kmemleak
	if [ -s /sys/kernel/debug/kmemleak ]; then
		echo "not ok - kmemleak: no leaks"
		head -100 /sys/kernel/debug/kmemleak | sed 's/^/#   /'
	else
		echo "ok - kmemleak: no leaks"
	fi
}

# guest_end: fail the run if the kernel log shows a warning, bug, oops,
# sanitizer, lockdep, sleep-in-atomic or leak report; tell the host the
# guest got to its end (the last line it looks for) and power off.
guest_end() {
	kmemleak_scan
	if dmesg | grep -E 'WARNING:|BUG:|Oops|KASAN|UBSAN|circular locking|Call Trace|suspected memory leak' \
		>/tmp/bad; then
		echo "not ok - kernel log clean"
		sed 's/^/#   /' /tmp/bad
	else
		echo "ok - kernel log clean"
	fi
	echo "NVDLA-GUEST-DONE"
	poweroff -f
}

# ok STATUS TEXT: the next numbered TAP line, "ok" when STATUS is 0.
ok() {
	n=$((${n:-0} + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# nvdla_classes: the class directory (/sys/class/accel/accelN, or
# /sys/class/drm/renderDN where the kernel has no accel nodes) of every
# device node of the nvdla driver, one a line.
nvdla_classes() {
	for d in /sys/class/accel/accel* /sys/class/drm/renderD*; do
		[ -e "$d/device/driver" ] || continue
		[ "$(basename "$(readlink "$d/device/driver")")" = nvdla ] && echo "$d"
	done
	return 0
}

# node_of CLASS_DIR: its device node.
node_of() {
	case $1 in
	/sys/class/accel/*) echo "/dev/accel/${1##*/}" ;;
	*) echo "/dev/dri/${1##*/}" ;;
	esac
}

# debugfs_of CLASS_DIR: the driver's debugfs directory of that device:
# accel/<device name> for an accel node, dri/<minor> for a render node.
debugfs_of() {
	case $1 in
	/sys/class/accel/*)
		echo "/sys/kernel/debug/accel/$(basename "$(readlink -f "$1/device")")" ;;
	*) echo "/sys/kernel/debug/dri/${1##*/renderD}" ;;
	esac
}

# shipped_ok OUT [ARG...]: nvdla_runtime ARG... runs the shipped loadable
# into OUT, which is its expected output byte for byte.
shipped_ok() {
	local file=$1

	shift
	nvdla_runtime "$@" --loadable /loadables/bdma_copy.nvdla -o "$file" \
		>/dev/null 2>&1 &&
		[ "$(md5sum <"$file" | cut -d' ' -f1)" = \
		  "$(cut -d' ' -f1 /loadables/bdma_copy.md5)" ]
}

# run_golden NAME LOADABLE MD5FILE NODE: run it on the device of NODE,
# compare the output's md5 with MD5FILE's.
run_golden() {
	nvdla_runtime --loadable "$2" --device "$4" -o "/tmp/$1.dimg" \
		>/tmp/run.log 2>&1
	status=$?
	sed 's/^/# /' /tmp/run.log
	[ $status -eq 0 ] &&
		[ "$(md5sum <"/tmp/$1.dimg" | cut -d' ' -f1)" = "$(cut -d' ' -f1 "$3")" ]
	ok $? "$1 through the driver on the board equals its golden md5"
}

# board_tests: the driver's kselftest programs of /tests, each bounded by
# nvdla_test_timeout (300 s), their TAP lines as they come; one that fails
# without a TAP failure of its own gets one. The ioctl fuzzer's 20000
# calls outlast its time limit on a board: 5000 unless told.
board_tests() {
	local t status

	export NVDLA_FUZZ_ITERATIONS="${nvdla_fuzz_iterations:-5000}"
	for t in /tests/nvdla_*_test; do
		[ -x "$t" ] || continue
		echo "# guest test ${t##*/}"
		{ timeout "${nvdla_test_timeout:-300}" "$t" 2>&1
		  echo $? >/tmp/status; } | tee /tmp/out
		status=$(cat /tmp/status)
		if [ "$status" -ne 0 ] && ! grep -q '^not ok ' /tmp/out; then
			echo "not ok - ${t##*/} exited with status $status"
		fi
	done
}

# board_goldens NODE: the arm64 nvdla_runtime runs the shipped copy and
# the regression loadables of /tests/golden-loadables on NODE, each to its
# golden bytes.
board_goldens() {
	local node=$1 t dir

	if [ ! -x /bin/nvdla_runtime ]; then
		ok 0 "regression loadables # SKIP no arm64 nvdla_runtime (make cross)"
		return
	fi
	run_golden bdma_copy /loadables/bdma_copy.nvdla /loadables/bdma_copy.md5 \
		"$node"
	for t in $(cat /tests/golden-loadables); do
		dir=/shared/loadables/$t
		if [ -d "$dir" ]; then
			run_golden "$t" "$dir/$t.nvdla" "$dir/golden/lead.md5" "$node"
		else
			ok 0 "$t through the driver # SKIP ../shared absent"
		fi
	done
}

# timeout_then_golden NODE NAME: a layer longer than a 50 ms job timeout
# fails with -ETIMEDOUT on NODE, then the golden copy NAME computes there
# (the driver reset the engine); the job timeout is put back as it was.
timeout_then_golden() {
	local node=$1 name=$2 timeout status

	timeout=$(cat /sys/module/nvdla/parameters/job_timeout_ms)
	echo 50 >/sys/module/nvdla/parameters/job_timeout_ms
	nvdla_runtime --loadable /loadables/conv_long.nvdla --device "$node" \
		-o /tmp/long.dimg >/tmp/run.log 2>&1
	status=$?
	echo "$timeout" >/sys/module/nvdla/parameters/job_timeout_ms
	sed 's/^/# /' /tmp/run.log
	[ $status -ne 0 ] && grep -q 'timed out' /tmp/run.log
	ok $? "a layer longer than a 50 ms job timeout fails with -ETIMEDOUT"
	run_golden "$name" /loadables/bdma_copy.nvdla /loadables/bdma_copy.md5 \
		"$node"
}

# board_networks: every corpus network of /networks on the board's device
# of its configuration (node_of_config, the board script's), to the
# in-process model's output values. Under TCG a network outlasts the
# driver's 5 s job timeout: --timeout gives each job more, and
# max_job_timeout_ms lets it for the while.
board_networks() {
	local d name node start max

	max=$(cat /sys/module/nvdla/parameters/max_job_timeout_ms)
	echo 100000 >/sys/module/nvdla/parameters/max_job_timeout_ms
	for d in /networks/*/; do
		[ -f "$d/config" ] || continue
		name=$(basename "$d")
		node=$(node_of_config "$(cat "$d/config")")
		start=$(date +%s)
		network_check "$d" "$node"
		ok $? "$name on $(cat "$d/config") ($node, $(($(date +%s) - start)) s): $(if [ -f "$d/refused" ]; then echo "refused, as the hardware stops"; else echo "the in-process model's output values"; fi)"
	done
	echo "$max" >/sys/module/nvdla/parameters/max_job_timeout_ms
}

# idle: longer than the 50 ms autosuspend delay, with room for a slow guest.
idle() {
	sleep 1
}

# network_check DIR NODE: run the corpus network of DIR (its arguments
# without their --device) on NODE, its log as comments; true when its
# output is DIR/expected.txt, the in-process model's output values, or,
# with DIR/refused, when it is refused and its log holds that file's text.
network_check() {
	local dir=$1 node=$2 args status

	# The arguments without their --device, one a line.
	args=$(awk 'skip { skip = 0; next } $0 == "--device" { skip = 1; next } { print }' \
		"$dir/args")
	# shellcheck disable=SC2046 # one argument a line
	(IFS='
'; cd "$dir" && nvdla_runtime $args --device "$node" --timeout 100 \
		--rawdump -o /tmp/net.txt) >/tmp/run.log 2>&1
	status=$?
	sed 's/^/# /' /tmp/run.log
	if [ -f "$dir/refused" ]; then
		[ $status -ne 0 ] && grep -qF "$(cat "$dir/refused")" /tmp/run.log
		return
	fi
	[ $status -eq 0 ] && grep -q "^$node:" /tmp/run.log &&
		cmp -s /tmp/net.txt "$dir/expected.txt"
}

# run_networks DIR: every network DIR/NAME/ (loadable, input, its
# nvdla_runtime arguments one a line, its configuration in "config", and
# the output values the in-process model gives, "expected.txt") through
# the driver on a virtual device of its configuration, to the same
# values; with "refused", it is refused with the rule that file holds. The driver is reloaded with one device of each configuration
# they need, then as it was. Under TCG a network runs longer than the
# driver's job timeout of 5 s: --timeout gives each job more, and
# max_job_timeout_ms lets it.
run_networks() {
	local dir=$1 configs i d name cfg node max

	configs=$(cat "$dir"/*/config | sort -u | tr '\n' ',' | sed 's/,$//')
	rmmod nvdla_sim && insmod /nvdla_sim.ko devices="$configs"
	ok $? "virtual devices recreated, one each of $configs"
	# The nodes in the order of the devices, which is that of the parameter.
	i=0
	for d in $(nvdla_classes); do
		i=$((i + 1))
		eval "node_$(echo "$configs" | cut -d, -f$i)=$(node_of "$d")"
	done

	max=$(cat /sys/module/nvdla/parameters/max_job_timeout_ms)
	echo 100000 >/sys/module/nvdla/parameters/max_job_timeout_ms
	for d in "$dir"/*/; do
		name=$(basename "$d")
		cfg=$(cat "$d/config")
		eval "node=\${node_$cfg:-}"
		network_check "$d" "$node"
		ok $? "$name through the driver on $cfg ($node): $(if [ -f "$d/refused" ]; then echo refused; else echo "the model's output values"; fi)"
	done
	echo "$max" >/sys/module/nvdla/parameters/max_job_timeout_ms

	rmmod nvdla_sim && insmod /nvdla_sim.ko devices=nv_full,nv_full
	ok $? "virtual devices as before (nv_full, nv_full)"
}
