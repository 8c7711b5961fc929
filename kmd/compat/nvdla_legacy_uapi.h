/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The ioctls of NVIDIA's original NVDLA driver that are not in the
 * upstream interface (include/uapi/drm/nvdla_accel.h), with their numbers
 * and layouts, so that its user space runs unchanged on the out-of-tree
 * driver's render node. Its other two ioctls are GEM_CREATE and GEM_MMAP.
 */
#ifndef __NVDLA_LEGACY_UAPI_H__
#define __NVDLA_LEGACY_UAPI_H__

#include "drm.h"

#define DRM_NVDLA_LEGACY_SUBMIT		0x00
#define DRM_NVDLA_LEGACY_GEM_DESTROY	0x03

/*
 * struct drm_nvdla_legacy_address: one address-list entry; @handle is a
 * dma-buf file descriptor of a buffer this device exported (PRIME).
 */
struct drm_nvdla_legacy_address {
	__u32 handle;
	__u32 reserved;
	__u64 offset;
};

/* struct drm_nvdla_legacy_task: @timeout is ignored (the job timeout applies). */
struct drm_nvdla_legacy_task {
	__u32 num_addresses;
	__u32 timeout;
	__u64 address_list;
};

/*
 * struct drm_nvdla_legacy_submit: runs @num_tasks tasks one after the other
 * and returns when the last has ended or one failed; @flags and @version
 * are ignored, as by the official driver.
 */
struct drm_nvdla_legacy_submit {
	__u64 tasks;
	__u16 num_tasks;
	__u16 flags;
	__u32 version;
};

#define DRM_NVDLA_LEGACY_MAX_TASKS 24

/* struct drm_nvdla_legacy_gem_destroy: the same as DRM_IOCTL_GEM_CLOSE. */
struct drm_nvdla_legacy_gem_destroy {
	__u32 handle;
};

#define DRM_IOCTL_NVDLA_LEGACY_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NVDLA_LEGACY_SUBMIT, \
		 struct drm_nvdla_legacy_submit)
#define DRM_IOCTL_NVDLA_LEGACY_GEM_DESTROY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_NVDLA_LEGACY_GEM_DESTROY, \
		 struct drm_nvdla_legacy_gem_destroy)

#endif /* __NVDLA_LEGACY_UAPI_H__ */
