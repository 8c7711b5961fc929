/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The kernel API differences between the kernels this out-of-tree driver
 * supports (Debian 12's 6.1 and 6.12), kept out of the driver's code.
 */
#ifndef __NVDLA_COMPAT_H__
#define __NVDLA_COMPAT_H__

#include <linux/dma-resv.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#include <drm/drm_file.h>
#include <drm/gpu_scheduler.h>

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
 * 6.8 gave drm_exec_init() its current form, and the GPU scheduler its
 * submission workqueue, job credits and drm_sched_wqueue_stop(); Debian's
 * 6.12 has the rest of the scheduler interface the driver uses too
 * (struct drm_sched_init_args, a job's DRM client id).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define NVDLA_COMPAT_SINCE_6_8 1
#else
#define NVDLA_COMPAT_SINCE_6_8 0
#endif

/*
 * Lock the reservation objects of @objs[@count] (distinct objects) and
 * reserve a fence slot on each, before a job's fence becomes visible:
 * with drm_exec where the kernel has it, else with the ww-mutex helper
 * that drm_exec replaced.
 */
#if NVDLA_COMPAT_SINCE_6_8
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

/*
 * The GPU scheduler: kmd/nvdla_queue.c calls the wrappers below where
 * upstream's interface differs from these kernels'.
 */

/*
 * A scheduler whose run queues cover every priority, with timeouts (and,
 * where it takes one, submission) on @wq. Debian's 6.1 scheduler runs
 * jobs from a thread of its own.
 */
static inline int nvdla_sched_init(struct drm_gpu_scheduler *sched,
				   const struct drm_sched_backend_ops *ops,
				   struct workqueue_struct *wq, u32 credits,
				   long timeout, const char *name,
				   struct device *dev)
{
	const struct drm_sched_init_args args = {
		.ops = ops,
#if NVDLA_COMPAT_SINCE_6_8
		.submit_wq = wq,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
#endif
		.timeout_wq = wq,
		.credit_limit = credits,
		.timeout = timeout,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
}

/*
 * A job of one credit: upstream's drm_sched_job_init() takes the job's
 * credits and its DRM client's id (for fdinfo).
 */
static inline int nvdla_sched_job_init(struct drm_sched_job *job,
				       struct drm_sched_entity *entity,
				       void *owner, struct drm_file *file)
{
#if NVDLA_COMPAT_SINCE_6_8
	return drm_sched_job_init(job, entity, 1, owner, file->client_id);
#else
	return drm_sched_job_init(job, entity, owner);
#endif
}

/*
 * The job the scheduler timed out is not hung (it still has time, or it
 * has ended): upstream's timedout_job returns DRM_GPU_SCHED_STAT_NO_HANG
 * and the scheduler puts the job back on its pending list. These kernels
 * have no such status, so the job goes back here, before its hardware
 * fence may signal, so that free_job still gets it. Return what
 * timedout_job returns then.
 */
static inline enum drm_gpu_sched_stat
nvdla_sched_job_not_hung(struct drm_sched_job *job)
{
	struct drm_gpu_scheduler *sched = job->sched;

	spin_lock(&sched->job_list_lock);
	list_add(&job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

/* Start no job (system sleep), and start them again. */
static inline void nvdla_sched_pause(struct drm_gpu_scheduler *sched)
{
#if NVDLA_COMPAT_SINCE_6_8
	drm_sched_wqueue_stop(sched);
#else
	kthread_park(sched->thread);
#endif
}

static inline void nvdla_sched_unpause(struct drm_gpu_scheduler *sched)
{
#if NVDLA_COMPAT_SINCE_6_8
	drm_sched_wqueue_start(sched);
#else
	kthread_unpark(sched->thread);
#endif
}

/*
 * The GEM DMA helper is the same on 6.1 and 6.12 for what the driver uses
 * (only its DRM_GEM_DMA_DRIVER_OPS macros differ, which it does not use).
 * Kernels built without it (CONFIG_DRM_GEM_DMA_HELPER unset: Debian's
 * amd64 ones) get its functions from nvdla_compat_gem_dma.c.
 */

/*
 * Until 6.6 the core maps an exported buffer's dma-buf only through the
 * driver's gem_prime_mmap (-ENOSYS without it); since then it uses the
 * object's mmap itself.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
#define NVDLA_COMPAT_GEM_PRIME_MMAP .gem_prime_mmap = drm_gem_prime_mmap,
#else
#define NVDLA_COMPAT_GEM_PRIME_MMAP
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
