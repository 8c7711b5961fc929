#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: tools/cmodel-check.sh [BUILD_DIR] [CASE...]
#        tools/cmodel-check.sh --layers [--config CONFIG] [--kinds KINDS] \
#            FIRST COUNT [BUILD_DIR]
#
# Judges the model against NVIDIA's C model (docs/recording.md): records
# runs with nvdla_runtime --record (input.txn), checks that nvdla_trace
# replays each, then replays it on the C model's trace player (cmod_tp,
# built from ../shared/oracle under $NVDLA_ORACLE, default $HOME/oracle: B/
# for nv_full, C/ for nv_small, L/ for nv_large: C/'s recipe with
# PROJECTS := nv_large) and compares every region the model wrote.
# The runs: each nv_full, nv_small and nv_large case of
# ../shared/conformance/networks (or the CASEs named), or with --layers
# the random layers of nvdla_randlayer with seeds FIRST to FIRST + COUNT - 1
# for CONFIG (nv_full, the default, nv_small or nv_large) of KINDS
# (--kinds). Prints
# one line per run (regions compared, regions differing, for a layer the
# bytes that differ in real channels and in the padding lanes of the last
# atom, the C model's time), then totals. Skips, saying why, when the C
# model is not built, a run the C model does not finish within
# NVDLA_CMODEL_TIMEOUT seconds (default 3600: minutes for a LeNet, hours
# for a ResNet-18), one it stops on (its assertions refuse some programs)
# and one it never finishes (an interrupt that never comes). Exits 1 if
# a region differs or a replay fails. Recordings and logs of
# failing runs stay in $NVDLA_CMODEL_OUT (default BUILD_DIR/cmodel).
# NVDLA_CMODEL_FILL_BANKS=1 gives every convolution, in the C model's
# copy of the script only, all the data banks its weight banks leave:
# to judge the rest of a loadable whose buffer split the hardware cannot
# run (docs/recording.md).
layers= lconfig=nv_full kinds=
if [ "${1:-}" = --layers ]; then
	shift
	while [ $# -gt 2 ]; do
		case $1 in
		--config) lconfig=$2 ;;
		--kinds) kinds=$2 ;;
		*) break ;;
		esac
		shift 2
	done
	layers=1 first=$1 count=$2
	shift 2
fi
build=${1:-build}
[ $# -gt 0 ] && shift
oracle=${NVDLA_ORACLE:-$HOME/oracle}
corpus=${NVDLA_CORPUS:-../shared/conformance/networks}
out=${NVDLA_CMODEL_OUT:-$build/cmodel}
limit=${NVDLA_CMODEL_TIMEOUT:-3600}
bin=$(realpath "$build/bin")

# The player of each configuration, the optimised one of
# tools/cmodel-fast.sh where it is built, and the lines it needs first:
# the C models of branch master have GLB at word 0x400, and nv_small a
# 64-bit, nv_large a 256-bit memory bus.
tp_of() {
	case $1 in
	nv_full) set -- "$oracle/B/harness/cmod_tp_fast" "$oracle/B/harness/cmod_tp" ;;
	nv_small) set -- "$oracle/C/cmod_tp_fast" "$oracle/C/cmod_tp_nv_small" ;;
	nv_large) set -- "$oracle/L/cmod_tp_fast" "$oracle/L/cmod_tp_nv_large" ;;
	esac
	if [ -x "$1" ]; then echo "$1"; else echo "$2"; fi
}
# fill_banks CONFIG TXN: the convolution-buffer banks of CONFIG, and every
# convolution's data banks in TXN widened to all its weight banks leave.
fill_banks() {
	case $1 in
	nv_small) set -- 32 "$2" ;;
	*) set -- 16 "$2" ;;
	esac
	/usr/bin/python3 - "$@" <<'PY'
import re, sys
banks, path = int(sys.argv[1]), sys.argv[2]
reg = re.compile(r'(write_reg \S+ )(0x[0-9a-f]+)( #NVDLA_(CDMA|CSC)\.D_BANK_0)')
def widen(m):
    wfield = int(m.group(2), 16) >> 16
    return '%s0x%x%s' % (m.group(1), wfield << 16 | (banks - wfield - 2), m.group(3))
text = reg.sub(widen, open(path).read())
open(path, 'w').write(text)
PY
}
prologue_of() {
	case $1 in
	nv_small) printf 'set_intr_status 0xffff0403\nset_lane 8\n' ;;
	nv_large) printf 'set_intr_status 0xffff0403\nset_lane 32\n' ;;
	esac
}
if [ ! -x "$(tp_of nv_full)" ] && [ ! -x "$(tp_of nv_small)" ] &&
	[ ! -x "$(tp_of nv_large)" ]; then
	echo "cmodel-check: SKIP: NVIDIA's C model is not built: copy ../shared/oracle to $oracle and run B/setup.sh (nv_full) or C/setup.sh (nv_small); see docs/recording.md"
	exit 0
fi
if [ -z "$layers" ] && [ ! -d "$corpus" ]; then
	echo "cmodel-check: SKIP: no network corpus at $corpus"
	exit 0
fi
mkdir -p "$out"
out=$(realpath "$out")

status=0 runs=0 regions=0 differ=0 padding=0 unjudged=0

# lanes_of TRACE W H C BPE ATOM: "R real, P padding" bytes that differ
# between the model's and the C model's dumps of an output cube in atoms
# of ATOM bytes, counted by whether their channel is below C (real) or a
# padding lane.
lanes_of() {
	/usr/bin/python3 - "$@" <<'PY'
import glob, os, sys
trace, w, h, c, bpe, atom = sys.argv[1], *map(int, sys.argv[2:])
lanes, real, pad = atom // bpe, 0, 0
def data(path):
    return [int(t, 16) for line in open(path)
            if line.strip().startswith('0x') for t in line.split()]
for ours in glob.glob(os.path.join(trace, 'check_*.dat')):
    cmod = os.path.join(trace, 'cmod_' + os.path.basename(ours))
    if not os.path.exists(cmod):
        continue
    for i, (a, b) in enumerate(zip(data(ours), data(cmod))):
        if a != b:
            lane = i % (w * atom) % atom // bpe
            if i // (w * h * atom) * lanes + lane < c:
                real += 1
            else:
                pad += 1
print(real, "real,", pad, "padding")
PY
}

# judge NAME CONFIG DIR ARGS...: record nvdla_runtime ARGS (run in DIR)
# into $out/NAME, replay it on the model and on the C model, report.
judge() {
	name=$1 config=$2 dir=$3
	shift 3
	trace=$out/$name tp=$(tp_of "$config")
	rm -rf "$trace"
	if ! (cd "$dir" && "$bin/nvdla_runtime" "$@" -o "$out/$name.dimg" \
		--record "$trace" --record-format txn) >"$out/$name.log" 2>&1; then
		echo "FAIL $name: recording failed: $(tail -1 "$out/$name.log")"
		status=1
		return
	fi
	if ! "$bin/nvdla_trace" "$trace" >"$out/$name.log" 2>&1; then
		echo "FAIL $name: nvdla_trace replay: $(head -1 "$out/$name.log")"
		status=1
		return
	fi
	{ prologue_of "$config"; cat "$trace/input.txn"; } >"$trace/cmod.txn"
	mv "$trace/cmod.txn" "$trace/input.txn"
	[ -n "${NVDLA_CMODEL_FILL_BANKS:-}" ] &&
		fill_banks "$config" "$trace/input.txn"
	start=$(date +%s)
	(cd "$trace" && timeout "$limit" "$tp" . cmod_) >"$out/$name.log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	n=$(grep -c "^dump_mem .*: \(MATCH\|MISMATCH\)" "$out/$name.log")
	bad=$(grep -c "^dump_mem .*: MISMATCH" "$out/$name.log")
	bytes=$(grep -o "MISMATCH [0-9]* bytes" "$out/$name.log" |
		awk '{ s += $2 } END { print s + 0 }')
	if [ "$rc" -eq 124 ]; then
		echo "TIMEOUT $name ($config): the C model ran out of its ${limit}s (NVDLA_CMODEL_TIMEOUT); not judged"
		unjudged=$((unjudged + 1))
		return
	fi
	if [ "$n" -eq 0 ] && [ "$rc" -ne 0 ]; then
		why=$(grep -A1 "^Fatal:" "$out/$name.log" | tr '\n' ' ')
		echo "REFUSED $name ($config): the C model stopped: ${why:-$(grep -v "^ *$" "$out/$name.log" | tail -1)}${desc:+: $desc}"
		unjudged=$((unjudged + 1))
		return
	fi
	if grep -q "interrupt TIMEOUT" "$out/$name.log"; then
		echo "STALLED $name ($config): the C model never finished the run (regions as far as it got: $bad of $n differ)${desc:+: $desc}"
		unjudged=$((unjudged + 1))
		return
	fi
	runs=$((runs + 1))
	regions=$((regions + n))
	lanes=
	[ "$bad" -gt 0 ] && [ -n "${geometry:-}" ] &&
		lanes=$(lanes_of "$trace" $geometry)
	if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$n" -gt 0 ]; then
		echo "PASS $name ($config): $n written regions identical, C model ${secs}s${desc:+: $desc}"
		rm -rf "$trace" "$out/$name.log" "$out/$name.dimg"
	else
		differ=$((differ + 1))
		[ "${lanes%% *}" = 0 ] && padding=$((padding + 1))
		echo "FAIL $name ($config): $bad of $n written regions differ ($bytes bytes${lanes:+; $lanes}), C model exit $rc after ${secs}s${desc:+: $desc}"
		grep "MISMATCH\|TIMEOUT\|timeout" "$out/$name.log" | head -3 |
			sed 's/^/  /'
		status=1
	fi
}

if [ -n "$layers" ]; then
	if [ ! -x "$(tp_of "$lconfig")" ]; then
		echo "cmodel-check: SKIP: no $lconfig C model ($(tp_of "$lconfig"))"
		exit 0
	fi
	seed=$first
	while [ "$seed" -lt $((first + count)) ]; do
		if "$bin/nvdla_randlayer" --config "$lconfig" \
			${kinds:+--kinds "$kinds"} "$seed" "$out/layer.nvdla" \
			>"$out/layer.txt"; then
			desc=$(head -1 "$out/layer.txt")
			geometry=$(sed -n 's/^output //p' "$out/layer.txt")
			judge "layer_$seed" "$lconfig" "$out" --loadable layer.nvdla \
				--device "sim:$lconfig"
		fi
		seed=$((seed + 1))
	done
else
	[ $# -eq 0 ] && set -- $(ls "$corpus")
	for c in "$@"; do
		[ -f "$corpus/$c/case.json" ] || continue
		set -- $(/usr/bin/python3 -c 'import json, sys
case = json.load(open(sys.argv[1]))
print(case["config"], " ".join(case["run"]["args"]))' "$corpus/$c/case.json")
		config=$1
		shift
		[ -n "$(tp_of "$config")" ] || continue
		if [ ! -x "$(tp_of "$config")" ]; then
			echo "SKIP $c: no C model for $config ($(tp_of "$config"))"
			continue
		fi
		judge "$c" "$config" "$corpus/$c" "$@"
	done
fi
echo "cmodel-check: $runs runs, $regions written regions compared, $differ runs with differences${layers:+ ($padding of them in padding lanes only)}, $unjudged not judged (C model timed out or stopped)"
exit $status
