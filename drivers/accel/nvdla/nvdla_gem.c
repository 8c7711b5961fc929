// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Buffer objects. The accelerator has no MMU: it addresses each buffer by
 * one base address, so each must be one range of device addresses.
 *
 * Without an IOMMU translating for the device, they are objects of the
 * GEM DMA helper, one piece of physically contiguous memory, mapped to
 * user space through the DRM file by the helper. The memory comes from
 * the DMA API: the reserved-memory region the device-tree node names in
 * memory-region (a no-map pool or a CMA area of its own), else the
 * system's CMA area or page allocator. A node's memory-region is kept
 * even behind an IOMMU: the board asked for that pool.
 *
 * Behind an IOMMU that translates, without a memory-region, they are
 * objects of the GEM shmem helper (nvdla_gem_shmem.c): pages from
 * anywhere, which the IOMMU maps to one device range.
 *
 * Exported buffers are the helpers' too. Another driver's dma-buf is
 * imported when the device sees it as one range (nvdla_gem_shmem.c):
 * behind a translating IOMMU any, without one a contiguous one only;
 * others are refused with -EINVAL.
 */
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
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
 * Another driver's dma-buf, imported, holds its pages pinned and mapped
 * for the device and a range of the kernel's address space for as long
 * as the import lives, whatever memory cgroup paid for the pages.
 */
static unsigned int max_import_mb = 1024;
module_param(max_import_mb, uint, 0644);
MODULE_PARM_DESC(max_import_mb,
		 "Other drivers' dma-bufs one device may hold imported, all files together; more are refused with ENOSPC (MiB, default 1024, 0: no limit)");

/* An IOMMU translates the device's addresses (not a pass-through domain). */
static bool nvdla_gem_translated(struct device *dev)
{
	struct iommu_domain *domain;

	if (!device_iommu_mapped(dev))
		return false;
	domain = iommu_get_domain_for_dev(dev);
	return domain && (domain->type & __IOMMU_DOMAIN_PAGING);
}

/*
 * The largest buffer the DMA API can give the device in one piece: any
 * size behind an IOMMU, from a reserved-memory pool or on a kernel with CMA
 * (bounded by their size: beyond it, -ENOMEM); else the page allocator's
 * largest block (4 MiB on x86 and arm64 with 4 KiB pages).
 */
static u64 nvdla_gem_max_size(struct device *dev)
{
	if (nvdla_gem_translated(dev) || IS_ENABLED(CONFIG_DMA_CMA))
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

/*
 * Shmem buffers: the IOMMU maps each buffer's pages to one range when the
 * device takes segments of any size, anywhere.
 */
static void nvdla_gem_init_shmem(struct nvdla_device *ndev)
{
	struct device *dev = ndev->drm.dev;

	ndev->shmem = true;
	dma_set_max_seg_size(dev, UINT_MAX);
	dma_set_seg_boundary(dev, ULONG_MAX);
	drm_info(&ndev->drm, "shmem buffers, mapped by the IOMMU\n");
}

/**
 * nvdla_gem_init() - where the device's buffers come from
 * @ndev: the device being probed
 *
 * The DMA mask is the configuration's address width, which the kernel
 * narrows further to the node's dma-ranges. The node's memory-region, if
 * any, becomes the device's pool until the DRM device is released;
 * without one, a device behind a translating IOMMU gets shmem buffers.
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
	ret = dev->of_node ? of_reserved_mem_device_init(dev) : -ENODEV;
	if (ret == -ENODEV) {
		if (nvdla_gem_translated(dev))
			nvdla_gem_init_shmem(ndev);
		return 0;
	}
	if (ret)
		return dev_err_probe(dev, ret, "cannot use the memory-region\n");
	ndev->max_bo_size = nvdla_gem_max_size(dev);
	return drmm_add_action_or_reset(&ndev->drm, nvdla_gem_release_region,
					dev);
}

/*
 * Add @size to the count @bytes unless that passes @max_mb MiB (0: no
 * limit); -ENOSPC with nothing counted if it would.
 */
static int nvdla_gem_count(atomic64_t *bytes, size_t size,
			   unsigned int max_mb)
{
	u64 limit = (u64)max_mb << 20;

	if (atomic64_add_return(size, bytes) > limit && limit) {
		atomic64_sub(size, bytes);
		return -ENOSPC;
	}
	return 0;
}

/**
 * nvdla_gem_charge() - count a new buffer against the device's limit
 * @ndev: the device
 * @size: the buffer's size
 *
 * Return: 0, or -ENOSPC beyond max_buffer_mb (nothing counted).
 */
int nvdla_gem_charge(struct nvdla_device *ndev, size_t size)
{
	return nvdla_gem_count(&ndev->bo_bytes, size, READ_ONCE(max_buffer_mb));
}

/**
 * nvdla_gem_uncharge() - a buffer nvdla_gem_charge() counted is gone
 * @ndev: the device
 * @size: the buffer's size
 */
void nvdla_gem_uncharge(struct nvdla_device *ndev, size_t size)
{
	atomic64_sub(size, &ndev->bo_bytes);
}

/**
 * nvdla_gem_charge_import() - count a new import against the device's limit
 * @ndev: the device
 * @size: the dma-buf's size
 *
 * Return: 0, or -ENOSPC beyond max_import_mb (nothing counted).
 */
int nvdla_gem_charge_import(struct nvdla_device *ndev, size_t size)
{
	return nvdla_gem_count(&ndev->import_bytes, size,
			       READ_ONCE(max_import_mb));
}

/**
 * nvdla_gem_uncharge_import() - an import nvdla_gem_charge_import()
 *	counted is gone
 * @ndev: the device
 * @size: the dma-buf's size
 */
void nvdla_gem_uncharge_import(struct nvdla_device *ndev, size_t size)
{
	atomic64_sub(size, &ndev->import_bytes);
}

/* The helper frees the object; its bytes leave the device's count. */
static void nvdla_gem_free(struct drm_gem_object *obj)
{
	struct nvdla_device *ndev = to_nvdla_device(obj->dev);
	size_t size = obj->size;

	drm_gem_dma_object_free(obj);
	nvdla_gem_uncharge(ndev, size);
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
static struct drm_gem_object *nvdla_gem_dma_new(struct drm_device *drm,
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
		nvdla_gem_uncharge(ndev, size);
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
	return &bo->base;
}

/**
 * nvdla_gem_addrs() - where the device and the kernel see a buffer
 * @obj: one of the device's objects
 * @dma: its device address (its first byte; the rest follows)
 * @vaddr: its kernel address
 */
void nvdla_gem_addrs(struct drm_gem_object *obj, dma_addr_t *dma,
		     void **vaddr)
{
	struct drm_gem_dma_object *bo;

	if (nvdla_gem_shmem_addrs(obj, dma, vaddr))
		return;
	bo = to_drm_gem_dma_obj(obj);
	*dma = bo->dma_addr;
	*vaddr = bo->vaddr;
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
 * buffers would exceed max_buffer_mb; -ENOMEM when no contiguous memory
 * (or, behind the IOMMU, no memory or range of device addresses) is left,
 * or the caller's memory cgroup is at its limit.
 */
int nvdla_ioctl_gem_create(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct nvdla_device *ndev = to_nvdla_device(drm);
	struct drm_nvdla_gem_create *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->flags || !args->size || args->size > DRM_NVDLA_MAX_BO_SIZE)
		return -EINVAL;
	if (PAGE_ALIGN(args->size) > ndev->max_bo_size)
		return -E2BIG;

	obj = ndev->shmem ? nvdla_gem_shmem_new(drm, PAGE_ALIGN(args->size)) :
			    nvdla_gem_dma_new(drm, PAGE_ALIGN(args->size));
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	ret = drm_gem_handle_create(file, obj, &args->handle);
	/* The handle holds the object now, or nothing does. */
	drm_gem_object_put(obj);
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
