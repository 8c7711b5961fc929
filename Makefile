# SPDX-License-Identifier: MIT
# User-space build (runtime, CLI, tools, tests) and the entry points for the
# kernel module and the test suite. See README.md.

CFLAGS ?= -O2 -g
WARNFLAGS := -Wall -Wextra -Werror
PKG_CONFIG ?= pkg-config

# Cross builds (make cross, docs/testing.md): ARCH_TARGET, one of
# tools/cross-targets, builds with Debian's cross compiler into
# build/ARCH_TARGET against the target's libraries in the sysroot that
# tools/sysroot.sh makes; the C library is the cross compiler's.
CROSS_ARCHES := $(shell sed -n 's/^\([a-z0-9]*\) .*/\1/p' tools/cross-targets)
ifdef ARCH_TARGET
CROSS_TARGET := $(shell grep '^$(ARCH_TARGET) ' tools/cross-targets)
TRIPLET := $(word 2,$(CROSS_TARGET))
CROSS_CPU := $(word 3,$(CROSS_TARGET))
ifeq ($(TRIPLET),)
$(error ARCH_TARGET=$(ARCH_TARGET) is not one of: $(CROSS_ARCHES))
endif
SYSROOT := $(or $(NVDLA_CACHE),$(HOME)/.cache/nvdla)/sysroot/$(ARCH_TARGET)
ifeq ($(wildcard $(SYSROOT)/packages),)
$(error no $(ARCH_TARGET) sysroot in $(SYSROOT): run tools/setup.sh)
endif
SYSROOT_LIBS := $(SYSROOT)/usr/lib/$(TRIPLET):$(SYSROOT)/lib/$(TRIPLET)
BUILD ?= build/$(ARCH_TARGET)
# whatever CC the command line gave the make that started this one
override CC := $(TRIPLET)-gcc
override AR := $(TRIPLET)-ar
PKG_CONFIG := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(TRIPLET)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig \
	pkg-config
# the multiarch headers (libjpeg's jconfig.h); the libraries' own needs
override CPPFLAGS += -isystem $(SYSROOT)/usr/include/$(TRIPLET)
override LDFLAGS += -Wl,-rpath-link,$(SYSROOT_LIBS)
endif
BUILD ?= build
CC ?= cc

# libdrm: the DRM backend, and drm.h under the UAPI header; libjpeg and
# libpng: image input. Setup installs them.
PKGS := libdrm libjpeg libpng
DRM_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
DRM_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS))

override CFLAGS += -std=gnu11 -fPIC -fvisibility=hidden $(WARNFLAGS)
# The project's headers for user space: include/user/ first (the kernel
# headers the portable cores include), the public API (include/), the
# model's (sim/include/), the engine scheduler's shared headers, the UAPI
# and the out-of-tree driver's legacy UAPI.
NVDLA_INCLUDES := -Iinclude/user -Iinclude -Isim/include \
	-Idrivers/accel/nvdla/engine/include \
	-Iinclude/uapi/drm -Ikmd/compat
# The runtime library's parts (umd/, docs/architecture.md) include each
# other's headers by name.
UMD_DIRS := runtime loadable backend io record
override CPPFLAGS += $(NVDLA_INCLUDES) $(addprefix -Iumd/,$(UMD_DIRS)) \
	$(DRM_CFLAGS) -MMD -MP

FW_SRCS := $(wildcard drivers/accel/nvdla/engine/*.c)
# sim/user/: vector units and threads, user space only (Kbuild takes sim/*.c).
# The AVX2 paths (*_avx2.c) are built for x86-64 targets only and the
# Advanced SIMD ones (*_neon.c) for AArch64 only, where the CPU still
# chooses at run time; SIM_AVX2 and SIM_NEON tell the C code they are there.
SIM_AVX2 := $(filter x86_64-%,$(shell $(CC) -dumpmachine))
SIM_NEON := $(filter aarch64-%,$(shell $(CC) -dumpmachine))
AVX2_SRCS := $(wildcard sim/user/*_avx2.c)
NEON_SRCS := $(wildcard sim/user/*_neon.c)
SIM_SRCS := $(filter-out $(AVX2_SRCS) $(NEON_SRCS),\
	$(wildcard sim/*.c sim/user/*.c)) \
	$(if $(SIM_AVX2),$(AVX2_SRCS)) $(if $(SIM_NEON),$(NEON_SRCS))
override CPPFLAGS += $(if $(SIM_AVX2),-DSIM_AVX2) $(if $(SIM_NEON),-DSIM_NEON)
UMD_SRCS := $(wildcard $(addsuffix /*.c,$(addprefix umd/,$(UMD_DIRS))))
CLI_SRCS := $(wildcard umd/cli/*.c)
LIB_SRCS := $(UMD_SRCS) $(FW_SRCS) $(SIM_SRCS)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJS := $(call obj,$(LIB_SRCS))

# The shared library's ABI version: MAJOR changes when a change breaks
# programs linked against it (its soname is libnvdla_runtime.so.MAJOR).
LIB_MAJOR := 1
LIB_VERSION := $(LIB_MAJOR).0.0
LIB_A := $(BUILD)/lib/libnvdla_runtime.a
LIB_SO := $(BUILD)/lib/libnvdla_runtime.so
LIB_SO_REAL := $(LIB_SO).$(LIB_VERSION)
LIB_LINKS := $(LIB_SO) $(LIB_SO).$(LIB_MAJOR)
RUNTIME := $(BUILD)/bin/nvdla_runtime
LIBS = $(DRM_LIBS) -lm

TOOLS := $(BUILD)/bin/nvdla_mkloadable $(BUILD)/bin/nvdla_mkconv \
	$(BUILD)/bin/nvdla_trace $(BUILD)/bin/nvdla_imgconv_gen \
	$(BUILD)/bin/nvdla_conv_weights $(BUILD)/bin/nvdla_randlayer \
	$(BUILD)/bin/nvdla_bench $(BUILD)/bin/nvdla_runtime_bench
TRACE_SRCS := $(wildcard tools/trace/*.c)
RANDLAYER_SRCS := $(wildcard tools/randlayer/*.c)

# examples/stream.c, built as an application is: the public header alone,
# no internal flags; linked statically so that it runs in the QEMU guest.
STREAM := $(BUILD)/bin/nvdla_stream

# The real file first: .SECONDARY would let a stale link stand for it.
all: $(LIB_A) $(LIB_SO_REAL) $(LIB_LINKS) $(RUNTIME) $(TOOLS) $(STREAM)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(LIB_SO_REAL): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,libnvdla_runtime.so.$(LIB_MAJOR) \
		-o $@ $^ $(LIBS)

# The links an installed library has: the soname's, and the one the
# linker takes for -lnvdla_runtime. Checked at every make, as their dates
# are those of the files they point to: a regular file an older build
# left there, however new, or a link to another file is replaced, and
# programs and Python load the library just built.
$(LIB_LINKS): $(LIB_SO_REAL) FORCE
	@[ -L $@ ] && [ "$$(readlink $@)" = $(notdir $<) ] || \
		{ echo "ln -sfn $(notdir $<) $@"; ln -sfn $(notdir $<) $@; }

FORCE:

# The CLI links the static library so that it runs from anywhere, the QEMU
# guest included, without an installed libnvdla_runtime.so.
$(RUNTIME): $(call obj,$(CLI_SRCS)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bin/nvdla_trace: $(call obj,$(TRACE_SRCS)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bin/nvdla_randlayer: $(call obj,$(RANDLAYER_SRCS)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bin/nvdla_bench: $(BUILD)/obj/tools/bench/nvdla_bench.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/bin/nvdla_runtime_bench: $(BUILD)/obj/tools/bench/nvdla_runtime_bench.o \
		$(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(STREAM): examples/stream.c include/nvdla/runtime.h $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude $(CFLAGS) -o $@ $< $(LIB_A) $(LDFLAGS) $(LIBS)

$(BUILD)/bin/%: $(BUILD)/obj/tools/%.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# Regenerate the shipped loadable (tests check it is fresh).
loadables: $(BUILD)/bin/nvdla_mkloadable
	$< loadables/bdma_copy.nvdla $(BUILD)/bdma_copy.dimg
	cd $(BUILD) && md5sum bdma_copy.dimg > $(CURDIR)/loadables/bdma_copy.md5

# Unit tests: tests/unit/<part>/test_<name>.c, each a TAP program, and
# tests/unit/<part>/test_<name>.sh, each a TAP script, one folder a part
# of the stack (docs/testing.md); all built or installed as
# $(BUILD)/tests/test_<name>. tests/unit/lib/ holds what they share.
UNIT_DIRS := model firmware runtime compiler packaging kernel fuzz
UNIT_SRCS := $(wildcard tests/unit/*/test_*.c)
unit_names = $(addprefix $(BUILD)/tests/,$(basename $(notdir $(1))))
UNIT_BINS := $(call unit_names,$(UNIT_SRCS))

define unit_dir_rules
$$(BUILD)/tests/%: $$(BUILD)/obj/tests/unit/$(1)/%.o $$(LIB_A)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LIBS)

$$(BUILD)/tests/%-asan: $$(BUILD)/obj-asan/tests/unit/$(1)/%.o $$(SAN_LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(SAN_FLAGS) -o $$@ $$^ $$(LIBS)

$$(BUILD)/tests/%: tests/unit/$(1)/%.sh
	@mkdir -p $$(dir $$@)
	install -m 755 $$< $$@
endef

# The compiler's back end (umd/compiler/lir/, lower/, emit/), the fusion it
# reads (passes/fuse.c), the rewrite of transposed convolutions before it
# (passes/pass_deconv.c, over ir/graph*.c), and its test.
LOWER_SRCS := $(wildcard umd/compiler/lir/*.c umd/compiler/lower/*.c umd/compiler/emit/*.c) \
	umd/compiler/passes/fuse.c umd/compiler/passes/pass_deconv.c \
	umd/compiler/ir/graph.c umd/compiler/ir/graph_check.c

$(BUILD)/tests/test_compiler_lower: $(BUILD)/obj/tests/unit/compiler/test_compiler_lower.o \
		$(call obj,$(LOWER_SRCS)) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

UNIT_SCRIPTS := $(call unit_names,$(wildcard tests/unit/*/test_*.sh))

# The same tests again, built with the address and undefined-behaviour
# sanitizers over the library sources: any finding fails the test. Each
# variant compiles the library once, into its own object tree.
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all
SAN_CFLAGS := -std=gnu11 -g -O1 $(WARNFLAGS) $(SAN_FLAGS)
SAN_BINS := $(addsuffix -asan,$(UNIT_BINS))
SAN_LIB := $(BUILD)/lib/libnvdla_runtime-asan.a

# After SAN_LIB: the rules expand their prerequisites where they are read.
$(foreach d,$(UNIT_DIRS),$(eval $(call unit_dir_rules,$(d))))

$(BUILD)/obj-asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(SAN_CFLAGS) -c $< -o $@

$(SAN_LIB): $(patsubst %.c,$(BUILD)/obj-asan/%.o,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tests/test_compiler_lower-asan: \
		$(BUILD)/obj-asan/tests/unit/compiler/test_compiler_lower.o \
		$(patsubst %.c,$(BUILD)/obj-asan/%.o,$(LOWER_SRCS)) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_FLAGS) -o $@ $^ $(LIBS)

# libFuzzer targets (tests/fuzz/), built when clang is installed; the
# library once with the fuzzer's coverage and the sanitizers.
FUZZ_CC ?= clang
FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_BINS := $(if $(shell command -v $(FUZZ_CC)),\
	$(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS)))
FUZZ_SAN := address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=gnu11 -g -O1 $(WARNFLAGS) \
	-Wno-unused-command-line-argument -fsanitize=fuzzer-no-link,$(FUZZ_SAN)
FUZZ_LIB := $(BUILD)/lib/libnvdla_runtime-fuzz.a

$(BUILD)/obj-fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_LIB): $(patsubst %.c,$(BUILD)/obj-fuzz/%.o,$(LIB_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/fuzz/%: $(BUILD)/obj-fuzz/tests/fuzz/%.o $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $^ $(LIBS)

# The ONNX compiler (umd/compiler/, docs/compiler.md): a library beside
# the runtime's, its C code for ONNX's protobuf generated at build time
# by protoc-c from the onnx.proto of Debian's libonnx-dev (never
# committed).
ONNX_PROTO ?= /usr/include/onnx/onnx.proto
GEN := $(BUILD)/gen
# One folder a layer (docs/compiler.md): the ONNX front end, the graph IR,
# the graph passes, the float executor, calibration, the lowered IR, the
# back end, the emission of the loadable and the choices by estimate; each
# folder is on the include path.
COMPILER_DIRS := front ir passes exec calib lir lower emit choose
COMPILER_SRCS := $(foreach d,$(COMPILER_DIRS),$(wildcard umd/compiler/$(d)/*.c)) \
	$(GEN)/onnx.pb-c.c
COMPILER_A := $(BUILD)/lib/libnvdla_compiler.a
COMPILER_CLI := $(BUILD)/bin/nvdla_compile
COMPILER_LIBS = $(shell $(PKG_CONFIG) --libs libprotobuf-c) $(LIBS)

all: $(COMPILER_A) $(COMPILER_CLI) $(BUILD)/bin/nvdla_exec_bench

$(GEN)/onnx.pb-c.c: $(ONNX_PROTO)
	@mkdir -p $(GEN)
	protoc-c --c_out=$(GEN) -I$(dir $<) $<
$(GEN)/onnx.pb-c.h: $(GEN)/onnx.pb-c.c ;

$(foreach o,obj obj-asan obj-fuzz,$(patsubst %.c,$(BUILD)/$(o)/%.o,\
	$(COMPILER_SRCS) umd/compiler/cli/nvdla_compile.c \
	tests/unit/compiler/test_compiler_onnx.c tests/unit/compiler/test_compiler_lower.c \
	tests/unit/compiler/test_compiler_quality.c \
	tests/fuzz/fuzz_onnx.c tools/bench/nvdla_exec_bench.c)): \
	override CPPFLAGS += -I$(GEN) -Iumd/compiler \
		$(addprefix -Iumd/compiler/,$(COMPILER_DIRS))
$(foreach o,obj obj-asan obj-fuzz,$(patsubst %.c,$(BUILD)/$(o)/%.o,\
	$(COMPILER_SRCS) umd/compiler/cli/nvdla_compile.c \
	tests/unit/compiler/test_compiler_onnx.c tests/fuzz/fuzz_onnx.c \
	tools/bench/nvdla_exec_bench.c)): \
	| $(GEN)/onnx.pb-c.h

$(COMPILER_A): $(call obj,$(COMPILER_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/lib/libnvdla_compiler-asan.a: \
		$(patsubst %.c,$(BUILD)/obj-asan/%.o,$(COMPILER_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/lib/libnvdla_compiler-fuzz.a: \
		$(patsubst %.c,$(BUILD)/obj-fuzz/%.o,$(COMPILER_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/bin/nvdla_compile: $(BUILD)/obj/umd/compiler/cli/nvdla_compile.o \
		$(COMPILER_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(COMPILER_LIBS)

$(BUILD)/bin/nvdla_exec_bench: $(BUILD)/obj/tools/bench/nvdla_exec_bench.o \
		$(COMPILER_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(COMPILER_LIBS)

$(BUILD)/tests/test_compiler_onnx: $(BUILD)/obj/tests/unit/compiler/test_compiler_onnx.o \
		$(COMPILER_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(COMPILER_LIBS)

$(BUILD)/tests/test_compiler_onnx-asan: \
		$(BUILD)/obj-asan/tests/unit/compiler/test_compiler_onnx.o \
		$(BUILD)/lib/libnvdla_compiler-asan.a $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_FLAGS) -o $@ $^ $(COMPILER_LIBS)

$(BUILD)/tests/test_compiler_quality: \
		$(BUILD)/obj/tests/unit/compiler/test_compiler_quality.o \
		$(COMPILER_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(COMPILER_LIBS)

$(BUILD)/tests/test_compiler_quality-asan: \
		$(BUILD)/obj-asan/tests/unit/compiler/test_compiler_quality.o \
		$(BUILD)/lib/libnvdla_compiler-asan.a $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_FLAGS) -o $@ $^ $(COMPILER_LIBS)

$(BUILD)/fuzz/fuzz_onnx: $(BUILD)/obj-fuzz/tests/fuzz/fuzz_onnx.o \
		$(BUILD)/lib/libnvdla_compiler-fuzz.a $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $^ $(COMPILER_LIBS)

tests: $(UNIT_BINS) $(UNIT_SCRIPTS) $(SAN_BINS) $(FUZZ_BINS) models

# LeNet and ResNet-18 with fixed-seed random weights, their inputs and
# torch references (models/README.md); skipped without python3-torch.
MODEL_PY := tools/models/python.sh
$(BUILD)/models/stamp: tools/models/gen_models.py tools/models/onnx_torch.py \
		tools/models/pnm.py
	@if $(MODEL_PY) -c 'import torch, onnx, sklearn' 2>/dev/null; then \
		$(MODEL_PY) $< $(BUILD)/models && touch $@; \
	else echo "models: skipped, python3-torch, -onnx or -sklearn missing"; fi

models: $(BUILD)/models/stamp

include tools/qemu/qemu.mk
include kmd/kmd.mk
include tools/upstream/upstream.mk

setup:
	tools/setup.sh

setup-build:
	tools/setup.sh build

# The main job: the digit classifier of models/digits, compiled for
# nv_full in fp16, on its bundled image (a 5), on the first device, else
# the model: the class and its probability.
DEMO := $(BUILD)/digits.nvdla
$(DEMO): models/digits/digits.onnx $(BUILD)/bin/nvdla_compile
	$(BUILD)/bin/nvdla_compile $< --config nv_full --precision fp16 -o $@

run: setup-build all $(DEMO)
	$(RUNTIME) --loadable $(DEMO) --image models/digits/input.pgm \
		--normalize 255 --top 1 -o $(BUILD)/output.dimg

# The second demo: the digit detectors of models/detect (detect, one
# head; detect2, two), compiled for nv_full in fp16, on their bundled
# scene: the boxes each finds, with their classes and scores
# (models/detect/input.txt has the true ones).
DETECT_MODELS := detect detect2
$(DETECT_MODELS:%=$(BUILD)/%.nvdla): $(BUILD)/%.nvdla: models/detect/%.onnx \
		$(BUILD)/bin/nvdla_compile
	$(BUILD)/bin/nvdla_compile $< --config nv_full --precision fp16 -o $@

run-detect: setup-build all $(DETECT_MODELS:%=$(BUILD)/%.nvdla)
	for m in $(DETECT_MODELS); do \
		$(RUNTIME) --loadable $(BUILD)/$$m.nvdla \
			--image models/detect/input.pgm \
			--detect models/detect/$$m.yolo -o $(BUILD)/$$m.dimg || exit; \
	done

# The whole suite: unit and conformance tests here, the cross builds'
# tests under qemu-user, driver tests in QEMU and on the QEMU board with
# its NVDLA device. The builds use every CPU (JOBS) unless make was given
# its own -j.
JOBS ?= $(shell nproc)
CHECK_J = $(if $(findstring -j,$(MAKEFLAGS)),,-j$(JOBS))
check: setup
	$(MAKE) $(CHECK_J) all tests cross module-all guest-tests
	$(MAKE) $(CHECK_J) module-board board-tests vp-tests
	tools/run-tests.sh $(BUILD)

ifdef ARCH_TARGET
# One cross build: the library, the programs and the unit test programs
# (not their sanitizer or fuzzer builds), and $(BUILD)/run, which runs
# one of them under Debian's qemu-user (no binfmt registration needed)
# with the C library of the cross compiler and the sysroot's libraries.
cross: all $(UNIT_BINS) $(BUILD)/run

# written every time: it names the sysroot of this make's NVDLA_CACHE
.PHONY: $(BUILD)/run
$(BUILD)/run:
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\n# Run a program of %s under qemu-user.\nexec %s -cpu %s -L %s -E LD_LIBRARY_PATH=%s "$$@"\n' \
		'$(BUILD)' 'qemu-$(firstword $(subst -, ,$(TRIPLET)))-static' \
		'$(CROSS_CPU)' '/usr/$(TRIPLET)' '$(SYSROOT_LIBS)' >$@
	chmod 755 $@
else
# Every cross build, each into $(BUILD)/ARCH.
cross:
	for arch in $(CROSS_ARCHES); do \
		$(MAKE) ARCH_TARGET=$$arch BUILD=$(BUILD)/$$arch cross || exit 1; \
	done
endif

# The cross builds' tests under qemu-user against this build's outputs.
check-cross: all cross
	tools/run-tests.sh --cross-only $(BUILD)

# Throughput of the hardware model next to plain loops, the wall time of
# the largest public traces, and the runtime's overheads in process and,
# where the kernels are installed, through the driver in QEMU.
bench: all $(DEMO) $(if $(KVERS),module-all)
	tools/bench.sh $(BUILD)

check-unit: all tests
	tools/run-tests.sh --no-qemu $(BUILD)

# Recorded networks replayed on NVIDIA's C model (docs/recording.md);
# skipped when it is not built.
check-cmodel: all
	tools/cmodel-check.sh $(BUILD)

# The QEMU guest suite on a debug kernel (lockdep, KASAN, kmemleak, UBSAN)
# built once from linux-source-6.1; slow, so not part of make check.
check-debug: setup all guest-tests
	tools/qemu/check-debug.sh $(BUILD)

# Installation (README.md): the public header, the libraries, the
# pkg-config file, the programs, the man pages and the Python module,
# under DESTDIR/PREFIX.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PC := $(BUILD)/nvdla-runtime.pc
MAN_PAGES := $(wildcard docs/man/*.[13])
# The Python module goes where Debian's python3 looks: PREFIX /usr, the
# dist-packages its packages use; any other (/usr/local), the versioned
# dist-packages it searches there.
PYTHON ?= /usr/bin/python3
PYTHONDIR ?= $(PREFIX)/lib/$(if $(filter /usr,$(PREFIX)),python3,$(shell \
	$(PYTHON) -c 'import sys; print("python%d.%d" % sys.version_info[:2])'))/dist-packages
PY_MODULE := $(wildcard python/nvdla/*.py)

# Paths as pkg-config sees them: PREFIX-relative ones through ${prefix}.
$(PC): umd/nvdla-runtime.pc.in Makefile
	sed -e 's|@PREFIX@|$(PREFIX)|' \
		-e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
		-e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|' \
		-e 's|@VERSION@|$(LIB_VERSION)|' \
		-e 's|@PRIVATE_LIBS@|$(LIBS)|' $< >$@

install: $(LIB_A) $(LIB_SO_REAL) $(LIB_LINKS) $(RUNTIME) $(BUILD)/bin/nvdla_compile $(PC)
	install -d $(DESTDIR)$(INCLUDEDIR)/nvdla $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 644 include/nvdla/runtime.h $(DESTDIR)$(INCLUDEDIR)/nvdla/
	install -m 755 $(LIB_SO_REAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIB_SO_REAL)) \
		$(DESTDIR)$(LIBDIR)/libnvdla_runtime.so.$(LIB_MAJOR)
	ln -sf $(notdir $(LIB_SO_REAL)) $(DESTDIR)$(LIBDIR)/libnvdla_runtime.so
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 644 $(PC) $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 755 $(RUNTIME) $(BUILD)/bin/nvdla_compile $(DESTDIR)$(BINDIR)/
	install -m 644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(filter %.3,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man3/
	install -d $(DESTDIR)$(PYTHONDIR)/nvdla
	install -m 644 $(PY_MODULE) $(DESTDIR)$(PYTHONDIR)/nvdla/

clean:
	rm -rf $(BUILD)

.PHONY: FORCE all tests setup setup-build run run-detect bench check check-unit check-cmodel \
	check-debug clean install loadables models cross check-cross
-include $(shell find $(BUILD)/obj $(BUILD)/obj-asan $(BUILD)/obj-fuzz \
	-name '*.d' 2>/dev/null)
.SECONDARY:
