// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Virtual NVDLA devices backed by the hardware model, for machines without
 * the accelerator: "insmod nvdla.ko nvdla_sim=nv_full,nv_small" creates one
 * platform device per configuration. The model reaches memory only through
 * nvdla_sim_bus_*(), which confine it to the objects of the running job.
 * Its work runs from a work item, which then takes the path a hardware
 * interrupt takes.
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

/* Faults the virtual devices inject, to test the driver's recovery (bits). */
enum nvdla_sim_fault {
	NVDLA_SIM_FAULT_DROP_IRQ = 1,	/* completions never interrupt */
	NVDLA_SIM_FAULT_BUS_ERROR = 2,	/* every memory access fails */
	NVDLA_SIM_FAULT_NO_RESET = 4,	/* no reset line, no power domain */
};

static int nvdla_sim_fault;
module_param(nvdla_sim_fault, int, 0644);
MODULE_PARM_DESC(nvdla_sim_fault,
		 "Faults the virtual devices inject, a sum of: 1 drop interrupts, 2 bus errors, 4 no engine reset");

static bool nvdla_sim_faulty(enum nvdla_sim_fault fault)
{
	return READ_ONCE(nvdla_sim_fault) & fault;
}

static struct platform_device *nvdla_sim_pdevs[NVDLA_SIM_MAX_DEVICES];

/* The part of an object of the running job that holds [@addr, +@len). */
static void *nvdla_sim_bus_map(void *ctx, u64 addr, u64 len)
{
	struct nvdla_device *ndev = ctx;
	const struct nvdla_job *job = ndev->job;
	u32 i;

	if (nvdla_sim_faulty(NVDLA_SIM_FAULT_BUS_ERROR))
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

static void nvdla_sim_reset(struct nvdla_device *ndev)
{
	const struct nvdla_sim_host host = {
		.ctx = ndev,
		.bus_read = nvdla_sim_bus_read,
		.bus_write = nvdla_sim_bus_write,
		.bus_map = nvdla_sim_bus_map,
		.kick = nvdla_sim_kick,
		.irq = nvdla_sim_irq,
	};

	nvdla_sim_init(ndev->sim, ndev->sim_config, &host);
}

static void nvdla_sim_work(struct work_struct *work)
{
	struct nvdla_device *ndev = container_of(work, struct nvdla_device,
						 sim_work);
	unsigned long flags;
	bool more;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	more = nvdla_sim_run(ndev->sim);
	if (nvdla_sim_irq_level(ndev->sim) &&
	    !nvdla_sim_faulty(NVDLA_SIM_FAULT_DROP_IRQ)) {
		ndev->irq_ns = ktime_get_ns();
		dla_isr_handler(ndev->engine);
	}
	spin_unlock_irqrestore(&ndev->engine_lock, flags);

	nvdla_queue_irq(ndev);
	if (more)
		queue_work(system_unbound_wq, &ndev->sim_work);
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
	INIT_WORK(&ndev->sim_work, nvdla_sim_work);
	nvdla_sim_reset(ndev);
	return 0;
}

void nvdla_sim_dev_fini(struct nvdla_device *ndev)
{
	if (ndev->sim)
		cancel_work_sync(&ndev->sim_work);
}

void nvdla_sim_dev_job_start(struct nvdla_device *ndev)
{
	lockdep_assert_held(&ndev->engine_lock);
	if (ndev->sim)
		ndev->sim_faults = nvdla_sim_fault_count(ndev->sim);
}

int nvdla_sim_dev_job_stop(struct nvdla_device *ndev, int status)
{
	lockdep_assert_held(&ndev->engine_lock);
	if (!ndev->sim)
		return status;
	if (!status && nvdla_sim_fault_count(ndev->sim) != ndev->sim_faults)
		status = -EIO;
	return status;
}

void nvdla_sim_dev_reset(struct nvdla_device *ndev)
{
	unsigned long flags;

	if (!ndev->sim)
		return;
	spin_lock_irqsave(&ndev->engine_lock, flags);
	nvdla_sim_reset(ndev);
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
}

int nvdla_sim_dev_reset_line(struct nvdla_device *ndev)
{
	if (nvdla_sim_faulty(NVDLA_SIM_FAULT_NO_RESET))
		return -EOPNOTSUPP;
	nvdla_sim_dev_reset(ndev);
	return 0;
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
