/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The kernel headers the portable cores (the engine scheduler of
 * drivers/accel/nvdla/engine, sim/) include, for their user-space builds:
 * each adds the kernel's names to the system's header of that name, if
 * there is one, the way the kernel's tools/include does.
 */
#ifndef __NVDLA_USER_LINUX_TYPES_H__
#define __NVDLA_USER_LINUX_TYPES_H__

#include_next <linux/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#endif /* __NVDLA_USER_LINUX_TYPES_H__ */
