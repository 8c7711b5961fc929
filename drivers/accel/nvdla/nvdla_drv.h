/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_DRV_H__
#define __NVDLA_DRV_H__

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <drm/drm_device.h>
#include <drm/gpu_scheduler.h>

#include "nvdla_power.h"

struct dla_engine;
struct dla_hw_config;
struct nvdla_job;

/**
 * struct nvdla_device - one NVDLA instance
 * @drm: the DRM device
 * @hw: what the firmware may drive on it
 * @config: its configuration, enum drm_nvdla_config
 * @regs: the register window
 * @power: its clocks, resets and interrupt (nvdla_power.c)
 * @engine: the firmware's engine context; jobs are checked on it at
 *	submission without @engine_lock (dla_task_prepare() only reads it)
 * @engine_lock: protects @engine, @job_done, @job_status and @irq_ns, and
 *	@job against the interrupt handler; taken with interrupts off, since
 *	the interrupt handler needs it
 * @sched: the GPU scheduler: one job on the engine at a time, taken from
 *	the files' entities
 * @scheds: @sched, as the list the files' entities are on
 * @wq: ordered queue running @done_work, @cancel_work and @sched's
 *	timeout handler (and, on kernels whose scheduler runs on a
 *	workqueue, its run_job and free_job) one at a time: they alone end
 *	the job on the engine, wedge the device and touch @pinned
 * @done_work: ends @job once the firmware says it is done
 * @cancel_work: ends the job on the engine when the device goes away
 * @hw_context: the dma_fence context of the jobs' hardware fences
 * @hw_seqno: the last sequence number on it, set by run_job
 * @submit_lock: serialises publishing jobs (their fences' sequence numbers,
 *	their entries in the file's job table, the queue); protects
 *	@unplugged; taken before @queue_lock
 * @queue_lock: protects @waiting, every file's held jobs, released job,
 *	count of queued jobs and priority, @served_seq, @wedged's readers and
 *	@stats
 * @waiting: files whose released job waits on the scheduler for the
 *	engine
 * @served_seq: jobs started so far, under @queue_lock; stamps the files
 * @files_lock: protects @open_files
 * @open_files: the device's open files, whose entities unplugging kills
 * @unplugged: the device is going away; no job is queued any more
 * @wedged: a failed job could not be stopped: no job starts, new ones are
 *	refused with -EIO; set by @wq under @queue_lock, cleared by
 *	nvdla_queue_unwedge() or unbind
 * @pinned: jobs ended while the engine could not be stopped, holding
 *	their buffers until the engine is reset; touched by @wq only
 * @idle_wq: woken when the job on the engine ends
 * @job: the job on the engine, or NULL; set by run_job, cleared by @wq
 * @job_done: @job completed or failed
 * @job_status: 0 or the negative errno @job ended with
 * @irq_ns: when the interrupt being handled for @job came, or 0
 * @fence_lock: the lock of every job fence
 * @bo_bytes: bytes of buffer objects the device holds (nvdla_gem.c)
 * @import_bytes: bytes of other drivers' dma-bufs the device holds
 *	imported (nvdla_gem.c)
 * @job_bytes: kernel memory all jobs hold for their tasks (nvdla_job.c)
 * @max_bo_size: the largest buffer the device can get in one piece
 * @shmem: its buffers are shmem objects it reaches through its IOMMU
 *	(nvdla_gem_shmem.c), else objects of the GEM DMA helper
 * @stats: job counters for debugfs, under @queue_lock
 */
struct nvdla_device {
	struct drm_device drm;
	const struct dla_hw_config *hw;
	u32 config;
	void __iomem *regs;
	struct nvdla_power power;
	struct dla_engine *engine;
	spinlock_t engine_lock;		/* see @engine_lock above */
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler *scheds[1];
	struct workqueue_struct *wq;
	struct work_struct done_work;
	struct work_struct cancel_work;
	u64 hw_context;
	u64 hw_seqno;
	struct mutex submit_lock;	/* see @submit_lock above */
	spinlock_t queue_lock;		/* see @queue_lock above */
	struct list_head waiting;
	u64 served_seq;
	struct mutex files_lock;	/* see @files_lock above */
	struct list_head open_files;
	bool unplugged;
	bool wedged;
	struct list_head pinned;
	wait_queue_head_t idle_wq;
	struct nvdla_job *job;
	bool job_done;
	int job_status;
	u64 irq_ns;
	spinlock_t fence_lock;		/* see @fence_lock above */
	atomic64_t bo_bytes;
	atomic64_t import_bytes;
	atomic64_t job_bytes;
	u64 max_bo_size;
	bool shmem;
	struct {
		u64 submitted, completed, failed, timed_out;
		u64 busy_ns;
	} stats;
};

static inline struct nvdla_device *to_nvdla_device(struct drm_device *drm)
{
	return container_of(drm, struct nvdla_device, drm);
}

/* The DRM driver. */
const struct drm_driver *nvdla_drm_driver(void);
extern struct platform_driver nvdla_platform_driver;

int nvdla_ioctl_get_param(struct drm_device *drm, void *data,
			  struct drm_file *file);

/* Register access; @engine_lock held. */
u32 nvdla_reg_read(struct nvdla_device *ndev, u32 addr);
void nvdla_reg_write(struct nvdla_device *ndev, u32 addr, u32 val);

/* The PCI driver (nvdla_pci.c), where the kernel has PCI. */
#if IS_ENABLED(CONFIG_PCI)
int nvdla_pci_register(void);
void nvdla_pci_unregister(void);
#else
static inline int nvdla_pci_register(void)
{
	return 0;
}

static inline void nvdla_pci_unregister(void)
{
}
#endif

#endif /* __NVDLA_DRV_H__ */
