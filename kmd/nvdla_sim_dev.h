/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_SIM_DEV_H__
#define __NVDLA_SIM_DEV_H__

struct nvdla_device;

/* Module load/unload: the virtual devices the nvdla_sim parameter names. */
int nvdla_sim_dev_create_all(void);
void nvdla_sim_dev_destroy_all(void);

/* Probe/remove of a virtual device: start and stop its model. */
int nvdla_sim_dev_init(struct nvdla_device *ndev, const char *config);
void nvdla_sim_dev_fini(struct nvdla_device *ndev);

/*
 * Around each job, with the engine lock held: note the model's faults, and
 * at the end turn new faults into -EIO. No-ops on real hardware.
 */
void nvdla_sim_dev_job_start(struct nvdla_device *ndev);
int nvdla_sim_dev_job_stop(struct nvdla_device *ndev, int status);

/*
 * The model back to its reset state, as after power-up: the engine reset
 * and runtime resume of the virtual device. Stops a layer in progress at
 * its next slice and waits for that; sleeps. A no-op on real hardware.
 */
void nvdla_sim_dev_reset(struct nvdla_device *ndev);

#endif /* __NVDLA_SIM_DEV_H__ */
