/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The kernel API differences between the kernels this out-of-tree driver
 * supports (Debian 12's 6.1 and 6.12), kept out of the driver's code.
 */
#ifndef __NVDLA_COMPAT_H__
#define __NVDLA_COMPAT_H__

#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/version.h>

/* vm_flags became read-only behind vm_flags_set() in 6.3. */
static inline void nvdla_vm_flags_set(struct vm_area_struct *vma,
				      vm_flags_t flags)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/* platform_driver.remove returns void since 6.11. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define NVDLA_DEFINE_PLATFORM_REMOVE(name, fn) \
	static void name(struct platform_device *pdev) { fn(pdev); }
#else
#define NVDLA_DEFINE_PLATFORM_REMOVE(name, fn) \
	static int name(struct platform_device *pdev) { fn(pdev); return 0; }
#endif

#endif /* __NVDLA_COMPAT_H__ */
