#!/bin/sh
# SPDX-License-Identifier: MIT
# The Python module (python/nvdla) under Debian's python3 and pytest
# (tests/unit/runtime/test_python.py), against this build's library and programs;
# pytest's verdicts as TAP lines. Run from the repository root with the
# build directory as $1.
set -u
build=${1:-build}
python=/usr/bin/python3

if ! $python -c 'import numpy, pytest' 2>/dev/null; then
	echo "ok - python module # SKIP python3-numpy or python3-pytest missing (run tools/setup.sh)"
	exit 0
fi
out=$(LD_LIBRARY_PATH="$build/lib" PYTHONPATH=python PATH="$build/bin:$PATH" \
	NVDLA_SIM_THREADS=2 $python -m pytest -v -p no:cacheprovider \
	tests/unit/runtime/test_python.py 2>&1)
status=$?
echo "$out" | sed 's/^/# /'
echo "$out" | sed -n \
	-e 's/^[^ ]*::\([^ ]*\) PASSED.*/ok - python: \1/p' \
	-e 's/^[^ ]*::\([^ ]*\) \(FAILED\|ERROR\).*/not ok - python: \1/p' \
	-e 's/^[^ ]*::\([^ ]*\) SKIPPED\(.*\)/ok - python: \1 # SKIP\2/p'
exit $status
