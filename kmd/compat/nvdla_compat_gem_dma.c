// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Out-of-tree only: the functions of the kernel's GEM DMA helper
 * (drm_dma_helper.ko) that nvdla_gem.c uses, for kernels built without it.
 * Debian's amd64 kernels are: no driver they build selects
 * CONFIG_DRM_GEM_DMA_HELPER, though drm/drm_gem_dma_helper.h is there. They
 * keep the helper's names and behaviour (write-combined memory), so that
 * the driver's code is the same on every kernel; where the kernel has the
 * helper, this file is empty and the module links against it.
 *
 * The driver imports only its own buffers, so these objects always own
 * their memory: an imported object (import_attach) never reaches them.
 */
#include <linux/kconfig.h>

#if !IS_ENABLED(CONFIG_DRM_GEM_DMA_HELPER)
#include <linux/dma-mapping.h>
#include <linux/iosys-map.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_dma_helper.h>
#include <drm/drm_vma_manager.h>

const struct vm_operations_struct drm_gem_dma_vm_ops = {
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

void drm_gem_dma_free(struct drm_gem_dma_object *dma_obj)
{
	struct drm_gem_object *obj = &dma_obj->base;

	WARN_ON(obj->import_attach);
	if (dma_obj->vaddr)
		dma_free_wc(obj->dev->dev, obj->size, dma_obj->vaddr,
			    dma_obj->dma_addr);
	drm_gem_object_release(obj);
	kfree(dma_obj);
}

/* For importers of an exported buffer: it is one contiguous range. */
struct sg_table *drm_gem_dma_get_sg_table(struct drm_gem_dma_object *dma_obj)
{
	struct drm_gem_object *obj = &dma_obj->base;
	struct sg_table *sgt;
	int ret;

	sgt = kzalloc(sizeof(*sgt), GFP_KERNEL_ACCOUNT);
	if (!sgt)
		return ERR_PTR(-ENOMEM);
	ret = dma_get_sgtable(obj->dev->dev, sgt, dma_obj->vaddr,
			      dma_obj->dma_addr, obj->size);
	if (ret) {
		kfree(sgt);
		return ERR_PTR(ret);
	}
	return sgt;
}

int drm_gem_dma_vmap(struct drm_gem_dma_object *dma_obj,
		     struct iosys_map *map)
{
	iosys_map_set_vaddr(map, dma_obj->vaddr);
	return 0;
}

int drm_gem_dma_mmap(struct drm_gem_dma_object *dma_obj,
		     struct vm_area_struct *vma)
{
	struct drm_gem_object *obj = &dma_obj->base;

	/*
	 * The fake offset selected the object; map it from its start. The
	 * DMA API's remap adds VM_IO, VM_PFNMAP and VM_DONTDUMP.
	 */
	vma->vm_pgoff -= drm_vma_node_start(&obj->vma_node);
	vm_flags_set(vma, VM_DONTEXPAND);
	return dma_mmap_wc(obj->dev->dev, vma, dma_obj->vaddr,
			   dma_obj->dma_addr, vma->vm_end - vma->vm_start);
}
#endif
