// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The back end's memory: the activation pool, its free blocks given
 * back by liveness (placement, lower_place.c, takes and returns them),
 * cubes at places, and the constants gathered for the loadable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/pixel_formats.h>

#include "lower_internal.h"

#define NVC_ALIGN 256		/* every cube and constant block */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

const struct nvc_tensor *nvc_t(const struct nvc_lower *L, int tensor)
{
	return &L->g->tensors[tensor];
}

/*
 * The tensor whose bytes @tensor shares (through Reshape aliases); a
 * conversion's output is its own.
 */
int nvc_resolve(const struct nvc_lower *L, int tensor)
{
	int hops = 0;

	while (tensor < L->g->num_tensors &&
	       L->g->tensors[tensor].alias_of >= 0 &&
	       hops++ < L->g->num_tensors)
		tensor = L->g->tensors[tensor].alias_of;
	return tensor;
}

int nvc_read(const struct nvc_lower *L, int tensor)
{
	int r = nvc_resolve(L, tensor);

	if (L->ir.ts[r].twin >= 0 && L->ir.ts[r].prec != L->prec)
		return L->ir.ts[r].twin;
	return r;
}

uint32_t nvc_surfaces(const struct nvc_lower *L, int c)
{
	return ((uint32_t)c + L->epa - 1) / L->epa;
}

uint8_t nvc_image_format(uint8_t prec)
{
	return prec == DLA_PRECISION_FP16 ? NVDLA_PIXEL_A16B16G16R16_F :
	       NVDLA_PIXEL_A8B8G8R8;
}

bool nvc_is_input(const struct nvc_lower *L, int tensor)
{
	int i;

	for (i = 0; i < L->g->num_inputs; i++)
		if (L->g->inputs[i] == tensor)
			return true;
	return false;
}

uint32_t nvc_pool_alloc(struct nvc_lower *L, uint64_t size)
{
	uint64_t off;
	int i;

	size = align_up(size, NVC_ALIGN);
	for (i = 0; i < L->pool.nfree; i++) {
		struct nvc_block *b = &L->pool.free[i];

		if (b->size < size ||
		    nvc_chunk_crosses(&L->pool.chunks, b->offset, size))
			continue;
		off = b->offset;
		b->offset += size;
		b->size -= size;
		return (uint32_t)off;
	}
	off = align_up(L->pool.size, NVC_ALIGN);
	if (nvc_chunk_fit(&L->pool.chunks, off, size))
		L->oom = true;	/* nvc_lower fails */
	L->pool.size = off + size;
	return (uint32_t)off;
}

/* The tensor that owns @tensor's bytes (alias, concat or split view). */
static int owner(const struct nvc_lower *L, int tensor)
{
	int hops = 0;

	if (L->ir.ts[tensor].of >= 0)	/* freed with what it converts */
		tensor = L->ir.ts[tensor].of;
	if (tensor >= L->g->num_tensors)	/* a RUBIK's input: its own */
		return tensor;
	for (;;) {
		tensor = nvc_resolve(L, tensor);
		if (hops++ > L->g->num_tensors)
			return tensor;
		if (L->ir.ts[tensor].root >= 0)
			tensor = L->ir.ts[tensor].root;
		else if (nvc_split_view(L, tensor))
			tensor = L->g->nodes[L->g->tensors[tensor].producer].inputs[0];
		else
			return tensor;
	}
}

/*
 * The lowered IR's tensors between its operations that no graph node
 * reads (a RUBIK's input): last used by the last operation reading them.
 */
static void liveness_lir(struct nvc_lower *L)
{
	int i, k;

	for (i = L->g->num_tensors; i < L->ir.num_tensors; i++)
		L->pool.last_use[i] = -1;
	for (i = 0; i < L->ir.num_ops; i++) {
		const struct nvc_lir_op *op = &L->ir.ops[i];

		for (k = 0; k < op->num_inputs; k++) {
			int t = op->inputs[k];

			if (t >= L->g->num_tensors && owner(L, t) == t &&
			    L->pool.last_use[t] < op->node)
				L->pool.last_use[t] = op->node;
		}
	}
}

int nvc_liveness(struct nvc_lower *L)
{
	const struct nvc_graph *g = L->g;
	int i, k;

	L->pool.last_use = calloc(L->ir.num_tensors ? L->ir.num_tensors : 1,
				  sizeof(int));
	L->pool.freed = calloc(L->ir.num_tensors ? L->ir.num_tensors : 1,
			       sizeof(bool));
	if (!L->pool.last_use || !L->pool.freed)
		return -ENOMEM;
	for (i = 0; i < g->num_tensors; i++)
		L->pool.last_use[i] = g->tensors[i].producer;
	for (i = 0; i < g->num_nodes; i++) {
		for (k = 0; k < g->nodes[i].num_inputs; k++) {
			int o = owner(L, g->nodes[i].inputs[k]);

			if (L->pool.last_use[o] < i)
				L->pool.last_use[o] = i;
		}
		for (k = 0; k < g->nodes[i].num_outputs; k++) {
			int o = owner(L, g->nodes[i].outputs[k]);

			if (L->pool.last_use[o] < i)
				L->pool.last_use[o] = i;
		}
	}
	liveness_lir(L);
	return 0;
}

/* Add [@off, @off + @size) to the free list, merged with neighbours. */
static int free_block(struct nvc_lower *L, uint64_t off, uint64_t size)
{
	struct nvc_block *p;
	int i;

	size = align_up(size, NVC_ALIGN);
	for (i = 0; i < L->pool.nfree; i++) {
		struct nvc_block *b = &L->pool.free[i];

		if (b->offset + b->size == off) {
			b->size += size;
			if (i + 1 < L->pool.nfree &&
			    b->offset + b->size == L->pool.free[i + 1].offset) {
				b->size += L->pool.free[i + 1].size;
				memmove(b + 1, b + 2, (L->pool.nfree - i - 2) * sizeof(*b));
				L->pool.nfree--;
			}
			return 0;
		}
		if (off + size == b->offset) {
			b->offset = off;
			b->size += size;
			return 0;
		}
		if (b->offset > off)
			break;
	}
	p = realloc(L->pool.free, (L->pool.nfree + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	L->pool.free = p;
	memmove(p + i + 1, p + i, (L->pool.nfree - i) * sizeof(*p));
	p[i] = (struct nvc_block){ off, size };
	L->pool.nfree++;
	return 0;
}

int nvc_release(struct nvc_lower *L, int node)
{
	int i, ret = 0;

	for (i = 0; i < L->ir.num_tensors && !ret; i++) {
		const struct nvc_place *p = &L->ir.ts[i].place;
		int o;

		/* temporaries are kept to the end */
		if (L->ir.ts[i].temp || p->slot != NVC_SLOT_POOL ||
		    L->pool.freed[i])
			continue;
		o = owner(L, i);
		if (L->pool.last_use[o] >= node ||
		    (o != i && L->ir.ts[i].of < 0))
			continue;
		L->pool.freed[i] = true;
		ret = free_block(L, p->offset, p->size);
	}
	return ret;
}

struct dla_data_cube nvc_cube_at(const struct nvc_lower *L,
				 const struct nvc_place *p, int w, int h, int c)
{
	(void)L;
	return (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = (int16_t)p->slot,
		.offset = p->offset, .size = p->size, .width = (uint16_t)w,
		.height = (uint16_t)h, .channel = (uint16_t)c,
		.line_stride = p->line, .surf_stride = p->surf,
	};
}

struct dla_data_cube nvc_cube(const struct nvc_lower *L, int tensor)
{
	const struct nvc_lir_tensor *t = &L->ir.ts[nvc_read(L, tensor)];

	return nvc_cube_at(L, &t->place, t->w, t->h, t->c);
}

uint32_t nvc_const_add(struct nvc_lower *L, const void *data, uint64_t size,
		       uint32_t align)
{
	uint64_t off = align_up(L->consts.len, align ? align : NVC_ALIGN);
	uint64_t end = off + align_up(size, 128);

	if (nvc_chunk_fit(&L->consts.chunks, off, size))
		return UINT32_MAX;
	if (end > L->consts.cap) {
		uint64_t cap = end * 2 + 4096;
		uint8_t *p = realloc(L->consts.data, cap);

		if (!p)
			return UINT32_MAX;
		memset(p + L->consts.cap, 0, cap - L->consts.cap);
		L->consts.data = p;
		L->consts.cap = cap;
	}
	memcpy(L->consts.data + off, data, size);
	L->consts.len = end;
	return (uint32_t)off;
}

struct dla_data_cube nvc_const_cube(uint32_t offset, uint32_t size,
				    int w, int h, int c)
{
	return (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = NVC_SLOT_CONST,
		.offset = offset, .size = size, .width = (uint16_t)w,
		.height = (uint16_t)h, .channel = (uint16_t)c,
	};
}
