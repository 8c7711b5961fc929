/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_QUEUE_H__
#define __NVDLA_QUEUE_H__

#include <linux/types.h>

struct drm_file;
struct nvdla_device;
struct nvdla_file;
struct nvdla_job;

int nvdla_queue_init(struct nvdla_device *ndev);
/* A file's entity, and its end: its queued jobs end now, unrun. */
int nvdla_queue_open(struct nvdla_device *ndev, struct nvdla_file *nfile);
void nvdla_queue_close(struct nvdla_device *ndev, struct nvdla_file *nfile);
/* Make a job being created one of its file's entity. */
int nvdla_queue_job_init(struct nvdla_job *job, struct drm_file *file);
int nvdla_queue_admit(struct nvdla_device *ndev, struct nvdla_file *nfile);
/* Queue @job behind its file's jobs; under the submit lock, once admitted. */
void nvdla_queue_push(struct nvdla_device *ndev, struct nvdla_job *job);
/* Interrupt bottom half: advance the task, end the job when it is done. */
void nvdla_queue_irq(struct nvdla_device *ndev);
/* System sleep: hold the queue once the engine is idle, and let it go. */
void nvdla_queue_pause(struct nvdla_device *ndev);
void nvdla_queue_unpause(struct nvdla_device *ndev);
/* The device is going away: end every job with -ECANCELED. */
void nvdla_queue_fini(struct nvdla_device *ndev);
int nvdla_queue_unwedge(struct nvdla_device *ndev);
/* The longest time limit a submission may set, in milliseconds. */
u32 nvdla_queue_max_timeout_ms(void);
/* devm action: free the jobs pinned by a failed reset, once powered off. */
void nvdla_queue_release_pinned(void *data);

#endif /* __NVDLA_QUEUE_H__ */
