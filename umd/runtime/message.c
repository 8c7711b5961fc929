// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* nvdla_message(): the one formatter of messages into a caller's buffer. */
#include <stdarg.h>
#include <stdio.h>

#include "message.h"

int nvdla_message(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}
