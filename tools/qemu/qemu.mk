# SPDX-License-Identifier: MIT
# Driver tests in QEMU: one guest per installed kernel, booted by
# tools/qemu/run-guest.sh. Included before kmd/kmd.mk, which builds nvdla.ko
# for every kernel in KVERS and the guest tests with -isystem $(KSELFTEST_INC).

NVDLA_CACHE ?= $(HOME)/.cache/nvdla
# Kernels whose headers are installed (Debian's linux-headers-*-amd64).
KVERS ?= $(patsubst /usr/src/linux-headers-%,%,\
	$(wildcard /usr/src/linux-headers-*-amd64))
KSELFTEST_INC := $(NVDLA_CACHE)/kselftest
export NVDLA_CACHE KVERS

# What tools/setup.sh unpacks; each of these files is the last it writes.
QEMU_IMAGES := $(foreach v,$(KVERS),\
	$(NVDLA_CACHE)/kernels/$(v)/lib/modules/$(v)/modules.dep)

$(QEMU_IMAGES) $(KSELFTEST_INC)/kselftest_harness.h &:
	tools/setup.sh

qemu-images: $(QEMU_IMAGES)

check-qemu: all module-all guest-tests qemu-images
	tools/run-tests.sh --qemu-only $(BUILD)

.PHONY: qemu-images check-qemu
