/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_USER_LINUX_KERNEL_H__
#define __NVDLA_USER_LINUX_KERNEL_H__

#include_next <linux/kernel.h>

#include <stdint.h>
#include <stdio.h>

#define S32_MAX INT32_MAX
#define S32_MIN INT32_MIN
#define U32_MAX UINT32_MAX
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))

#endif /* __NVDLA_USER_LINUX_KERNEL_H__ */
