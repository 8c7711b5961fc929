/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_JOB_H__
#define __NVDLA_JOB_H__

#include <linux/dma-fence.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>

#include <drm/gpu_scheduler.h>

struct drm_device;
struct drm_file;
struct dla_checked_task;
struct drm_gem_object;
struct drm_nvdla_address;
struct nvdla_device;
struct nvdla_file;

/**
 * struct nvdla_job - one firmware task, the buffers it may reach and what
 *	it waits for
 * @base: the GPU scheduler's job, on the file's entity once released to it
 * @ref: one for the scheduler (or the queue, before the job reaches the
 *	scheduler), one while pinned
 * @ndev: the device it runs on
 * @file: the submitting file's state, referenced until the job is freed
 * @node: its place in its file's queue of held jobs, or in the device's
 *	pinned list
 * @id: its number in @file
 * @num: entries in the address list whose objects are resolved
 * @num_alloc: entries @bos, @objs and @offsets have room for
 * @bos: the object of each entry, referenced until the job is freed
 * @objs: the distinct objects of @bos, each once
 * @num_objs: entries in @objs
 * @offsets: byte offset of each entry into its object
 * @cpu_begun: while the task is checked, a bit for each imported object
 *	of @objs whose exporter was told the CPU reads it
 *	(nvdla_job_begin_cpu()); NULL otherwise
 * @checked: the task's descriptors, copied and validated at creation; the
 *	engine runs the job from this alone
 * @deps: the in-fences, referenced until the job ends; the scheduler holds
 *	them too, as the job's dependencies
 * @num_deps: entries in @deps holding a reference
 * @num_deps_alloc: entries @deps has room for
 * @done: the out-fence, signalled when the job ends
 * @hw: the hardware fence, signalled when the job leaves the engine (or
 *	ends without reaching it); initialised when it starts
 * @ended: @done has signalled
 * @error: why it must end without running, or 0
 * @timeout_ms: how long it may run, 0 for the job timeout
 * @deadline: jiffies when it overruns, once started
 * @start_ns: when it started on the engine
 * @submit_ns: when it was submitted
 * @wrote: its first register write has been timed
 * @charged: bytes of kernel memory it holds for its task, counted in its
 *	file's and its device's job_bytes (nvdla_job_alloc())
 */
struct nvdla_job {
	struct drm_sched_job base;
	struct kref ref;
	struct nvdla_device *ndev;
	struct nvdla_file *file;
	struct list_head node;
	u64 id;
	u32 num;
	u32 num_alloc;
	struct drm_gem_object **bos;
	struct drm_gem_object **objs;
	u32 num_objs;
	u64 *offsets;
	unsigned long *cpu_begun;
	struct dla_checked_task *checked;
	struct dma_fence **deps;
	u32 num_deps;
	u32 num_deps_alloc;
	struct dma_fence *done;
	struct dma_fence *hw;
	bool ended;
	int error;
	u32 timeout_ms;
	unsigned long deadline;
	u64 start_ns;
	u64 submit_ns;
	bool wrote;
	size_t charged;
};

extern const struct dla_port_ops nvdla_port_ops;

struct nvdla_job *nvdla_job_create(struct drm_file *file,
				   const struct drm_nvdla_address *addrs,
				   u32 num);
int nvdla_job_queue(struct nvdla_job *job, struct dma_fence **done, u64 *id);
int nvdla_job_begin_cpu(struct nvdla_job *job, u16 index);
void nvdla_job_signal(struct nvdla_job *job, int status);
void nvdla_job_strip(struct nvdla_job *job);
void nvdla_job_put(struct nvdla_job *job);

static inline struct nvdla_job *to_nvdla_job(struct drm_sched_job *base)
{
	return container_of(base, struct nvdla_job, base);
}

/* Kernel memory a job's task holds: counted and bounded, and given back. */
int nvdla_job_alloc(struct nvdla_job *job, size_t size, void *ptr);
void nvdla_job_free_mem(struct nvdla_job *job, void *ptr, size_t size);

int nvdla_ioctl_submit(struct drm_device *drm, void *data,
		       struct drm_file *file);
int nvdla_ioctl_wait(struct drm_device *drm, void *data,
		     struct drm_file *file);
int nvdla_ioctl_gem_wait(struct drm_device *drm, void *data,
			 struct drm_file *file);

#endif /* __NVDLA_JOB_H__ */
