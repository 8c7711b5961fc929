// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * debugfs: "regs" dumps every register of the device's address map (the
 * group the CSB currently points at, for units with two), "jobs" the job
 * counters.
 */
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>

#include "nvdla_debugfs.h"
#include "nvdla_drv.h"
#include "nvdla_power.h"

static const struct {
	int unit;
	const char *name;
	u32 offset;
} nvdla_regs[] = NVDLA_REG_NAMES;

static const char *const nvdla_units[] = NVDLA_UNIT_NAMES;

static struct nvdla_device *nvdla_seq_device(struct seq_file *m)
{
	struct drm_info_node *node = m->private;

	return to_nvdla_device(node->minor->dev);
}

static int nvdla_debugfs_regs(struct seq_file *m, void *data)
{
	struct nvdla_device *ndev = nvdla_seq_device(m);
	unsigned long flags;
	size_t i;
	u32 base;
	int idx, ret;

	if (!drm_dev_enter(&ndev->drm, &idx))
		return -ENODEV;
	ret = nvdla_power_get(ndev);
	if (ret)
		goto out;
	for (i = 0; i < ARRAY_SIZE(nvdla_regs); i++) {
		base = ndev->hw->unit_base[nvdla_regs[i].unit];
		if (base == NVDLA_UNIT_ABSENT)
			continue;
		spin_lock_irqsave(&ndev->engine_lock, flags);
		seq_printf(m, "%s.%s = 0x%08x\n", nvdla_units[nvdla_regs[i].unit],
			   nvdla_regs[i].name,
			   nvdla_reg_read(ndev, base + nvdla_regs[i].offset));
		spin_unlock_irqrestore(&ndev->engine_lock, flags);
	}
	nvdla_power_put(ndev);
out:
	drm_dev_exit(idx);
	return ret;
}

static int nvdla_debugfs_jobs(struct seq_file *m, void *data)
{
	struct nvdla_device *ndev = nvdla_seq_device(m);

	spin_lock(&ndev->queue_lock);
	seq_printf(m, "submitted: %llu\ncompleted: %llu\nfailed: %llu\ntimed out: %llu\nbusy: %llu us\n",
		   ndev->stats.submitted, ndev->stats.completed,
		   ndev->stats.failed, ndev->stats.timed_out,
		   div_u64(ndev->stats.busy_ns, NSEC_PER_USEC));
	spin_unlock(&ndev->queue_lock);
	return 0;
}

static const struct drm_info_list nvdla_debugfs_list[] = {
	{ "regs", nvdla_debugfs_regs, 0 },
	{ "jobs", nvdla_debugfs_jobs, 0 },
};

/*
 * Called once the device is registered, when the node's minor has its
 * debugfs directory: the core calls a driver's debugfs_init hook for render
 * minors but, since 6.9, not for accel ones.
 */
void nvdla_debugfs_init(struct nvdla_device *ndev)
{
#if IS_ENABLED(CONFIG_DRM_ACCEL)
	struct drm_minor *minor = ndev->drm.accel ?: ndev->drm.render;
#else
	struct drm_minor *minor = ndev->drm.render;
#endif

	drm_debugfs_create_files(nvdla_debugfs_list,
				 ARRAY_SIZE(nvdla_debugfs_list),
				 minor->debugfs_root, minor);
}
