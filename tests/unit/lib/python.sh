# SPDX-License-Identifier: MIT
# The unit test scripts' Python checks, sourced from the repository root
# after tap.sh: check_python BUILD MODULES WHAT SCRIPT ARGS... runs
# SCRIPT with Debian's python3 against BUILD's library, programs and
# Python module (the model on one thread), or skips WHAT when python3
# cannot import MODULES (comma separated).
check_python() {
	build=$1 modules=$2 what=$3
	shift 3
	if ! /usr/bin/python3 -c "import $modules" 2>/dev/null; then
		skip "$what" "python3 cannot import $modules (run tools/setup.sh)"
		return 0
	fi
	LD_LIBRARY_PATH="$build/lib" PYTHONPATH=python PATH="$build/bin:$PATH" \
		NVDLA_SIM_THREADS=1 /usr/bin/python3 "$@"
}
