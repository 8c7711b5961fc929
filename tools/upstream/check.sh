#!/bin/sh
# SPDX-License-Identifier: MIT
# Check the upstream series (tools/upstream/series.sh) in the kernel tree it
# was made against (tools/upstream/kernel-tree.sh), reset to Debian's
# source first. For every patch, in order:
#
#   apply        git am
#   checkpatch   scripts/checkpatch.pl --strict: 0 errors, warnings, checks
#   build        what the tree has of the driver so far, warning-free with
#                W=1 and sparse (C=1), for amd64 with Debian's 6.12 config:
#                the UAPI header compiled on its own as user space does
#                (-std=c90 -Wall, like CONFIG_UAPI_HEADER_TEST), the engine
#                scheduler's objects, then the module (modpost against
#                Debian's Module.symvers)
#
# then, on the whole series: make dt_binding_check of the binding,
# scripts/kernel-doc -none -Wall on the UAPI header and the driver, and
# Documentation/accel/nvdla built by Sphinx with the kernel's kernel-doc
# extension, warnings as errors. With ARM64=1 (or --arm64) the driver's
# objects are also built for arm64 with Debian's arm64 6.12 config.
#
# Prints one "PASS: ..." or "FAIL: ..." line per check (the offending
# output under a failure), then a summary; exits non-zero if any failed.
# Logs go to LOGDIR (default build/upstream-check).
#
# Usage: tools/upstream/check.sh [--arm64] [SERIES_DIR]
set -u

arm64=${ARM64:-0}
if [ "${1:-}" = --arm64 ]; then
	arm64=1
	shift
fi
root=$(git rev-parse --show-toplevel)
here=$root/tools/upstream
series=$(cd "${1:-$root/build/upstream-series}" && pwd) || exit 1
logs=${LOGDIR:-$root/build/upstream-check}
tree=$here/kernel-tree.sh
# One check at a time: they share the tree and its build directories.
mkdir -p "${NVDLA_CACHE:-$HOME/.cache/nvdla}/upstream"
exec 9>"${NVDLA_CACHE:-$HOME/.cache/nvdla}/upstream/check.lock"
flock 9
src=$("$tree" src) || exit 1
out=$("$tree" build amd64) || exit 1
drv=drivers/accel/nvdla
uapi=include/uapi/drm/nvdla_accel.h
binding=Documentation/devicetree/bindings/npu/nvidia,nvdla.yaml
passed=0
failed=0
rm -rf "$logs"
mkdir -p "$logs"
logs=$(cd "$logs" && pwd)

# result NAME LOG STATUS: a PASS or FAIL line; a failure shows LOG.
result() {
	if [ "$3" -eq 0 ]; then
		echo "PASS: $1"
		passed=$((passed + 1))
	else
		echo "FAIL: $1"
		sed 's/^/    /' "$2" | head -60
		failed=$((failed + 1))
	fi
}

# quiet LOG CMD...: run CMD with its output in LOG; fails when CMD fails
# or prints anything (a quiet kernel build prints only diagnostics).
quiet() {
	l=$1
	shift
	"$@" >"$l" 2>&1 || { echo "(exit status $?)" >>"$l"; return 1; }
	[ ! -s "$l" ]
}

kmake() {
	"$tree" make amd64 "$@"
}

# build_uapi: the header as user space includes it, from the installed
# headers of this tree ("make headers").
build_uapi() {
	kmake headers >"$1" 2>&1 &&
		echo '#include <drm/nvdla_accel.h>' |
		gcc -std=c90 -Wall -Werror -fsyntax-only -I "$out/usr/include" \
			-x c - >>"$1" 2>&1 &&
		[ ! -s "$1" ]
}

# enable_driver: CONFIG_DRM_ACCEL_NVDLA=m in the build directory, with what
# it selects, and modules_prepare again for the changed configuration.
enable_driver() {
	"$src/scripts/config" --file "$out/.config" -m DRM_ACCEL_NVDLA &&
		kmake olddefconfig >/dev/null &&
		kmake modules_prepare >"$1" 2>&1 &&
		grep -q '^CONFIG_DRM_ACCEL_NVDLA=m$' "$out/.config" || {
		echo "CONFIG_DRM_ACCEL_NVDLA=m did not stay in the configuration" >>"$1"
		return 1
	}
}

# dma_helper LOG: Debian's amd64 kernel does not build the GEM DMA helpers
# (drm_dma_helper.ko) that the driver selects: when the configuration
# asks for them and Debian's Module.symvers lacks them, they are built
# here, as an external module from this tree's source, and their symbols
# given to modpost (KBUILD_EXTRA_SYMBOLS). Prints the make argument.
dma_helper() {
	grep -q '^CONFIG_DRM_GEM_DMA_HELPER=m$' "$out/.config" || return 0
	grep -q '	drm_gem_dma_create	' "$out/Module.symvers" && return 0
	h=$out/nvdla-dma-helper
	rm -rf "$h"
	mkdir -p "$h"
	ln -s "$src/drivers/gpu/drm/drm_gem_dma_helper.c" "$h/"
	printf '%s\n' 'obj-m := drm_dma_helper.o' \
		'drm_dma_helper-y := drm_gem_dma_helper.o' >"$h/Kbuild"
	kmake M="$h" modules >"$1" 2>&1 || return 1
	echo "KBUILD_EXTRA_SYMBOLS=$h/Module.symvers"
}

cd "$src" || exit 1
# an am that an earlier run left stopped
git am --abort >/dev/null 2>&1
git checkout -q -f --detach base && git reset -q --hard base &&
	git clean -fdxq -e .nvdla-base || exit 1

n=0
for p in "$series"/*.patch; do
	n=$((n + 1))
	subject=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$p")
	tag="patch $n ($subject)"
	git am -q "$p" >"$logs/$n-am.log" 2>&1
	st=$?
	result "$tag: applies" "$logs/$n-am.log" $st
	[ $st -eq 0 ] || { git am --abort >/dev/null 2>&1; break; }

	perl scripts/checkpatch.pl --strict --show-types "$p" >"$logs/$n-checkpatch.log" 2>&1
	grep -q '^total: 0 errors, 0 warnings, 0 checks' "$logs/$n-checkpatch.log"
	result "$tag: checkpatch --strict, $(sed -n 's/^total: //p' "$logs/$n-checkpatch.log")" \
		"$logs/$n-checkpatch.log" $?

	l=$logs/$n-build.log
	if [ -f "$drv/Makefile" ] && grep -q 'nvdla/' drivers/accel/Makefile; then
		enable_driver "$l" && {
			extra=$(dma_helper "$l.helper") ||
				{ cat "$l.helper" >>"$l"; false; }
		} &&
			quiet "$l" kmake W=1 C=1 M="$src/$drv" $extra modules &&
			[ -f "$drv/nvdla.ko" ]
		result "$tag: module builds, W=1 C=1 warning-free" "$l" $?
	elif [ -f "$drv/Makefile" ]; then
		# Not hooked into the tree yet: its objects, with the symbol set
		# on the command line.
		quiet "$l" kmake W=1 C=1 M="$src/$drv" CONFIG_DRM_ACCEL_NVDLA=m nvdla.o
		result "$tag: objects build, W=1 C=1 warning-free" "$l" $?
	elif [ -f "$uapi" ]; then
		build_uapi "$l"
		result "$tag: UAPI header compiles on its own (-std=c90 -Wall)" "$l" $?
	fi
done

# arm64: the driver's objects in the same tree (its amd64 objects cleaned
# first), in a build directory configured from Debian's arm64 6.12 kernel.
# Not the module: Debian's arm64 kernel is built without CONFIG_DRM_ACCEL,
# so its drm.ko exports no accel_open() and friends, and modpost against
# its Module.symvers cannot resolve them (nor could the module load);
# tools/upstream/arm64-modules.sh builds it with a drm.ko of its own.
if [ "$arm64" -eq 1 ] && [ -f "$drv/Makefile" ]; then
	l=$logs/arm64-build.log
	git clean -fdxq "$drv"
	arm64_out=$("$tree" build arm64 2>"$l") &&
		"$src/scripts/config" --file "$arm64_out/.config" -m DRM_ACCEL_NVDLA &&
		"$tree" make arm64 olddefconfig >/dev/null 2>>"$l" &&
		"$tree" make arm64 modules_prepare >>"$l" 2>&1 &&
		quiet "$l" "$tree" make arm64 W=1 C=1 M="$src/$drv" nvdla.o
	result "arm64 (Debian's arm64 6.12 config with DRM_ACCEL): objects build, W=1 C=1 warning-free" "$l" $?
	echo "SKIP: arm64 module link against Debian's Module.symvers: its kernel has no CONFIG_DRM_ACCEL (no accel_open in its drm.ko; make check-vp-intree links and runs it with a drm.ko of its own)"
	git clean -fdxq "$drv"
fi

# The binding: the kernel's check (a processed schema of every binding
# takes minutes); its result is kept for the same binding text. Debian 12's
# dt-schema is older than 6.12 asks for, and cannot read some other
# bindings ("ignoring, error in schema"): those lines are not ours.
if [ -f "$binding" ]; then
	l=$logs/dt_binding_check.log
	sum=$( (cat "$binding"; dt-doc-validate --version) | sha256sum | cut -c1-16)
	if [ -f "$out/.nvdla-dt-ok" ] && [ "$(cat "$out/.nvdla-dt-ok")" = "$sum" ]; then
		result "dt_binding_check (unchanged binding, result of an earlier run)" "$l" 0
	else
		kmake dt_binding_check DT_SCHEMA_FILES=npu/nvidia,nvdla.yaml \
			DT_SCHEMA_MIN_VERSION="$(dt-doc-validate --version 2>/dev/null)" \
			>"$l.all" 2>&1
		st=$?
		grep -v ': ignoring, error in schema: ' "$l.all" >"$l"
		[ $st -eq 0 ] && [ ! -s "$l" ] &&
			[ -f "$out/$(dirname "$binding")/nvidia,nvdla.example.dtb" ]
		st=$?
		[ $st -eq 0 ] && echo "$sum" >"$out/.nvdla-dt-ok"
		result "dt_binding_check" "$l" $st
	fi
fi

l=$logs/kernel-doc.log
# shellcheck disable=SC2046 # one word per file
perl scripts/kernel-doc -none -Wall "$uapi" $(find "$drv" -name '*.[ch]' | sort) >"$l" 2>&1 &&
	[ ! -s "$l" ]
result "kernel-doc -none -Wall" "$l" $?

# The documentation: Sphinx over Documentation/accel/nvdla alone, with the
# kernel's extensions, warnings as errors.
l=$logs/sphinx.log
if command -v sphinx-build >/dev/null; then
	doc=$(mktemp -d)
	mkdir -p "$doc/src/accel"
	cp -r Documentation/accel/nvdla "$doc/src/accel/"
	printf '%s\n' 'Test' '====' '' '.. toctree::' '' '   accel/nvdla/index' >"$doc/src/index.rst"
	cat >"$doc/src/conf.py" <<EOF
import sys
sys.path.insert(0, '$src/Documentation/sphinx')
extensions = ['kerneldoc', 'rstFlatTable', 'kernel_include']
kerneldoc_bin = '$src/scripts/kernel-doc'
kerneldoc_srctree = '$src'
master_doc = 'index'
EOF
	quiet "$l" sphinx-build -q -W --keep-going -b html "$doc/src" "$doc/out"
	st=$?
	rm -rf "$doc"
	result "Documentation/accel/nvdla builds with Sphinx, no warnings" "$l" $st
else
	echo "SKIP: Sphinx documentation build (python3-sphinx missing)"
fi

echo "upstream series: $n patches; $passed passed, $failed failed"
[ "$failed" -eq 0 ]
