/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The tables the runtime's own loadable blobs hold ("tensor-scales",
 * "input-mapping"), little-endian: a u32 magic, a u32 count, then that
 * many entries of one size, nothing after. nvdla_compile writes them,
 * nvdla_net_blob_table() (blob_table.c) walks them.
 */
#ifndef __NVDLA_UMD_BLOB_TABLE_H__
#define __NVDLA_UMD_BLOB_TABLE_H__

#define NVDLA_BLOB_TABLE_MAGIC	0	/* u32 */
#define NVDLA_BLOB_TABLE_COUNT	4	/* u32 entries */
#define NVDLA_BLOB_TABLE_HEADER	8	/* the entries start here */

#endif /* __NVDLA_UMD_BLOB_TABLE_H__ */
