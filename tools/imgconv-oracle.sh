#!/bin/bash
# SPDX-License-Identifier: MIT
# Compare the model with NVIDIA's C model on random image-input convolution
# layers (docs/model.md): nvdla_imgconv_gen writes the traces, the C model's
# trace player (built outside the repository, ../shared/oracle) runs each
# one and dumps its output, which becomes the expected output nvdla_trace
# plays the trace against. Prints one line per layer and a count.
#
#   [FORMAT=CODE] tools/imgconv-oracle.sh CMOD_TP fp16|int8 SEED COUNT [WORKDIR]
#
# FORMAT keeps the layers to one pixel format (nvdla_imgconv_gen --format).
set -u
if [ $# -lt 4 ]; then
	echo "usage: $0 CMOD_TP fp16|int8 SEED COUNT [WORKDIR]" >&2
	exit 2
fi
cmod=$1 prec=$2 seed=$3 count=$4
work=${5:-$(mktemp -d)}
bin=$(dirname "$0")/../build/bin
"$bin/nvdla_imgconv_gen" "--$prec" ${FORMAT:+--format "$FORMAT"} "$seed" \
	"$count" "$work" || exit 1
pass=0 fail=0 skip=0
for d in "$work"/img_"$prec"_"$seed"_*; do
	desc=$(head -1 "$d/input.txn")
	if ! timeout "${TMO:-600}" "$cmod" "$d" "$d/cmod_" > "$d/cmod.log" 2>&1 &&
	   [ ! -s "$d/cmod_output.dat" ]; then
		echo "SKIP $(basename "$d") (C model failed) $desc"
		skip=$((skip + 1))
		continue
	fi
	if grep -q "Error\|FAIL(" "$d/cmod.log" || [ ! -s "$d/cmod_output.dat" ]; then
		echo "SKIP $(basename "$d") (C model refused) $desc"
		skip=$((skip + 1))
		continue
	fi
	cp "$d/cmod_output.dat" "$d/output.dat"
	if "$bin/nvdla_trace" "$d" > "$d/model.log" 2>&1; then
		echo "MATCH $(basename "$d") $desc"
		pass=$((pass + 1))
	else
		echo "DIFFER $(basename "$d") $desc: $(head -1 "$d/model.log")"
		fail=$((fail + 1))
	fi
done
echo "$prec seed $seed: $pass match, $fail differ, $skip not run by the C model ($work)"
