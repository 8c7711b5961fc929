// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Buffer objects: objects of the GEM DMA helper, one piece of memory
 * contiguous for the device (the accelerator has no MMU), mapped to user
 * space through the DRM file by the helper. The memory comes from the DMA
 * API: the reserved-memory region the device-tree node names in
 * memory-region (a no-map pool or a CMA area of its own), else the
 * system's CMA area or page allocator. Exported buffers are the helper's
 * too; only the device's own buffers are imported (the core's PRIME
 * import: another device's dma-buf is refused with -EINVAL).
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem_dma_helper.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>
#include <drm/nvdla_accel.h>

#include <nvdla/firmware.h>

#include "nvdla_drv.h"
#include "nvdla_gem.h"

static unsigned int max_buffer_mb = 1024;
module_param(max_buffer_mb, uint, 0644);
MODULE_PARM_DESC(max_buffer_mb,
		 "Buffer memory one device may hold, all files together; more is refused with ENOSPC (MiB, default 1024, 0: no limit)");

/*
 * The largest buffer the DMA API can give the device in one piece: any
 * size behind an IOMMU, from a reserved-memory pool or on a kernel with CMA
 * (bounded by their size: beyond it, -ENOMEM); else the page allocator's
 * largest block (4 MiB on x86 and arm64 with 4 KiB pages).
 */
static u64 nvdla_gem_max_size(struct device *dev)
{
	if (device_iommu_mapped(dev) || IS_ENABLED(CONFIG_DMA_CMA))
		return DRM_NVDLA_MAX_BO_SIZE;
#ifdef CONFIG_DMA_DECLARE_COHERENT
	if (dev->dma_mem)
		return DRM_NVDLA_MAX_BO_SIZE;
#endif
	return PAGE_SIZE << MAX_PAGE_ORDER;
}

/* With the DRM device, so after the last object is freed. */
static void nvdla_gem_release_region(struct drm_device *drm, void *dev)
{
	of_reserved_mem_device_release(dev);
}

/**
 * nvdla_gem_init() - where the device's buffers come from
 * @ndev: the device being probed
 *
 * The DMA mask is the configuration's address width, which the kernel
 * narrows further to the node's dma-ranges. The node's memory-region, if
 * any, becomes the device's pool until the DRM device is released.
 *
 * Return: 0 or a negative errno.
 */
int nvdla_gem_init(struct nvdla_device *ndev)
{
	struct device *dev = ndev->drm.dev;
	int ret;

	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(ndev->hw->addr_bits));
	if (ret)
		return dev_err_probe(dev, ret, "no usable %u-bit DMA mask\n",
				     ndev->hw->addr_bits);
	ndev->max_bo_size = nvdla_gem_max_size(dev);
	if (!dev->of_node)
		return 0;
	ret = of_reserved_mem_device_init(dev);
	if (ret == -ENODEV)
		return 0;
	if (ret)
		return dev_err_probe(dev, ret, "cannot use the memory-region\n");
	ndev->max_bo_size = nvdla_gem_max_size(dev);
	return drmm_add_action_or_reset(&ndev->drm, nvdla_gem_release_region,
					dev);
}

/* Count @size against the device's limit; -ENOSPC beyond it. */
static int nvdla_gem_charge(struct nvdla_device *ndev, size_t size)
{
	u64 limit = (u64)READ_ONCE(max_buffer_mb) << 20;

	if (atomic64_add_return(size, &ndev->bo_bytes) > limit && limit) {
		atomic64_sub(size, &ndev->bo_bytes);
		return -ENOSPC;
	}
	return 0;
}

/* The helper frees the object; its bytes leave the device's count. */
static void nvdla_gem_free(struct drm_gem_object *obj)
{
	struct nvdla_device *ndev = to_nvdla_device(obj->dev);
	size_t size = obj->size;

	drm_gem_dma_object_free(obj);
	atomic64_sub(size, &ndev->bo_bytes);
}

/* The GEM DMA helper's object functions, but for the count in free. */
static const struct drm_gem_object_funcs nvdla_gem_funcs = {
	.free = nvdla_gem_free,
	.get_sg_table = drm_gem_dma_object_get_sg_table,
	.vmap = drm_gem_dma_object_vmap,
	.mmap = drm_gem_dma_object_mmap,
	.vm_ops = &drm_gem_dma_vm_ops,
};

/*
 * A GEM DMA helper object, made as drm_gem_dma_create() makes one (with
 * a write-combined DMA allocation, which the helper's mmap and free
 * expect), except that the object and its memory are charged to the
 * caller's memory cgroup (__GFP_ACCOUNT; a reserved-memory pool or CMA
 * area is not), which the helper does not do, and that the object needs
 * no shmem file. Its size is counted against the device's limit first.
 */
static struct drm_gem_dma_object *nvdla_gem_new(struct drm_device *drm,
						size_t size)
{
	struct nvdla_device *ndev = to_nvdla_device(drm);
	struct drm_gem_dma_object *bo;
	int ret;

	ret = nvdla_gem_charge(ndev, size);
	if (ret)
		return ERR_PTR(ret);
	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo) {
		atomic64_sub(size, &ndev->bo_bytes);
		return ERR_PTR(-ENOMEM);
	}
	bo->base.funcs = &nvdla_gem_funcs;
	drm_gem_private_object_init(drm, &bo->base, size);

	bo->vaddr = dma_alloc_wc(drm->dev, size, &bo->dma_addr,
				 GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	ret = bo->vaddr ? drm_gem_create_mmap_offset(&bo->base) : -ENOMEM;
	if (ret) {
		/* nvdla_gem_free() gives back what the object has. */
		drm_gem_object_put(&bo->base);
		return ERR_PTR(ret);
	}
	return bo;
}

/**
 * nvdla_ioctl_gem_create() - DRM_IOCTL_NVDLA_GEM_CREATE
 * @drm: the device
 * @data: struct drm_nvdla_gem_create
 * @file: the caller's DRM file, which gets the handle
 *
 * Return: 0; -EINVAL for non-zero flags, a size of 0 or above
 * DRM_NVDLA_MAX_BO_SIZE; -E2BIG above the largest contiguous buffer the
 * device can get (DRM_NVDLA_PARAM_MAX_BO_SIZE); -ENOSPC when the device's
 * buffers would exceed max_buffer_mb; -ENOMEM when no contiguous memory is
 * left, or the caller's memory cgroup is at its limit.
 */
int nvdla_ioctl_gem_create(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct drm_nvdla_gem_create *args = data;
	struct drm_gem_dma_object *bo;
	int ret;

	if (args->flags || !args->size || args->size > DRM_NVDLA_MAX_BO_SIZE)
		return -EINVAL;
	if (PAGE_ALIGN(args->size) > to_nvdla_device(drm)->max_bo_size)
		return -E2BIG;

	bo = nvdla_gem_new(drm, PAGE_ALIGN(args->size));
	if (IS_ERR(bo))
		return PTR_ERR(bo);
	ret = drm_gem_handle_create(file, &bo->base, &args->handle);
	/* The handle holds the object now, or nothing does. */
	drm_gem_object_put(&bo->base);
	return ret;
}

/**
 * nvdla_ioctl_gem_mmap() - DRM_IOCTL_NVDLA_GEM_MMAP
 * @drm: the device
 * @data: struct drm_nvdla_gem_mmap
 * @file: the caller's DRM file
 *
 * Return: 0 with the offset to mmap; -EINVAL for a non-zero reserved
 * field; -ENOENT for an unknown handle.
 */
int nvdla_ioctl_gem_mmap(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct drm_nvdla_gem_mmap *args = data;
	struct drm_gem_object *obj;

	if (args->reserved)
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return 0;
}
