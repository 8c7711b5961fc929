/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_UMD_CRC32_H__
#define __NVDLA_UMD_CRC32_H__

#include <stdint.h>

/*
 * The CRC-32 (IEEE, reflected, inverted) the public trace tests give their
 * check_crc regions, as NVIDIA's test benches compute it.
 */
uint32_t nvdla_crc32(const uint8_t *p, uint64_t len);

#endif /* __NVDLA_UMD_CRC32_H__ */
