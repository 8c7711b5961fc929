#!/bin/sh
# SPDX-License-Identifier: MIT
# Run the test suite and summarise it: every unit test in BUILD/tests (TAP
# programs, run from the repository root with BUILD as argument), then the
# cross builds' tests under qemu-user (BUILD/ARCH for each architecture of
# tools/cross-targets, tools/cross-check.sh), then the driver tests in a
# QEMU guest per kernel in KVERS (from make, else the Debian kernels
# tools/setup.sh unpacked), then the emulated arm64 board per arm64 kernel
# it unpacked, then the virtual platform (QEMU with the NVDLA device,
# tools/qemu/run-vp.sh) per arm64 kernel, and once more on Debian's arm64
# 6.12 with the in-tree driver built from the upstream series
# (tools/upstream/arm64-modules.sh), and on the newest arm64 kernel with
# the devices on PCI behind an SMMUv3 (run-vp.sh --iommu). The cross and
# QEMU runs overlap, each printed whole in order. Ends with the line
# "N passed, N failed, N skipped" (also left in BUILD/summary); exits
# non-zero if anything failed.
#
# Usage: tools/run-tests.sh [--no-qemu|--qemu-only|--cross-only|--vp-only|
#                            --vp-intree-only|--vp-iommu-only] BUILD_DIR
set -eu

unit=1
cross=1
qemu=1
case ${1:-} in
--no-qemu) cross=0; qemu=0; shift ;;
--qemu-only) unit=0; cross=0; shift ;;
--cross-only) unit=0; qemu=0; shift ;;
--vp-only) unit=0; cross=0; qemu=0; vp=1; shift ;;
--vp-intree-only) unit=0; cross=0; qemu=0; vp=0; intree=1; iommu=0; shift ;;
--vp-iommu-only) unit=0; cross=0; qemu=0; vp=0; intree=0; iommu=1; shift ;;
esac
vp=${vp:-$qemu}
intree=${intree:-$vp}
iommu=${iommu:-$vp}
build=${1:-build}
results=$(mktemp)
jobs_dir=$(mktemp -d)
trap 'rm -rf "$results" "$jobs_dir"' EXIT
# The cross and QEMU runs go two at a time (NVDLA_TEST_JOBS; at most the
# number of CPUs): a TCG guest mostly keeps one of its two vCPUs busy.
cpus=$(nproc)
max_jobs=${NVDLA_TEST_JOBS:-$((cpus < 2 ? cpus : 2))}
[ "$max_jobs" -ge 1 ] || max_jobs=1
queued=0
printed=0

# run NAME COMMAND...: echo its output and keep its TAP lines for the count;
# a program that fails without a "not ok" line of its own fails as a whole.
# Its wall time follows as a TAP comment, to see where the suite's time goes.
run() {
	name=$1
	shift
	out=$(mktemp)
	status=0
	start=$(date +%s)
	"$@" >"$out" 2>&1 || status=$?
	cat "$out"
	echo "# $name: $(($(date +%s) - start)) s"
	grep -E '^(not )?ok ' "$out" >>"$results" || true
	if [ "$status" -ne 0 ] && ! grep -q '^not ok ' "$out"; then
		echo "not ok - $name exited with status $status" | tee -a "$results"
	fi
	rm -f "$out"
}

# flush: print the finished background runs, in the order they started,
# and take their TAP lines into the count.
flush() {
	while [ "$printed" -lt "$queued" ] &&
		[ -e "$jobs_dir/$((printed + 1)).done" ]; do
		printed=$((printed + 1))
		cat "$jobs_dir/$printed.out"
		cat "$jobs_dir/$printed.res" >>"$results" 2>/dev/null || true
	done
}

# later NAME COMMAND...: run in the background once fewer than max_jobs
# are running; its output is printed by flush.
later() {
	while [ $((queued - $(find "$jobs_dir" -name '*.done' | wc -l))) \
		-ge "$max_jobs" ]; do
		flush
		sleep 1
	done
	queued=$((queued + 1))
	(
		results=$jobs_dir/$queued.res
		run "$@" >"$jobs_dir/$queued.out"
		: >"$jobs_dir/$queued.done"
	) &
}

if [ "$unit" -eq 1 ]; then
	for t in "$build"/tests/*; do
		if [ -f "$t" ] && [ -x "$t" ]; then
			run "${t##*/}" "$t" "$build"
		fi
	done
fi
if [ "$cross" -eq 1 ]; then
	for arch in $(sed -n 's/^\([a-z0-9]*\) .*/\1/p' tools/cross-targets); do
		later "cross-check.sh $arch" tools/cross-check.sh "$build" "$build/$arch"
	done
fi
if [ "$qemu" -eq 1 ]; then
	kvers=${KVERS:-$(find "${NVDLA_CACHE:-$HOME/.cache/nvdla}/kernels" \
		-mindepth 2 -maxdepth 2 -path '*-amd64/packages' 2>/dev/null |
		sed 's|.*/kernels/||; s|/packages$||' | sort)}
	[ -n "$kvers" ] || echo "not ok - no kernels for the QEMU tests" \
		"(run tools/setup.sh)" | tee -a "$results"
	for kver in $kvers; do
		later "run-guest.sh $kver" tools/qemu/run-guest.sh "$kver" "$build"
	done
	boards=$(find "${NVDLA_CACHE:-$HOME/.cache/nvdla}/board" -mindepth 1 \
		-maxdepth 1 -name '*-arm64' 2>/dev/null | sed 's|.*/||' | sort)
	[ -n "$boards" ] || echo "ok - emulated arm64 board # SKIP no arm64" \
		"kernel (run tools/setup.sh)" | tee -a "$results"
	for kver in $boards; do
		later "run-board.sh $kver" tools/qemu/run-board.sh "$kver" "$build"
	done
fi
if [ "$vp" -eq 1 ]; then
	cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
	boards=$(find "$cache/board" -mindepth 1 -maxdepth 1 -name '*-arm64' \
		2>/dev/null | sed 's|.*/||' | sort)
	if [ -z "$boards" ] || [ ! -x "$cache/qemu/build/qemu-system-aarch64" ]; then
		echo "ok - virtual platform # SKIP no arm64 kernel or QEMU with" \
			"the NVDLA device (run tools/setup.sh)" | tee -a "$results"
	fi
	for kver in $boards; do
		[ -x "$cache/qemu/build/qemu-system-aarch64" ] || break
		later "run-vp.sh $kver" tools/qemu/run-vp.sh "$kver" "$build"
	done
fi

# The in-tree driver: the upstream series applied to Debian's
# linux-source-6.12 and built for its arm64 kernel, which the board boots.
if [ "$intree" -eq 1 ]; then
	cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
	if ! dpkg-query -W linux-source-6.12 >/dev/null 2>&1 ||
		[ -z "$(find "$cache/board" -mindepth 1 -maxdepth 1 -name '6.12.*-arm64' 2>/dev/null)" ] ||
		[ ! -x "$cache/qemu/build/qemu-system-aarch64" ]; then
		echo "ok - in-tree driver on the virtual platform # SKIP no" \
			"linux-source-6.12, arm64 6.12 kernel or QEMU with the NVDLA" \
			"device (run tools/setup.sh)" | tee -a "$results"
	elif mods=$(tools/upstream/series.sh "$build/upstream-series" >/dev/null &&
		tools/upstream/arm64-modules.sh "$build/upstream-series"); then
		kver=$(/sbin/modinfo -F vermagic "$mods/nvdla.ko" | cut -d' ' -f1)
		later "run-vp.sh --intree $kver" tools/qemu/run-vp.sh --intree "$mods" \
			"$kver" "$build"
	else
		echo "not ok - in-tree driver for Debian's arm64 6.12" \
			"(tools/upstream/arm64-modules.sh)" | tee -a "$results"
	fi
fi

# The devices on PCI behind the SMMU, on the newest arm64 kernel.
if [ "$iommu" -eq 1 ]; then
	cache=${NVDLA_CACHE:-$HOME/.cache/nvdla}
	kver=$(find "$cache/board" -mindepth 1 -maxdepth 1 -name '*-arm64' \
		2>/dev/null | sed 's|.*/||' | sort | tail -1)
	if [ -z "$kver" ] || [ ! -x "$cache/qemu/build/qemu-system-aarch64" ]; then
		echo "ok - virtual platform behind an IOMMU # SKIP no arm64" \
			"kernel or QEMU with the NVDLA device (run tools/setup.sh)" |
			tee -a "$results"
	else
		later "run-vp.sh --iommu $kver" tools/qemu/run-vp.sh \
			--iommu nv_full+nv_full+nv_small+nv_large "$kver" "$build"
	fi
fi

wait
flush

# A "# SKIP" directive counts as skipped whether the line says ok or not.
count() {
	grep -c "$@" "$results" || true
}
skipped=$(count -i '^\(not \)\{0,1\}ok .*# skip')
failed=$(($(count '^not ok ') - $(count -i '^not ok .*# skip')))
passed=$(($(count '^ok ') - $(count -i '^ok .*# skip')))
mkdir -p "$build"
echo "$passed passed, $failed failed, $skipped skipped" | tee "$build/summary"
[ "$failed" -eq 0 ]
