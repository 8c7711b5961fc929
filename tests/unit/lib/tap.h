/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Minimal TAP output for the unit tests: one "ok N - name" or
 * "not ok N - name" line per check, "# SKIP reason" for skipped ones.
 * tap_done() returns the exit status: 1 if anything failed.
 */
#ifndef __NVDLA_TESTS_TAP_H__
#define __NVDLA_TESTS_TAP_H__

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int tap_count;
static int tap_failed;

static inline __attribute__((format(printf, 2, 3)))
bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	tap_failed += !cond;
	return cond;
}

static inline __attribute__((format(printf, 2, 3)))
void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d - ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", reason);
	fflush(stdout);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif /* __NVDLA_TESTS_TAP_H__ */
