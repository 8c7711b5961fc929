#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: tools/cmodel-check.sh [BUILD_DIR] [CASE...]
#
# Judges the model against NVIDIA's C model on real networks: records each
# nv_full and nv_small case of ../shared/conformance/networks (or the CASEs
# named) with nvdla_runtime --record (input.txn), checks that nvdla_trace
# replays it, then replays it on the C model's trace player (cmod_tp, built
# from ../shared/oracle under $NVDLA_ORACLE, default $HOME/oracle: B/ for
# nv_full, C/ for nv_small) and prints per case the written regions
# compared, those that differ, and the C model's wall time. A case whose C
# model is not built is skipped with the reason; exits 1 if any region
# differs or a replay fails. The recordings and the C model's dumps of
# mismatching regions stay in $NVDLA_CMODEL_OUT (default BUILD_DIR/cmodel).
build=${1:-build}
[ $# -gt 0 ] && shift
oracle=${NVDLA_ORACLE:-$HOME/oracle}
corpus=${NVDLA_CORPUS:-../shared/conformance/networks}
out=${NVDLA_CMODEL_OUT:-$build/cmodel}
limit=${NVDLA_CMODEL_TIMEOUT:-3600}
rt=$(realpath "$build/bin/nvdla_runtime")
player=$(realpath "$build/bin/nvdla_trace")

if [ ! -d "$corpus" ]; then
	echo "cmodel-check: SKIP: no network corpus at $corpus"
	exit 0
fi
# The player of each configuration and the lines it needs first: nv_small's
# C model has GLB at word 0x400 and a 64-bit memory bus.
tp_of() {
	case $1 in
	nv_full) echo "$oracle/B/harness/cmod_tp" ;;
	nv_small) echo "$oracle/C/cmod_tp_nv_small" ;;
	esac
}
prologue_of() {
	[ "$1" = nv_small ] && printf 'set_intr_status 0xffff0403\nset_lane 8\n'
}
if [ ! -x "$(tp_of nv_full)" ] && [ ! -x "$(tp_of nv_small)" ]; then
	echo "cmodel-check: SKIP: NVIDIA's C model is not built: copy ../shared/oracle to $oracle and run B/setup.sh (nv_full) or C/setup.sh (nv_small); see docs/recording.md"
	exit 0
fi
mkdir -p "$out"
out=$(realpath "$out")
[ $# -eq 0 ] && set -- $(ls "$corpus")

status=0
cases=0
regions=0
for c in "$@"; do
	dir=$corpus/$c
	[ -f "$dir/case.json" ] || continue
	set -- $(/usr/bin/python3 -c 'import json, sys
case = json.load(open(sys.argv[1]))
print(case["config"], " ".join(case["run"]["args"]))' "$dir/case.json")
	config=$1
	shift
	tp=$(tp_of "$config")
	if [ -z "$tp" ]; then
		continue
	fi
	if [ ! -x "$tp" ]; then
		echo "SKIP $c: no C model for $config ($tp)"
		continue
	fi
	trace=$out/$c
	rm -rf "$trace"
	if ! (cd "$dir" && "$rt" "$@" -o "$out/$c.dimg" --record "$trace" \
		--record-format txn) >"$out/$c.record.log" 2>&1; then
		echo "FAIL $c: recording failed: $(tail -1 "$out/$c.record.log")"
		status=1
		continue
	fi
	if ! "$player" "$trace" >"$out/$c.replay.log" 2>&1; then
		echo "FAIL $c: nvdla_trace replay: $(tail -2 "$out/$c.replay.log" | head -1)"
		status=1
		continue
	fi
	{ prologue_of "$config"; cat "$trace/input.txn"; } >"$trace/cmod.txn"
	mv "$trace/cmod.txn" "$trace/input.txn"
	start=$(date +%s)
	(cd "$trace" && timeout "$limit" "$tp" . cmod_) >"$out/$c.cmod.log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	n=$(grep -c "^dump_mem .*: \(MATCH\|MISMATCH\)" "$out/$c.cmod.log")
	bad=$(grep -c "^dump_mem .*: MISMATCH" "$out/$c.cmod.log")
	bytes=$(grep -o "MISMATCH [0-9]* bytes" "$out/$c.cmod.log" |
		awk '{ s += $2 } END { print s + 0 }')
	cases=$((cases + 1))
	regions=$((regions + n))
	if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ]; then
		echo "PASS $c ($config): $n written regions identical, C model ${secs}s"
		rm -f "$trace"/cmod_*
	else
		echo "FAIL $c ($config): $bad of $n written regions differ ($bytes bytes), C model exit $rc after ${secs}s; see $out/$c.cmod.log"
		grep "MISMATCH\|TIMEOUT\|timeout" "$out/$c.cmod.log" | head -5 | sed 's/^/  /'
		status=1
	fi
done
echo "cmodel-check: $cases cases, $regions written regions compared"
exit $status
