#!/bin/sh
# SPDX-License-Identifier: MIT
# libnvdla_runtime.so exports exactly the functions of the public header.
build=${1:-build}
exported=$(nm -D --defined-only "$build/lib/libnvdla_runtime.so" |
	awk '{ print $3 }' | sort)
declared=$(grep -o '^nvdla_[a-z_]*(\|[ *]nvdla_[a-z_]*(' include/nvdla/runtime.h |
	tr -d ' *(' | sort -u)
if [ "$exported" = "$declared" ]; then
	echo "ok 1 - exported symbols match include/nvdla/runtime.h"
else
	echo "not ok 1 - exported symbols match include/nvdla/runtime.h"
	printf '%s\n' "$exported" >/tmp/nvdla-exported.$$
	printf '%s\n' "$declared" | diff - /tmp/nvdla-exported.$$ | sed 's/^/# /'
	rm -f /tmp/nvdla-exported.$$
fi
