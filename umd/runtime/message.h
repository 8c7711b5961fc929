/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Messages into a caller's buffer, for functions that take @err, @errlen. */
#ifndef __NVDLA_UMD_MESSAGE_H__
#define __NVDLA_UMD_MESSAGE_H__

#include <stddef.h>

/* @fmt's message into @err (NULL or @errlen 0 for none); returns @code. */
int nvdla_message(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* __NVDLA_UMD_MESSAGE_H__ */
