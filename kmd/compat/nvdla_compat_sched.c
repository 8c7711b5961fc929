// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Out-of-tree only: the GPU scheduler of kernels before 6.8 (Debian's
 * 6.1) runs jobs from a kthread of its own, and stopping it means parking
 * that thread. The driver parks it for system sleep (the 6.12 name is
 * drm_sched_wqueue_stop()) and, here, around a fix-up before an entity is
 * torn down. One lock orders the parks, so neither undoes the other's.
 */
#include <linux/dma-fence.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/version.h>

#include <drm/gpu_scheduler.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
static DEFINE_MUTEX(nvdla_compat_park_lock);

void nvdla_compat_sched_stop(struct drm_gpu_scheduler *sched)
{
	mutex_lock(&nvdla_compat_park_lock);
	kthread_park(sched->thread);
	mutex_unlock(&nvdla_compat_park_lock);
}

void nvdla_compat_sched_start(struct drm_gpu_scheduler *sched)
{
	mutex_lock(&nvdla_compat_park_lock);
	kthread_unpark(sched->thread);
	mutex_unlock(&nvdla_compat_park_lock);
}

/*
 * 6.1's drm_sched_entity_fini() kills each job still in the entity's
 * queue by taking a reference to the entity's last scheduled fence and
 * adding a callback to it that drops the reference; when that fence has
 * already signalled, the callback is called without it and the reference
 * leaks, with the scheduler fence and the driver fence behind it (6.12's
 * drm_sched_entity_kill() drops it). A file that closes with a job
 * waiting behind another file's is that case. With the scheduler's
 * thread parked, so that it cannot pop a job of the entity meanwhile, a
 * signalled last fence is dropped here first: the kill then has none to
 * wait for, which is what it would have done with it.
 */
void nvdla_compat_sched_entity_fini(struct drm_sched_entity *entity)
{
	struct drm_gpu_scheduler *sched = entity->rq ? entity->rq->sched : NULL;
	bool park;

	mutex_lock(&nvdla_compat_park_lock);
	park = sched && !__kthread_should_park(sched->thread);
	if (park)
		kthread_park(sched->thread);
	if (entity->last_scheduled &&
	    dma_fence_is_signaled(entity->last_scheduled)) {
		dma_fence_put(entity->last_scheduled);
		entity->last_scheduled = NULL;
	}
	if (park)
		kthread_unpark(sched->thread);
	mutex_unlock(&nvdla_compat_park_lock);
	(drm_sched_entity_fini)(entity);
}
#endif
