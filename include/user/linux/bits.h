/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_USER_LINUX_BITS_H__
#define __NVDLA_USER_LINUX_BITS_H__

#define BIT(n) (1ul << (n))

#endif /* __NVDLA_USER_LINUX_BITS_H__ */
