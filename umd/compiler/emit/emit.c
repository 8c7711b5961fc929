// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Emission, the back end's last phase: the constants and the pool as
 * memories of at most NVC_MEM_MAX bytes (lower_chunk.c), the graph's
 * inputs and outputs bound to memories of their own, every task's
 * descriptors moved from (slot, offset in a space) to the memory holding
 * them, then the tasks, the int8 scales and the input mapping, written
 * by the runtime's loadable builder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "le_bytes.h"
#include "lower_internal.h"
#include "input_map.h"
#include "scales.h"

#define DATA_FORMAT_NHWC 2	/* TensorDescListEntry.data_format */
#define DATA_FORMAT_NCXHWX 3
#define DATA_CATEGORY_IMAGE 0
#define DATA_CATEGORY_FEATURE 2

/*
 * Descriptors name memories by slot and offset in a space: move them to
 * the memory holding them, after the task's own entries.
 */
static void fix_cube(const struct nvc_lower *L, struct dla_data_cube *c,
		     int base)
{
	uint32_t off = c->offset;

	if (!c->size || c->type == DLA_MEM_HW || c->address < 0)
		return;
	c->address = (int16_t)(nvc_chunk_slot(L, c->address, &off) + base);
	c->offset = off;
}

static void fix_addresses(const struct nvc_lower *L,
			  struct nvdla_build_op *op, int base)
{
	union dla_surface_container *s = &op->surf;

	switch (op->graph.op_type) {
	case DLA_OP_CONV:
		fix_cube(L, &s->conv_surface.weight_data, base);
		fix_cube(L, &s->conv_surface.src_data, base);
		break;
	case DLA_OP_SDP:
		fix_cube(L, &s->sdp_surface.src_data, base);
		fix_cube(L, &s->sdp_surface.x1_data, base);
		fix_cube(L, &s->sdp_surface.x2_data, base);
		fix_cube(L, &s->sdp_surface.y_data, base);
		fix_cube(L, &s->sdp_surface.dst_data, base);
		break;
	case DLA_OP_PDP:
		fix_cube(L, &s->pdp_surface.src_data, base);
		fix_cube(L, &s->pdp_surface.dst_data, base);
		break;
	case DLA_OP_CDP:
		fix_cube(L, &s->cdp_surface.src_data, base);
		fix_cube(L, &s->cdp_surface.dst_data, base);
		break;
	case DLA_OP_RUBIK:
		fix_cube(L, &s->rubik_surface.src_data, base);
		fix_cube(L, &s->rubik_surface.dst_data, base);
		break;
	default:
		break;
	}
}

static void io_desc(const struct nvc_lower *L, int named, int tensor,
		    struct nvdla_tensor_desc *d)
{
	const struct nvc_tensor *t = nvc_t(L, tensor);
	const struct nvc_lir_tensor *lt = &L->ir.ts[tensor];
	const struct nvc_place *p = &lt->place;

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", nvc_t(L, named)->name);
	d->size = p->size;
	d->n = 1;
	d->c = t->c;
	d->h = t->h;
	d->w = t->w;
	d->data_format = DATA_FORMAT_NCXHWX;
	d->data_type = lt->prec == DLA_PRECISION_FP16 ? NVDLA_DATA_TYPE_HALF :
		       NVDLA_DATA_TYPE_INT8;
	d->data_category = DATA_CATEGORY_FEATURE;
	d->pixel_format = lt->atom == 8 ? NVDLA_TENSOR_FEATURE_X8 :
			  NVDLA_TENSOR_FEATURE;
	d->stride[0] = lt->bpe;
	d->stride[1] = p->line;
	d->stride[2] = p->surf;
	if (L->image && nvc_is_input(L, tensor)) {
		d->data_format = DATA_FORMAT_NHWC;
		d->data_category = DATA_CATEGORY_IMAGE;
		d->pixel_format = nvc_image_format(lt->prec);
		d->c = NVC_IMAGE_COMPS;
	}
}

/* The tensor of input (or output) @i of the loadable. */
static int io_tensor(const struct nvc_lower *L, int i)
{
	const struct nvc_graph *g = L->g;

	return i < g->num_inputs ? g->inputs[i] :
	       nvc_resolve(L, g->outputs[i - g->num_inputs]);
}

/*
 * Each input's and output's scale, for the runtime (scales.h), where
 * one of them is int8.
 */
static int emit_scales(struct nvc_lower *L)
{
	const struct nvc_graph *g = L->g;
	uint8_t blob[NVDLA_BLOB_TABLE_HEADER +
		     (NVC_MAX_INPUTS + NVC_MAX_OUTPUTS) * NVDLA_SCALES_ENTRY];
	int n = g->num_inputs + g->num_outputs, i;
	bool int8 = false;

	for (i = 0; i < n; i++)
		int8 |= L->ir.ts[io_tensor(L, i)].prec == DLA_PRECISION_INT8;
	if (!int8)
		return 0;
	memset(blob, 0, sizeof(blob));
	wr32(blob + NVDLA_BLOB_TABLE_MAGIC, NVDLA_SCALES_MAGIC);
	wr32(blob + NVDLA_BLOB_TABLE_COUNT, (uint32_t)n);
	for (i = 0; i < n; i++) {
		uint8_t *e = blob + NVDLA_BLOB_TABLE_HEADER + i * NVDLA_SCALES_ENTRY;
		bool out = i >= g->num_inputs;
		int bind = out ? i - g->num_inputs : i;
		uint32_t u;

		memcpy(&u, &L->ir.ts[io_tensor(L, i)].scale, sizeof(u));
		e[NVDLA_SCALES_KIND] = out;
		e[NVDLA_SCALES_BIND] = (uint8_t)bind;
		wr32(e + NVDLA_SCALES_SCALE, u);
	}
	return nvdla_builder_blob(&L->b, NVDLA_SCALES_BLOB, blob,
				  NVDLA_BLOB_TABLE_HEADER + n * NVDLA_SCALES_ENTRY);
}

/* The pixel mapping of every input, for the runtime (input_map.h). */
static int emit_input_map(struct nvc_lower *L)
{
	uint8_t blob[NVDLA_BLOB_TABLE_HEADER +
		     NVC_MAX_INPUTS * NVDLA_INPUT_MAP_ENTRY];
	int n = L->g->num_inputs, i, c;
	uint32_t u;

	if (L->o->normalize == 0)
		return 0;
	memset(blob, 0, sizeof(blob));
	wr32(blob + NVDLA_BLOB_TABLE_MAGIC, NVDLA_INPUT_MAP_MAGIC);
	wr32(blob + NVDLA_BLOB_TABLE_COUNT, (uint32_t)n);
	for (i = 0; i < n; i++) {
		uint8_t *e = blob + NVDLA_BLOB_TABLE_HEADER +
			     i * NVDLA_INPUT_MAP_ENTRY;

		e[NVDLA_INPUT_MAP_BIND] = (uint8_t)i;
		e[NVDLA_INPUT_MAP_ORDER] = NVDLA_INPUT_MAP_BGR;
		for (c = 0; c < 4; c++) {
			memcpy(&u, &L->o->mean[c < 3 ? c : 2], sizeof(u));
			wr32(e + NVDLA_INPUT_MAP_MEAN + 4 * c, u);
		}
		memcpy(&u, &L->o->normalize, sizeof(u));
		wr32(e + NVDLA_INPUT_MAP_NORM, u);
	}
	return nvdla_builder_blob(&L->b, NVDLA_INPUT_MAP_BLOB, blob,
				  NVDLA_BLOB_TABLE_HEADER +
				  n * NVDLA_INPUT_MAP_ENTRY);
}

/*
 * The memories of the constants ("weights", "weights1", ...) and of the
 * pool, in the slots nvc_chunk_slot() gives.
 */
static void emit_chunks(struct nvc_lower *L, uint16_t *data)
{
	int base = NVC_SLOT_IO + L->g->num_inputs + L->g->num_outputs, i;
	char name[24];

	for (i = 0; i < L->consts.chunks.n; i++) {
		snprintf(name, sizeof(name), i ? "weights%d" : "weights", i);
		data[i ? base + i - 1 : NVC_SLOT_CONST] =
			nvdla_builder_memory(&L->b, name,
					     L->consts.data + L->consts.chunks.start[i],
					     nvc_chunk_size(&L->consts.chunks, i,
							    L->consts.len));
	}
	base += L->consts.chunks.n - 1;
	for (i = 0; i < L->pool.chunks.n; i++)
		data[i ? base + i - 1 : NVC_SLOT_POOL] =
			nvdla_builder_memory(&L->b, NULL, NULL,
					     nvc_chunk_size(&L->pool.chunks, i,
							    L->pool.size));
}

int nvc_emit(struct nvc_lower *L, void **buf, size_t *len)
{
	const struct nvc_graph *g = L->g;
	struct nvdla_builder *b = &L->b;
	int nio = g->num_inputs + g->num_outputs, nslots, i;
	struct nvdla_tensor_desc d;
	static const uint8_t zero[128];
	uint16_t *data;
	int ret = 0;

	if (!L->consts.len && nvc_const_add(L, zero, sizeof(zero), 0) == UINT32_MAX)
		return -ENOMEM;
	if (!L->pool.size)
		nvc_pool_alloc(L, 256);
	if (L->oom)
		return -ENOMEM;
	nslots = NVC_SLOT_IO + nio + L->consts.chunks.n - 1 + L->pool.chunks.n - 1;
	data = calloc(nslots, sizeof(*data));
	if (!data)
		return -ENOMEM;
	emit_chunks(L, data);
	for (i = 0; i < g->num_inputs; i++) {
		int t = g->inputs[i];

		io_desc(L, t, t, &d);
		data[NVC_SLOT_IO + i] = nvdla_builder_memory(b, NULL, NULL,
							     d.size);
		nvdla_builder_bind(b, data[NVC_SLOT_IO + i], &d,
				   NVDLA_LBL_MEM_INPUT);
	}
	for (i = 0; i < g->num_outputs; i++) {
		int t = nvc_resolve(L, g->outputs[i]);
		int s = NVC_SLOT_IO + g->num_inputs + i;

		io_desc(L, g->outputs[i], t, &d);
		data[s] = nvdla_builder_memory(b, NULL, NULL, d.size);
		nvdla_builder_bind(b, data[s], &d, NVDLA_LBL_MEM_OUTPUT);
	}
	for (i = 0; i < L->num_tasks && !ret; i++) {
		struct nvc_task *t = &L->tasks[i];

		if (t->emu) {
			struct nvdla_build_emu e = {
				.net = t->emu_net, .net_size = 256,
				.ops = t->emu_ops, .ops_size = sizeof(t->emu_ops),
				.bufs = t->emu_bufs,
				.bufs_size = sizeof(t->emu_bufs),
			};
			uint8_t net[256] = { 0 };

			memcpy(net, t->emu_net, sizeof(t->emu_net));
			e.net = net;
			nvc_emu_fix(L, t);
			ret = nvdla_builder_emu_task(b, &e, data, nslots);
		} else {
			int k;

			for (k = 0; k < t->nops; k++)
				fix_addresses(L, &t->ops[k],
					      NVDLA_BUILD_DLA_DATA(t->nluts));
			ret = nvdla_builder_dla_task(b, t->ops, t->nops, t->luts,
						     t->nluts, data, nslots);
		}
	}
	free(data);
	if (!ret)
		ret = emit_scales(L);
	if (!ret)
		ret = emit_input_map(L);
	if (!ret)
		ret = nvdla_builder_write(b, buf, len);
	return ret;
}
