/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_ACCEL_H__
#define __NVDLA_ACCEL_H__

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * DOC: NVDLA ioctls
 *
 * Buffers are GEM objects, freed with the core DRM_IOCTL_GEM_CLOSE and
 * mapped through the DRM file at the offset DRM_IOCTL_NVDLA_GEM_MMAP
 * returns. A job is one firmware task: an address list of (GEM handle,
 * offset) pairs that the task's descriptors refer to by index. Entry 0
 * holds the network descriptor.
 *
 * DRM_IOCTL_NVDLA_SUBMIT queues a job and returns at once. The jobs of a
 * file run in submission order, each once its in-fences (DRM sync
 * objects) have signalled; the device takes the files in turn, so a file
 * whose next job waits holds back no other. A job's out-fence signals
 * when it ends, with an error if it failed. A job that fails and leaves
 * the engine impossible to reset wedges the device: its later jobs fail
 * with -EIO until it is recovered. DRM_IOCTL_NVDLA_WAIT waits for one job and
 * reports how it ended; DRM_IOCTL_NVDLA_GEM_WAIT waits until no job uses a
 * buffer, before the CPU reads it. A job that runs longer than its time
 * limit (the submitter's, else the driver's job timeout, module parameter
 * job_timeout_ms) is stopped, the engine reset, and the job ends with
 * -ETIMEDOUT.
 *
 * GEM_CREATE and GEM_MMAP have the numbers and layouts of the ioctls of
 * NVIDIA's original NVDLA driver; 0x00 and 0x03, its other two, are not
 * used.
 */
#define DRM_NVDLA_GEM_CREATE		0x01
#define DRM_NVDLA_GEM_MMAP		0x02
#define DRM_NVDLA_SUBMIT		0x04
#define DRM_NVDLA_GET_PARAM		0x05
#define DRM_NVDLA_WAIT			0x06
#define DRM_NVDLA_GEM_WAIT		0x07

/*
 * Largest buffer object the interface allows: 1 GiB. A device may get less
 * in one contiguous piece: DRM_NVDLA_PARAM_MAX_BO_SIZE.
 */
#define DRM_NVDLA_MAX_BO_SIZE (1ull << 30)

/**
 * struct drm_nvdla_gem_create - create a buffer object
 * @handle: Output: GEM handle, private to the DRM file.
 * @flags: Input: must be 0.
 * @size: Input: size in bytes, 1 to DRM_NVDLA_PARAM_MAX_BO_SIZE; rounded
 *	up to the page size.
 *
 * Returns 0; -EINVAL for non-zero @flags, a @size of 0 or above
 * DRM_NVDLA_MAX_BO_SIZE; -E2BIG above DRM_NVDLA_PARAM_MAX_BO_SIZE; -ENOSPC
 * when the device's buffers would exceed its limit (module parameter
 * max_buffer_mb); -ENOMEM when no contiguous memory is left or the
 * caller's memory cgroup, which the memory is charged to, is full.
 */
struct drm_nvdla_gem_create {
	__u32 handle;
	__u32 flags;
	__u64 size;
};

/**
 * struct drm_nvdla_gem_mmap - get the fake offset to mmap a buffer object
 * @handle: Input: GEM handle.
 * @reserved: Input: must be 0.
 * @offset: Output: offset to pass to mmap() on the DRM file.
 */
struct drm_nvdla_gem_mmap {
	__u32 handle;
	__u32 reserved;
	__u64 offset;
};

/**
 * struct drm_nvdla_address - one entry of a job's address list
 * @handle: GEM handle of the submitting file.
 * @reserved: must be 0.
 * @offset: byte offset into the object; must lie inside it.
 */
struct drm_nvdla_address {
	__u32 handle;
	__u32 reserved;
	__u64 offset;
};

/* Most address-list entries a job may carry. */
#define DRM_NVDLA_MAX_ADDRESSES 4096
/* Most in-fences a job may wait for. */
#define DRM_NVDLA_MAX_IN_SYNCS 64

/**
 * struct drm_nvdla_submit - queue one task
 * @addresses: Input: user pointer to @num_addresses struct drm_nvdla_address.
 * @num_addresses: Input: 1 to DRM_NVDLA_MAX_ADDRESSES.
 * @address_size: Input: sizeof(struct drm_nvdla_address), so that the entry
 *	can grow.
 * @in_syncs: Input: user pointer to @num_in_syncs __u32 sync object
 *	handles; the job starts once all their fences have signalled. A fence
 *	that signals with an error makes the job end with that error unrun.
 * @num_in_syncs: Input: 0 to DRM_NVDLA_MAX_IN_SYNCS.
 * @out_sync: Input: sync object handle that gets the job's fence, or 0.
 * @flags: Input: must be 0.
 * @timeout_ms: Input: how long the job may run once started, in
 *	milliseconds; 0 for the driver's job timeout; at most
 *	DRM_NVDLA_PARAM_MAX_TIMEOUT. Drivers before minor version 3 reserve
 *	it: they refuse anything but 0.
 * @job_id: Output: the job's number in this file, for DRM_IOCTL_NVDLA_WAIT;
 *	numbers start at 1 and increase.
 *
 * Returns 0 when the job is queued; -EINVAL for a malformed request (a
 * time limit above DRM_NVDLA_PARAM_MAX_TIMEOUT among them) or a
 * task the firmware rejects (checked before the hardware is touched: the
 * job is then not queued), -ENOENT for an unknown buffer or sync object
 * handle, -EFAULT for an unreadable array, -EBUSY when the file already
 * has the most jobs queued or running the driver allows (module parameter
 * max_queued_jobs; wait for one), -EIO while the device is wedged,
 * -ENODEV once the device is gone.
 */
struct drm_nvdla_submit {
	__u64 addresses;
	__u32 num_addresses;
	__u32 address_size;
	__u64 in_syncs;
	__u32 num_in_syncs;
	__u32 out_sync;
	__u32 flags;
	__u32 timeout_ms;
	__u64 job_id;
};

/**
 * struct drm_nvdla_wait - wait for a job of this file
 * @job_id: Input: what DRM_IOCTL_NVDLA_SUBMIT returned.
 * @timeout_ns: Input: absolute CLOCK_MONOTONIC deadline; a deadline in the
 *	past only polls.
 * @status: Output: 0 when the job completed, else the negative errno it
 *	ended with: -ETIMEDOUT (the job timeout), -EIO (hardware error),
 *	-ECANCELED (its file was closed or the device removed first), an
 *	in-fence's error, or the error powering the device up gave.
 * @reserved: Input: must be 0.
 *
 * Returns 0 once the job has ended (see @status); -ETIMEDOUT when the
 * deadline passes first; -EINTR on a signal (restartable); -EINVAL for a
 * job number this file never got. The status of a failed job is kept
 * until a wait has reported it; later waits for it report 0, as for a job
 * that completed.
 */
struct drm_nvdla_wait {
	__u64 job_id;
	__s64 timeout_ns;
	__s32 status;
	__u32 reserved;
};

/**
 * struct drm_nvdla_gem_wait - wait until no queued or running job uses a
 *	buffer, before the CPU reads what the accelerator wrote
 * @handle: Input: GEM handle.
 * @reserved: Input: must be 0.
 * @timeout_ns: Input: absolute CLOCK_MONOTONIC deadline.
 *
 * Returns 0; -ETIMEDOUT when the deadline passes first; -EINTR on a
 * signal; -ENOENT for an unknown handle; -EINVAL for a non-zero reserved
 * field. Buffers are coherent: no cache maintenance is needed after it.
 */
struct drm_nvdla_gem_wait {
	__u32 handle;
	__u32 reserved;
	__s64 timeout_ns;
};

/**
 * enum drm_nvdla_param - what DRM_IOCTL_NVDLA_GET_PARAM reports
 * @DRM_NVDLA_PARAM_CONFIG: hardware configuration, enum drm_nvdla_config
 * @DRM_NVDLA_PARAM_ATOM_SIZE: memory atom in bytes (8 or 32)
 * @DRM_NVDLA_PARAM_CAPS: DRM_NVDLA_CAP_* bits
 * @DRM_NVDLA_PARAM_HW_VERSION: the GLB hardware version register
 * @DRM_NVDLA_PARAM_DRIVER_VERSION: major << 16 | minor of this driver
 * @DRM_NVDLA_PARAM_MAX_BO_SIZE: the largest buffer object the device can
 *	get in one contiguous piece, at most DRM_NVDLA_MAX_BO_SIZE (4 MiB on
 *	a machine without CMA, IOMMU or reserved memory for the device)
 * @DRM_NVDLA_PARAM_MAX_TIMEOUT: the longest time limit a submission may
 *	set, in milliseconds (driver minor version 4 on)
 */
enum drm_nvdla_param {
	DRM_NVDLA_PARAM_CONFIG = 0,
	DRM_NVDLA_PARAM_ATOM_SIZE = 1,
	DRM_NVDLA_PARAM_CAPS = 2,
	DRM_NVDLA_PARAM_HW_VERSION = 3,
	DRM_NVDLA_PARAM_DRIVER_VERSION = 4,
	DRM_NVDLA_PARAM_MAX_BO_SIZE = 5,
	DRM_NVDLA_PARAM_MAX_TIMEOUT = 6,
};

/* The hardware configurations, as the NVDLA hardware project names them. */
enum drm_nvdla_config {
	DRM_NVDLA_CONFIG_NV_FULL = 0,
	DRM_NVDLA_CONFIG_NV_SMALL = 1,
	DRM_NVDLA_CONFIG_NV_LARGE = 2,
	DRM_NVDLA_CONFIG_NV_SMALL_256 = 3,
	DRM_NVDLA_CONFIG_NV_SMALL_256_FULL = 4,
	DRM_NVDLA_CONFIG_NV_MEDIUM_512 = 5,
	DRM_NVDLA_CONFIG_NV_MEDIUM_1024_FULL = 6,
};

/* The name of each enum drm_nvdla_config, in its order. */
#define DRM_NVDLA_CONFIG_NAMES { "nv_full", "nv_small", "nv_large", \
	"nv_small_256", "nv_small_256_full", "nv_medium_512", \
	"nv_medium_1024_full" }

#define DRM_NVDLA_CAP_BDMA		(1 << 0)
#define DRM_NVDLA_CAP_RUBIK		(1 << 1)
#define DRM_NVDLA_CAP_WEIGHT_COMPRESS	(1 << 2)
#define DRM_NVDLA_CAP_MODEL		(1 << 3)	/* virtual device */

/**
 * struct drm_nvdla_get_param - query the device
 * @param: Input: enum drm_nvdla_param.
 * @reserved: Input: must be 0.
 * @value: Output.
 */
struct drm_nvdla_get_param {
	__u32 param;
	__u32 reserved;
	__u64 value;
};

#define DRM_IOCTL_NVDLA_GEM_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NVDLA_GEM_CREATE, struct drm_nvdla_gem_create)
#define DRM_IOCTL_NVDLA_GEM_MMAP \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NVDLA_GEM_MMAP, struct drm_nvdla_gem_mmap)
#define DRM_IOCTL_NVDLA_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NVDLA_SUBMIT, struct drm_nvdla_submit)
#define DRM_IOCTL_NVDLA_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NVDLA_GET_PARAM, struct drm_nvdla_get_param)
#define DRM_IOCTL_NVDLA_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NVDLA_WAIT, struct drm_nvdla_wait)
#define DRM_IOCTL_NVDLA_GEM_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_NVDLA_GEM_WAIT, struct drm_nvdla_gem_wait)

#if defined(__cplusplus)
}
#endif

#endif /* __NVDLA_ACCEL_H__ */
