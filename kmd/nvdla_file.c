// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Per-file state: job numbers and how jobs ended, for DRM_IOCTL_NVDLA_WAIT,
 * and the engine time the file used, for fdinfo.
 */
#include <linux/dma-fence.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/version.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_utils.h>

#include "nvdla_file.h"

static void nvdla_file_release(struct kref *ref)
{
	struct nvdla_file *nfile = container_of(ref, struct nvdla_file, ref);
	struct dma_fence *fence;
	unsigned long id;

	xa_for_each(&nfile->jobs, id, fence)
		dma_fence_put(fence);
	xa_destroy(&nfile->jobs);
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

	nfile = kzalloc(sizeof(*nfile), GFP_KERNEL_ACCOUNT);
	if (!nfile)
		return -ENOMEM;
	kref_init(&nfile->ref);
	mutex_init(&nfile->lock);
	xa_init_flags(&nfile->jobs, XA_FLAGS_ACCOUNT);
	file->driver_priv = nfile;
	return 0;
}

/* Jobs still queued see @closed and end unrun; running ones finish. */
void nvdla_file_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct nvdla_file *nfile = file->driver_priv;

	WRITE_ONCE(nfile->closed, true);
	nvdla_file_put(nfile);
}

int nvdla_file_add_job(struct nvdla_file *nfile, struct dma_fence *fence,
		       u64 *id)
{
	int ret;

	mutex_lock(&nfile->lock);
	ret = xa_err(xa_store(&nfile->jobs, nfile->last_id + 1,
			      dma_fence_get(fence), GFP_KERNEL_ACCOUNT));
	if (ret)
		dma_fence_put(fence);
	else
		*id = ++nfile->last_id;
	mutex_unlock(&nfile->lock);
	return ret;
}

void nvdla_file_end_job(struct nvdla_file *nfile, u64 id,
			struct dma_fence *fence)
{
	if (fence->error)
		return;
	if (xa_cmpxchg(&nfile->jobs, id, fence, NULL, 0) == fence)
		dma_fence_put(fence);
}

/* The fence of job @id with a reference, NULL if it ended well. */
static int nvdla_file_find_job(struct nvdla_file *nfile, u64 id,
			       struct dma_fence **fence)
{
	int ret = 0;

	mutex_lock(&nfile->lock);
	if (!id || id > nfile->last_id) {
		ret = -EINVAL;
	} else {
		xa_lock(&nfile->jobs);
		*fence = dma_fence_get(xa_load(&nfile->jobs, id));
		xa_unlock(&nfile->jobs);
	}
	mutex_unlock(&nfile->lock);
	return ret;
}

int nvdla_file_wait_job(struct nvdla_file *nfile, u64 id, s64 timeout_ns,
			int *status)
{
	struct dma_fence *fence = NULL;
	long ret;

	ret = nvdla_file_find_job(nfile, id, &fence);
	if (ret || !fence) {
		*status = 0;
		return ret;
	}
	ret = dma_fence_wait_timeout(fence, true,
				     drm_timeout_abs_to_jiffies(timeout_ns));
	if (ret > 0) {
		*status = fence->error;
		nvdla_file_end_job(nfile, id, fence);
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

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	struct drm_printer p = drm_seq_file_printer(m);

	drm_show_fdinfo(m, f);
	drm_show_memory_stats(&p, file);
#else
	seq_printf(m, "drm-driver:\t%s\n", file->minor->dev->driver->name);
#endif
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
