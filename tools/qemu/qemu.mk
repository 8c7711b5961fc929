# SPDX-License-Identifier: MIT
# Driver tests in QEMU: one guest per kernel in KVERS (see kmd/kmd.mk).

export KVERS

qemu-images:
	tools/setup.sh

check-qemu: setup all module-all guest-tests
	tools/run-tests.sh --qemu-only $(BUILD)

.PHONY: qemu-images check-qemu
