/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_GEM_H__
#define __NVDLA_GEM_H__

#include <drm/drm_gem.h>

/**
 * struct nvdla_gem_object - a buffer the accelerator can reach
 * @base: the GEM object
 * @vaddr: kernel mapping of the whole buffer
 * @dma_addr: its device address (contiguous)
 */
struct nvdla_gem_object {
	struct drm_gem_object base;
	void *vaddr;
	dma_addr_t dma_addr;
};

static inline struct nvdla_gem_object *to_nvdla_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct nvdla_gem_object, base);
}

struct nvdla_device;

int nvdla_gem_init(struct nvdla_device *ndev);
int nvdla_ioctl_gem_create(struct drm_device *drm, void *data,
			   struct drm_file *file);
int nvdla_ioctl_gem_mmap(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __NVDLA_GEM_H__ */
