// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Virtual NVDLA devices backed by the hardware model, for machines without
 * the accelerator: "insmod nvdla.ko nvdla_sim=nv_full,nv_small" creates one
 * platform device per configuration. The model reaches memory only through
 * nvdla_sim_bus_*(), which confine it to the objects of the running job.
 * Its work runs from a work item, preemptibly: the model yields between
 * slices of a layer's work, where the item lets others run and stops when
 * the model is being reset (a job timeout, an engine reset). Then the item
 * takes the path a hardware interrupt takes.
 */
#include <linux/dma-mapping.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <nvdla/firmware.h>
#include <nvdla/sim.h>

#include "nvdla_drv.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"
#include "nvdla_queue.h"
#include "nvdla_sim_dev.h"

#define NVDLA_SIM_MAX_DEVICES 4

static char *nvdla_sim_param = "";
module_param_named(nvdla_sim, nvdla_sim_param, charp, 0444);
MODULE_PARM_DESC(nvdla_sim,
		 "Virtual devices to create, comma separated: nv_full, nv_small, nv_large");

/* Faults the virtual devices inject, to test the driver's recovery. */
enum nvdla_sim_fault {
	NVDLA_SIM_FAULT_NONE,
	NVDLA_SIM_FAULT_DROP_IRQ,	/* completions never interrupt */
	NVDLA_SIM_FAULT_BUS_ERROR,	/* every memory access fails */
};

static int nvdla_sim_fault;
module_param(nvdla_sim_fault, int, 0644);
MODULE_PARM_DESC(nvdla_sim_fault,
		 "Fault the virtual devices inject: 0 none, 1 drop interrupts, 2 bus errors");

static struct platform_device *nvdla_sim_pdevs[NVDLA_SIM_MAX_DEVICES];

/* The part of an object of the running job that holds [@addr, +@len). */
static void *nvdla_sim_bus_map(void *ctx, u64 addr, u64 len)
{
	struct nvdla_device *ndev = ctx;
	/* Cleared before the reset that stops the model, freed after it. */
	const struct nvdla_job *job = READ_ONCE(ndev->job);
	u32 i;

	if (READ_ONCE(nvdla_sim_fault) == NVDLA_SIM_FAULT_BUS_ERROR)
		return NULL;
	for (i = 0; job && i < job->num; i++) {
		const struct nvdla_gem_object *bo = job->bos[i];
		u64 size = bo->base.size;

		if (addr >= bo->dma_addr && addr - bo->dma_addr <= size &&
		    len <= size - (addr - bo->dma_addr))
			return bo->vaddr + (addr - bo->dma_addr);
	}
	return NULL;
}

static int nvdla_sim_bus_read(void *ctx, u64 addr, void *dst, u32 len)
{
	void *src = nvdla_sim_bus_map(ctx, addr, len);

	if (!src)
		return -EFAULT;
	memcpy(dst, src, len);
	return 0;
}

static int nvdla_sim_bus_write(void *ctx, u64 addr, const void *src, u32 len)
{
	void *dst = nvdla_sim_bus_map(ctx, addr, len);

	if (!dst)
		return -EFAULT;
	memcpy(dst, src, len);
	return 0;
}

static void nvdla_sim_kick(void *ctx)
{
	struct nvdla_device *ndev = ctx;

	queue_work(system_unbound_wq, &ndev->sim_work);
}

/* The work item samples the line after every run; edges need no action. */
static void nvdla_sim_irq(void *ctx, bool level)
{
}

/* Between slices of work: let others run; stop when being reset. */
static bool nvdla_sim_yield(void *ctx)
{
	struct nvdla_device *ndev = ctx;

	spin_unlock_irq(&ndev->sim_lock);
	cond_resched();
	spin_lock_irq(&ndev->sim_lock);
	return READ_ONCE(ndev->sim_stop);
}

static void nvdla_sim_reset(struct nvdla_device *ndev)
{
	const struct nvdla_sim_host host = {
		.ctx = ndev,
		.bus_read = nvdla_sim_bus_read,
		.bus_write = nvdla_sim_bus_write,
		.bus_map = nvdla_sim_bus_map,
		.kick = nvdla_sim_kick,
		.irq = nvdla_sim_irq,
		.yield = nvdla_sim_yield,
	};

	nvdla_sim_init(ndev->sim, ndev->sim_config, &host);
}

static void nvdla_sim_work(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 sim_work);
	unsigned long flags;
	bool level;

	/* The model kicks this item again when work remains. */
	spin_lock_irq(&ndev->sim_lock);
	nvdla_sim_run(ndev->sim);
	level = nvdla_sim_irq_level(ndev->sim);
	spin_unlock_irq(&ndev->sim_lock);
	if (!level || READ_ONCE(nvdla_sim_fault) == NVDLA_SIM_FAULT_DROP_IRQ)
		return;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	ndev->irq_ns = ktime_get_ns();
	dla_isr_handler(ndev->engine);
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	nvdla_queue_irq(ndev);
}

int nvdla_sim_dev_init(struct nvdla_device *ndev, const char *config)
{
	enum nvdla_sim_config_id id;
	int ret;

	ret = nvdla_sim_config_by_name(config, &id);
	if (ret)
		return ret;
	ndev->sim = devm_kzalloc(ndev->drm.dev, nvdla_sim_size(), GFP_KERNEL);
	if (!ndev->sim)
		return -ENOMEM;
	ndev->sim_config = id;
	spin_lock_init(&ndev->sim_lock);
	INIT_WORK(&ndev->sim_work, nvdla_sim_work);
	nvdla_sim_reset(ndev);
	return 0;
}

/* The work item stopped at its next slice, and not running any more. */
static void nvdla_sim_stop(struct nvdla_device *ndev)
{
	WRITE_ONCE(ndev->sim_stop, true);
	cancel_work_sync(&ndev->sim_work);
}

void nvdla_sim_dev_fini(struct nvdla_device *ndev)
{
	if (ndev->sim)
		nvdla_sim_stop(ndev);
}

static u32 nvdla_sim_faults(struct nvdla_device *ndev)
{
	u32 faults;

	spin_lock(&ndev->sim_lock);
	faults = nvdla_sim_fault_count(ndev->sim);
	spin_unlock(&ndev->sim_lock);
	return faults;
}

void nvdla_sim_dev_job_start(struct nvdla_device *ndev)
{
	lockdep_assert_held(&ndev->engine_lock);
	if (ndev->sim)
		ndev->sim_faults = nvdla_sim_faults(ndev);
}

int nvdla_sim_dev_job_stop(struct nvdla_device *ndev, int status)
{
	lockdep_assert_held(&ndev->engine_lock);
	if (!ndev->sim)
		return status;
	if (!status && nvdla_sim_faults(ndev) != ndev->sim_faults)
		status = -EIO;
	return status;
}

void nvdla_sim_dev_reset(struct nvdla_device *ndev)
{
	if (!ndev->sim)
		return;
	nvdla_sim_stop(ndev);
	spin_lock_irq(&ndev->sim_lock);
	nvdla_sim_reset(ndev);
	WRITE_ONCE(ndev->sim_stop, false);
	spin_unlock_irq(&ndev->sim_lock);
}

static int nvdla_sim_dev_create(int i, const char *config)
{
	struct platform_device_info info = {
		.name = "nvdla",
		.id = PLATFORM_DEVID_AUTO,
		.data = config,
		.size_data = strlen(config) + 1,
		.dma_mask = DMA_BIT_MASK(64),
	};
	enum nvdla_sim_config_id id;
	struct platform_device *pdev;

	if (nvdla_sim_config_by_name(config, &id)) {
		pr_err("nvdla: unknown model configuration '%s'\n", config);
		return -EINVAL;
	}
	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	nvdla_sim_pdevs[i] = pdev;
	return 0;
}

int nvdla_sim_dev_create_all(void)
{
	char *list, *rest, *config;
	int i = 0, ret = 0;

	list = kstrdup(nvdla_sim_param, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	rest = list;
	while (!ret && (config = strsep(&rest, ",")) && *config) {
		if (i == NVDLA_SIM_MAX_DEVICES) {
			pr_err("nvdla: at most %d virtual devices\n", i);
			ret = -EINVAL;
		} else {
			ret = nvdla_sim_dev_create(i++, config);
		}
	}
	kfree(list);
	if (ret)
		nvdla_sim_dev_destroy_all();
	return ret;
}

void nvdla_sim_dev_destroy_all(void)
{
	int i;

	for (i = 0; i < NVDLA_SIM_MAX_DEVICES; i++) {
		if (nvdla_sim_pdevs[i])
			platform_device_unregister(nvdla_sim_pdevs[i]);
		nvdla_sim_pdevs[i] = NULL;
	}
}
