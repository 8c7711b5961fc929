// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * debugfs: "regs" dumps every register of the device's address map (the
 * group the CSB currently points at, for units with two), "jobs" the job
 * counters, "wedged" whether the device is wedged (writing 0 resets the
 * engine and resumes it).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>

#include "nvdla_debugfs.h"
#include "nvdla_drv.h"
#include "nvdla_power.h"
#include "nvdla_queue.h"

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
	seq_printf(m, "buffers: %lld bytes\n",
		   (long long)atomic64_read(&ndev->bo_bytes));
	seq_printf(m, "imported: %lld bytes\n",
		   (long long)atomic64_read(&ndev->import_bytes));
	seq_printf(m, "job memory: %lld bytes\n",
		   (long long)atomic64_read(&ndev->job_bytes));
	return 0;
}

static int nvdla_debugfs_wedged_show(struct seq_file *m, void *data)
{
	struct nvdla_device *ndev = m->private;
	bool wedged;

	spin_lock(&ndev->queue_lock);
	wedged = ndev->wedged;
	spin_unlock(&ndev->queue_lock);
	seq_printf(m, "%d\n", wedged);
	return 0;
}

static int nvdla_debugfs_wedged_open(struct inode *inode, struct file *f)
{
	return single_open(f, nvdla_debugfs_wedged_show, inode->i_private);
}

/* Writing 0 recovers a wedged device: see nvdla_queue_unwedge(). */
static ssize_t nvdla_debugfs_wedged_write(struct file *f,
					  const char __user *buf, size_t len,
					  loff_t *pos)
{
	struct nvdla_device *ndev = file_inode(f)->i_private;
	bool wedged;
	int idx, ret;

	ret = kstrtobool_from_user(buf, len, &wedged);
	if (ret)
		return ret;
	if (wedged)
		return -EINVAL;
	if (!drm_dev_enter(&ndev->drm, &idx))
		return -ENODEV;
	ret = nvdla_queue_unwedge(ndev);
	drm_dev_exit(idx);
	return ret ? ret : len;
}

static const struct file_operations nvdla_debugfs_wedged_fops = {
	.owner = THIS_MODULE,
	.open = nvdla_debugfs_wedged_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = nvdla_debugfs_wedged_write,
};

static const struct drm_info_list nvdla_debugfs_list[] = {
	{ "regs", nvdla_debugfs_regs, 0 },
	{ "jobs", nvdla_debugfs_jobs, 0 },
};

/*
 * Called once the device is registered, when the node's minor has its
 * debugfs directory: the core does not call a driver's debugfs_init hook
 * for accel minors.
 */
void nvdla_debugfs_init(struct nvdla_device *ndev)
{
	struct drm_minor *minor = ndev->drm.accel;

	drm_debugfs_create_files(nvdla_debugfs_list,
				 ARRAY_SIZE(nvdla_debugfs_list),
				 minor->debugfs_root, minor);
	debugfs_create_file("wedged", 0600, minor->debugfs_root, ndev,
			    &nvdla_debugfs_wedged_fops);
}
