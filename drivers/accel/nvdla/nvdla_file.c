// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Per-file state: job numbers and how jobs ended, for DRM_IOCTL_NVDLA_WAIT,
 * and the engine time the file used, for fdinfo.
 */
#include <linux/dma-fence.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_utils.h>

#include "nvdla_drv.h"
#include "nvdla_file.h"
#include "nvdla_queue.h"

static void nvdla_file_release(struct kref *ref)
{
	struct nvdla_file *nfile = container_of(ref, struct nvdla_file, ref);
	unsigned long id;
	void *entry;

	xa_for_each(&nfile->jobs, id, entry)
		if (!xa_is_value(entry))
			dma_fence_put(entry);
	xa_destroy(&nfile->jobs);
	mutex_destroy(&nfile->sched_lock);
	mutex_destroy(&nfile->lock);
	kfree(nfile);
}

void nvdla_file_put(struct nvdla_file *nfile)
{
	kref_put(&nfile->ref, nvdla_file_release);
}

int nvdla_file_open(struct drm_device *drm, struct drm_file *file)
{
	struct nvdla_file *nfile;
	int ret;

	nfile = kzalloc(sizeof(*nfile), GFP_KERNEL_ACCOUNT);
	if (!nfile)
		return -ENOMEM;
	kref_init(&nfile->ref);
	mutex_init(&nfile->lock);
	xa_init_flags(&nfile->jobs, XA_FLAGS_ACCOUNT);
	nfile->fence_context = dma_fence_context_alloc(1);
	ret = nvdla_queue_open(to_nvdla_device(drm), nfile);
	if (ret) {
		nvdla_file_put(nfile);
		return ret;
	}
	file->driver_priv = nfile;
	return 0;
}

/* Jobs still queued end unrun at once; a running one finishes. */
void nvdla_file_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct nvdla_file *nfile = file->driver_priv;

	nvdla_queue_close(to_nvdla_device(drm), nfile);
	nvdla_file_put(nfile);
}

/*
 * The number stays unknown to waits until the job is published. Callers
 * hold the device's submit_lock, so no two reservations of a file meet.
 */
int nvdla_file_reserve_job(struct nvdla_file *nfile, u64 *id)
{
	int ret;

	mutex_lock(&nfile->lock);
	*id = nfile->last_id + 1;
	ret = xa_reserve(&nfile->jobs, *id, GFP_KERNEL_ACCOUNT);
	mutex_unlock(&nfile->lock);
	return ret;
}

/* Storing into a reserved entry allocates nothing, so cannot fail. */
void nvdla_file_publish_job(struct nvdla_file *nfile, u64 id,
			    struct dma_fence *fence)
{
	mutex_lock(&nfile->lock);
	xa_store(&nfile->jobs, id, dma_fence_get(fence), 0);
	nfile->last_id = id;
	mutex_unlock(&nfile->lock);
}

/*
 * Called as the job's fence signals, and by waits: whoever takes the fence
 * out of the table drops the table's reference. A failure stays as a
 * value entry, a few bytes, until a wait reports it.
 */
void nvdla_file_end_job(struct nvdla_file *nfile, u64 id,
			struct dma_fence *fence)
{
	void *status = fence->error ? xa_mk_value(-fence->error) : NULL;

	if (xa_cmpxchg(&nfile->jobs, id, fence, status, 0) == fence)
		dma_fence_put(fence);
}

/* A wait reported the failure of job @id: forget it. */
static void nvdla_file_forget_job(struct nvdla_file *nfile, u64 id,
				  struct dma_fence *fence)
{
	if (xa_cmpxchg(&nfile->jobs, id, fence, NULL, 0) == fence)
		dma_fence_put(fence);
	else
		xa_cmpxchg(&nfile->jobs, id, xa_mk_value(-fence->error), NULL,
			   0);
}

/*
 * The fence of job @id with a reference, else NULL with its kept status
 * in *@status (0 if it is not tracked any more), forgotten now.
 */
static int nvdla_file_find_job(struct nvdla_file *nfile, u64 id,
			       struct dma_fence **fence, int *status)
{
	void *entry;
	int ret = 0;

	*fence = NULL;
	*status = 0;
	mutex_lock(&nfile->lock);
	if (!id || id > nfile->last_id) {
		ret = -EINVAL;
	} else {
		xa_lock(&nfile->jobs);
		entry = xa_load(&nfile->jobs, id);
		if (xa_is_value(entry)) {
			*status = -(int)xa_to_value(entry);
			__xa_erase(&nfile->jobs, id);
		} else {
			*fence = dma_fence_get(entry);
		}
		xa_unlock(&nfile->jobs);
	}
	mutex_unlock(&nfile->lock);
	return ret;
}

int nvdla_file_wait_job(struct nvdla_file *nfile, u64 id, s64 timeout_ns,
			int *status)
{
	struct dma_fence *fence;
	long ret;

	ret = nvdla_file_find_job(nfile, id, &fence, status);
	if (ret || !fence)
		return ret;
	ret = dma_fence_wait_timeout(fence, true,
				     drm_timeout_abs_to_jiffies(timeout_ns));
	if (ret > 0) {
		*status = fence->error;
		if (fence->error)
			nvdla_file_forget_job(nfile, id, fence);
		ret = 0;
	} else if (!ret) {
		ret = -ETIMEDOUT;
	}
	dma_fence_put(fence);
	return ret;
}

/*
 * drm-usage-stats: the engine time of the file's jobs; and the driver's
 * own latencies, summed, for benchmarks (nvdla_runtime_bench).
 */
void nvdla_file_show_fdinfo(struct seq_file *m, struct file *f)
{
	struct drm_file *file = f->private_data;
	struct nvdla_file *nfile = file->driver_priv;

	struct drm_printer p = drm_seq_file_printer(m);

	drm_show_fdinfo(m, f);
	drm_show_memory_stats(&p, file);
	seq_printf(m, "drm-engine-nvdla:\t%llu ns\n",
		   (u64)atomic64_read(&nfile->busy_ns));
	seq_printf(m, "nvdla-submit-to-first-write:\t%llu ns\n",
		   (u64)atomic64_read(&nfile->first_write_ns));
	seq_printf(m, "nvdla-jobs-started:\t%llu\n",
		   (u64)atomic64_read(&nfile->jobs_started));
	seq_printf(m, "nvdla-irq-to-next:\t%llu ns\n",
		   (u64)atomic64_read(&nfile->irq_to_next_ns));
	seq_printf(m, "nvdla-irqs-to-next:\t%llu\n",
		   (u64)atomic64_read(&nfile->irqs_to_next));
}
