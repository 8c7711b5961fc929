# SPDX-License-Identifier: MIT
# Driver tests in QEMU: one guest per installed kernel, booted by
# tools/qemu/run-guest.sh. Included before kmd/kmd.mk, which builds nvdla.ko
# for every kernel in KVERS and the guest tests with -isystem $(KSELFTEST_INC).

NVDLA_CACHE ?= $(HOME)/.cache/nvdla
# Debian's kernels that tools/setup.sh unpacked into the cache, each with
# its headers; "packages" is the last file it writes there.
KVERS ?= $(patsubst $(NVDLA_CACHE)/kernels/%/packages,%,\
	$(wildcard $(NVDLA_CACHE)/kernels/*-amd64/packages))
KSELFTEST_INC := $(NVDLA_CACHE)/kselftest
export NVDLA_CACHE KVERS

QEMU_IMAGES := $(foreach v,$(KVERS),$(NVDLA_CACHE)/kernels/$(v)/packages)

$(QEMU_IMAGES) $(KSELFTEST_INC)/kselftest_harness.h &:
	tools/setup.sh

qemu-images: $(QEMU_IMAGES)

# The emulated arm64 board (tools/qemu/run-board.sh), one per arm64 kernel
# that tools/setup.sh unpacks into $(NVDLA_CACHE)/board/<version>: the
# module cross-built against each kernel's headers, and the board tests.
# Nothing to do before that unpack, so the check targets make these in a
# new make, after their set-up ran.
BOARD_DIR := $(NVDLA_CACHE)/board
BOARD_KVERS := $(patsubst $(BOARD_DIR)/%/,%,\
	$(dir $(wildcard $(BOARD_DIR)/*-arm64/boot)))
BOARD_CROSS := aarch64-linux-gnu-
BOARD_TESTS := $(if $(BOARD_KVERS),$(patsubst tests/board/%.c,\
	$(BUILD)/board-tests/%,$(wildcard tests/board/*_test.c)))

module-board:
	$(foreach v,$(BOARD_KVERS),$(MAKE) module KERNEL_VERSION=$(v) \
		KDIR=$(BOARD_DIR)/$(v)/usr/src/linux-headers-$(v) \
		ARCH=arm64 CROSS_COMPILE=$(BOARD_CROSS) &&) true

$(BUILD)/board-tests/%: tests/board/%.c tests/kmd/nvdla_test.h \
		$(KSELFTEST_INC)/kselftest_harness.h
	@mkdir -p $(dir $@)
	$(BOARD_CROSS)gcc -std=gnu11 -O2 -static $(WARNFLAGS) $(NVDLA_INCLUDES) \
		-Itests/kmd $(DRM_CFLAGS) \
		-isystem $(KSELFTEST_INC) -o $@ $<

board-tests: $(BOARD_TESTS)

# The virtual platform (tools/qemu/run-vp.sh): QEMU with the NVDLA device,
# built by tools/setup.sh (tools/qemu/build-qemu.sh) into the cache; the
# driver's guest tests that need no virtual device (not nvdla_fault_test,
# nvdla_unload_test), the random register programs and the player of
# recorded ones, static for arm64.
VP_QEMU := $(NVDLA_CACHE)/qemu/build/qemu-system-aarch64
VP_KMD_TESTS := ioctl legacy fence import race fuzz
VP_TESTS := $(if $(BOARD_KVERS),$(BUILD)/vp-tests/nvdla_regfuzz \
	$(BUILD)/vp-tests/nvdla_regplay \
	$(patsubst %,$(BUILD)/vp-tests/nvdla_%_test,$(VP_KMD_TESTS)))

$(BUILD)/vp-tests/nvdla_%_test: tests/kmd/nvdla_%_test.c tests/kmd/nvdla_test.h \
		$(KSELFTEST_INC)/kselftest_harness.h
	@mkdir -p $(dir $@)
	$(BOARD_CROSS)gcc -std=gnu11 -O2 -static $(WARNFLAGS) $(NVDLA_INCLUDES) \
		$(DRM_CFLAGS) -isystem $(KSELFTEST_INC) \
		-idirafter $(KERNEL_UAPI_DRM) -o $@ $<

$(BUILD)/vp-tests/nvdla_reg%: tests/vp/nvdla_reg%.c \
		drivers/accel/nvdla/engine/include/nvdla/regs.h
	@mkdir -p $(dir $@)
	$(BOARD_CROSS)gcc -std=gnu11 -O2 -static $(WARNFLAGS) $(NVDLA_INCLUDES) -o $@ $<

vp-tests: $(VP_TESTS)

qemu-vp:
	tools/qemu/build-qemu.sh

# Boot the board on every arm64 kernel and run the tests there.
check-vp: qemu-vp
	$(MAKE) module-board vp-tests
	tools/run-tests.sh --vp-only $(BUILD)

# The in-tree driver alone on the board: the upstream series built for
# Debian's arm64 6.12 with a drm.ko that has the accel core
# (tools/upstream/arm64-modules.sh, cached by the series' content), the
# same guest suite on Debian's arm64 6.12. check-vp and check run it too.
check-vp-intree: qemu-vp
	$(MAKE) vp-tests
	tools/run-tests.sh --vp-intree-only $(BUILD)

# The board with the devices on PCI behind an SMMUv3 (run-vp.sh --iommu):
# the driver's shmem buffers through the IOMMU, the same guest suite, on
# the newest arm64 kernel. check-vp and check run it too.
check-vp-iommu: qemu-vp
	$(MAKE) module-board vp-tests
	tools/run-tests.sh --vp-iommu-only $(BUILD)

# The board with NVDLA devices of CONFIG (nv_small, nv_full+nv_small, ...)
# on the newest arm64 kernel, to a shell with the driver loaded.
CONFIG ?= nv_small
VP_KVER ?= $(lastword $(sort $(BOARD_KVERS)))
vp: qemu-vp
	$(MAKE) module-board vp-tests
	tools/qemu/run-vp.sh --shell $(CONFIG) $(VP_KVER) $(BUILD)

check-qemu: all module-all guest-tests qemu-images
	$(MAKE) module-board board-tests vp-tests
	tools/run-tests.sh --qemu-only $(BUILD)

.PHONY: qemu-images check-qemu module-board board-tests vp-tests qemu-vp \
	check-vp check-vp-intree check-vp-iommu vp
