// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The driver's side of a virtual NVDLA (nvdla_sim.ko, kmd/vdev/include/nvdla/vdev.h):
 * the bus it reaches memory through, which confines it to the objects of
 * the running job, as an IOMMU would; its fault count around each job;
 * its reset. Its registers are reached in nvdla_port.c, its interrupt is
 * requested like a board's.
 */
#include <linux/compiler.h>
#include <linux/lockdep.h>

#include "nvdla_drv.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"
#include "nvdla_sim_dev.h"

/*
 * The part of an object of the running job that holds [@addr, +@len).
 * The job is cleared before the reset that stops the device, and its
 * objects are released after it.
 */
static void *nvdla_sim_bus_map(void *ctx, u64 addr, u64 len)
{
	struct nvdla_device *ndev = ctx;
	const struct nvdla_job *job = READ_ONCE(ndev->job);
	u32 i;

	for (i = 0; job && i < job->num; i++) {
		u64 size = job->bos[i]->size;
		dma_addr_t dma;
		void *vaddr;

		nvdla_gem_addrs(job->bos[i], &dma, &vaddr);
		if (addr >= dma && addr - dma <= size &&
		    len <= size - (addr - dma))
			return vaddr + (addr - dma);
	}
	return NULL;
}

void nvdla_sim_dev_init(struct nvdla_device *ndev)
{
	if (!ndev->sim)
		return;
	ndev->sim_bus.ctx = ndev;
	ndev->sim_bus.map = nvdla_sim_bus_map;
	ndev->sim->attach(ndev->sim->ctx, &ndev->sim_bus);
}

void nvdla_sim_dev_fini(struct nvdla_device *ndev)
{
	if (ndev->sim)
		ndev->sim->attach(ndev->sim->ctx, NULL);
}

void nvdla_sim_dev_job_start(struct nvdla_device *ndev)
{
	lockdep_assert_held(&ndev->engine_lock);
	if (ndev->sim)
		ndev->sim_faults = ndev->sim->faults(ndev->sim->ctx);
}

int nvdla_sim_dev_job_stop(struct nvdla_device *ndev, int status)
{
	lockdep_assert_held(&ndev->engine_lock);
	if (!ndev->sim)
		return status;
	if (!status && ndev->sim->faults(ndev->sim->ctx) != ndev->sim_faults)
		status = -EIO;
	return status;
}

void nvdla_sim_dev_reset(struct nvdla_device *ndev)
{
	if (ndev->sim)
		ndev->sim->reset(ndev->sim->ctx);
}

int nvdla_sim_dev_reset_line(struct nvdla_device *ndev)
{
	if (!ndev->sim->resettable(ndev->sim->ctx))
		return -EOPNOTSUPP;
	nvdla_sim_dev_reset(ndev);
	return 0;
}
