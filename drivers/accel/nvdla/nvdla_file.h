/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_FILE_H__
#define __NVDLA_FILE_H__

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/xarray.h>

#include <drm/gpu_scheduler.h>

struct dma_fence;
struct drm_device;
struct drm_file;
struct file;
struct seq_file;

/**
 * struct nvdla_file - what a DRM file of the driver owns; outlives the file
 *	while its jobs are queued
 * @ref: one for the DRM file, one per job not yet freed
 * @lock: serialises giving out job numbers with looking them up
 * @last_id: the last job number given out, under @lock
 * @jobs: job number to out-fence for every job of the file queued or
 *	running; once a job failed, its status (xa_mk_value(-errno)) until
 *	a wait has reported it; completed jobs are not in it
 * @fence_context: the file's dma_fence timeline: its jobs run, and their
 *	fences signal, in submission order
 * @fence_seqno: the last sequence number on it, under the device's
 *	submit_lock
 * @entity: its GPU scheduler entity, which holds @released until it runs
 * @sched_lock: serialises releasing jobs to @entity (its priority, arming
 *	and pushing the job) with tearing @entity down
 * @killed: @entity is torn down, under @sched_lock
 * @released: its job on @entity or on the engine, or NULL; under the
 *	device's queue_lock
 * @queue: its jobs held back behind @released, in submission order, under
 *	the device's queue_lock
 * @node: its place in the device's list of files whose released job waits
 *	for the engine, under the device's queue_lock
 * @high: @released waits at high priority (the file waited), under the
 *	device's queue_lock
 * @open_node: its place in the device's list of open files
 * @queued: its jobs queued or on the engine, under the device's queue_lock
 * @closed: the DRM file is closed: its queued jobs end unrun, under the
 *	device's queue_lock
 * @served: when a job of the file last started, in the device's
 *	@served_seq, under the device's queue_lock
 * @job_bytes: kernel memory its jobs hold for their tasks (nvdla_job.c)
 * @busy_ns: time the engine spent on the file's jobs
 * @first_write_ns: summed over its jobs that started, submission to the
 *	first register write
 * @jobs_started: how many jobs those are
 * @irq_to_next_ns: summed over the interrupts after which a job of the
 *	file went on, the interrupt to the firmware having started what it
 *	released
 * @irqs_to_next: how many interrupts those are
 */
struct nvdla_file {
	struct kref ref;
	struct mutex lock;	/* see @lock above */
	u64 last_id;
	struct xarray jobs;
	u64 fence_context;
	u64 fence_seqno;
	struct drm_sched_entity entity;
	struct mutex sched_lock;	/* see @sched_lock above */
	bool killed;
	struct nvdla_job *released;
	struct list_head queue;
	struct list_head node;
	bool high;
	struct list_head open_node;
	u32 queued;
	bool closed;
	u64 served;
	atomic64_t job_bytes;
	atomic64_t busy_ns;
	atomic64_t first_write_ns;
	atomic64_t jobs_started;
	atomic64_t irq_to_next_ns;
	atomic64_t irqs_to_next;
};

static inline struct nvdla_file *nvdla_file_get(struct nvdla_file *nfile)
{
	kref_get(&nfile->ref);
	return nfile;
}

void nvdla_file_put(struct nvdla_file *nfile);

int nvdla_file_open(struct drm_device *drm, struct drm_file *file);
void nvdla_file_postclose(struct drm_device *drm, struct drm_file *file);

/* A number for a job, and room for it in @jobs; under submit_lock. */
int nvdla_file_reserve_job(struct nvdla_file *nfile, u64 *id);
/* Make the job's fence visible to waits, in its reserved room. */
void nvdla_file_publish_job(struct nvdla_file *nfile, u64 id,
			    struct dma_fence *fence);
/* A job ended (its fence signalled): forget it, or keep its failure. */
void nvdla_file_end_job(struct nvdla_file *nfile, u64 id,
			struct dma_fence *fence);
/* Wait for job @id until @timeout_ns; its status in *@status. */
int nvdla_file_wait_job(struct nvdla_file *nfile, u64 id, s64 timeout_ns,
			int *status);

void nvdla_file_show_fdinfo(struct seq_file *m, struct file *f);

#endif /* __NVDLA_FILE_H__ */
