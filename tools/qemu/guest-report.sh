# SPDX-License-Identifier: MIT
# Sourced by run-guest.sh and run-board.sh: what a finished guest said.
# Needs $kver, $log, $out, $status (QEMU's exit status), $timeout_s and a
# fail() that prints "not ok" and exits.
#
# guest_report: print the guest's TAP lines prefixed with the kernel
# version; exit 0 if the guest reached its end, else fail, showing why it
# stopped (panic_on_warn makes any kernel warning end the guest).
guest_report() {
	tr -d '\r' <"$log" >"$out/console"
	grep -E '^(not )?ok ' "$out/console" |
		sed "s/^\(\(not \)\{0,1\}ok\)\( [0-9]*\)\{0,1\} -\{0,1\} */\1 - [$kver] /"
	grep -q '^NVDLA-GUEST-DONE' "$out/console" && exit 0
	[ "$status" -eq 124 ] && fail "guest timed out after $timeout_s s"
	grep -E 'Kernel panic|WARNING:|BUG:|Oops|Call Trace|RIP:|pc :' \
		"$out/console" | head -20 | sed 's/^/#   /'
	fail "guest stopped before the end (qemu status $status)"
}
