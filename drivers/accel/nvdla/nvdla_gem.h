/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_GEM_H__
#define __NVDLA_GEM_H__

#include <linux/types.h>

#include <drm/drm_gem.h>

/*
 * A buffer the accelerator can reach: an object of the GEM DMA helper, or
 * behind an IOMMU of the shmem helper (nvdla_gem_shmem.c), or another
 * driver's dma-buf the device sees as one range (an imported object of
 * the shmem helper): one range for the device in every case, mapped in
 * the kernel (nvdla_gem_addrs()). Every object of its files is one of
 * these.
 */
struct dma_buf_attachment;
struct nvdla_device;
struct sg_table;

int nvdla_gem_init(struct nvdla_device *ndev);
int nvdla_gem_charge(struct nvdla_device *ndev, size_t size);
void nvdla_gem_uncharge(struct nvdla_device *ndev, size_t size);
int nvdla_gem_charge_import(struct nvdla_device *ndev, size_t size);
void nvdla_gem_uncharge_import(struct nvdla_device *ndev, size_t size);
void nvdla_gem_addrs(struct drm_gem_object *obj, dma_addr_t *dma,
		     void **vaddr);

/* nvdla_gem_shmem.c */
struct drm_gem_object *nvdla_gem_shmem_create_object(struct drm_device *drm,
						     size_t size);
struct drm_gem_object *nvdla_gem_shmem_new(struct drm_device *drm, size_t size);
struct drm_gem_object *nvdla_gem_import_sg_table(struct drm_device *drm,
						 struct dma_buf_attachment *attach,
						 struct sg_table *sgt);
bool nvdla_gem_shmem_addrs(struct drm_gem_object *obj, dma_addr_t *dma,
			   void **vaddr);

int nvdla_ioctl_gem_create(struct drm_device *drm, void *data,
			   struct drm_file *file);
int nvdla_ioctl_gem_mmap(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __NVDLA_GEM_H__ */
