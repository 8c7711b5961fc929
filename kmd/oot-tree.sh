#!/bin/sh
# SPDX-License-Identifier: MIT
# The out-of-tree driver's source tree in DEST: the upstream driver
# (drivers/accel/nvdla, its UAPI), kmd/compat's patches applied to it in
# order, the compatibility layer's own files, the virtual device
# (kmd/vdev and the model's portable core, sim/) and kmd/Kbuild as DEST's
# Kbuild. Any patch that does not apply stops it.
#
# Usage: kmd/oot-tree.sh DEST FILE...   (FILE: the tree's files, relative
# to the project's root; kmd/kmd.mk lists them)
set -eu

dest=$1
shift
cd "$(dirname "$0")/.."
rm -rf "$dest"
mkdir -p "$dest"
cp --parents "$@" "$dest/"
cp kmd/Kbuild "$dest/Kbuild"
for p in kmd/compat/patches/*.patch; do
	patch -d "$dest" -p1 -s -F0 --no-backup-if-mismatch <"$p" || {
		echo "oot-tree: $p does not apply" >&2
		exit 1
	}
done
