#!/bin/sh
# SPDX-License-Identifier: MIT
# Run the official NVDLA regression loadables of an nvdla/sw checkout (the
# KMD tests of regression/flatbufs/kmd with the goldens of
# regression/golden) on the in-process model of the configuration each was
# made for (name ending _small: nv_small, _large: nv_large, else nv_full),
# and compare each output's md5 with its lead.md5. They are not part of the
# test suite: the project may not ship them; this is for whoever has the
# checkout. One line per test, then "N passed, N failed, N skipped".
#
# Usage: tools/official-regression.sh NVDLA_SW_DIR [BUILD_DIR]
set -u
sw=${1:?usage: $0 NVDLA_SW_DIR [BUILD_DIR]}
build=${2:-build}
rt=$build/bin/nvdla_runtime
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0

for md5 in "$sw"/regression/golden/*/dla/lead.md5; do
	dir=${md5%/dla/lead.md5}
	test=$(basename "$dir")
	test=${test%_*}				# drop the _<guid> suffix
	fbuf=$sw/regression/flatbufs/kmd/${test%%_*}/${test}_fbuf
	case $test in
	*_small*) config=nv_small ;;
	*_large*) config=nv_large ;;
	*) config=nv_full ;;
	esac
	if [ ! -s "$fbuf" ]; then
		echo "SKIP $test: no loadable (large files are absent from the snapshot)"
		skip=$((skip + 1))
		continue
	fi
	if "$rt" --loadable "$fbuf" --device "sim:$config" -o "$tmp/out.dimg" \
		>/dev/null 2>"$tmp/err" &&
		[ "$(md5sum <"$tmp/out.dimg" | cut -d' ' -f1)" = "$(cut -d' ' -f1 "$md5")" ]; then
		echo "PASS $test on $config"
		pass=$((pass + 1))
	else
		echo "FAIL $test on $config: $(cat "$tmp/err")"
		fail=$((fail + 1))
	fi
	rm -f "$tmp/out.dimg"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
