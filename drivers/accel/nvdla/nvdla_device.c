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

#include <drm/drm_drv.h>

#include "nvdla_core.h"
#include "nvdla_drv.h"
#include "nvdla_power.h"

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
	ret = nvdla_core_request_irq(ndev, irq, IRQF_NO_AUTOEN);
	if (ret)
		return ret;
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
	ret = nvdla_core_init(ndev, config);
	if (ret)
		return ret;

	/* Each step reports its own failure. */
	ret = nvdla_hw_init(ndev, pdev);
	if (ret)
		return ret;
	return nvdla_core_register(ndev, config, "");
}

static void nvdla_remove(struct platform_device *pdev)
{
	nvdla_core_remove(platform_get_drvdata(pdev));
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
