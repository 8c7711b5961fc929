// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Power: the clocks and reset lines a device-tree node gives the device
 * (both optional, so nodes without them work),
 * runtime PM with autosuspend between jobs, and the engine reset. A power
 * domain in the node is attached by the platform core and follows runtime
 * PM by itself.
 */
#include <linux/clk.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/pm_runtime.h>
#include <linux/reset.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>

#include "nvdla_drv.h"
#include "nvdla_power.h"
#include "nvdla_queue.h"

/* Idle time before the device powers down: a few frames of a video feed. */
#define NVDLA_AUTOSUSPEND_MS 50
/* Reset pulse; the core's reset is synchronous, a few clocks would do. */
#define NVDLA_RESET_US 10

static int nvdla_power_on(struct nvdla_device *ndev)
{
	struct nvdla_power *pwr = &ndev->power;
	int ret;

	ret = clk_bulk_prepare_enable(pwr->num_clks, pwr->clks);
	if (ret)
		return ret;
	ret = reset_control_deassert(pwr->rst);
	if (ret) {
		clk_bulk_disable_unprepare(pwr->num_clks, pwr->clks);
		return ret;
	}
	if (pwr->irq)
		enable_irq(pwr->irq);
	return 0;
}

/*
 * The interrupt off first: its handler reads registers, which an unclocked
 * block may not answer. Then reset, so that the block stops before its
 * clocks do.
 */
static void nvdla_power_off(struct nvdla_device *ndev)
{
	struct nvdla_power *pwr = &ndev->power;

	if (pwr->irq)
		disable_irq(pwr->irq);
	reset_control_assert(pwr->rst);
	clk_bulk_disable_unprepare(pwr->num_clks, pwr->clks);
}

static int nvdla_runtime_suspend(struct device *dev)
{
	nvdla_power_off(dev_get_drvdata(dev));
	return 0;
}

static int nvdla_runtime_resume(struct device *dev)
{
	return nvdla_power_on(dev_get_drvdata(dev));
}

/*
 * System sleep holds the job queue once the engine is idle, then forces
 * the runtime state: off, and back on if it was on.
 */
static int nvdla_system_suspend(struct device *dev)
{
	struct nvdla_device *ndev = dev_get_drvdata(dev);
	int ret;

	nvdla_queue_pause(ndev);
	ret = pm_runtime_force_suspend(dev);
	if (ret)
		nvdla_queue_unpause(ndev);
	return ret;
}

static int nvdla_system_resume(struct device *dev)
{
	struct nvdla_device *ndev = dev_get_drvdata(dev);
	int ret = pm_runtime_force_resume(dev);

	nvdla_queue_unpause(ndev);
	return ret;
}

const struct dev_pm_ops nvdla_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(nvdla_system_suspend, nvdla_system_resume)
	RUNTIME_PM_OPS(nvdla_runtime_suspend, nvdla_runtime_resume, NULL)
};

/* After runtime PM is disabled on unbind: leave the block switched off. */
static void nvdla_power_fini(void *data)
{
	struct nvdla_device *ndev = data;
	struct device *dev = ndev->drm.dev;

	if (!pm_runtime_status_suspended(dev))
		nvdla_power_off(ndev);
	pm_runtime_set_suspended(dev);
}

/**
 * nvdla_power_init() - take the clocks and resets, power the device on
 * @ndev: the device being probed, already its device's driver data
 *
 * Runtime PM then powers it down once it has been idle for
 * NVDLA_AUTOSUSPEND_MS; unbinding switches it off.
 *
 * Return: 0 or a negative errno (-EPROBE_DEFER while a clock or reset
 * controller is not there yet).
 */
int nvdla_power_init(struct nvdla_device *ndev)
{
	struct nvdla_power *pwr = &ndev->power;
	struct device *dev = ndev->drm.dev;
	int ret;

	pwr->num_clks = devm_clk_bulk_get_all(dev, &pwr->clks);
	if (pwr->num_clks < 0)
		return dev_err_probe(dev, pwr->num_clks, "cannot get clocks\n");
	pwr->rst = devm_reset_control_array_get_optional_exclusive(dev);
	if (IS_ERR(pwr->rst))
		return dev_err_probe(dev, PTR_ERR(pwr->rst),
				     "cannot get reset lines\n");

	ret = nvdla_power_on(ndev);
	if (ret)
		return dev_err_probe(dev, ret, "cannot power on\n");
	/* Active before the action that switches an active device off. */
	pm_runtime_set_active(dev);
	ret = devm_add_action_or_reset(dev, nvdla_power_fini, ndev);
	if (ret)
		return ret;

	pm_runtime_get_noresume(dev);
	pm_runtime_set_autosuspend_delay(dev, NVDLA_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	ret = devm_pm_runtime_enable(dev);
	if (ret) {
		pm_runtime_put_noidle(dev);
		return ret;
	}
	nvdla_power_put(ndev);
	return 0;
}

/**
 * nvdla_power_get() - keep the device powered until nvdla_power_put()
 * @ndev: the device
 *
 * Call it before touching the registers (a job, a register read); it may
 * sleep while the device powers up.
 *
 * Return: 0, or a negative errno when the device cannot be powered (then
 * do not call nvdla_power_put()).
 */
int nvdla_power_get(struct nvdla_device *ndev)
{
	return pm_runtime_resume_and_get(ndev->drm.dev);
}

/**
 * nvdla_power_put() - end of a nvdla_power_get() section
 * @ndev: the device
 *
 * The device powers down once no section has been open for
 * NVDLA_AUTOSUSPEND_MS.
 */
void nvdla_power_put(struct nvdla_device *ndev)
{
	pm_runtime_mark_last_busy(ndev->drm.dev);
	pm_runtime_put_autosuspend(ndev->drm.dev);
}

/* The reset lines asserted for NVDLA_RESET_US, then released. */
static int nvdla_power_pulse(struct nvdla_power *pwr)
{
	int ret;

	ret = reset_control_assert(pwr->rst);
	if (ret)
		return ret;
	fsleep(NVDLA_RESET_US);
	return reset_control_deassert(pwr->rst);
}

/*
 * Without a reset line: the device's power domain switched off and on
 * through runtime PM. The caller's reference is dropped for it and taken
 * back; if anyone else keeps the device powered, nothing is switched off
 * and the error says so.
 */
static int nvdla_power_cycle(struct nvdla_device *ndev)
{
	struct device *dev = ndev->drm.dev;
	int ret;

	if (!dev->pm_domain)
		return -EOPNOTSUPP;
	ret = pm_runtime_put_sync_suspend(dev);
	pm_runtime_get_noresume(dev);
	if (ret < 0)
		return ret;
	ret = pm_runtime_resume(dev);
	return ret < 0 ? ret : 0;
}

/* Events an interrupt recorded before the reset are stale now. */
static void nvdla_power_clear_task(struct nvdla_device *ndev)
{
	unsigned long flags;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	dla_clear_task(ndev->engine);
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
}

/* The status registers of the units with two register groups: 0 is idle. */
static const struct {
	int unit;
	u32 reg;
} nvdla_power_status_regs[] = {
	{ NVDLA_UNIT_CDMA, NVDLA_CDMA_S_STATUS },
	{ NVDLA_UNIT_CSC, NVDLA_CSC_S_STATUS },
	{ NVDLA_UNIT_CMAC_A, NVDLA_CMAC_A_S_STATUS },
	{ NVDLA_UNIT_CMAC_B, NVDLA_CMAC_B_S_STATUS },
	{ NVDLA_UNIT_CACC, NVDLA_CACC_S_STATUS },
	{ NVDLA_UNIT_SDP_RDMA, NVDLA_SDP_RDMA_S_STATUS },
	{ NVDLA_UNIT_SDP, NVDLA_SDP_S_STATUS },
	{ NVDLA_UNIT_PDP_RDMA, NVDLA_PDP_RDMA_S_STATUS },
	{ NVDLA_UNIT_PDP, NVDLA_PDP_S_STATUS },
	{ NVDLA_UNIT_CDP_RDMA, NVDLA_CDP_RDMA_S_STATUS },
	{ NVDLA_UNIT_CDP, NVDLA_CDP_S_STATUS },
	{ NVDLA_UNIT_RBK, NVDLA_RBK_S_STATUS },
};

/* Whether no unit of the engine has an operation enabled or running. */
static bool nvdla_power_idle(struct nvdla_device *ndev)
{
	const struct dla_hw_config *hw = ndev->hw;
	unsigned long flags;
	u32 busy = 0;
	size_t i;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	for (i = 0; i < ARRAY_SIZE(nvdla_power_status_regs); i++) {
		int unit = nvdla_power_status_regs[i].unit;

		if (unit == NVDLA_UNIT_RBK && !hw->rubik)
			continue;
		busy |= nvdla_reg_read(ndev, hw->unit_base[unit] +
				       nvdla_power_status_regs[i].reg);
	}
	if (hw->bdma)
		busy |= nvdla_reg_read(ndev, hw->unit_base[NVDLA_UNIT_BDMA] +
				       NVDLA_BDMA_STATUS) &
			(NVDLA_BDMA_STATUS_GRP0_BUSY_MASK |
			 NVDLA_BDMA_STATUS_GRP1_BUSY_MASK);
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
	return !busy;
}

/*
 * The engine's reset: its reset lines, else its binding's own, else a
 * power cycle of its domain.
 */
static int nvdla_power_reset_engine(struct nvdla_device *ndev)
{
	if (ndev->power.rst)
		return nvdla_power_pulse(&ndev->power);
	if (ndev->power.reset)
		return ndev->power.reset(ndev);
	return nvdla_power_cycle(ndev);
}

/**
 * nvdla_power_reset() - put the engine back into its reset state
 * @ndev: the device, powered (nvdla_power_get()), with no job on the engine
 *
 * For after a job that failed or was stopped: its operations may still be
 * running. Pulses the reset lines, or without them resets the way the
 * binding gives (a PCI function reset) or power-cycles the device's power
 * domain, with the interrupt off; then clears the firmware's task state again, since an
 * interrupt may have recorded events after the job was taken off, and
 * checks that every unit is idle. Sleeps.
 *
 * Return: 0 once the engine is idle; -EOPNOTSUPP with neither reset line
 * nor power domain; -EBUSY when a unit is still busy after the reset; the
 * error of the reset controller or of runtime PM (-EAGAIN while someone
 * else keeps the device powered).
 */
int nvdla_power_reset(struct nvdla_device *ndev)
{
	struct nvdla_power *pwr = &ndev->power;
	int ret;

	if (pwr->irq)
		disable_irq(pwr->irq);
	ret = nvdla_power_reset_engine(ndev);
	if (!ret) {
		nvdla_power_clear_task(ndev);
		ret = nvdla_power_idle(ndev) ? 0 : -EBUSY;
	}
	if (pwr->irq)
		enable_irq(pwr->irq);
	return ret;
}
