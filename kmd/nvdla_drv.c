// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * DRM driver for the NVIDIA Deep Learning Accelerator: driver description,
 * ioctl table and module entry points.
 */
#include <linux/module.h>
#include <linux/platform_device.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_prime.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>

#include "nvdla_accel.h"
#include "nvdla_compat.h"
#include "nvdla_drv.h"
#include "nvdla_file.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"
#include "nvdla_legacy.h"
#include "nvdla_queue.h"

#define NVDLA_IOCTL(name, func) \
	DRM_IOCTL_DEF_DRV(NVDLA_##name, nvdla_ioctl_##func, DRM_RENDER_ALLOW)

static const struct drm_ioctl_desc nvdla_ioctls[] = {
	NVDLA_IOCTL(LEGACY_SUBMIT, legacy_submit),
	NVDLA_IOCTL(GEM_CREATE, gem_create),
	NVDLA_IOCTL(GEM_MMAP, gem_mmap),
	NVDLA_IOCTL(LEGACY_GEM_DESTROY, legacy_gem_destroy),
	NVDLA_IOCTL(SUBMIT, submit),
	NVDLA_IOCTL(GET_PARAM, get_param),
	NVDLA_IOCTL(WAIT, wait),
	NVDLA_IOCTL(GEM_WAIT, gem_wait),
};

#define NVDLA_FOPS(core_fops) {				\
	.owner = THIS_MODULE,					\
	core_fops,						\
	.show_fdinfo = nvdla_file_show_fdinfo,			\
}

#define NVDLA_DRIVER(node_feature, driver_fops) {		\
	.driver_features = DRIVER_GEM | DRIVER_SYNCOBJ | (node_feature),	\
	.open = nvdla_file_open,				\
	.postclose = nvdla_file_postclose,			\
	/* Needed on 6.1 to export buffers (official user space does). */ \
	.prime_handle_to_fd = drm_gem_prime_handle_to_fd,	\
	.prime_fd_to_handle = drm_gem_prime_fd_to_handle,	\
	NVDLA_COMPAT_GEM_PRIME_MMAP				\
	.ioctls = nvdla_ioctls,					\
	.num_ioctls = ARRAY_SIZE(nvdla_ioctls),			\
	.fops = (driver_fops),					\
	.name = "nvdla",					\
	.desc = "NVIDIA Deep Learning Accelerator",		\
	.date = "20261122",					\
	.major = 0,						\
	.minor = 4,						\
}

/* A render node (/dev/dri/renderDN), as on kernels without accel. */
static const struct file_operations nvdla_render_fops = NVDLA_FOPS(DRM_GEM_FOPS);
static const struct drm_driver nvdla_render_driver =
	NVDLA_DRIVER(DRIVER_RENDER, &nvdla_render_fops);

/* The accel node (/dev/accel/accelN) where the kernel has one (6.2+). */
#if IS_ENABLED(CONFIG_DRM_ACCEL)
#include <drm/drm_accel.h>

static bool accel = true;
module_param(accel, bool, 0444);
MODULE_PARM_DESC(accel,
		 "Devices are accel nodes (default); 0: render nodes, for user space that opens /dev/dri/renderD* (the official runtime)");

static const struct file_operations nvdla_accel_fops = NVDLA_FOPS(DRM_ACCEL_FOPS);
static const struct drm_driver nvdla_accel_driver =
	NVDLA_DRIVER(DRIVER_COMPUTE_ACCEL, &nvdla_accel_fops);

const struct drm_driver *nvdla_drm_driver(void)
{
	return accel ? &nvdla_accel_driver : &nvdla_render_driver;
}
#else
const struct drm_driver *nvdla_drm_driver(void)
{
	return &nvdla_render_driver;
}
#endif

/**
 * nvdla_ioctl_get_param() - DRM_IOCTL_NVDLA_GET_PARAM
 * @drm: the device
 * @data: struct drm_nvdla_get_param
 * @file: the caller's DRM file
 *
 * Return: 0 with the value; -EINVAL for an unknown parameter or a non-zero
 * reserved field; -ENODEV once the device is gone; for the hardware
 * version, the error of powering the device up.
 */
int nvdla_ioctl_get_param(struct drm_device *drm, void *data,
			  struct drm_file *file)
{
	struct nvdla_device *ndev = to_nvdla_device(drm);
	struct drm_nvdla_get_param *args = data;
	unsigned long flags;
	int idx, ret;

	if (args->reserved)
		return -EINVAL;
	switch (args->param) {
	case DRM_NVDLA_PARAM_CONFIG:
		args->value = ndev->config;
		return 0;
	case DRM_NVDLA_PARAM_ATOM_SIZE:
		args->value = ndev->hw->atom_size;
		return 0;
	case DRM_NVDLA_PARAM_CAPS:
		args->value = (ndev->hw->bdma ? DRM_NVDLA_CAP_BDMA : 0) |
			      (ndev->hw->rubik ? DRM_NVDLA_CAP_RUBIK : 0) |
			      (ndev->hw->weight_compress ?
			       DRM_NVDLA_CAP_WEIGHT_COMPRESS : 0) |
			      (ndev->sim ? DRM_NVDLA_CAP_MODEL : 0);
		return 0;
	case DRM_NVDLA_PARAM_HW_VERSION:
		if (!drm_dev_enter(drm, &idx))
			return -ENODEV;
		ret = nvdla_power_get(ndev);
		if (!ret) {
			spin_lock_irqsave(&ndev->engine_lock, flags);
			args->value = nvdla_reg_read(ndev, ndev->hw->unit_base[NVDLA_UNIT_GLB] +
						     NVDLA_GLB_S_NVDLA_HW_VERSION);
			spin_unlock_irqrestore(&ndev->engine_lock, flags);
			nvdla_power_put(ndev);
		}
		drm_dev_exit(idx);
		return ret;
	case DRM_NVDLA_PARAM_MAX_BO_SIZE:
		args->value = ndev->max_bo_size;
		return 0;
	case DRM_NVDLA_PARAM_MAX_TIMEOUT:
		args->value = nvdla_queue_max_timeout_ms();
		return 0;
	case DRM_NVDLA_PARAM_DRIVER_VERSION:
		args->value = drm->driver->major << 16 | drm->driver->minor;
		return 0;
	default:
		return -EINVAL;
	}
}

static int __init nvdla_init(void)
{
	return platform_driver_register(&nvdla_platform_driver);
}

static void __exit nvdla_exit(void)
{
	platform_driver_unregister(&nvdla_platform_driver);
}

module_init(nvdla_init);
module_exit(nvdla_exit);

MODULE_DESCRIPTION("NVIDIA Deep Learning Accelerator driver");
MODULE_LICENSE("GPL");
