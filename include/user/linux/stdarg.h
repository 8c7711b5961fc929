/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
#ifndef __NVDLA_USER_LINUX_STDARG_H__
#define __NVDLA_USER_LINUX_STDARG_H__

#include <stdarg.h>

#endif /* __NVDLA_USER_LINUX_STDARG_H__ */
