# SPDX-License-Identifier: MIT
# TAP output for the unit test scripts, sourced from the repository root:
# ok STATUS TEXT (STATUS 0 passes), skip TEXT REASON.
n=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}
