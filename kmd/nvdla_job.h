/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_JOB_H__
#define __NVDLA_JOB_H__

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct nvdla_device;
struct nvdla_gem_object;

/**
 * struct nvdla_job - one firmware task and the buffers it may reach
 * @num: entries in the address list
 * @bos: the object of each entry, referenced until the job ends
 * @offsets: byte offset of each entry into its object
 */
struct nvdla_job {
	u32 num;
	struct nvdla_gem_object **bos;
	u64 *offsets;
};

extern const struct dla_port_ops nvdla_port_ops;

int nvdla_ioctl_submit(struct drm_device *drm, void *data,
		       struct drm_file *file);

/* Interrupt bottom half: complete operations, finish the job if done. */
void nvdla_job_process(struct nvdla_device *ndev);

#endif /* __NVDLA_JOB_H__ */
