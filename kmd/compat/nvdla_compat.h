/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The kernel interfaces drivers/accel/nvdla uses that the older kernels
 * this out-of-tree build supports (Debian 12's 6.1) lack or spell
 * differently, under the names the driver uses. kmd/Kbuild includes this
 * header before every source file; the upstream driver never sees it.
 */
#ifndef __NVDLA_COMPAT_H__
#define __NVDLA_COMPAT_H__

#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/version.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>

/* vm_flags became read-only behind vm_flags_set() in 6.3. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/* MAX_ORDER became inclusive in 6.4 and MAX_PAGE_ORDER in 6.8. */
#ifndef MAX_PAGE_ORDER
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
#define MAX_PAGE_ORDER (MAX_ORDER - 1)
#else
#define MAX_PAGE_ORDER MAX_ORDER
#endif
#endif

/*
 * Before 6.2 dma_buf_vmap() took the dma-buf's lock itself; the
 * _unlocked names came with the reservation lock.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define dma_buf_vmap_unlocked dma_buf_vmap
#define dma_buf_vunmap_unlocked dma_buf_vunmap
#endif

/* pcim_iomap_region() came in 6.12; before, the table of mapped BARs. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
static inline void __iomem *
nvdla_compat_pcim_iomap_region(struct pci_dev *pdev, int bar, const char *name)
{
	int ret = pcim_iomap_regions(pdev, BIT(bar), name);

	return ret ? IOMEM_ERR_PTR(ret) : pcim_iomap_table(pdev)[bar];
}

#define pcim_iomap_region nvdla_compat_pcim_iomap_region
#endif

/*
 * Until 6.6 the core maps an exported buffer's dma-buf only through the
 * driver's gem_prime_mmap (-ENOSYS without it); since then it uses the
 * object's mmap itself. The render node's driver (patch 0002) lists it.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
#define NVDLA_COMPAT_GEM_PRIME_MMAP .gem_prime_mmap = drm_gem_prime_mmap,
#else
#define NVDLA_COMPAT_GEM_PRIME_MMAP
#endif

/* The DRM core prints a file's common fdinfo keys since 6.5. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
static inline void drm_show_fdinfo(struct seq_file *m, struct file *f)
{
	struct drm_file *file = f->private_data;

	seq_printf(m, "drm-driver:\t%s\n", file->minor->dev->driver->name);
}

static inline void drm_show_memory_stats(struct drm_printer *p,
					 struct drm_file *file)
{
}
#endif

/*
 * 6.8 gave the GPU scheduler job credits, a run queue count, a submission
 * workqueue and drm_sched_wqueue_stop(); the DRM client's id came later.
 * Debian's 6.1 runs jobs from a thread of its own, with one run queue per
 * priority, and its entity teardown needs a fix-up (nvdla_compat_sched.c).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
struct nvdla_compat_sched_init_args {
	const struct drm_sched_backend_ops *ops;
	struct workqueue_struct *submit_wq;
	struct workqueue_struct *timeout_wq;
	u32 num_rqs;
	u32 credit_limit;
	long timeout;
	const char *name;
	struct device *dev;
};

static inline int
nvdla_compat_sched_init(struct drm_gpu_scheduler *sched,
			const struct nvdla_compat_sched_init_args *args)
{
	const struct drm_sched_init_args old = {
		.ops = args->ops,
		.timeout_wq = args->timeout_wq,
		.credit_limit = args->credit_limit,
		.timeout = args->timeout,
		.name = args->name,
		.dev = args->dev,
	};

	return drm_sched_init(sched, &old);
}

#define drm_sched_init_args nvdla_compat_sched_init_args
#define drm_sched_init(sched, args) nvdla_compat_sched_init(sched, args)
#define drm_sched_job_init(job, entity, credits, owner, client_id) \
	drm_sched_job_init(job, entity, owner)

/* kmd/compat/nvdla_compat_sched.c */
void nvdla_compat_sched_stop(struct drm_gpu_scheduler *sched);
void nvdla_compat_sched_start(struct drm_gpu_scheduler *sched);
void nvdla_compat_sched_entity_fini(struct drm_sched_entity *entity);

#define drm_sched_wqueue_stop(sched) nvdla_compat_sched_stop(sched)
#define drm_sched_wqueue_start(sched) nvdla_compat_sched_start(sched)
#define drm_sched_entity_fini(entity) nvdla_compat_sched_entity_fini(entity)
#endif

#endif /* __NVDLA_COMPAT_H__ */
