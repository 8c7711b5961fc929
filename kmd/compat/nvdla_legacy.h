/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_LEGACY_H__
#define __NVDLA_LEGACY_H__

#include "nvdla_legacy_uapi.h"

struct drm_device;
struct drm_file;

int nvdla_ioctl_legacy_submit(struct drm_device *drm, void *data,
			      struct drm_file *file);
int nvdla_ioctl_legacy_gem_destroy(struct drm_device *drm, void *data,
				   struct drm_file *file);

#endif /* __NVDLA_LEGACY_H__ */
