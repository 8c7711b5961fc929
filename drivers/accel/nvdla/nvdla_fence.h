/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_FENCE_H__
#define __NVDLA_FENCE_H__

struct dma_fence;
struct nvdla_device;
struct nvdla_file;

/* An unsignalled fence, not yet on the device's timeline. */
struct dma_fence *nvdla_fence_alloc(void);
/* Put @fence on @nfile's timeline; under the submit lock, in queue order. */
void nvdla_fence_init(struct nvdla_device *ndev, struct nvdla_file *nfile,
		      struct dma_fence *fence);
/* Put @fence on the engine's timeline, as the job starts (run_job). */
void nvdla_fence_init_hw(struct nvdla_device *ndev, struct dma_fence *fence);

#endif /* __NVDLA_FENCE_H__ */
