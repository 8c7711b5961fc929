// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The official NVDLA driver's SUBMIT and GEM_DESTROY, so that its user
 * space runs unchanged. Its address lists name buffers by dma-buf file
 * descriptor (exported from this device); each is turned into the GEM
 * handle of the calling file, and the task then runs as any job does.
 */
#include <linux/dma-fence.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/nvdla_accel.h>

#include "nvdla_drv.h"
#include "nvdla_job.h"
#include "nvdla_legacy.h"

static int nvdla_legacy_addresses(struct drm_file *file,
				  const struct drm_nvdla_legacy_task *task,
				  struct drm_nvdla_address *addrs)
{
	struct drm_nvdla_legacy_address entry;
	const struct drm_nvdla_legacy_address __user *list;
	u32 i;
	int ret;

	list = u64_to_user_ptr(task->address_list);
	for (i = 0; i < task->num_addresses; i++) {
		if (copy_from_user(&entry, &list[i], sizeof(entry)))
			return -EFAULT;
		ret = drm_gem_prime_fd_to_handle(file->minor->dev, file,
						 entry.handle, &addrs[i].handle);
		/*
		 * No descriptor (-EBADF), or one that is not a dma-buf or is
		 * another driver's that this device does not see as one
		 * range (-EINVAL).
		 */
		if (ret == -EBADF || ret == -EINVAL)
			return -ENOENT;
		if (ret)
			return ret;
		addrs[i].reserved = 0;
		addrs[i].offset = entry.offset;
	}
	return 0;
}

/*
 * Run one task and wait for it. A signal interrupts the wait with -EINTR,
 * which the kernel does not restart: a restarted ioctl would run the task
 * twice. The task then runs on; its result is lost.
 */
static int nvdla_legacy_run(struct drm_file *file,
			    const struct drm_nvdla_legacy_task *task)
{
	struct drm_nvdla_address *addrs;
	struct nvdla_job *job;
	struct dma_fence *done;
	u64 id;
	int ret;

	if (!task->num_addresses || task->num_addresses > DRM_NVDLA_MAX_ADDRESSES)
		return -EINVAL;
	addrs = kvcalloc(task->num_addresses, sizeof(*addrs), GFP_KERNEL_ACCOUNT);
	if (!addrs)
		return -ENOMEM;
	ret = nvdla_legacy_addresses(file, task, addrs);
	job = ret ? ERR_PTR(ret) : nvdla_job_create(file, addrs,
						    task->num_addresses);
	kvfree(addrs);
	if (IS_ERR(job))
		return PTR_ERR(job);
	ret = nvdla_job_queue(job, &done, &id);
	if (ret)
		return ret;
	ret = dma_fence_wait(done, true);
	if (!ret)
		ret = done->error;
	else if (ret == -ERESTARTSYS)
		ret = -EINTR;
	dma_fence_put(done);
	return ret;
}

/**
 * nvdla_ioctl_legacy_submit() - the official DRM_IOCTL_NVDLA_SUBMIT
 * @drm: the device
 * @data: struct drm_nvdla_legacy_submit
 * @file: the caller's DRM file
 *
 * Runs the tasks one after the other until one fails.
 *
 * Return: 0 when all completed; the errno of the first that failed, as
 * DRM_IOCTL_NVDLA_WAIT reports it; -EINVAL for no task or more than
 * DRM_NVDLA_LEGACY_MAX_TASKS; -ENOENT for a descriptor that is not a buffer
 * the device can use; -EFAULT for an unreadable array; -EINTR when a signal
 * came while a task ran (it runs on, the later ones do not); -EBUSY, -EIO
 * and -ENODEV as DRM_IOCTL_NVDLA_SUBMIT.
 */
int nvdla_ioctl_legacy_submit(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	const struct drm_nvdla_legacy_task __user *tasks;
	struct drm_nvdla_legacy_submit *args = data;
	struct drm_nvdla_legacy_task task;
	int idx, ret = 0;
	u16 i;

	if (!args->num_tasks || args->num_tasks > DRM_NVDLA_LEGACY_MAX_TASKS)
		return -EINVAL;
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	tasks = u64_to_user_ptr(args->tasks);
	for (i = 0; !ret && i < args->num_tasks; i++) {
		if (copy_from_user(&task, &tasks[i], sizeof(task)))
			ret = -EFAULT;
		else
			ret = nvdla_legacy_run(file, &task);
	}
	drm_dev_exit(idx);
	return ret;
}

/**
 * nvdla_ioctl_legacy_gem_destroy() - the official DRM_IOCTL_NVDLA_GEM_DESTROY
 * @drm: the device
 * @data: struct drm_nvdla_legacy_gem_destroy
 * @file: the caller's DRM file
 *
 * Return: 0; -EINVAL for an unknown handle, as DRM_IOCTL_GEM_CLOSE.
 */
int nvdla_ioctl_legacy_gem_destroy(struct drm_device *drm, void *data,
				   struct drm_file *file)
{
	struct drm_nvdla_legacy_gem_destroy *args = data;

	return drm_gem_handle_delete(file, args->handle);
}
