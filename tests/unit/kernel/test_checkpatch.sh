#!/bin/sh
# SPDX-License-Identifier: MIT
# Kernel-side code passes scripts/checkpatch.pl --strict without errors
# (checkpatch comes from the linux-source package, see tools/setup.sh).
# Warnings and checks are shown as TAP comments.
cp=${NVDLA_CACHE:-$HOME/.cache/nvdla}/checkpatch/checkpatch.pl
if [ ! -f "$cp" ]; then
	echo "ok 1 - checkpatch --strict # SKIP checkpatch.pl not extracted (tools/setup.sh)"
	exit 0
fi
out=$(perl "$cp" --strict --no-tree --terse --show-types -f \
	drivers/accel/nvdla/*.[ch] drivers/accel/nvdla/engine/*.[ch] \
	drivers/accel/nvdla/engine/include/nvdla/firmware.h \
	drivers/accel/nvdla/engine/include/nvdla/dla_interface.h \
	drivers/accel/nvdla/engine/include/nvdla/hw_configs.h \
	drivers/accel/nvdla/engine/include/nvdla/pixel_formats.h \
	include/uapi/drm/nvdla_accel.h \
	kmd/compat/*.[ch] kmd/vdev/*.[ch] kmd/Kbuild sim/*.[ch] \
	sim/include/nvdla/sim.h sim/include/nvdla/deps.h kmd/vdev/include/nvdla/vdev.h 2>&1)
echo "$out" | grep -v '^total' | sed 's/^/# /'
if echo "$out" | grep -q ': ERROR:'; then
	echo "not ok 1 - checkpatch --strict: no errors"
else
	echo "ok 1 - checkpatch --strict: no errors"
fi
