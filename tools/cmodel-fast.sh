#!/bin/sh
# SPDX-License-Identifier: MIT
# Usage: tools/cmodel-fast.sh [ORACLE]
#
# Rebuilds each C model ../shared/oracle has built under ORACLE (default
# $NVDLA_ORACLE or $HOME/oracle: B/ nv_full, C/ nv_small, L/ nv_large)
# optimised (-O2, where the recipes build it unoptimised) and with
# tools/oracle/cmod_quiet_log.h, which formats a debug message only when
# it would be printed, and links its trace player as cmod_tp_fast beside
# the original; tools/cmodel-check.sh prefers it. The original build is
# left as it is. A 3x3 GoogLeNet convolution takes 3.5 s instead of 64.
set -eu
oracle=${1:-${NVDLA_ORACLE:-$HOME/oracle}}
quiet=$(realpath "$(dirname "$0")/oracle/cmod_quiet_log.h")
harness=$oracle/B/harness/cmod_tp.cpp
jobs=$(nproc)

# fast DIR PROJECT PLAYER: rebuild DIR/hw's C model for PROJECT
fast() {
	hw=$1/hw
	if [ ! -f "$hw/outdir/$2/cmod/release/lib/libnvdla_cmod.so" ]; then
		echo "cmodel-fast: $2: skipped, no C model built under $1"
		return 0
	fi
	# objects land beside BUILD_DIR (the Makefile prefixes ../cmod/)
	build=../outdir/$2/cmod_fast/lib
	rel=$hw/outdir/$2/cmod_fast/lib/release
	make -C "$hw/cmod" -s -j"$jobs" SYSTEMC_INC_DIR=/usr/include \
		SYSTEMC_LIB_DIR=/usr/lib/x86_64-linux-gnu CXX=g++ GCC=g++ \
		BUILD_DIR="$build" \
		CXXFLAGS="-std=c++17 -O2 -include $quiet" \
		"$build/libnvdla_cmod.so" >/dev/null
	# the Makefile's install races the link under -j: run it alone
	make -C "$hw/cmod" -s SYSTEMC_INC_DIR=/usr/include \
		SYSTEMC_LIB_DIR=/usr/lib/x86_64-linux-gnu BUILD_DIR="$build" \
		install >/dev/null
	g++ -O2 -std=c++17 -DSC_INCLUDE_DYNAMIC_PROCESSES -I"$rel/include" \
		-o "$3" "$harness" -L"$rel/lib" -lnvdla_cmod -lsystemc \
		-Wl,-rpath,"$rel/lib"
	echo "cmodel-fast: $2: $3"
}

if [ ! -f "$harness" ]; then
	echo "cmodel-fast: no C model under $oracle (../shared/oracle's README builds it)" >&2
	exit 1
fi
fast "$oracle/B" nv_full "$oracle/B/harness/cmod_tp_fast"
fast "$oracle/C" nv_small "$oracle/C/cmod_tp_fast"
fast "$oracle/L" nv_large "$oracle/L/cmod_tp_fast"
