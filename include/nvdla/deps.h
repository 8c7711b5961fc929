/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * What the portable cores (firmware/, sim/) need from their host build:
 * fixed-width types, bool, BIT(), fls64(), static_assert, memcpy/memset
 * and errno values. The kernel build
 * takes them from linux/, the user-space build from libc.
 */
#ifndef __NVDLA_DEPS_H__
#define __NVDLA_DEPS_H__

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define BIT(n) (1ul << (n))
#define S32_MAX INT32_MAX
#define S32_MIN INT32_MIN
#define U32_MAX UINT32_MAX
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))

/* The position of @x's highest set bit, 1 to 64; 0 if none (as Linux's). */
static inline unsigned int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}
#endif

#endif /* __NVDLA_DEPS_H__ */
