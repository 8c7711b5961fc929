// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The firmware's port: register access, and memory access confined to the
 * objects of the running job. The firmware calls these with the engine
 * lock held and interrupts off, so nothing here sleeps; the objects are
 * mapped for their whole life, so no mapping is made here either.
 */
#include <linux/io.h>
#include <linux/ktime.h>

#include <drm/drm_print.h>

#include <nvdla/firmware.h>
#include <nvdla/sim.h>

#include "nvdla_drv.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"

u32 nvdla_reg_read(struct nvdla_device *ndev, u32 addr)
{
	if (ndev->sim)
		return nvdla_sim_reg_read(ndev->sim, addr);
	return readl(ndev->regs + addr);
}

void nvdla_reg_write(struct nvdla_device *ndev, u32 addr, u32 val)
{
	if (ndev->sim)
		nvdla_sim_reg_write(ndev->sim, addr, val);
	else
		writel(val, ndev->regs + addr);
}

static u32 nvdla_port_reg_read(void *drv, u32 addr)
{
	return nvdla_reg_read(drv, addr);
}

static void nvdla_port_reg_write(void *drv, u32 addr, u32 val)
{
	nvdla_reg_write(drv, addr, val);
}

/* Bytes from entry @index to the end of its object. */
static u64 nvdla_port_avail(const struct nvdla_job *job, u16 index)
{
	return job->bos[index]->base.size - job->offsets[index];
}

static int nvdla_port_dma_address(void *drv, void *task, u16 index,
				  u64 *addr, u64 *size)
{
	const struct nvdla_job *job = task;

	*addr = job->bos[index]->dma_addr + job->offsets[index];
	*size = nvdla_port_avail(job, index);
	return 0;
}

static void *nvdla_port_data(const struct nvdla_job *job, u16 index,
			     u64 offset, u32 size)
{
	u64 avail = nvdla_port_avail(job, index);

	if (offset > avail || size > avail - offset)
		return NULL;
	return job->bos[index]->vaddr + job->offsets[index] + offset;
}

static int nvdla_port_data_read(void *drv, void *task, u16 index, u64 offset,
				void *dst, u32 size)
{
	void *src = nvdla_port_data(task, index, offset, size);

	if (!src)
		return -EINVAL;
	memcpy(dst, src, size);
	return 0;
}

static int nvdla_port_data_write(void *drv, void *task, u16 index,
				 u64 offset, const void *src, u32 size)
{
	void *dst = nvdla_port_data(task, index, offset, size);

	if (!dst)
		return -EINVAL;
	memcpy(dst, src, size);
	return 0;
}

static u64 nvdla_port_time_us(void *drv)
{
	return div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

/* Task errors come from user space: rate-limited so no one floods the log. */
static void nvdla_port_log(void *drv, enum dla_log_level level,
			   const char *msg)
{
	struct nvdla_device *ndev = drv;

	if (level == DLA_LOG_ERROR)
		drm_err_ratelimited(&ndev->drm, "%s\n", msg);
	else
		drm_dbg_driver(&ndev->drm, "%s\n", msg);
}

const struct dla_port_ops nvdla_port_ops = {
	.reg_read = nvdla_port_reg_read,
	.reg_write = nvdla_port_reg_write,
	.dma_address = nvdla_port_dma_address,
	.data_read = nvdla_port_data_read,
	.data_write = nvdla_port_data_write,
	.time_us = nvdla_port_time_us,
	.log = nvdla_port_log,
};
