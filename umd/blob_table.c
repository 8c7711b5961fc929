// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The tables the runtime's own loadable blobs hold ("tensor-scales",
 * "input-mapping"): a u32 magic, a u32 count, then that many entries of
 * one size, nothing after.
 */
#include <errno.h>

#include "le_bytes.h"
#include "runtime_internal.h"

#define BLOB_TABLE_HEADER 8

int nvdla_net_blob_table(struct nvdla_network *net, const char *name,
			 uint32_t magic, uint32_t entry_size,
			 int (*entry)(struct nvdla_network *net,
				      const uint8_t *e, uint32_t i))
{
	const struct nvdla_lbl_blob *blob = nvdla_loadable_blob(net->l, name);
	uint32_t n, i;
	int ret = 0;

	if (!blob)
		return 0;
	n = blob->data_len >= BLOB_TABLE_HEADER ? rd32(blob->data + 4) : 0;
	if (blob->data_len < BLOB_TABLE_HEADER || rd32(blob->data) != magic ||
	    n > (blob->data_len - BLOB_TABLE_HEADER) / entry_size ||
	    blob->data_len != BLOB_TABLE_HEADER + n * entry_size)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "malformed loadable: %s blob of %u bytes",
				      name, blob->data_len);
	for (i = 0; i < n && !ret; i++)
		ret = entry(net, blob->data + BLOB_TABLE_HEADER +
				 (uint64_t)i * entry_size, i);
	return ret;
}
