// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Jobs: resolving a task's address list to the submitting file's objects,
 * running it on the engine and waiting for it with a deadline.
 */
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_utils.h>

#include <nvdla/firmware.h>
#include <nvdla/sim.h>

#include "nvdla_accel.h"
#include "nvdla_drv.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"
#include "nvdla_power.h"
#include "nvdla_sim_dev.h"

static void nvdla_job_free(struct nvdla_job *job)
{
	u32 i;

	for (i = 0; i < job->num; i++)
		if (job->bos[i])
			drm_gem_object_put(&job->bos[i]->base);
	kvfree(job->bos);
	kvfree(job->offsets);
	kfree(job);
}

/* Look up every entry in @file and check its offset against the object. */
static int nvdla_job_resolve(struct nvdla_job *job, struct drm_file *file,
			     const struct drm_nvdla_address *addrs)
{
	struct drm_gem_object *obj;
	u32 i;

	for (i = 0; i < job->num; i++) {
		if (addrs[i].reserved)
			return -EINVAL;
		obj = drm_gem_object_lookup(file, addrs[i].handle);
		if (!obj)
			return -ENOENT;
		job->bos[i] = to_nvdla_bo(obj);
		if (addrs[i].offset >= obj->size)
			return -EINVAL;
		job->offsets[i] = addrs[i].offset;
	}
	return 0;
}

static struct nvdla_job *nvdla_job_new(struct drm_file *file,
				       const struct drm_nvdla_submit *args)
{
	struct drm_nvdla_address *addrs;
	struct nvdla_job *job;
	int ret = -ENOMEM;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	addrs = kvmalloc_array(args->num_addresses, sizeof(*addrs), GFP_KERNEL);
	if (!job || !addrs)
		goto err;
	job->bos = kvcalloc(args->num_addresses, sizeof(*job->bos), GFP_KERNEL);
	job->offsets = kvcalloc(args->num_addresses, sizeof(*job->offsets),
				GFP_KERNEL);
	if (!job->bos || !job->offsets)
		goto err;
	job->num = args->num_addresses;

	ret = -EFAULT;
	if (copy_from_user(addrs, u64_to_user_ptr(args->addresses),
			   array_size(args->num_addresses, sizeof(*addrs))))
		goto err;
	ret = nvdla_job_resolve(job, file, addrs);
	if (ret)
		goto err;
	kvfree(addrs);
	return job;

err:
	kvfree(addrs);
	if (job)
		nvdla_job_free(job);
	return ERR_PTR(ret);
}

void nvdla_job_process(struct nvdla_device *ndev)
{
	unsigned long flags;
	bool complete = false, wake = false;
	int ret;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	if (ndev->job && !ndev->job_done) {
		ret = dla_process_events(ndev->engine, &complete);
		if (ret || complete) {
			ndev->job_status = ret;
			ndev->job_done = true;
			wake = true;
		}
	}
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	if (wake)
		wake_up(&ndev->job_wq);
}

static int nvdla_job_start(struct nvdla_device *ndev, struct nvdla_job *job)
{
	struct dla_task task = { .host_task = job, .num_addresses = job->num };
	unsigned long flags;
	int ret;

	ret = nvdla_power_get(ndev);
	if (ret)
		return ret;
	spin_lock_irqsave(&ndev->engine_lock, flags);
	ndev->job = job;
	ndev->job_done = false;
	ndev->job_status = 0;
	nvdla_sim_dev_job_start(ndev);
	ret = dla_execute_task(ndev->engine, &task);
	if (ret) {
		dla_clear_task(ndev->engine);
		ndev->job = NULL;
	}
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	if (ret)
		nvdla_power_put(ndev);
	return ret;
}

/* Take the job off the engine, finished or not; returns its status. */
static int nvdla_job_stop(struct nvdla_device *ndev, int wait_ret)
{
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	if (ndev->job_done)
		ret = ndev->job_status;
	else
		ret = wait_ret < 0 ? -EINTR : -ETIMEDOUT;
	ret = nvdla_sim_dev_job_stop(ndev, ret);
	dla_clear_task(ndev->engine);
	ndev->job = NULL;
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	/* Its operations may still be running, or left state behind. */
	if (ret)
		nvdla_power_reset(ndev);
	nvdla_power_put(ndev);

	/* Firmware codes are errnos already; anything else is an I/O error. */
	if (ret && ret != -EINVAL && ret != -EINTR && ret != -ETIMEDOUT)
		ret = -EIO;
	return ret;
}

static int nvdla_job_run(struct nvdla_device *ndev, struct nvdla_job *job,
			 s64 timeout_ns)
{
	long wait;
	int ret;

	u64 start;

	ret = mutex_lock_interruptible(&ndev->job_lock);
	if (ret)
		return ret;
	start = ktime_get_ns();
	ndev->stats.submitted++;
	ret = nvdla_job_start(ndev, job);
	if (!ret) {
		wait = wait_event_interruptible_timeout(ndev->job_wq,
							READ_ONCE(ndev->job_done),
							drm_timeout_abs_to_jiffies(timeout_ns));
		ret = nvdla_job_stop(ndev, wait);
	}
	ndev->stats.busy_ns += ktime_get_ns() - start;
	if (!ret)
		ndev->stats.completed++;
	else if (ret == -ETIMEDOUT)
		ndev->stats.timed_out++;
	else
		ndev->stats.failed++;
	mutex_unlock(&ndev->job_lock);
	return ret;
}

/**
 * nvdla_ioctl_submit() - DRM_IOCTL_NVDLA_SUBMIT
 * @drm: the device
 * @data: struct drm_nvdla_submit
 * @file: the caller's DRM file, whose handles the address list names
 *
 * Runs the task and waits for it until the absolute deadline. A job that
 * is interrupted by a signal or times out is stopped and the engine reset;
 * it is not restarted, since the firmware has consumed its dependency
 * graph.
 *
 * Return: 0 when the task completed; -EINVAL for non-zero flags or
 * reserved fields, a wrong address_size, 0 or more than
 * DRM_NVDLA_MAX_ADDRESSES entries, an offset outside its object, or a task
 * the firmware rejects (before touching the hardware); -ENOENT for an
 * unknown handle; -EFAULT for an unreadable address list; -EINTR;
 * -ETIMEDOUT when the deadline passes, or has passed before the job could
 * start (it is then not run); -EIO when the hardware failed; -ENODEV once
 * the device is gone.
 */
int nvdla_ioctl_submit(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct nvdla_device *ndev = to_nvdla_device(drm);
	struct drm_nvdla_submit *args = data;
	struct nvdla_job *job;
	int idx, ret;

	if (args->flags || args->reserved ||
	    args->address_size != sizeof(struct drm_nvdla_address) ||
	    !args->num_addresses ||
	    args->num_addresses > DRM_NVDLA_MAX_ADDRESSES)
		return -EINVAL;

	job = nvdla_job_new(file, args);
	if (IS_ERR(job))
		return PTR_ERR(job);
	/* A deadline already past: refuse rather than race the hardware. */
	if (!drm_timeout_abs_to_jiffies(args->timeout_ns)) {
		nvdla_job_free(job);
		return -ETIMEDOUT;
	}

	if (drm_dev_enter(drm, &idx)) {
		ret = nvdla_job_run(ndev, job, args->timeout_ns);
		drm_dev_exit(idx);
	} else {
		ret = -ENODEV;
	}
	nvdla_job_free(job);
	return ret;
}
