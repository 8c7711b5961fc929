// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Job fences: one timeline per file, whose fences signal in order because
 * the device runs and ends the jobs of a file in submission order.
 */
#include <linux/dma-fence.h>
#include <linux/slab.h>

#include <drm/drm_device.h>

#include "nvdla_drv.h"
#include "nvdla_fence.h"
#include "nvdla_file.h"

static const char *nvdla_fence_driver_name(struct dma_fence *fence)
{
	return "nvdla";
}

static const char *nvdla_fence_timeline_name(struct dma_fence *fence)
{
	return "nvdla-jobs";
}

static const struct dma_fence_ops nvdla_fence_ops = {
	.get_driver_name = nvdla_fence_driver_name,
	.get_timeline_name = nvdla_fence_timeline_name,
};

static const char *nvdla_fence_engine_name(struct dma_fence *fence)
{
	return "nvdla-engine";
}

/* The scheduler's view of a job on the engine: its hardware fence. */
static const struct dma_fence_ops nvdla_fence_hw_ops = {
	.get_driver_name = nvdla_fence_driver_name,
	.get_timeline_name = nvdla_fence_engine_name,
};

struct dma_fence *nvdla_fence_alloc(void)
{
	return kzalloc(sizeof(struct dma_fence), GFP_KERNEL_ACCOUNT);
}

void nvdla_fence_init(struct nvdla_device *ndev, struct nvdla_file *nfile,
		      struct dma_fence *fence)
{
	lockdep_assert_held(&ndev->submit_lock);
	dma_fence_init(fence, &nvdla_fence_ops, &ndev->fence_lock,
		       nfile->fence_context, ++nfile->fence_seqno);
}

void nvdla_fence_init_hw(struct nvdla_device *ndev, struct dma_fence *fence)
{
	dma_fence_init(fence, &nvdla_fence_hw_ops, &ndev->fence_lock,
		       ndev->hw_context, ++ndev->hw_seqno);
}
