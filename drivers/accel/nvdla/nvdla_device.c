// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Platform driver: an NVDLA described in the device tree (register window,
 * interrupt, and optionally clocks, resets, a power domain and a memory
 * region; Documentation/devicetree/bindings/npu/nvidia,nvdla.yaml).
 */
#include <linux/interrupt.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/nvdla_accel.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>

#include "nvdla_debugfs.h"
#include "nvdla_drv.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"
#include "nvdla_power.h"
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

/*
 * The interrupt is requested off: powering the device on enables it, and
 * powering it off disables it, since the handler reads registers.
 */
static int nvdla_hw_init(struct nvdla_device *ndev,
			 struct platform_device *pdev)
{
	int irq, ret;

	ndev->regs = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(ndev->regs))
		return PTR_ERR(ndev->regs);
	irq = platform_get_irq(pdev, 0);
	if (irq < 0)
		return irq;
	ret = devm_request_threaded_irq(&pdev->dev, irq, nvdla_irq,
					nvdla_irq_thread, IRQF_NO_AUTOEN,
					dev_name(&pdev->dev), ndev);
	if (ret)
		return dev_err_probe(&pdev->dev, ret, "cannot request IRQ %d\n",
				     irq);
	ndev->power.irq = irq;
	return nvdla_power_init(ndev);
}

static int nvdla_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	const char *config = of_device_get_match_data(dev);
	struct nvdla_device *ndev;
	int ret;

	ndev = devm_drm_dev_alloc(dev, nvdla_drm_driver(), struct nvdla_device,
				  drm);
	if (IS_ERR(ndev))
		return PTR_ERR(ndev);
	platform_set_drvdata(pdev, ndev);
	/* No configuration: a device bound by name, not from the device tree. */
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
	/* Before the power actions: runs after unbind switched the device off. */
	ret = devm_add_action(dev, nvdla_queue_release_pinned, ndev);
	if (ret)
		return ret;

	/* Each step reports its own failure. */
	ret = nvdla_hw_init(ndev, pdev);
	if (ret)
		return ret;
	/* Nothing runs yet: make sure no stale interrupt is pending. */
	dla_clear_task(ndev->engine);

	ret = drm_dev_register(&ndev->drm, 0);
	if (ret)
		return ret;
	nvdla_debugfs_init(ndev);
	drm_info(&ndev->drm, "NVDLA %s\n", config);
	return 0;
}

static void nvdla_remove(struct platform_device *pdev)
{
	struct nvdla_device *ndev = platform_get_drvdata(pdev);

	/* Waits for every ioctl: no job is queued after this. */
	drm_dev_unplug(&ndev->drm);
	nvdla_queue_fini(ndev);
}

/* One string per hardware configuration. */
static const struct of_device_id nvdla_of_match[] = {
	{ .compatible = "nvidia,nvdla-nv-full", .data = "nv_full" },
	{ .compatible = "nvidia,nvdla-nv-large", .data = "nv_large" },
	{ .compatible = "nvidia,nvdla-nv-small", .data = "nv_small" },
	{ /* sentinel */ }
};
MODULE_DEVICE_TABLE(of, nvdla_of_match);

struct platform_driver nvdla_platform_driver = {
	.probe = nvdla_probe,
	.remove = nvdla_remove,
	.driver = {
		.name = "nvdla",
		.of_match_table = nvdla_of_match,
		.pm = pm_ptr(&nvdla_pm_ops),
	},
};
