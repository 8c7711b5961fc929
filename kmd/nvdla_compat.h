/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The kernel API differences between the kernels this out-of-tree driver
 * supports (Debian 12's 6.1 and 6.12), kept out of the driver's code.
 */
#ifndef __NVDLA_COMPAT_H__
#define __NVDLA_COMPAT_H__

#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/version.h>

/* vm_flags became read-only behind vm_flags_set() in 6.3. */
static inline void nvdla_vm_flags_set(struct vm_area_struct *vma,
				      vm_flags_t flags)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/* platform_driver.remove returns void since 6.11. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define NVDLA_DEFINE_PLATFORM_REMOVE(name, fn) \
	static void name(struct platform_device *pdev) { fn(pdev); }
#else
#define NVDLA_DEFINE_PLATFORM_REMOVE(name, fn) \
	static int name(struct platform_device *pdev) { fn(pdev); return 0; }
#endif

/*
 * Lock the reservation objects of @objs[@count] (distinct objects) and
 * reserve a fence slot on each, before a job's fence becomes visible:
 * with drm_exec where the kernel has it (6.8 gave drm_exec_init its
 * current form), else with the ww-mutex helper that drm_exec replaced.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#include <drm/drm_exec.h>

struct nvdla_objs_lock {
	struct drm_exec exec;
};

static inline int nvdla_objs_lock(struct nvdla_objs_lock *lock,
				  struct drm_gem_object **objs, u32 count)
{
	int ret = 0;
	u32 i;

	drm_exec_init(&lock->exec, DRM_EXEC_INTERRUPTIBLE_WAIT, count);
	drm_exec_until_all_locked(&lock->exec) {
		for (i = 0; i < count; i++) {
			ret = drm_exec_prepare_obj(&lock->exec, objs[i], 1);
			drm_exec_retry_on_contention(&lock->exec);
			if (ret)
				break;
		}
	}
	if (ret)
		drm_exec_fini(&lock->exec);
	return ret;
}

static inline void nvdla_objs_unlock(struct nvdla_objs_lock *lock)
{
	drm_exec_fini(&lock->exec);
}
#else
#include <drm/drm_gem.h>

struct nvdla_objs_lock {
	struct ww_acquire_ctx ctx;
	struct drm_gem_object **objs;
	u32 count;
};

static inline int nvdla_objs_lock(struct nvdla_objs_lock *lock,
				  struct drm_gem_object **objs, u32 count)
{
	int ret;
	u32 i;

	ret = drm_gem_lock_reservations(objs, count, &lock->ctx);
	if (ret)
		return ret;
	for (i = 0; !ret && i < count; i++)
		ret = dma_resv_reserve_fences(objs[i]->resv, 1);
	if (ret)
		drm_gem_unlock_reservations(objs, count, &lock->ctx);
	lock->objs = objs;
	lock->count = count;
	return ret;
}

static inline void nvdla_objs_unlock(struct nvdla_objs_lock *lock)
{
	drm_gem_unlock_reservations(lock->objs, lock->count, &lock->ctx);
}
#endif

/* The largest order the page allocator gives (inclusive since 6.4). */
#if defined(MAX_PAGE_ORDER)
#define NVDLA_MAX_PAGE_ORDER MAX_PAGE_ORDER
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define NVDLA_MAX_PAGE_ORDER MAX_ORDER
#else
#define NVDLA_MAX_PAGE_ORDER (MAX_ORDER - 1)
#endif

#endif /* __NVDLA_COMPAT_H__ */
