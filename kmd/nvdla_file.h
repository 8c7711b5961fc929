/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_FILE_H__
#define __NVDLA_FILE_H__

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/xarray.h>

struct dma_fence;
struct drm_device;
struct drm_file;
struct file;
struct seq_file;

/**
 * struct nvdla_file - what a DRM file of the driver owns; outlives the file
 *	while its jobs are queued
 * @ref: one for the DRM file, one per job not yet ended
 * @lock: serialises giving out job numbers with looking them up
 * @last_id: the last job number given out
 * @jobs: job number to out-fence, for every job of the file not known to
 *	have completed well: running, queued, or failed (kept until the file
 *	is closed, so that every wait reports the failure)
 * @closed: the DRM file is closed: its queued jobs need not run
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
	bool closed;
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

/* Give a queued job its number, and keep its fence; returns the number. */
int nvdla_file_add_job(struct nvdla_file *nfile, struct dma_fence *fence,
		       u64 *id);
/* A job ended (its fence signalled): forget it if it completed. */
void nvdla_file_end_job(struct nvdla_file *nfile, u64 id,
			struct dma_fence *fence);
/* Wait for job @id until @timeout_ns; its status in *@status. */
int nvdla_file_wait_job(struct nvdla_file *nfile, u64 id, s64 timeout_ns,
			int *status);

void nvdla_file_show_fdinfo(struct seq_file *m, struct file *f);

#endif /* __NVDLA_FILE_H__ */
