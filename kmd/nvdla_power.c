// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Power: the clocks and reset lines a device-tree node gives the device
 * (both optional, so bare nodes and the virtual device work without them),
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

#include "nvdla_drv.h"
#include "nvdla_power.h"
#include "nvdla_queue.h"
#include "nvdla_sim_dev.h"

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
	/* The virtual device loses its registers like a power-gated block. */
	nvdla_sim_dev_reset(ndev);
	return 0;
}

/* Reset first, so that the block stops before its clocks do. */
static void nvdla_power_off(struct nvdla_device *ndev)
{
	struct nvdla_power *pwr = &ndev->power;

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

/* Events an interrupt recorded before the reset are stale now. */
static void nvdla_power_clear_task(struct nvdla_device *ndev)
{
	unsigned long flags;

	spin_lock_irqsave(&ndev->engine_lock, flags);
	dla_clear_task(ndev->engine);
	spin_unlock_irqrestore(&ndev->engine_lock, flags);
}

/**
 * nvdla_power_reset() - put the engine back into its reset state
 * @ndev: the device, powered (nvdla_power_get()), with no job on the engine
 *
 * For after a job that failed or was stopped: its operations may still be
 * running. Pulses the reset lines with the interrupt off (the virtual
 * device restarts its model), then clears the firmware's task state again,
 * since an interrupt may have recorded events after the job was taken off.
 * Sleeps.
 *
 * Return: 0; -EOPNOTSUPP when the node has no reset line (the engine is
 * left as it is); another negative errno from the reset controller.
 */
int nvdla_power_reset(struct nvdla_device *ndev)
{
	struct nvdla_power *pwr = &ndev->power;
	int ret;

	if (ndev->sim) {
		nvdla_sim_dev_reset(ndev);
		nvdla_power_clear_task(ndev);
		return 0;
	}
	if (!pwr->rst)
		return -EOPNOTSUPP;
	disable_irq(pwr->irq);
	ret = nvdla_power_pulse(pwr);
	nvdla_power_clear_task(ndev);
	enable_irq(pwr->irq);
	return ret;
}
