#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/setup.sh never installs a kernel: no linux-image, linux-headers or
# linux-kbuild package among those it installs, nor among what apt would
# pull in for them on a system that has nothing installed (simulated with
# an empty dpkg status, the way setup calls apt-get install). Installing
# one would add a kernel the boot loader starts and run update-initramfs.
# Run from the repository root.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/unit/lib/tap.sh
. tests/unit/lib/tap.sh
kernel_pkgs='^linux-(image|headers|kbuild)-'

tools/setup.sh packages >"$tmp/list" 2>&1 && [ -s "$tmp/list" ]
ok $? "tools/setup.sh packages lists what it installs"
! grep -E "$kernel_pkgs" "$tmp/list"
ok $? "no kernel package among them"

if ! command -v apt-get >/dev/null; then
	skip "apt pulls in no kernel package" "no apt-get"
	exit 0
fi
# shellcheck disable=SC2046 # one word per package
apt-get -s -q -o Dir::State::status=/dev/null install \
	--no-install-recommends $(cat "$tmp/list") >"$tmp/sim" 2>&1
status=$?
if [ $status -ne 0 ] && grep -q 'Unable to locate package' "$tmp/sim"; then
	skip "apt pulls in no kernel package" "no package lists (apt-get update)"
	exit 0
fi
[ $status -eq 0 ] && grep -q '^Inst ' "$tmp/sim"
ok $? "apt simulates installing them on an empty system"
sed 's/^Inst \([^ ]*\).*/\1/p; d' "$tmp/sim" | grep -E "$kernel_pkgs" >"$tmp/bad"
[ ! -s "$tmp/bad" ]
ok $? "apt pulls in no kernel package with them"
sed 's/^/# /' "$tmp/bad"
