/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_DEBUGFS_H__
#define __NVDLA_DEBUGFS_H__

struct nvdla_device;

void nvdla_debugfs_init(struct nvdla_device *ndev);

#endif /* __NVDLA_DEBUGFS_H__ */
