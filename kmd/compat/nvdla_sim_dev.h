/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_SIM_DEV_H__
#define __NVDLA_SIM_DEV_H__

struct nvdla_device;

/*
 * Probe/remove of a virtual device: give it the bus to the running job's
 * objects, take it away again (it restarts each time). Sleep; no-ops on
 * real hardware, as are all of these.
 */
void nvdla_sim_dev_init(struct nvdla_device *ndev);
void nvdla_sim_dev_fini(struct nvdla_device *ndev);

/*
 * Around each job, with the engine lock held: note the device's faults,
 * and at the end turn new faults into -EIO.
 */
void nvdla_sim_dev_job_start(struct nvdla_device *ndev);
int nvdla_sim_dev_job_stop(struct nvdla_device *ndev, int status);

/*
 * The device back to its power-on state: the engine reset and runtime
 * resume of the virtual device. Stops a layer in progress at its next
 * slice of work and waits for that; sleeps.
 */
void nvdla_sim_dev_reset(struct nvdla_device *ndev);
/*
 * The engine reset of the virtual device, as its reset line would: the
 * model reset, or -EOPNOTSUPP while fault injection says it has no reset.
 */
int nvdla_sim_dev_reset_line(struct nvdla_device *ndev);

#endif /* __NVDLA_SIM_DEV_H__ */
