// SPDX-License-Identifier: GPL-2.0-only
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * DRM accel driver for the NVIDIA Deep Learning Accelerator: driver
 * description, ioctl table and module entry points.
 */
#include <linux/module.h>
#include <linux/platform_device.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/nvdla_accel.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>

#include "nvdla_drv.h"
#include "nvdla_file.h"
#include "nvdla_gem.h"
#include "nvdla_job.h"
#include "nvdla_queue.h"

#define NVDLA_IOCTL(name, func) \
	DRM_IOCTL_DEF_DRV(NVDLA_##name, nvdla_ioctl_##func, 0)

static const struct drm_ioctl_desc nvdla_ioctls[] = {
	NVDLA_IOCTL(GEM_CREATE, gem_create),
	NVDLA_IOCTL(GEM_MMAP, gem_mmap),
	NVDLA_IOCTL(SUBMIT, submit),
	NVDLA_IOCTL(GET_PARAM, get_param),
	NVDLA_IOCTL(WAIT, wait),
	NVDLA_IOCTL(GEM_WAIT, gem_wait),
};

static const struct file_operations nvdla_accel_fops = {
	.owner = THIS_MODULE,
	DRM_ACCEL_FOPS,
	.show_fdinfo = nvdla_file_show_fdinfo,
};

static const struct drm_driver nvdla_accel_driver = {
	.driver_features = DRIVER_GEM | DRIVER_SYNCOBJ | DRIVER_COMPUTE_ACCEL,
	.open = nvdla_file_open,
	.postclose = nvdla_file_postclose,
	.gem_create_object = nvdla_gem_shmem_create_object,
	.gem_prime_import_sg_table = nvdla_gem_import_sg_table,
	.ioctls = nvdla_ioctls,
	.num_ioctls = ARRAY_SIZE(nvdla_ioctls),
	.fops = &nvdla_accel_fops,
	.name = "nvdla",
	.desc = "NVIDIA Deep Learning Accelerator",
	.date = "20261122",
	.major = 0,
	.minor = 4,
};

const struct drm_driver *nvdla_drm_driver(void)
{
	return &nvdla_accel_driver;
}

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
			       DRM_NVDLA_CAP_WEIGHT_COMPRESS : 0);
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
	int ret;

	ret = platform_driver_register(&nvdla_platform_driver);
	if (ret)
		return ret;
	ret = nvdla_pci_register();
	if (ret)
		platform_driver_unregister(&nvdla_platform_driver);
	return ret;
}

static void __exit nvdla_exit(void)
{
	nvdla_pci_unregister();
	platform_driver_unregister(&nvdla_platform_driver);
}

module_init(nvdla_init);
module_exit(nvdla_exit);

MODULE_DESCRIPTION("NVIDIA Deep Learning Accelerator driver");
MODULE_LICENSE("GPL");
/* Other drivers' dma-bufs are mapped into the kernel (nvdla_gem_shmem.c). */
MODULE_IMPORT_NS(DMA_BUF);
