// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * What every binding of the device shares (the device tree's platform
 * device, nvdla_device.c; a PCI card, nvdla_pci.c): the DRM device and its
 * engine set up for a configuration, the interrupt handler, registration
 * and removal. A binding maps the register window and finds the interrupt
 * between nvdla_core_init() and nvdla_core_register().
 */
#include <linux/interrupt.h>
#include <linux/string.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/nvdla_accel.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>

#include "nvdla_core.h"
#include "nvdla_debugfs.h"
#include "nvdla_drv.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"
#include "nvdla_queue.h"

static const char *const nvdla_config_names[] = DRM_NVDLA_CONFIG_NAMES;

/* Not the device's interrupt when its status shows nothing (IRQ_NONE). */
static irqreturn_t nvdla_irq(int irq, void *arg)
{
	struct nvdla_device *ndev = arg;
	u32 glb = ndev->hw->unit_base[NVDLA_UNIT_GLB];
	irqreturn_t ret = IRQ_NONE;

	spin_lock(&ndev->engine_lock);
	if (nvdla_reg_read(ndev, glb + NVDLA_GLB_S_INTR_STATUS)) {
		ndev->irq_ns = ktime_get_ns();
		dla_isr_handler(ndev->engine);
		ret = IRQ_WAKE_THREAD;
	}
	spin_unlock(&ndev->engine_lock);
	return ret;
}

static irqreturn_t nvdla_irq_thread(int irq, void *arg)
{
	nvdla_queue_irq(arg);
	return IRQ_HANDLED;
}

/**
 * nvdla_core_init() - set a new device up for its configuration
 * @ndev: the device, allocated and its device's driver data
 * @config: the configuration's name (nv_full, ...), or NULL if unknown
 *
 * Return: 0 or a negative errno (-EINVAL for an unknown configuration).
 */
int nvdla_core_init(struct nvdla_device *ndev, const char *config)
{
	struct device *dev = ndev->drm.dev;
	int ret;

	/* No configuration: a device bound by name, not from a table. */
	ndev->hw = config ? dla_hw_config_get(config) : NULL;
	if (!ndev->hw)
		return dev_err_probe(dev, -EINVAL, "unknown configuration\n");
	ndev->config = match_string(nvdla_config_names,
				    ARRAY_SIZE(nvdla_config_names), config);
	spin_lock_init(&ndev->engine_lock);
	ret = nvdla_gem_init(ndev);
	if (ret)
		return ret;
	ndev->engine = drmm_kzalloc(&ndev->drm, dla_engine_size(), GFP_KERNEL);
	if (!ndev->engine)
		return -ENOMEM;
	ret = dla_register_driver(ndev->engine, ndev, &nvdla_port_ops, ndev->hw);
	if (ret)
		return ret;
	/* After the engine: the scheduler's last jobs are freed before it. */
	ret = nvdla_queue_init(ndev);
	if (ret)
		return ret;
	/* Before the binding's power actions: runs after they switched it off. */
	return devm_add_action(dev, nvdla_queue_release_pinned, ndev);
}

/**
 * nvdla_core_request_irq() - the device's interrupt handler on @irq
 * @ndev: the device, its registers mapped
 * @irq: its interrupt
 * @flags: IRQF_NO_AUTOEN when powering the device on enables it
 *
 * Return: 0 or a negative errno.
 */
int nvdla_core_request_irq(struct nvdla_device *ndev, int irq,
			   unsigned long flags)
{
	struct device *dev = ndev->drm.dev;
	int ret;

	ret = devm_request_threaded_irq(dev, irq, nvdla_irq, nvdla_irq_thread,
					flags, dev_name(dev), ndev);
	if (ret)
		return dev_err_probe(dev, ret, "cannot request IRQ %d\n", irq);
	return 0;
}

/**
 * nvdla_core_register() - make a device its binding set up usable
 * @ndev: the device, registers and interrupt ready
 * @config: its configuration's name
 * @what: how it is attached, for the log ("" or " (...)")
 *
 * Return: 0 or a negative errno.
 */
int nvdla_core_register(struct nvdla_device *ndev, const char *config,
			const char *what)
{
	int ret;

	/* Nothing runs yet: make sure no stale interrupt is pending. */
	dla_clear_task(ndev->engine);

	ret = drm_dev_register(&ndev->drm, 0);
	if (ret)
		return ret;
	nvdla_debugfs_init(ndev);
	drm_info(&ndev->drm, "NVDLA %s%s\n", config, what);
	return 0;
}

/**
 * nvdla_core_remove() - the device goes away
 * @ndev: the device
 */
void nvdla_core_remove(struct nvdla_device *ndev)
{
	/* Waits for every ioctl: no job is queued after this. */
	drm_dev_unplug(&ndev->drm);
	nvdla_queue_fini(ndev);
}
