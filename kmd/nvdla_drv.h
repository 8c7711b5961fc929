/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_DRV_H__
#define __NVDLA_DRV_H__

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <drm/drm_device.h>

#include "nvdla_power.h"

struct dla_engine;
struct dla_hw_config;
struct nvdla_job;
struct nvdla_sim;

/**
 * struct nvdla_device - one NVDLA instance
 * @drm: the DRM device
 * @hw: what the firmware may drive on it
 * @config: its configuration, enum drm_nvdla_config
 * @regs: register window of real hardware, NULL for the virtual device
 * @power: its clocks, resets and interrupt (nvdla_power.c)
 * @sim: hardware model behind the virtual device, NULL on real hardware
 * @sim_work: runs the model when it has work (virtual device)
 * @sim_config: the model's configuration, to reset it
 * @sim_faults: the model's fault count when the current job started
 * @engine: the firmware's engine context
 * @engine_lock: protects @engine, @sim, @job, @job_done and @job_status;
 *	taken with interrupts off, since the interrupt handler needs it
 * @job_lock: serialises jobs on the engine; outside @engine_lock
 * @job_wq: where the submitter waits for @job_done
 * @job: the job on the engine, or NULL
 * @job_done: @job completed or failed
 * @job_status: 0 or the negative errno @job ended with
 * @stats: job counters for debugfs, under @job_lock
 */
struct nvdla_device {
	struct drm_device drm;
	const struct dla_hw_config *hw;
	u32 config;
	void __iomem *regs;
	struct nvdla_power power;
	struct nvdla_sim *sim;
	struct work_struct sim_work;
	int sim_config;
	u32 sim_faults;
	struct dla_engine *engine;
	spinlock_t engine_lock;		/* see @engine_lock above */
	struct mutex job_lock;		/* see @job_lock above */
	wait_queue_head_t job_wq;
	struct nvdla_job *job;
	bool job_done;
	int job_status;
	struct {
		u64 submitted, completed, failed, timed_out;
		u64 busy_ns;
	} stats;
};

static inline struct nvdla_device *to_nvdla_device(struct drm_device *drm)
{
	return container_of(drm, struct nvdla_device, drm);
}

extern const struct drm_driver nvdla_drm_driver;
extern struct platform_driver nvdla_platform_driver;

int nvdla_ioctl_get_param(struct drm_device *drm, void *data,
			  struct drm_file *file);

/* Register access through MMIO or the model; @engine_lock held. */
u32 nvdla_reg_read(struct nvdla_device *ndev, u32 addr);
void nvdla_reg_write(struct nvdla_device *ndev, u32 addr, u32 val);

#endif /* __NVDLA_DRV_H__ */
