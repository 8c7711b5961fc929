/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_USER_LINUX_COMPILER_ATTRIBUTES_H__
#define __NVDLA_USER_LINUX_COMPILER_ATTRIBUTES_H__

#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))

#endif /* __NVDLA_USER_LINUX_COMPILER_ATTRIBUTES_H__ */
