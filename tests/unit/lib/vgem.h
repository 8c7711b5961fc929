/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * vgem, a DRM driver of plain buffers that the QEMU guests load: another
 * driver's dma-bufs, and with its UAPI header (the kernel headers that
 * tools/setup.sh unpacks; kmd/kmd.mk) fences the tests signal.
 */
#ifndef __NVDLA_TESTS_VGEM_H__
#define __NVDLA_TESTS_VGEM_H__

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#if __has_include("vgem_drm.h")
#include "vgem_drm.h"
#define HAVE_VGEM_FENCES
#endif

/* vgem's node, or -1 where it is not loaded. */
static inline int open_vgem(void)
{
	drmVersionPtr v;
	char path[32];
	int i, fd;

	for (i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && !strcmp(v->name, "vgem")) {
			drmFreeVersion(v);
			return fd;
		}
		drmFreeVersion(v);
		close(fd);
	}
	return -1;
}

#endif /* __NVDLA_TESTS_VGEM_H__ */
