/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_GEM_H__
#define __NVDLA_GEM_H__

#include <drm/drm_gem.h>
#include <drm/drm_gem_dma_helper.h>

/*
 * A buffer the accelerator can reach: an object of the GEM DMA helper,
 * contiguous for the device (@dma_addr), mapped in the kernel (@vaddr).
 * The device imports no other driver's buffers, so every object of its
 * files is one of these.
 */
static inline struct drm_gem_dma_object *to_nvdla_bo(struct drm_gem_object *obj)
{
	return to_drm_gem_dma_obj(obj);
}

struct nvdla_device;

int nvdla_gem_init(struct nvdla_device *ndev);
int nvdla_ioctl_gem_create(struct drm_device *drm, void *data,
			   struct drm_file *file);
int nvdla_ioctl_gem_mmap(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __NVDLA_GEM_H__ */
