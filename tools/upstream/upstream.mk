# SPDX-License-Identifier: MIT
# The upstream patch series (tools/upstream/): written against Debian's
# linux-source-6.12 into $(BUILD)/upstream-series, then applied patch by
# patch to that kernel's tree and checked (checkpatch --strict, W=1 C=1
# builds, dt_binding_check, kernel-doc, the documentation). The kernel
# tree and its prepared build directories are cached in
# $(NVDLA_CACHE)/upstream. UPSTREAM_ARM64=1 also builds the module for
# Debian's arm64 6.12 kernel.

UPSTREAM_SERIES := $(BUILD)/upstream-series

upstream-series:
	tools/upstream/series.sh $(UPSTREAM_SERIES)
	LOGDIR=$(BUILD)/upstream-check ARM64=$(or $(UPSTREAM_ARM64),0) \
		tools/upstream/check.sh $(UPSTREAM_SERIES)

.PHONY: upstream-series
