// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The loadable schema tables (see loadable_schema.h). */
#include "loadable.h"
#include "loadable_schema.h"

#define MSIZE(t, m) sizeof(((t *)0)->m)
#define UINT(t, m, slot, def) \
	{ #m, slot, LBL_UINT, MSIZE(t, m), offsetof(t, m), 0, def }
#define STRING(t, m, slot) \
	{ #m, slot, LBL_STRING, 0, offsetof(t, m), 0, 0 }
#define VERSION(t, m, slot) \
	{ #m, slot, LBL_VERSION, 3, offsetof(t, m), 0, 0 }
#define VECTOR(t, m, n, slot) \
	{ #m, slot, LBL_VECTOR, MSIZE(t, m[0]), offsetof(t, m), offsetof(t, n), 0 }
#define STRINGS(t, m, n, slot) \
	{ #m, slot, LBL_STRINGS, 0, offsetof(t, m), offsetof(t, n), 0 }
#define STRIDE(t, i) \
	{ "stride_" #i, 14 + i, LBL_UINT, 4, offsetof(t, stride) + 4 * i, 0, 0 }
#define TABLE(name, t, slots, f) \
	{ name, sizeof(t), slots, sizeof(f) / sizeof(f[0]), f }
#define LIST(slot, table, m, n) \
	{ slot, &table, offsetof(struct nvdla_loadable, m), \
	  offsetof(struct nvdla_loadable, n) }

static const struct lbl_field task_fields[] = {
	UINT(struct nvdla_lbl_task, id, 0, 0),
	UINT(struct nvdla_lbl_task, interface, 1, 0),
	UINT(struct nvdla_lbl_task, instance, 2, -1),
	VECTOR(struct nvdla_lbl_task, address_list, num_addresses, 3),
	VECTOR(struct nvdla_lbl_task, pre_actions, num_pre_actions, 4),
	VECTOR(struct nvdla_lbl_task, post_actions, num_post_actions, 5),
};

static const struct lbl_field memory_fields[] = {
	UINT(struct nvdla_lbl_memory, id, 0, 0),
	UINT(struct nvdla_lbl_memory, domain, 1, 0),
	UINT(struct nvdla_lbl_memory, flags, 2, 0),
	UINT(struct nvdla_lbl_memory, size, 3, 0),
	UINT(struct nvdla_lbl_memory, alignment, 4, 0),
	STRINGS(struct nvdla_lbl_memory, contents, num_contents, 5),
	VECTOR(struct nvdla_lbl_memory, offsets, num_offsets, 6),
	UINT(struct nvdla_lbl_memory, bind_id, 7, 0),
	UINT(struct nvdla_lbl_memory, tensor_desc_id, 8, 0),
};

static const struct lbl_field address_fields[] = {
	UINT(struct nvdla_lbl_address, id, 0, 0),
	UINT(struct nvdla_lbl_address, mem_id, 1, 0),
	UINT(struct nvdla_lbl_address, offset, 2, 0),
	UINT(struct nvdla_lbl_address, size, 3, 0),
};

static const struct lbl_field event_fields[] = {
	UINT(struct nvdla_lbl_event, id, 0, 0),
	UINT(struct nvdla_lbl_event, type, 1, 0),
	UINT(struct nvdla_lbl_event, target, 2, 0),
	UINT(struct nvdla_lbl_event, val, 3, 0),
	UINT(struct nvdla_lbl_event, op, 4, 0),
};

static const struct lbl_field blob_fields[] = {
	STRING(struct nvdla_lbl_blob, name, 0),
	UINT(struct nvdla_lbl_blob, size, 1, 0),
	UINT(struct nvdla_lbl_blob, interface, 2, 0),
	UINT(struct nvdla_lbl_blob, sub_interface, 3, 0),
	VERSION(struct nvdla_lbl_blob, version, 4),
	VECTOR(struct nvdla_lbl_blob, data, data_len, 5),
};

static const struct lbl_field tensor_fields[] = {
	STRING(struct nvdla_lbl_tensor_desc, name, 0),
	UINT(struct nvdla_lbl_tensor_desc, id, 1, 0),
	UINT(struct nvdla_lbl_tensor_desc, mem_id, 2, 0),
	UINT(struct nvdla_lbl_tensor_desc, size, 3, 0),
	UINT(struct nvdla_lbl_tensor_desc, offset, 4, 0),
	UINT(struct nvdla_lbl_tensor_desc, data_format, 5, 0),
	UINT(struct nvdla_lbl_tensor_desc, data_type, 6, 0),
	UINT(struct nvdla_lbl_tensor_desc, data_category, 7, 0),
	UINT(struct nvdla_lbl_tensor_desc, pixel_format, 8, 0),
	UINT(struct nvdla_lbl_tensor_desc, pixel_mapping, 9, 0),
	UINT(struct nvdla_lbl_tensor_desc, n, 10, 0),
	UINT(struct nvdla_lbl_tensor_desc, c, 11, 0),
	UINT(struct nvdla_lbl_tensor_desc, h, 12, 0),
	UINT(struct nvdla_lbl_tensor_desc, w, 13, 0),
	STRIDE(struct nvdla_lbl_tensor_desc, 0),
	STRIDE(struct nvdla_lbl_tensor_desc, 1),
	STRIDE(struct nvdla_lbl_tensor_desc, 2),
	STRIDE(struct nvdla_lbl_tensor_desc, 3),
	STRIDE(struct nvdla_lbl_tensor_desc, 4),
	STRIDE(struct nvdla_lbl_tensor_desc, 5),
	STRIDE(struct nvdla_lbl_tensor_desc, 6),
	STRIDE(struct nvdla_lbl_tensor_desc, 7),
};

static const struct lbl_field reloc_fields[] = {
	UINT(struct nvdla_lbl_reloc, address_id, 0, 0),
	UINT(struct nvdla_lbl_reloc, write_id, 1, 0),
	UINT(struct nvdla_lbl_reloc, offset, 2, 0),
	UINT(struct nvdla_lbl_reloc, interface, 3, 0),
	UINT(struct nvdla_lbl_reloc, sub_interface, 4, 0),
	UINT(struct nvdla_lbl_reloc, reloc_type, 5, 0),
};

static const struct lbl_field submit_fields[] = {
	UINT(struct nvdla_lbl_submit, id, 0, 0),
	VECTOR(struct nvdla_lbl_submit, task_ids, num_tasks, 1),
};

static const struct lbl_table task_table =
	TABLE("task_list", struct nvdla_lbl_task, 6, task_fields);
static const struct lbl_table memory_table =
	TABLE("memory_list", struct nvdla_lbl_memory, 9, memory_fields);
static const struct lbl_table address_table =
	TABLE("address_list", struct nvdla_lbl_address, 4, address_fields);
static const struct lbl_table event_table =
	TABLE("event_list", struct nvdla_lbl_event, 5, event_fields);
static const struct lbl_table blob_table =
	TABLE("blobs", struct nvdla_lbl_blob, 6, blob_fields);
static const struct lbl_table tensor_table =
	TABLE("tensor_desc_list", struct nvdla_lbl_tensor_desc, 22,
	      tensor_fields);
static const struct lbl_table reloc_table =
	TABLE("reloc_list", struct nvdla_lbl_reloc, 6, reloc_fields);
static const struct lbl_table submit_table =
	TABLE("submit_list", struct nvdla_lbl_submit, 2, submit_fields);

const struct lbl_list lbl_lists[LBL_NUM_LISTS] = {
	LIST(1, task_table, tasks, num_tasks),
	LIST(2, memory_table, memories, num_memories),
	LIST(3, address_table, addresses, num_addresses),
	LIST(4, event_table, events, num_events),
	LIST(5, blob_table, blobs, num_blobs),
	LIST(6, tensor_table, tensor_descs, num_tensor_descs),
	LIST(7, reloc_table, relocs, num_relocs),
	LIST(8, submit_table, submits, num_submits),
};
