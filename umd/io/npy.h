/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* .npy arrays as an input's values (npy.c). */
#ifndef __NVDLA_UMD_NPY_H__
#define __NVDLA_UMD_NPY_H__

#include <stddef.h>

/*
 * The .npy array @path (float32, float16, uint8 or int8, C order, of
 * shape @c, @h, @w with or without batch 1, trailing ones optional) as
 * the values of input @name, as they are, into @out (c * h * w floats).
 * 0, or a negative errno with a message naming @path in @err.
 */
int nvdla_npy_read(const char *path, const char *name, long c, long h,
		   long w, float *out, char *err, size_t errlen);

#endif /* __NVDLA_UMD_NPY_H__ */
