/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_USER_LINUX_BUILD_BUG_H__
#define __NVDLA_USER_LINUX_BUILD_BUG_H__

#include <assert.h>

#endif /* __NVDLA_USER_LINUX_BUILD_BUG_H__ */
