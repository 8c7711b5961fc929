/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_USER_LINUX_STRING_H__
#define __NVDLA_USER_LINUX_STRING_H__

#include_next <linux/string.h>

#include <string.h>

#endif /* __NVDLA_USER_LINUX_STRING_H__ */
