// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The back end's entry point: checks the target and precision, gives
 * int8 tensors their scales, walks the nodes in order (an element-wise
 * node marked sdp_fused in the convolution before it, as fuse.c
 * decided), splits the work into DLA tasks around CPU tasks, then writes the
 * loadable with the runtime's builder.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/runtime.h>

#include "le_bytes.h"
#include "lower_internal.h"
#include "input_map.h"
#include "scales.h"

#define DATA_FORMAT_NHWC 2	/* TensorDescListEntry.data_format */
#define DATA_FORMAT_NCXHWX 3
#define DATA_CATEGORY_IMAGE 0
#define DATA_CATEGORY_FEATURE 2

int nvc_fail(struct nvc_lower *L, const struct nvc_node *n, int err,
	     const char *fmt, ...)
{
	char why[NVC_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (n)
		snprintf(L->err, L->errlen, "node '%s' (%s): %s", n->name,
			 n->onnx_op ? n->onnx_op : "?", why);
	else
		snprintf(L->err, L->errlen, "%s", why);
	return err;
}

/* Nodes reading @tensor, and the last one found. */
static int readers(const struct nvc_graph *g, int tensor, int *last)
{
	int i, k, count = 0;

	for (i = 0; i < g->num_nodes; i++)
		for (k = 0; k < g->nodes[i].num_inputs; k++)
			if (g->nodes[i].inputs[k] == tensor) {
				count++;
				*last = i;
			}
	return count;
}

static bool graph_output(const struct nvc_graph *g, int tensor)
{
	int i;

	for (i = 0; i < g->num_outputs; i++)
		if (g->outputs[i] == tensor)
			return true;
	return false;
}


/*
 * Inputs at channel offsets off the atoms: each embedded by a 1x1
 * identity convolution into a cube of all channels, adding the ones
 * before (temporary cubes in the pool at the output's scale).
 */
static int concat_embedded(struct nvc_lower *L, const struct nvc_node *n)
{
	int out = n->outputs[0], k, j, coff = 0, op = -1;
	const struct nvc_tensor *to = nvc_t(L, out);
	struct nvc_operand prev;
	struct nvc_place tmp;
	int *map = malloc(to->c * sizeof(*map));

	if (!map)
		return -ENOMEM;
	for (k = 0; k < n->num_inputs; k++) {
		struct dla_data_cube dst = nvc_cube(L, out);
		int c = nvc_t(L, n->inputs[k])->c;

		if (k + 1 < n->num_inputs) {
			tmp = L->ts[out].place;
			tmp.slot = NVC_SLOT_POOL;
			tmp.offset = nvc_pool_alloc(L, tmp.size);
			dst = nvc_cube_at(L, &tmp, to->w, to->h, to->c);
		}
		for (j = 0; j < to->c; j++)
			map[j] = j >= coff && j < coff + c ? j - coff : -1;
		op = nvc_conv_select(L, n, n->inputs[k], map, to->c,
				     k ? &prev : NULL, op, &dst,
				     L->ts[out].scale);
		if (op < 0)
			break;
		prev = (struct nvc_operand){ .cube = dst,
					     .scale = L->ts[out].scale };
		coff += c;
	}
	free(map);
	if (op < 0)
		return op;
	nvc_written(L, out, op);
	return 0;
}

/* Inputs not written in place are copied into the concatenation. */
static int lower_concat(struct nvc_lower *L, int node)
{
	const struct nvc_node *n = &L->g->nodes[node];
	int out = n->outputs[0], k, ret, coff = 0;

	ret = nvc_place_tensor(L, out);
	if (!ret && !nvc_concat_aligned(L, n))
		return concat_embedded(L, n);
	for (k = 0; k < n->num_inputs && !ret; k++) {
		int in = n->inputs[k];
		struct nvc_place dst = L->ts[out].place;

		dst.offset += (uint32_t)(coff / (int)L->epa) * dst.surf;
		dst.size = dst.surf * nvc_surfaces(L, nvc_t(L, in)->c);
		coff += nvc_t(L, in)->c;
		if (L->ts[in].root == out)
			continue;
		ret = nvc_sdp_copy(L, n, in, &dst, L->ts[out].scale);
		if (ret >= 0) {
			nvc_written_place(L, &dst, ret);
			L->ts[out].writer = ret;
			ret = 0;
		}
	}
	return ret;
}

/*
 * Outputs are views of the input at their channel offsets when those are
 * on an atom (nvc_split_view), else copies by a 1x1 convolution that
 * picks their channels (those something reads).
 */
static int lower_split(struct nvc_lower *L, int node)
{
	const struct nvc_node *n = &L->g->nodes[node];
	int in = nvc_resolve(L, n->inputs[0]), k, j, last, coff = 0, ret = 0;
	int *map = malloc(nvc_t(L, in)->c * sizeof(*map));

	if (!map)
		return -ENOMEM;
	for (k = 0; k < n->num_outputs && !ret; k++) {
		int out = n->outputs[k], c = nvc_t(L, out)->c, op;
		struct nvc_ltensor *o = &L->ts[out];
		struct dla_data_cube dst;

		if (nvc_split_view(L, out)) {
			o->place = L->ts[in].place;
			o->place.offset += (uint32_t)(coff / (int)L->epa) *
					   o->place.surf;
			o->place.size = o->place.surf * nvc_surfaces(L, c);
		} else if (readers(L->g, out, &last) ||
			   graph_output(L->g, out)) {
			ret = nvc_place_tensor(L, out);
			for (j = 0; j < c; j++)
				map[j] = coff + j;
			dst = nvc_cube(L, out);
			op = ret ? ret : nvc_conv_select(L, n, in, map, c, NULL,
							 -1, &dst, o->scale);
			if (op >= 0)
				nvc_written(L, out, op);
			ret = op < 0 ? op : 0;
		}
		coff += c;
	}
	free(map);
	return ret;
}

static int lower_node(struct nvc_lower *L, int i)
{
	const struct nvc_node *n = &L->g->nodes[i];
	int k;

	if (n->sdp_fused)
		return 0;	/* computed by its convolution's SDP */
	/* Constants reach the hardware as weights and SDP operands only. */
	for (k = 0; k < n->num_inputs; k++)
		if (n->inputs[k] < 0 || n->inputs[k] >= L->g->num_tensors ||
		    L->g->tensors[n->inputs[k]].data)
			return nvc_fail(L, n, -EOPNOTSUPP,
					"input %d is a constant or no tensor: only activations flow between layers",
					k);
	switch (n->op) {
	case NVC_CONV:
	case NVC_CONV_TRANSPOSE:
		return nvc_lower_conv(L, i, nvc_fused_eltwise(L->g, i));
	case NVC_AFFINE:
	case NVC_ACT:
	case NVC_ELTWISE:
		return nvc_lower_sdp_node(L, i);
	case NVC_POOL:
		return nvc_lower_pool(L, i);
	case NVC_LRN:
		return nvc_lower_lrn(L, i);
	case NVC_CONCAT:
		return lower_concat(L, i);
	case NVC_SPLIT:
		return lower_split(L, i);
	case NVC_RESHAPE:
		return 0;	/* an alias: same bytes */
	case NVC_SOFTMAX:
	case NVC_CPU:
		return nvc_lower_cpu(L, i);
	}
	return nvc_fail(L, n, -EINVAL, "unknown operation %d", n->op);
}

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
	const struct nvc_place *p = &L->ts[tensor].place;

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", nvc_t(L, named)->name);
	d->size = p->size;
	d->n = 1;
	d->c = t->c;
	d->h = t->h;
	d->w = t->w;
	d->data_format = DATA_FORMAT_NCXHWX;
	d->data_type = L->prec == DLA_PRECISION_FP16 ? NVDLA_DATA_TYPE_HALF :
		       NVDLA_DATA_TYPE_INT8;
	d->data_category = DATA_CATEGORY_FEATURE;
	d->pixel_format = L->t.atom == 8 ? NVDLA_TENSOR_FEATURE_X8 :
			  NVDLA_TENSOR_FEATURE;
	d->stride[0] = L->bpe;
	d->stride[1] = p->line;
	d->stride[2] = p->surf;
	if (L->image && nvc_is_input(L, tensor)) {
		d->data_format = DATA_FORMAT_NHWC;
		d->data_category = DATA_CATEGORY_IMAGE;
		d->pixel_format = nvc_image_format(L);
		d->c = NVC_IMAGE_COMPS;
	}
}

/* int8: each input's and output's scale, for the runtime (scales.h). */
static int emit_scales(struct nvc_lower *L)
{
	const struct nvc_graph *g = L->g;
	uint8_t blob[NVDLA_BLOB_TABLE_HEADER +
		     (NVC_MAX_INPUTS + NVC_MAX_OUTPUTS) * NVDLA_SCALES_ENTRY];
	int n = g->num_inputs + g->num_outputs, i;

	if (L->prec != DLA_PRECISION_INT8)
		return 0;
	memset(blob, 0, sizeof(blob));
	wr32(blob + NVDLA_BLOB_TABLE_MAGIC, NVDLA_SCALES_MAGIC);
	wr32(blob + NVDLA_BLOB_TABLE_COUNT, (uint32_t)n);
	for (i = 0; i < n; i++) {
		uint8_t *e = blob + NVDLA_BLOB_TABLE_HEADER + i * NVDLA_SCALES_ENTRY;
		bool out = i >= g->num_inputs;
		int bind = out ? i - g->num_inputs : i;
		int t = out ? nvc_resolve(L, g->outputs[bind]) : g->inputs[bind];
		uint32_t u;

		memcpy(&u, &L->ts[t].scale, sizeof(u));
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

	for (i = 0; i < L->cchunks.n; i++) {
		snprintf(name, sizeof(name), i ? "weights%d" : "weights", i);
		data[i ? base + i - 1 : NVC_SLOT_CONST] =
			nvdla_builder_memory(&L->b, name,
					     L->cdata + L->cchunks.start[i],
					     nvc_chunk_size(&L->cchunks, i,
							    L->clen));
	}
	base += L->cchunks.n - 1;
	for (i = 0; i < L->pchunks.n; i++)
		data[i ? base + i - 1 : NVC_SLOT_POOL] =
			nvdla_builder_memory(&L->b, NULL, NULL,
					     nvc_chunk_size(&L->pchunks, i,
							    L->pool));
}

/* Constants, pool, inputs and outputs, then the tasks over them. */
static int emit(struct nvc_lower *L, void **buf, size_t *len)
{
	const struct nvc_graph *g = L->g;
	struct nvdla_builder *b = &L->b;
	int nio = g->num_inputs + g->num_outputs, nslots, i;
	struct nvdla_tensor_desc d;
	static const uint8_t zero[128];
	uint16_t *data;
	int ret = 0;

	if (!L->clen && nvc_const_add(L, zero, sizeof(zero), 0) == UINT32_MAX)
		return -ENOMEM;
	if (!L->pool)
		nvc_pool_alloc(L, 256);
	if (L->oom)
		return -ENOMEM;
	nslots = NVC_SLOT_IO + nio + L->cchunks.n - 1 + L->pchunks.n - 1;
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

/* Image input feeds convolutions only, at most 4 channels of it. */
static int check_image_input(struct nvc_lower *L, int tensor)
{
	const struct nvc_graph *g = L->g;
	int i, k;

	if (g->tensors[tensor].c > NVC_IMAGE_COMPS)
		return nvc_fail(L, NULL, -EOPNOTSUPP,
				"image input '%s' has %d channels: pixels have at most %d",
				g->tensors[tensor].name, g->tensors[tensor].c,
				NVC_IMAGE_COMPS);
	for (i = 0; i < g->num_nodes; i++)
		for (k = 0; k < g->nodes[i].num_inputs; k++)
			if (g->nodes[i].inputs[k] == tensor &&
			    g->nodes[i].op != NVC_CONV)
				return nvc_fail(L, &g->nodes[i], -EOPNOTSUPP,
						"reads the image input: only convolutions read pixels (use the feature input format)");
	return 0;
}

static int setup(struct nvc_lower *L)
{
	const struct nvc_graph *g = L->g;
	int i;

	if (nvc_target_get(L->o->config, &L->t))
		return nvc_fail(L, NULL, -EINVAL,
				"unknown configuration '%s' (nv_full, nv_large or nv_small)",
				L->o->config ? L->o->config : "");
	if (L->o->precision == NVC_FP16 && !nvc_target_fp16(&L->t))
		return nvc_fail(L, NULL, -EOPNOTSUPP,
				"fp16: %s computes in int8 only", L->o->config);
	L->image = L->o->input_format == NVC_INPUT_IMAGE;
	if (g->num_inputs < 1 || g->num_outputs < 1 ||
	    g->num_inputs > NVC_MAX_INPUTS || g->num_outputs > NVC_MAX_OUTPUTS)
		return nvc_fail(L, NULL, -EINVAL, "%d inputs and %d outputs",
				g->num_inputs, g->num_outputs);
	L->prec = L->o->precision == NVC_FP16 ? DLA_PRECISION_FP16 :
		  DLA_PRECISION_INT8;
	for (i = 0; L->image && i < g->num_inputs; i++)
		if (check_image_input(L, g->inputs[i]))
			return -EOPNOTSUPP;
	L->bpe = L->prec == DLA_PRECISION_FP16 ? 2 : 1;
	L->epa = L->t.atom / L->bpe;
	L->ts = calloc(g->num_tensors ? g->num_tensors : 1, sizeof(*L->ts));
	if (!L->ts)
		return -ENOMEM;
	for (i = 0; i < g->num_tensors; i++) {
		const struct nvc_tensor *t = &g->tensors[i];

		L->ts[i].place.slot = -1;
		L->ts[i].writer = -1;
		L->ts[i].root = -1;
		if (!t->data && (t->n != 1 || t->c < 1 || t->h < 1 ||
				 t->w < 1 || t->c > 8192 || t->h > 8192 ||
				 t->w > 8192))
			return nvc_fail(L, NULL, -EOPNOTSUPP,
					"tensor '%s' is %dx%dx%dx%d: one batch of at most 8192 in each dimension",
					t->name, t->n, t->c, t->h, t->w);
	}
	return 0;
}

static void cleanup(struct nvc_lower *L)
{
	int i;

	for (i = 0; i < L->num_tasks; i++)
		free(L->tasks[i].ops);
	free(L->tasks);
	free(L->ops);
	free(L->ts);
	free(L->cdata);
	free(L->cchunks.start);
	free(L->pchunks.start);
	free(L->last_use);
	free(L->freed);
	free(L->free);
	free(L->reads);
	nvdla_builder_fini(&L->b);
}

int nvc_lower(const struct nvc_graph *g, const struct nvc_options *o,
	      void **buf, size_t *len, char *err, size_t errlen)
{
	struct nvc_lower L = { .g = g, .o = o, .err = err, .errlen = errlen };
	int i, ret;

	*buf = NULL;
	*len = 0;
	if (o->origins) {
		nvc_origins_free(o->origins);
		o->origins->winograd = calloc(g->num_nodes ? g->num_nodes : 1,
					      sizeof(bool));
		o->origins->split = calloc(g->num_nodes ? g->num_nodes : 1,
					   sizeof(bool));
		if (!o->origins->winograd || !o->origins->split)
			o->origins->oom = true;
	}
	if (errlen)
		err[0] = 0;
	nvdla_builder_init(&L.b);
	ret = setup(&L);
	if (!ret)
		ret = nvc_scales(&L);
	if (!ret)
		ret = nvc_liveness(&L);
	for (i = 0; !ret && i < g->num_inputs; i++)
		nvc_place_new(&L, g->inputs[i]);
	for (i = 0; !ret && i < g->num_nodes; i++) {
		ret = nvc_release(&L, i);
		L.node = i;
		if (!ret)
			ret = lower_node(&L, i);
	}
	if (!ret && (L.oom || (o->origins && o->origins->oom)))
		ret = -ENOMEM;
	if (!ret)
		ret = nvc_task_close(&L);
	if (!ret)
		ret = emit(&L, buf, len);
	if (ret && errlen && !err[0])
		snprintf(err, errlen, "%s", ret == -ENOMEM ? "out of memory" :
			 "cannot write the loadable");
	cleanup(&L);
	return ret;
}
