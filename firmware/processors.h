/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The table of processors, indexed by enum dla_op_type. */
#ifndef __NVDLA_FW_PROCESSORS_H__
#define __NVDLA_FW_PROCESSORS_H__

#include "engine.h"

extern const struct dla_processor_ops *const dla_processor_ops[DLA_OP_NUM];

/* The firmware implements type @t and the device has its engine. */
bool dla_processor_available(struct dla_engine *engine, int t);

int dla_validate_task(struct dla_engine *engine);

#endif /* __NVDLA_FW_PROCESSORS_H__ */
