// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Buffer objects of a device behind an IOMMU: objects of the GEM shmem
 * helper, whose pages the IOMMU maps to one range of device addresses,
 * since the engines address each buffer by one base address. The pages
 * come from shmem, charged to the memory cgroup of the caller that
 * creates the object; they are taken, mapped for the device and mapped
 * write-combined into the kernel (the firmware reads its descriptors
 * there) when the object is made, and given back when it is freed. User
 * space maps them write-combined too, as the DMA helper's buffers.
 *
 * Other drivers' dma-bufs are imported as objects of the helper too, on
 * any device, when the device sees them as one range of addresses: behind
 * a translating IOMMU, which maps their pages to one range, any of them;
 * without, only physically contiguous ones (a CMA heap's). The exporter
 * keeps their memory, which max_buffer_mb does not count: max_import_mb
 * counts the imports (nvdla_gem.c).
 */
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>

#include "nvdla_drv.h"
#include "nvdla_gem.h"

/**
 * struct nvdla_shmem_bo - a buffer behind the IOMMU
 * @base: the shmem helper's object
 * @dma_addr: the device's address of its first byte; the rest follows
 * @vaddr: its kernel mapping
 */
struct nvdla_shmem_bo {
	struct drm_gem_shmem_object base;
	dma_addr_t dma_addr;
	void *vaddr;
};

static struct nvdla_shmem_bo *to_nvdla_shmem_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct nvdla_shmem_bo,
			    base);
}

/*
 * The helper unmaps and frees (detaches an imported one); the bytes leave
 * the device's count of its own buffers or of its imports.
 */
static void nvdla_gem_shmem_free(struct drm_gem_object *obj)
{
	struct nvdla_device *ndev = to_nvdla_device(obj->dev);
	struct nvdla_shmem_bo *bo = to_nvdla_shmem_bo(obj);
	struct dma_buf_attachment *attach = obj->import_attach;
	struct iosys_map map = IOSYS_MAP_INIT_VADDR(bo->vaddr);
	size_t size = obj->size;

	if (attach)
		dma_buf_vunmap_unlocked(attach->dmabuf, &map);
	else if (bo->vaddr)
		vunmap(bo->vaddr);
	drm_gem_shmem_free(&bo->base);
	if (attach)
		nvdla_gem_uncharge_import(ndev, size);
	else
		nvdla_gem_uncharge(ndev, size);
}

/* The shmem helper's object functions, but for the count in free. */
static const struct drm_gem_object_funcs nvdla_gem_shmem_funcs = {
	.free = nvdla_gem_shmem_free,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/**
 * nvdla_gem_shmem_create_object() - the driver's gem_create_object
 * @drm: the device
 * @size: the object's size
 *
 * The shmem helper allocates its objects here: ours are larger, charged
 * to the caller's memory cgroup, and write-combined.
 *
 * Return: the object, or ERR_PTR(-ENOMEM).
 */
struct drm_gem_object *nvdla_gem_shmem_create_object(struct drm_device *drm,
						     size_t size)
{
	struct nvdla_shmem_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &nvdla_gem_shmem_funcs;
	bo->base.map_wc = true;
	return &bo->base.base;
}

/* The pages mapped for the device, which must see them in one range. */
static int nvdla_gem_shmem_map(struct nvdla_shmem_bo *bo)
{
	struct drm_gem_object *obj = &bo->base.base;
	struct sg_table *sgt;

	sgt = drm_gem_shmem_get_pages_sgt(&bo->base);
	if (IS_ERR(sgt))
		return PTR_ERR(sgt);
	if (drm_prime_get_contiguous_size(sgt) < obj->size) {
		drm_dbg_driver(obj->dev,
			       "buffer of %zu bytes is not one range of device addresses (%u entries)\n",
			       obj->size, sgt->nents);
		return -ENOMEM;
	}
	bo->dma_addr = sg_dma_address(sgt->sgl);
	bo->vaddr = vmap(bo->base.pages, obj->size >> PAGE_SHIFT, VM_MAP,
			 pgprot_writecombine(PAGE_KERNEL));
	return bo->vaddr ? 0 : -ENOMEM;
}

/**
 * nvdla_gem_shmem_new() - a buffer behind the device's IOMMU
 * @drm: the device
 * @size: its size, page aligned
 *
 * Return: the object, with one reference; ERR_PTR(-ENOSPC) beyond the
 * device's limit, ERR_PTR(-ENOMEM) when memory, the memory cgroup or
 * device addresses in one range run out.
 */
struct drm_gem_object *nvdla_gem_shmem_new(struct drm_device *drm, size_t size)
{
	struct nvdla_device *ndev = to_nvdla_device(drm);
	struct drm_gem_shmem_object *shmem;
	int ret;

	ret = nvdla_gem_charge(ndev, size);
	if (ret)
		return ERR_PTR(ret);
	shmem = drm_gem_shmem_create(drm, size);
	if (IS_ERR(shmem)) {
		nvdla_gem_uncharge(ndev, size);
		return ERR_CAST(shmem);
	}
	ret = nvdla_gem_shmem_map(container_of(shmem, struct nvdla_shmem_bo,
					       base));
	if (ret) {
		/* nvdla_gem_shmem_free() gives back what the object has. */
		drm_gem_object_put(&shmem->base);
		return ERR_PTR(ret);
	}
	return &shmem->base;
}

/*
 * The firmware may read descriptors in any buffer, so an import is mapped
 * into the kernel too, in the exporter's way: *@vaddr; -EINVAL for I/O
 * memory, which the firmware cannot read as memory.
 */
static int nvdla_gem_import_vmap(struct drm_device *drm, struct dma_buf *buf,
				 void **vaddr)
{
	struct iosys_map map;
	int ret;

	ret = dma_buf_vmap_unlocked(buf, &map);
	if (ret)
		return ret;
	if (map.is_iomem) {
		dma_buf_vunmap_unlocked(buf, &map);
		drm_dbg_driver(drm, "dma-buf in I/O memory: the firmware cannot read it\n");
		return -EINVAL;
	}
	*vaddr = map.vaddr;
	return 0;
}

/**
 * nvdla_gem_import_sg_table() - the driver's gem_prime_import_sg_table
 * @drm: the device
 * @attach: its attachment to another driver's dma-buf
 * @sgt: the dma-buf's pages, mapped for the device
 *
 * The engines address a buffer by one base address, so the pages must
 * map to one range of device addresses: behind an IOMMU they do, without
 * one only if they are contiguous. The import is counted against the
 * device's max_import_mb first, as it holds the exporter's pages and a
 * kernel mapping of all of them (nvdla_gem_import_vmap()) as long as it
 * lives; its object is charged to the caller's memory cgroup
 * (nvdla_gem_shmem_create_object()). On error nothing is left: the
 * caller detaches.
 *
 * Return: the object, with one reference; ERR_PTR(-EINVAL) for pages in
 * more than one range or a mapping in I/O memory, ERR_PTR(-ENOSPC)
 * beyond max_import_mb, or the helper's or the exporter's error.
 */
struct drm_gem_object *nvdla_gem_import_sg_table(struct drm_device *drm,
						 struct dma_buf_attachment *attach,
						 struct sg_table *sgt)
{
	struct nvdla_device *ndev = to_nvdla_device(drm);
	struct dma_buf *buf = attach->dmabuf;
	struct drm_gem_object *obj;
	struct iosys_map map;
	void *vaddr;
	int ret;

	/* Entries of adjacent pages are one range (6.12's udmabuf: a page each). */
	if (drm_prime_get_contiguous_size(sgt) < buf->size) {
		drm_dbg_driver(drm,
			       "dma-buf of %zu bytes is not one range of device addresses (%u entries; no IOMMU, scattered pages)\n",
			       buf->size, sgt->nents);
		return ERR_PTR(-EINVAL);
	}
	ret = nvdla_gem_charge_import(ndev, buf->size);
	if (ret) {
		drm_dbg_driver(drm, "dma-buf of %zu bytes refused: max_import_mb reached\n",
			       buf->size);
		return ERR_PTR(ret);
	}
	ret = nvdla_gem_import_vmap(drm, buf, &vaddr);
	if (ret)
		goto err_uncharge;
	obj = drm_gem_shmem_prime_import_sg_table(drm, attach, sgt);
	if (IS_ERR(obj)) {
		ret = PTR_ERR(obj);
		goto err_vunmap;
	}
	to_nvdla_shmem_bo(obj)->dma_addr = sg_dma_address(sgt->sgl);
	to_nvdla_shmem_bo(obj)->vaddr = vaddr;
	return obj;

err_vunmap:
	iosys_map_set_vaddr(&map, vaddr);
	dma_buf_vunmap_unlocked(buf, &map);
err_uncharge:
	nvdla_gem_uncharge_import(ndev, buf->size);
	return ERR_PTR(ret);
}

/**
 * nvdla_gem_shmem_addrs() - where the device and the kernel see a buffer
 * @obj: an object of nvdla_gem_shmem_new(), or another kind
 * @dma: its device address, if @obj is one of nvdla_gem_shmem_new()
 * @vaddr: its kernel address, likewise
 *
 * Return: whether @obj is one of nvdla_gem_shmem_new()'s.
 */
bool nvdla_gem_shmem_addrs(struct drm_gem_object *obj, dma_addr_t *dma,
			   void **vaddr)
{
	struct nvdla_shmem_bo *bo;

	if (obj->funcs != &nvdla_gem_shmem_funcs)
		return false;
	bo = to_nvdla_shmem_bo(obj);
	*dma = bo->dma_addr;
	*vaddr = bo->vaddr;
	return true;
}
