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
 * Numbers 0x00 and 0x03 belong to the official NVDLA driver's SUBMIT and
 * GEM_DESTROY and stay reserved for them; GEM_CREATE and GEM_MMAP keep the
 * official numbers and layouts.
 */
#define DRM_NVDLA_GEM_CREATE	0x01
#define DRM_NVDLA_GEM_MMAP	0x02
#define DRM_NVDLA_SUBMIT	0x04
#define DRM_NVDLA_GET_PARAM	0x05

/* Largest buffer object: 1 GiB. */
#define DRM_NVDLA_MAX_BO_SIZE (1ull << 30)

/**
 * struct drm_nvdla_gem_create - create a buffer object
 * @handle: Output: GEM handle, private to the DRM file.
 * @flags: Input: must be 0.
 * @size: Input: size in bytes, 1 to DRM_NVDLA_MAX_BO_SIZE; rounded up to
 *	the page size.
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

/**
 * struct drm_nvdla_submit - run one task and wait for it
 * @addresses: Input: user pointer to @num_addresses struct drm_nvdla_address.
 * @num_addresses: Input: 1 to DRM_NVDLA_MAX_ADDRESSES.
 * @address_size: Input: sizeof(struct drm_nvdla_address), so that the entry
 *	can grow.
 * @flags: Input: must be 0.
 * @reserved: Input: must be 0.
 * @timeout_ns: Input: absolute CLOCK_MONOTONIC deadline. A job still running
 *	then is stopped, the engine reset and -ETIMEDOUT returned; a deadline
 *	already past gives -ETIMEDOUT without running the job.
 *
 * Returns 0 when the task completed, -EINVAL for a malformed task (checked
 * before the hardware is touched), -ENOENT for an unknown handle, -EINTR
 * when a signal arrived first (the job is stopped), -ETIMEDOUT or -EIO when
 * the hardware failed.
 */
struct drm_nvdla_submit {
	__u64 addresses;
	__u32 num_addresses;
	__u32 address_size;
	__u32 flags;
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
 */
enum drm_nvdla_param {
	DRM_NVDLA_PARAM_CONFIG = 0,
	DRM_NVDLA_PARAM_ATOM_SIZE = 1,
	DRM_NVDLA_PARAM_CAPS = 2,
	DRM_NVDLA_PARAM_HW_VERSION = 3,
	DRM_NVDLA_PARAM_DRIVER_VERSION = 4,
};

enum drm_nvdla_config {
	DRM_NVDLA_CONFIG_NV_FULL = 0,
	DRM_NVDLA_CONFIG_NV_SMALL = 1,
	DRM_NVDLA_CONFIG_NV_LARGE = 2,
};

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
	DRM_IOW(DRM_COMMAND_BASE + DRM_NVDLA_SUBMIT, struct drm_nvdla_submit)
#define DRM_IOCTL_NVDLA_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NVDLA_GET_PARAM, struct drm_nvdla_get_param)

#if defined(__cplusplus)
}
#endif

#endif /* __NVDLA_ACCEL_H__ */
