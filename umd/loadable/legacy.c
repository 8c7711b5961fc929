// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Loadables made for firmware before 0.12 (their DLA blobs say so) carry
 * data cubes without the offset field: 28 bytes instead of 32. The only
 * ABI change in the descriptor history; the runtime rewrites such a task's
 * surface descriptors to the current layout once, at load, so that the
 * firmware knows one layout.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <nvdla/dla_interface.h>

#include "runtime_internal.h"

#define LEGACY_CUBE_SIZE 28
#define CUBE_OFFSET_AT 4	/* where the current layout inserted offset */
#define FIRST_CURRENT_MINOR 12

/* Data cubes at the start of each surface descriptor, by operation type. */
static const uint8_t legacy_cubes[DLA_OP_NUM] = {
	[DLA_OP_BDMA] = 0, [DLA_OP_CONV] = 5, [DLA_OP_SDP] = 5,
	[DLA_OP_PDP] = 2, [DLA_OP_CDP] = 2, [DLA_OP_RUBIK] = 2,
};

bool nvdla_legacy_blob(const struct nvdla_lbl_blob *blob)
{
	return blob && blob->version.major == 0 &&
	       blob->version.minor < FIRST_CURRENT_MINOR;
}

static void upgrade_surface(uint8_t *container, uint8_t op_type)
{
	union dla_surface_container cur = { 0 };
	uint8_t *out = (uint8_t *)&cur;
	uint32_t n = legacy_cubes[op_type], i, tail;

	if (!n)
		return;
	for (i = 0; i < n; i++) {
		const uint8_t *old = container + i * LEGACY_CUBE_SIZE;
		uint8_t *new = out + i * sizeof(struct dla_data_cube);

		memcpy(new, old, CUBE_OFFSET_AT);	/* type, address */
		memcpy(new + CUBE_OFFSET_AT + 4, old + CUBE_OFFSET_AT,
		       LEGACY_CUBE_SIZE - CUBE_OFFSET_AT);
	}
	/* What follows the cubes (conv: offset_u, in_line_uv_stride). */
	tail = sizeof(cur) - n * sizeof(struct dla_data_cube);
	memcpy(out + n * sizeof(struct dla_data_cube),
	       container + n * LEGACY_CUBE_SIZE, tail);
	memcpy(container, &cur, sizeof(cur));
}

int nvdla_legacy_upgrade(uint8_t *surfaces, uint64_t surfaces_size, const uint8_t *graph,
			 uint64_t graph_size, uint32_t num_operations)
{
	const struct dla_common_op_desc *desc;
	uint32_t i;

	if ((uint64_t)num_operations * sizeof(union dla_surface_container) >
	    surfaces_size ||
	    (uint64_t)num_operations * sizeof(*desc) > graph_size)
		return -EINVAL;
	for (i = 0; i < num_operations; i++) {
		desc = (const void *)(graph + i * sizeof(*desc));
		if (desc->op_type >= DLA_OP_NUM)
			return -EINVAL;
		upgrade_surface(surfaces + i * sizeof(union dla_surface_container),
				desc->op_type);
	}
	return 0;
}
