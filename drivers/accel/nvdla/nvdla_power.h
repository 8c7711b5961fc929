/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_POWER_H__
#define __NVDLA_POWER_H__

#include <linux/pm.h>

struct clk_bulk_data;
struct nvdla_device;
struct reset_control;

/**
 * struct nvdla_power - what keeps an NVDLA powered and lets it be reset
 * @clks: the clocks the device-tree node lists, all enabled while powered
 * @num_clks: how many; 0 without a clocks property
 * @rst: its reset lines as one array, or NULL without a resets property
 * @irq: the interrupt, off while the device is powered down or reset
 * @reset: without reset lines, the binding's own reset of the engine (a
 *	PCI function reset), or NULL
 */
struct nvdla_power {
	struct clk_bulk_data *clks;
	int num_clks;
	struct reset_control *rst;
	int irq;
	int (*reset)(struct nvdla_device *ndev);
};

extern const struct dev_pm_ops nvdla_pm_ops;

int nvdla_power_init(struct nvdla_device *ndev);
int nvdla_power_get(struct nvdla_device *ndev);
void nvdla_power_put(struct nvdla_device *ndev);
int nvdla_power_reset(struct nvdla_device *ndev);

#endif /* __NVDLA_POWER_H__ */
