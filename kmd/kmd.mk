# SPDX-License-Identifier: MIT
# Kernel modules, nvdla.ko (the driver) and nvdla_sim.ko (its virtual
# devices): make module KERNEL_VERSION=<uname -r of the target>.
# Each kernel builds from its own copy of the sources, so that the objects
# of two kernels never meet.

KERNEL_VERSION ?= $(shell uname -r)
# module-all: every kernel in KVERS (tools/qemu/qemu.mk).

# The kernel build tree: KDIR if given (a board's kernel, cross-compiled
# with ARCH= and CROSS_COMPILE=), else the kernel's tree in the cache
# (Debian's headers unpacked by tools/setup.sh, the debug kernel of
# tools/qemu/build-debug-kernel.sh), else the installed headers.
kdir = $(or $(KDIR),$(patsubst %/Makefile,%,$(firstword $(wildcard \
	$(NVDLA_CACHE)/kernels/$(1)/lib/modules/$(1)/build/Makefile \
	/lib/modules/$(1)/build/Makefile))),/lib/modules/$(1)/build)

# The out-of-tree tree's files; kmd/oot-tree.sh assembles them.
KMOD_SRCS := drivers/accel/nvdla/Makefile $(wildcard drivers/accel/nvdla/*.[ch] \
	drivers/accel/nvdla/engine/*.[ch] \
	drivers/accel/nvdla/engine/include/nvdla/*.h \
	include/uapi/drm/nvdla_accel.h sim/include/nvdla/deps.h \
	sim/include/nvdla/sim.h kmd/vdev/include/nvdla/vdev.h \
	kmd/compat/*.[ch] kmd/vdev/*.[ch] sim/*.[ch])
KMOD_DEPS := $(KMOD_SRCS) kmd/Kbuild kmd/oot-tree.sh \
	$(wildcard kmd/compat/patches/*.patch)

$(BUILD)/kmod/%/nvdla.ko: $(KMOD_DEPS)
	kmd/oot-tree.sh $(BUILD)/kmod/$*/src $(KMOD_SRCS)
	$(MAKE) -C $(call kdir,$*) M=$(abspath $(BUILD)/kmod/$*/src) modules
	cp $(BUILD)/kmod/$*/src/nvdla.ko $(BUILD)/kmod/$*/src/nvdla_sim.ko \
		$(dir $@)

module: $(BUILD)/kmod/$(KERNEL_VERSION)/nvdla.ko

module-all: $(foreach v,$(KVERS),$(BUILD)/kmod/$(v)/nvdla.ko)

.PHONY: module module-all

# A DKMS source tree: the module's sources and kmd/dkms.conf, versioned by
# the commit (date.hash) unless DKMS_VERSION says otherwise. "dkms add"
# takes the directory; dkms-install does that and builds and installs the
# module for the running kernel (as root).
DKMS_VERSION ?= $(or $(shell git log -1 --date=format:%Y%m%d \
	--format=%cd.%h 2>/dev/null),0)
DKMS_SRC := $(BUILD)/dkms/nvdla-$(DKMS_VERSION)

dkms-src: $(KMOD_DEPS) kmd/dkms.conf
	kmd/oot-tree.sh $(DKMS_SRC) $(KMOD_SRCS)
	sed 's/@VERSION@/$(DKMS_VERSION)/' kmd/dkms.conf >$(DKMS_SRC)/dkms.conf
	@echo "DKMS source tree: $(DKMS_SRC)"

dkms-install: dkms-src
	dkms add $(DKMS_SRC)
	dkms install nvdla/$(DKMS_VERSION)

.PHONY: dkms-src dkms-install

# Driver tests that run inside the QEMU guest (kselftest harness).
NVDLA_CACHE ?= $(HOME)/.cache/nvdla
KSELFTEST_INC ?= $(NVDLA_CACHE)/kselftest
GUEST_TESTS := $(patsubst tests/kmd/%.c,$(BUILD)/guest-tests/%,\
	$(wildcard tests/kmd/*_test.c))
# vgem's UAPI header (a fence source for the fence tests), from the
# kernel headers unpacked by tools/setup.sh.
KERNEL_UAPI_DRM = $(firstword $(wildcard \
	$(NVDLA_CACHE)/kernels/*/usr/src/linux-headers-*-common/include/uapi/drm))

$(BUILD)/guest-tests/%: tests/kmd/%.c tests/kmd/nvdla_test.h \
		$(KSELFTEST_INC)/kselftest_harness.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 $(WARNFLAGS) $(NVDLA_INCLUDES) \
		$(DRM_CFLAGS) -isystem $(KSELFTEST_INC) \
		-idirafter $(KERNEL_UAPI_DRM) -o $@ $<

# test_async holds runs through the driver with vgem's fences
# (tests/unit/lib/vgem.h): its UAPI header where the cache has it.
$(BUILD)/obj/tests/unit/runtime/test_async.o \
$(BUILD)/obj-asan/tests/unit/runtime/test_async.o: \
	override CPPFLAGS += $(if $(KERNEL_UAPI_DRM),-idirafter $(KERNEL_UAPI_DRM))

# The runtime's API tests run in the guest too (tests/guest/35-runtime-api.sh).
guest-tests: $(GUEST_TESTS) $(BUILD)/tests/test_async \
	$(BUILD)/tests/test_buffer_share

.PHONY: guest-tests
