// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The walker of the tables of the runtime's own blobs (blob_table.h). */
#include <errno.h>

#include "blob_table.h"
#include "le_bytes.h"
#include "runtime_internal.h"

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
	n = blob->data_len >= NVDLA_BLOB_TABLE_HEADER ? rd32(blob->data + NVDLA_BLOB_TABLE_COUNT) : 0;
	if (blob->data_len < NVDLA_BLOB_TABLE_HEADER || rd32(blob->data + NVDLA_BLOB_TABLE_MAGIC) != magic ||
	    n > (blob->data_len - NVDLA_BLOB_TABLE_HEADER) / entry_size ||
	    blob->data_len != NVDLA_BLOB_TABLE_HEADER + n * entry_size)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "malformed loadable: %s blob of %u bytes",
				      name, blob->data_len);
	for (i = 0; i < n && !ret; i++)
		ret = entry(net, blob->data + NVDLA_BLOB_TABLE_HEADER +
				 (uint64_t)i * entry_size, i);
	return ret;
}
