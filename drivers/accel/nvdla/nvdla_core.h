/* SPDX-License-Identifier: GPL-2.0-only */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_CORE_H__
#define __NVDLA_CORE_H__

struct nvdla_device;

int nvdla_core_init(struct nvdla_device *ndev, const char *config);
int nvdla_core_request_irq(struct nvdla_device *ndev, int irq,
			   unsigned long flags);
int nvdla_core_register(struct nvdla_device *ndev, const char *config,
			const char *what);
void nvdla_core_remove(struct nvdla_device *ndev);

#endif /* __NVDLA_CORE_H__ */
