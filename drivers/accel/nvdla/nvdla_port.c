// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The firmware's port: register access, and where each entry of the
 * running job's address list is. The firmware calls these with the engine
 * lock held and interrupts off, so nothing here sleeps then; the objects
 * are mapped for their whole life, so no mapping is made here either.
 * Only while it checks a task, in the submitting process, may an entry
 * the CPU reads wait for an imported buffer's exporter.
 */
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include <drm/drm_print.h>

#include <nvdla/firmware.h>

#include "nvdla_drv.h"
#include "nvdla_file.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"

u32 nvdla_reg_read(struct nvdla_device *ndev, u32 addr)
{
	return readl(ndev->regs + addr);
}

void nvdla_reg_write(struct nvdla_device *ndev, u32 addr, u32 val)
{
	writel(val, ndev->regs + addr);
}

static u32 nvdla_port_reg_read(void *drv, u32 addr)
{
	return nvdla_reg_read(drv, addr);
}

/* The first register write of a job ends its submission latency. */
static void nvdla_port_reg_write(void *drv, u32 addr, u32 val)
{
	struct nvdla_device *ndev = drv;
	struct nvdla_job *job = ndev->job;

	if (job && !job->wrote) {
		job->wrote = true;
		atomic64_add(ktime_get_ns() - job->submit_ns,
			     &job->file->first_write_ns);
		atomic64_inc(&job->file->jobs_started);
	}
	nvdla_reg_write(ndev, addr, val);
}

/* Offsets were checked against their objects when the job was made. */
static int nvdla_port_entry(void *drv, void *task, u16 index, u64 *dma,
			    void **cpu, u64 *size)
{
	struct nvdla_job *job = task;
	struct drm_gem_object *obj = job->bos[index];
	dma_addr_t addr;
	void *vaddr;
	int ret;

	ret = cpu ? nvdla_job_begin_cpu(job, index) : 0;
	if (ret)
		return ret;
	nvdla_gem_addrs(obj, &addr, &vaddr);
	*dma = addr + job->offsets[index];
	if (cpu)
		*cpu = vaddr + job->offsets[index];
	*size = obj->size - job->offsets[index];
	return 0;
}

static u64 nvdla_port_time_us(void *drv)
{
	return div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

/*
 * The firmware's errors are about the task, which user space wrote, so
 * they go at debug level (drm.debug's driver category), as its progress.
 */
static void nvdla_port_log(void *drv, enum dla_log_level level,
			   const char *msg)
{
	struct nvdla_device *ndev = drv;

	drm_dbg_driver(&ndev->drm, "%s%s\n",
		       level == DLA_LOG_ERROR ? "task refused: " : "", msg);
}

/*
 * Task checks run at submission, in process context: the memory is the
 * submitting process's, charged to its job and memory cgroup.
 */
static int nvdla_port_alloc(void *drv, void *task, size_t size, void **ptr)
{
	return nvdla_job_alloc(task, size, ptr);
}

static void nvdla_port_free(void *drv, void *task, void *ptr, size_t size)
{
	nvdla_job_free_mem(task, ptr, size);
}

const struct dla_port_ops nvdla_port_ops = {
	.reg_read = nvdla_port_reg_read,
	.reg_write = nvdla_port_reg_write,
	.entry = nvdla_port_entry,
	.time_us = nvdla_port_time_us,
	.log = nvdla_port_log,
	.alloc = nvdla_port_alloc,
	.free = nvdla_port_free,
};
