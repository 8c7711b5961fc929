/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * What the model's portable core (sim/) needs from its host build:
 * fixed-width types, bool, BIT(), static_assert, memcpy/memset and errno
 * values, under the kernel's names; user-space builds find these headers
 * in include/user/.
 */
#ifndef __NVDLA_DEPS_H__
#define __NVDLA_DEPS_H__

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#endif /* __NVDLA_DEPS_H__ */
