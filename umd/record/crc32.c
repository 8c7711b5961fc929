// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
#include "crc32.h"

uint32_t nvdla_crc32(const uint8_t *p, uint64_t len)
{
	uint32_t crc = 0xffffffffu;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
	}
	return crc ^ 0xffffffffu;
}
