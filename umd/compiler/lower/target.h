/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The back end's target (lower_target.c): what it needs of a hardware
 * configuration, its entry of nvdla/hw_configs.h (atom, precisions,
 * engines, MAC array and CBUF).
 */
#ifndef __NVDLA_COMPILER_TARGET_H__
#define __NVDLA_COMPILER_TARGET_H__

#include <stdbool.h>
#include <stdint.h>

#include <nvdla/firmware.h>

struct nvc_target {
	const struct dla_hw_config *hw;
	const struct nvdla_cbuf *cbuf;	/* &hw->cbuf */
	uint32_t atom;
	uint32_t bank_bytes;	/* of one CBUF bank: depth x width */
};

int nvc_target_get(const char *name, struct nvc_target *t);
bool nvc_target_fp16(const struct nvc_target *t);

#endif /* __NVDLA_COMPILER_TARGET_H__ */
