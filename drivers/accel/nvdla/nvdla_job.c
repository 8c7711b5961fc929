// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Jobs: a task's address list resolved to objects of the submitting file,
 * its in-fences and out-fence; the submit and wait ioctls.
 */
#include <linux/bitmap.h>
#include <linux/bsearch.h>
#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>
#include <drm/drm_utils.h>
#include <drm/nvdla_accel.h>

#include <nvdla/firmware.h>

#include "nvdla_drv.h"
#include "nvdla_fence.h"
#include "nvdla_file.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"
#include "nvdla_queue.h"

/*
 * Kernel memory a job holds for its task (the descriptors' copy, the
 * validation's scratch memory while it runs, the address list and
 * in-fences resolved) is charged to the submitting process's memory
 * cgroup and bounded three ways: per job, per file over its jobs queued
 * or running, and per device over every file's.
 */
static unsigned int max_job_kb = 16384;
module_param(max_job_kb, uint, 0644);
MODULE_PARM_DESC(max_job_kb,
		 "Kernel memory one job may hold for its task: its descriptors, copied, and its address list (KiB, default 16384); a larger task is refused with E2BIG");

static unsigned int max_file_jobs_mb = 64;
module_param(max_file_jobs_mb, uint, 0644);
MODULE_PARM_DESC(max_file_jobs_mb,
		 "Kernel memory the queued and running jobs of one file may hold together (MiB, default 64); more are refused with EBUSY until some end");

static unsigned int max_device_jobs_mb = 256;
module_param(max_device_jobs_mb, uint, 0644);
MODULE_PARM_DESC(max_device_jobs_mb,
		 "Kernel memory the jobs of all files on a device may hold together (MiB, default 256); more are refused with ENOSPC until some end");

/* Add @size to @used unless that passes @max; whether it did. */
static bool nvdla_job_budget_take(atomic64_t *used, u64 size, u64 max)
{
	s64 old = atomic64_read(used);

	do {
		if (size > max || old > max - size)
			return false;
	} while (!atomic64_try_cmpxchg(used, &old, old + size));
	return true;
}

/**
 * nvdla_job_charge() - count @size more bytes of kernel memory for @job
 * @job: the job being made
 * @size: what it is about to allocate
 *
 * Return: 0; -E2BIG past max_job_kb for the job, -EBUSY past
 * max_file_jobs_mb for its file, -ENOSPC past max_device_jobs_mb for the
 * device: nothing is then counted.
 */
static int nvdla_job_charge(struct nvdla_job *job, size_t size)
{
	u64 max_job = (u64)READ_ONCE(max_job_kb) << 10;
	u64 max_file = (u64)READ_ONCE(max_file_jobs_mb) << 20;
	u64 max_device = (u64)READ_ONCE(max_device_jobs_mb) << 20;
	int ret;

	if (size > max_job || job->charged > max_job - size)
		ret = -E2BIG;
	else if (!nvdla_job_budget_take(&job->file->job_bytes, size, max_file))
		ret = -EBUSY;
	else if (!nvdla_job_budget_take(&job->ndev->job_bytes, size,
					max_device))
		ret = -ENOSPC;
	else
		ret = 0;
	if (ret == -ENOSPC)
		atomic64_sub(size, &job->file->job_bytes);
	if (ret) {
		drm_dbg_driver(&job->ndev->drm,
			       "job refused: %zu more bytes of kernel memory (%llu held): %d\n",
			       size, (u64)job->charged, ret);
		return ret;
	}
	job->charged += size;
	return 0;
}

static void nvdla_job_uncharge(struct nvdla_job *job, size_t size)
{
	job->charged -= size;
	atomic64_sub(size, &job->file->job_bytes);
	atomic64_sub(size, &job->ndev->job_bytes);
}

/**
 * nvdla_job_alloc() - zeroed kernel memory for @job's task, charged
 * @job: the job being made
 * @size: bytes
 * @ptr: gets the memory
 *
 * A full memory cgroup or a system short of memory refuses it rather
 * than calling the OOM killer: the submission fails, its caller lives.
 *
 * Return: 0; nvdla_job_charge()'s errors; -ENOMEM.
 */
int nvdla_job_alloc(struct nvdla_job *job, size_t size, void *ptr)
{
	void **p = ptr;
	int ret;

	ret = nvdla_job_charge(job, size);
	if (ret)
		return ret;
	*p = kvzalloc(size, GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
		      __GFP_NOWARN);
	if (!*p) {
		nvdla_job_uncharge(job, size);
		return -ENOMEM;
	}
	return 0;
}

/* Give back @size bytes at @ptr (NULL for none) from nvdla_job_alloc(). */
void nvdla_job_free_mem(struct nvdla_job *job, void *ptr, size_t size)
{
	if (!ptr)
		return;
	kvfree(ptr);
	nvdla_job_uncharge(job, size);
}

/**
 * nvdla_job_strip() - let go of all a job holds but its fences
 * @job: a job that will not run (or no longer runs)
 *
 * Its task copy, buffer references, address list and in-fences go; the
 * job itself stays until its fence has signalled in order and the
 * scheduler is done with it.
 */
void nvdla_job_strip(struct nvdla_job *job)
{
	u32 i;

	dla_task_release(job->ndev->engine, job->checked);
	job->checked = NULL;
	for (i = 0; job->bos && i < job->num; i++)
		if (job->bos[i])
			drm_gem_object_put(job->bos[i]);
	for (i = 0; i < job->num_deps; i++)
		dma_fence_put(job->deps[i]);
	nvdla_job_free_mem(job, job->bos, job->num_alloc * sizeof(*job->bos));
	nvdla_job_free_mem(job, job->objs,
			   job->num_alloc * sizeof(*job->objs));
	nvdla_job_free_mem(job, job->offsets,
			   job->num_alloc * sizeof(*job->offsets));
	nvdla_job_free_mem(job, job->deps,
			   job->num_deps_alloc * sizeof(*job->deps));
	job->bos = NULL;
	job->objs = NULL;
	job->offsets = NULL;
	job->deps = NULL;
	job->num = 0;
	job->num_objs = 0;
	job->num_deps = 0;
}

/* A fence that may never have been initialised. */
static void nvdla_job_fence_put(struct dma_fence *fence)
{
	if (fence && fence->ops)
		dma_fence_put(fence);
	else
		kfree(fence);
}

static void nvdla_job_release(struct kref *ref)
{
	struct nvdla_job *job = container_of(ref, struct nvdla_job, ref);

	nvdla_job_strip(job);
	if (job->base.s_fence)
		drm_sched_job_cleanup(&job->base);
	nvdla_job_fence_put(job->done);
	nvdla_job_fence_put(job->hw);
	nvdla_file_put(job->file);
	kfree(job);
}

void nvdla_job_put(struct nvdla_job *job)
{
	kref_put(&job->ref, nvdla_job_release);
}

static int nvdla_job_cmp_objs(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(struct drm_gem_object * const *)a;
	uintptr_t y = (uintptr_t)*(struct drm_gem_object * const *)b;

	return x < y ? -1 : x > y;
}

/* Each object of the address list once, for locking their reservations. */
static void nvdla_job_collect_objs(struct nvdla_job *job)
{
	u32 i, n = 0;

	for (i = 0; i < job->num; i++)
		job->objs[i] = job->bos[i];
	sort(job->objs, job->num, sizeof(*job->objs), nvdla_job_cmp_objs,
	     NULL);
	for (i = 0; i < job->num; i++)
		if (!n || job->objs[n - 1] != job->objs[i])
			job->objs[n++] = job->objs[i];
	job->num_objs = n;
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
		job->bos[i] = obj;
		if (addrs[i].offset >= obj->size)
			return -EINVAL;
		job->offsets[i] = addrs[i].offset;
	}
	nvdla_job_collect_objs(job);
	return 0;
}

/*
 * Whether another driver's dma-buf is among the job's objects: the
 * exporter must then hear of the CPU's reads while the task is checked.
 */
static bool nvdla_job_has_import(const struct nvdla_job *job)
{
	u32 i;

	for (i = 0; i < job->num_objs; i++)
		if (job->objs[i]->import_attach)
			return true;
	return false;
}

/**
 * nvdla_job_begin_cpu() - the firmware reads entry @index through the CPU
 * @job: the job whose task is being checked, or running
 * @index: the entry
 *
 * While the task is checked (@job->cpu_begun set), the exporter of an
 * imported buffer is told once that the CPU reads it: that waits for the
 * writes other devices have pending on it (the fences of its reservation)
 * and makes it coherent for the CPU where the exporter must. Running jobs
 * and the device's own buffers need nothing.
 *
 * Return: 0; -ERESTARTSYS when a signal interrupts the wait; the
 * exporter's error.
 */
int nvdla_job_begin_cpu(struct nvdla_job *job, u16 index)
{
	struct drm_gem_object *obj = job->bos[index];
	struct drm_gem_object **pos;
	int ret;

	if (!job->cpu_begun || !obj->import_attach)
		return 0;
	pos = bsearch(&obj, job->objs, job->num_objs, sizeof(*job->objs),
		      nvdla_job_cmp_objs);
	if (test_bit(pos - job->objs, job->cpu_begun))
		return 0;
	ret = dma_buf_begin_cpu_access(obj->import_attach->dmabuf,
				       DMA_FROM_DEVICE);
	if (!ret)
		__set_bit(pos - job->objs, job->cpu_begun);
	return ret;
}

/*
 * The firmware checks the task: the imported buffers it reads are marked
 * in job->cpu_begun from here on (nvdla_job_begin_cpu()).
 */
static int nvdla_job_open_cpu(struct nvdla_job *job)
{
	if (!nvdla_job_has_import(job))
		return 0;
	return nvdla_job_alloc(job, BITS_TO_LONGS(job->num_objs) *
			       sizeof(long), &job->cpu_begun);
}

/* The check is over: the exporters hear the CPU is done reading. */
static void nvdla_job_close_cpu(struct nvdla_job *job)
{
	unsigned long i;

	if (!job->cpu_begun)
		return;
	for_each_set_bit(i, job->cpu_begun, job->num_objs)
		dma_buf_end_cpu_access(job->objs[i]->import_attach->dmabuf,
				       DMA_FROM_DEVICE);
	nvdla_job_free_mem(job, job->cpu_begun,
			   BITS_TO_LONGS(job->num_objs) * sizeof(long));
	job->cpu_begun = NULL;
}

/*
 * A job for the task whose address list is @addrs[@num]. The firmware
 * copies the task's descriptors into kernel memory and validates the copy
 * here, where we may sleep and without any lock: the engine later runs the
 * job from that copy alone, so whatever user space writes into its
 * buffers afterwards is only data.
 */
struct nvdla_job *nvdla_job_create(struct drm_file *file,
				   const struct drm_nvdla_address *addrs,
				   u32 num)
{
	struct nvdla_device *ndev = to_nvdla_device(file->minor->dev);
	struct dla_task task = { .num_addresses = num };
	struct nvdla_job *job;
	int ret;

	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job)
		return ERR_PTR(-ENOMEM);
	kref_init(&job->ref);
	job->ndev = ndev;
	job->submit_ns = ktime_get_ns();
	job->file = nvdla_file_get(file->driver_priv);
	job->done = nvdla_fence_alloc();
	job->hw = nvdla_fence_alloc();
	if (!job->done || !job->hw) {
		ret = -ENOMEM;
		goto err;
	}
	ret = nvdla_queue_job_init(job, file);
	if (ret)
		goto err;
	/* At most DRM_NVDLA_MAX_ADDRESSES entries: no product overflows. */
	job->num_alloc = num;
	ret = nvdla_job_alloc(job, num * sizeof(*job->bos), &job->bos);
	if (!ret)
		ret = nvdla_job_alloc(job, num * sizeof(*job->objs), &job->objs);
	if (!ret)
		ret = nvdla_job_alloc(job, num * sizeof(*job->offsets),
				      &job->offsets);
	if (ret)
		goto err;
	job->num = num;
	ret = nvdla_job_resolve(job, file, addrs);
	if (ret)
		goto err;

	ret = nvdla_job_open_cpu(job);
	if (ret)
		goto err;
	task.host_task = job;
	ret = dla_task_prepare(ndev->engine, &task, &job->checked);
	nvdla_job_close_cpu(job);
	if (ret)
		goto err;
	return job;

err:
	nvdla_job_put(job);
	return ERR_PTR(ret);
}

/*
 * A copy of @n elements of @size at user address @uptr, in memory charged
 * to the caller (kvfree() it); ERR_PTR(-ENOMEM) or ERR_PTR(-EFAULT).
 */
static void *nvdla_job_copy_array(u64 uptr, u32 n, size_t size)
{
	void *p = kvmalloc_array(n, size, GFP_KERNEL_ACCOUNT);

	if (!p)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(p, u64_to_user_ptr(uptr), array_size(n, size))) {
		kvfree(p);
		return ERR_PTR(-EFAULT);
	}
	return p;
}

static int nvdla_job_add_deps(struct nvdla_job *job, struct drm_file *file,
			      const struct drm_nvdla_submit *args)
{
	u32 *handles;
	int ret = 0;
	u32 i;

	if (!args->num_in_syncs)
		return 0;
	handles = nvdla_job_copy_array(args->in_syncs, args->num_in_syncs,
				       sizeof(*handles));
	if (IS_ERR(handles))
		return PTR_ERR(handles);
	job->num_deps_alloc = args->num_in_syncs;
	ret = nvdla_job_alloc(job, args->num_in_syncs * sizeof(*job->deps),
			      &job->deps);
	for (i = 0; !ret && i < args->num_in_syncs; i++) {
		ret = drm_syncobj_find_fence(file, handles[i], 0, 0,
					     &job->deps[i]);
		if (ret)
			break;
		job->num_deps++;
		/* The scheduler's reference: it runs the job once they signal. */
		ret = drm_sched_job_add_dependency(&job->base,
						   dma_fence_get(job->deps[i]));
	}
	kvfree(handles);
	return ret;
}

/*
 * Lock the reservation objects of the job's buffers (distinct objects),
 * reserve a fence slot on each, before the job's fence becomes visible,
 * and make the job wait for every fence already there (implicit
 * synchronisation): the address list does not say which buffers a job
 * writes, so each is taken as written, and the job waits for the
 * pending reads and writes of other jobs and other drivers' devices
 * (an exporter's rendering into an imported dma-buf). Their errors are
 * not the job's: only its in-fences' fail it.
 */
static int nvdla_job_lock_objs(struct nvdla_job *job,
			       struct ww_acquire_ctx *ctx)
{
	int ret;
	u32 i;

	ret = drm_gem_lock_reservations(job->objs, job->num_objs, ctx);
	if (ret)
		return ret;
	for (i = 0; i < job->num_objs; i++) {
		ret = dma_resv_reserve_fences(job->objs[i]->resv, 1);
		if (!ret)
			ret = drm_sched_job_add_implicit_dependencies(&job->base,
								      job->objs[i],
								      true);
		if (ret) {
			drm_gem_unlock_reservations(job->objs, job->num_objs,
						    ctx);
			return ret;
		}
	}
	return 0;
}

/*
 * Queue @job behind the jobs of its file queued before; the queue owns it
 * from here. Everything that can fail comes first (the buffers'
 * reservations locked, a fence slot reserved on each and their fences
 * made the job's dependencies, the job's entry
 * in its file's table, the device's and the file's limits); then its fence
 * goes on its file's timeline, on every buffer it uses (for
 * DRM_IOCTL_NVDLA_GEM_WAIT) and in the file's table, and the job on the
 * queue. *@done gets a reference to the fence and *@id the job's number.
 * On error the job is freed and nothing was visible.
 */
int nvdla_job_queue(struct nvdla_job *job, struct dma_fence **done, u64 *id)
{
	struct nvdla_device *ndev = job->ndev;
	struct ww_acquire_ctx ctx;
	int ret;
	u32 i;

	ret = nvdla_job_lock_objs(job, &ctx);
	if (ret)
		goto err_free;
	mutex_lock(&ndev->submit_lock);
	ret = nvdla_queue_admit(ndev, job->file);
	if (!ret)
		ret = nvdla_file_reserve_job(job->file, &job->id);
	if (ret)
		goto err_unlock;

	nvdla_fence_init(ndev, job->file, job->done);
	for (i = 0; i < job->num_objs; i++)
		dma_resv_add_fence(job->objs[i]->resv, job->done,
				   DMA_RESV_USAGE_WRITE);
	nvdla_file_publish_job(job->file, job->id, job->done);
	*done = dma_fence_get(job->done);
	*id = job->id;
	/* Before the push: unlocking reads the job's array of objects. */
	drm_gem_unlock_reservations(job->objs, job->num_objs, &ctx);
	/* The job may end as soon as it is queued: read it no more. */
	nvdla_queue_push(ndev, job);
	mutex_unlock(&ndev->submit_lock);
	return 0;

err_unlock:
	mutex_unlock(&ndev->submit_lock);
	drm_gem_unlock_reservations(job->objs, job->num_objs, &ctx);
err_free:
	nvdla_job_put(job);
	return ret;
}

/*
 * Called by the queue, in the file's order: the job ran, failed or was
 * cancelled. Its fence signals; the buffers stay referenced until
 * nvdla_job_strip().
 */
void nvdla_job_signal(struct nvdla_job *job, int status)
{
	job->ended = true;
	if (job->start_ns)
		atomic64_add(ktime_get_ns() - job->start_ns,
			     &job->file->busy_ns);
	if (status)
		dma_fence_set_error(job->done, status);
	dma_fence_signal(job->done);
	nvdla_file_end_job(job->file, job->id, job->done);
}

static int nvdla_submit_check(const struct drm_nvdla_submit *args)
{
	if (args->flags ||
	    args->address_size != sizeof(struct drm_nvdla_address) ||
	    !args->num_addresses ||
	    args->num_addresses > DRM_NVDLA_MAX_ADDRESSES ||
	    args->num_in_syncs > DRM_NVDLA_MAX_IN_SYNCS ||
	    args->timeout_ms > nvdla_queue_max_timeout_ms())
		return -EINVAL;
	return 0;
}

static struct nvdla_job *nvdla_submit_job(struct drm_file *file,
					  const struct drm_nvdla_submit *args)
{
	struct drm_nvdla_address *addrs;
	struct nvdla_job *job;
	int ret;

	addrs = nvdla_job_copy_array(args->addresses, args->num_addresses,
				     sizeof(*addrs));
	if (IS_ERR(addrs))
		return ERR_CAST(addrs);
	job = nvdla_job_create(file, addrs, args->num_addresses);
	kvfree(addrs);
	if (IS_ERR(job))
		return job;
	job->timeout_ms = args->timeout_ms;
	ret = nvdla_job_add_deps(job, file, args);
	if (ret) {
		nvdla_job_put(job);
		return ERR_PTR(ret);
	}
	return job;
}

/**
 * nvdla_ioctl_submit() - DRM_IOCTL_NVDLA_SUBMIT
 * @drm: the device
 * @data: struct drm_nvdla_submit
 * @file: the caller's DRM file, whose handles the address list names
 *
 * Checks the whole request and the task, then queues the job and returns;
 * nothing is queued when it fails.
 *
 * Return: 0; -EINVAL for non-zero flags or reserved fields, a wrong
 * address_size, 0 or more than DRM_NVDLA_MAX_ADDRESSES entries, more than
 * DRM_NVDLA_MAX_IN_SYNCS in-fences, a time limit above the module parameter
 * max_job_timeout_ms, an offset outside its object, or a task
 * the firmware rejects; -ENOENT for an unknown buffer or sync object;
 * -EFAULT for an unreadable array; -E2BIG for a task that needs more
 * kernel memory than one job may hold (module parameter max_job_kb);
 * -EBUSY when the file has the most jobs queued it may (module parameter
 * max_queued_jobs) or its jobs hold the most kernel memory they may
 * (max_file_jobs_mb); -ENOSPC when all files' jobs on the device do
 * (max_device_jobs_mb); -EIO while the device is wedged; -ERESTARTSYS
 * on a signal while locking the buffers; -ENOMEM, also when the caller's
 * memory cgroup is full; -ENODEV once the device is gone.
 */
int nvdla_ioctl_submit(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct drm_nvdla_submit *args = data;
	struct drm_syncobj *out = NULL;
	struct dma_fence *done;
	struct nvdla_job *job;
	int idx, ret;

	ret = nvdla_submit_check(args);
	if (ret)
		return ret;
	if (args->out_sync) {
		out = drm_syncobj_find(file, args->out_sync);
		if (!out)
			return -ENOENT;
	}
	job = nvdla_submit_job(file, args);
	if (IS_ERR(job)) {
		ret = PTR_ERR(job);
		goto out_put;
	}
	if (!drm_dev_enter(drm, &idx)) {
		nvdla_job_put(job);
		ret = -ENODEV;
		goto out_put;
	}
	/* The job may end as soon as it is queued: read it no more. */
	ret = nvdla_job_queue(job, &done, &args->job_id);
	if (!ret) {
		if (out)
			drm_syncobj_replace_fence(out, done);
		dma_fence_put(done);
	}
	drm_dev_exit(idx);
out_put:
	if (out)
		drm_syncobj_put(out);
	return ret;
}

/**
 * nvdla_ioctl_wait() - DRM_IOCTL_NVDLA_WAIT
 * @drm: the device
 * @data: struct drm_nvdla_wait
 * @file: the caller's DRM file, whose job it names
 *
 * Return: 0 with the job's status once it ended; -ETIMEDOUT when the
 * deadline passes first; -ERESTARTSYS on a signal; -EINVAL for a job
 * number this file never got or a non-zero reserved field.
 */
int nvdla_ioctl_wait(struct drm_device *drm, void *data,
		     struct drm_file *file)
{
	struct drm_nvdla_wait *args = data;

	if (args->reserved)
		return -EINVAL;
	return nvdla_file_wait_job(file->driver_priv, args->job_id,
				   args->timeout_ns, &args->status);
}

/**
 * nvdla_ioctl_gem_wait() - DRM_IOCTL_NVDLA_GEM_WAIT
 * @drm: the device
 * @data: struct drm_nvdla_gem_wait
 * @file: the caller's DRM file
 *
 * Return: 0 when no job uses the buffer any more; -ETIMEDOUT when the
 * deadline passes first; -ERESTARTSYS on a signal; -ENOENT for an unknown
 * handle; -EINVAL for a non-zero reserved field.
 */
int nvdla_ioctl_gem_wait(struct drm_device *drm, void *data,
			 struct drm_file *file)
{
	struct drm_nvdla_gem_wait *args = data;
	struct drm_gem_object *obj;
	long ret;

	if (args->reserved)
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	ret = dma_resv_wait_timeout(obj->resv, DMA_RESV_USAGE_WRITE, true,
				    drm_timeout_abs_to_jiffies(args->timeout_ns));
	drm_gem_object_put(obj);
	if (!ret)
		return -ETIMEDOUT;
	return ret < 0 ? ret : 0;
}
