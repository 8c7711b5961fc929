// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Where tensors and constants live, and the operations of the task being
 * built with their dependency graph (the official compiler's: each
 * operation names the next one of its engine as the consumer it lets be
 * programmed, and the operations that read what it wrote as consumers
 * waiting for its completion).
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

/* The tensor whose bytes @tensor shares (through Reshape aliases). */
int nvc_resolve(const struct nvc_lower *L, int tensor)
{
	int hops = 0;

	while (L->g->tensors[tensor].alias_of >= 0 && hops++ < L->g->num_tensors)
		tensor = L->g->tensors[tensor].alias_of;
	return tensor;
}

uint32_t nvc_surfaces(const struct nvc_lower *L, int c)
{
	return ((uint32_t)c + L->epa - 1) / L->epa;
}

/* The graph input or output @tensor (or an alias of it) is, as a slot. */
static int io_slot(const struct nvc_lower *L, int tensor)
{
	const struct nvc_graph *g = L->g;
	int i;

	for (i = 0; i < g->num_inputs; i++)
		if (g->inputs[i] == tensor)
			return NVC_SLOT_IO + i;
	for (i = 0; i < g->num_outputs; i++)
		if (nvc_resolve(L, g->outputs[i]) == tensor)
			return NVC_SLOT_IO + g->num_inputs + i;
	return -1;
}

uint8_t nvc_image_format(const struct nvc_lower *L)
{
	return L->prec == DLA_PRECISION_FP16 ? NVDLA_PIXEL_A16B16G16R16_F :
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

/* Give @tensor bytes of its own: its graph memory or a pool block. */
void nvc_place_new(struct nvc_lower *L, int tensor)
{
	const struct nvc_tensor *t = nvc_t(L, tensor);
	struct nvc_place *p = &L->ts[tensor].place;

	if (L->image && nvc_is_input(L, tensor)) {	/* pitch-linear pixels */
		p->line = (uint32_t)align_up((uint64_t)t->w * NVC_IMAGE_COMPS *
					     L->bpe, NVC_IMAGE_LINE_ALIGN);
		p->surf = 0;
		p->size = p->line * (uint32_t)t->h;
		p->slot = io_slot(L, tensor);
		p->offset = 0;
		return;
	}

	p->line = (uint32_t)t->w * L->t.atom;
	p->surf = p->line * (uint32_t)t->h;
	p->size = p->surf * nvc_surfaces(L, t->c);
	p->slot = io_slot(L, tensor);
	p->offset = 0;
	if (p->slot < 0) {
		p->slot = NVC_SLOT_POOL;
		p->offset = nvc_pool_alloc(L, p->size);
	}
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

bool nvc_split_view(const struct nvc_lower *L, int tensor)
{
	const struct nvc_graph *g = L->g;
	int p = g->tensors[tensor].producer, k, coff = 0;
	const struct nvc_node *n;

	if (p < 0 || g->nodes[p].op != NVC_SPLIT)
		return false;
	n = &g->nodes[p];
	for (k = 0; n->outputs[k] != tensor; k++)
		coff += g->tensors[n->outputs[k]].c;
	for (k = 0; k < g->num_outputs; k++)
		if (g->outputs[k] == tensor)
			return false;
	return coff % (int)L->epa == 0;
}

/* The tensor that owns @tensor's bytes (alias, concat or split view). */
static int owner(const struct nvc_lower *L, int tensor)
{
	int hops = 0;

	for (;;) {
		tensor = nvc_resolve(L, tensor);
		if (hops++ > L->g->num_tensors)
			return tensor;
		if (L->ts[tensor].root >= 0)
			tensor = L->ts[tensor].root;
		else if (nvc_split_view(L, tensor))
			tensor = L->g->nodes[L->g->tensors[tensor].producer].inputs[0];
		else
			return tensor;
	}
}

int nvc_liveness(struct nvc_lower *L)
{
	const struct nvc_graph *g = L->g;
	int i, k;

	L->pool.last_use = calloc(g->num_tensors ? g->num_tensors : 1, sizeof(int));
	L->pool.freed = calloc(g->num_tensors ? g->num_tensors : 1, sizeof(bool));
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

	for (i = 0; i < L->g->num_tensors && !ret; i++) {
		const struct nvc_place *p = &L->ts[i].place;

		if (p->slot != NVC_SLOT_POOL || L->pool.freed[i] ||
		    L->pool.last_use[i] >= node || owner(L, i) != i)
			continue;
		L->pool.freed[i] = true;
		ret = free_block(L, p->offset, p->size);
	}
	return ret;
}

/*
 * Place the output @tensor of a node before it is written: inside the
 * concatenation it feeds (ts[].root, at its channel offset), else on its
 * own.
 */
int nvc_place_tensor(struct nvc_lower *L, int tensor)
{
	struct nvc_ltensor *lt = &L->ts[tensor];
	const struct nvc_graph *g = L->g;
	int root = lt->root, i, k, coff = 0;

	if (lt->place.slot >= 0)
		return 0;
	if (root < 0) {
		nvc_place_new(L, tensor);
		return 0;
	}
	if (L->ts[root].place.slot < 0)
		nvc_place_new(L, root);
	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node *n = &g->nodes[i];

		if (n->op != NVC_CONCAT || n->outputs[0] != root)
			continue;
		for (k = 0; k < n->num_inputs && n->inputs[k] != tensor; k++)
			coff += nvc_t(L, n->inputs[k])->c;
	}
	lt->place = L->ts[root].place;
	lt->place.offset += (uint32_t)(coff / (int)L->epa) * lt->place.surf;
	lt->place.size = lt->place.surf * nvc_surfaces(L, nvc_t(L, tensor)->c);
	return 0;
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
	int r = nvc_resolve(L, tensor);
	const struct nvc_tensor *t = nvc_t(L, r);

	return nvc_cube_at(L, &L->ts[r].place, t->w, t->h, t->c);
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

/* Note which node made an operation of @type (nvc_options.origins). */
static void origin_add(struct nvc_lower *L, uint8_t type)
{
	struct nvc_origins *o = L->o->origins;

	if (!o || o->oom)
		return;
	if (o->n == o->cap) {
		int cap = o->cap * 2 + 64;
		uint8_t *t = realloc(o->type, cap * sizeof(*t));
		int *n = t ? realloc(o->node, cap * sizeof(*n)) : NULL;

		if (t)
			o->type = t;
		if (!n) {
			o->oom = true;
			return;
		}
		o->node = n;
		o->cap = cap;
	}
	o->type[o->n] = type;
	o->node[o->n++] = L->node;
}

void nvc_origins_free(struct nvc_origins *o)
{
	free(o->type);
	free(o->node);
	free(o->winograd);
	free(o->split);
	memset(o, 0, sizeof(*o));
}

int nvc_op_new(struct nvc_lower *L, uint8_t type)
{
	int i;

	if (L->nops == L->opcap) {
		int cap = L->opcap * 2 + 16;
		struct nvdla_build_op *p = realloc(L->ops, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		L->ops = p;
		L->opcap = cap;
	}
	nvdla_build_op_init(&L->ops[L->nops], type);
	origin_add(L, type);
	/* The engine's previous operation lets this one be programmed. */
	for (i = L->nops - 1; i >= 0; i--) {
		if (L->ops[i].graph.op_type != type)
			continue;
		L->ops[i].graph.consumers[type] = (struct dla_consumer){
			.index = (int16_t)L->nops,
			.event = DLA_EVENT_OP_PROGRAMMED };
		L->ops[L->nops].graph.dependency_count++;
		break;
	}
	return L->nops++;
}

/* @from's consumer of @to's type is the tail it is fused with. */
static bool fused_tail(const struct nvc_lower *L, int from, int idx)
{
	return L->ops[idx].graph.fused_parent.index == from;
}

void nvc_depend(struct nvc_lower *L, int from, int to)
{
	struct dla_consumer *c;

	if (from < 0 || to < 0 || from == to)
		return;
	c = &L->ops[from].graph.consumers[L->ops[to].graph.op_type];
	if (c->index == -1) {
		*c = (struct dla_consumer){ .index = (int16_t)to,
					    .event = DLA_EVENT_OP_COMPLETED };
		L->ops[to].graph.dependency_count++;
		return;
	}
	/*
	 * One consumer per engine: an earlier operation of @to's engine
	 * already waits for @from, and @to runs after it on that engine;
	 * make it wait for the completion (a fused tail completes after
	 * its head anyway).
	 */
	if (!fused_tail(L, from, c->index))
		c->event = DLA_EVENT_OP_COMPLETED;
}

static bool overlap(const struct nvc_place *a, const struct nvc_place *b)
{
	return a->slot == b->slot && a->offset < b->offset + b->size &&
	       b->offset < a->offset + a->size;
}

/*
 * @op reads @tensor: wait for every operation of the task that wrote
 * there, and remember the read for whoever reuses the bytes.
 */
void nvc_depend_tensor(struct nvc_lower *L, int tensor, int op)
{
	nvc_depend_at(L, &L->ts[nvc_resolve(L, tensor)].place, op);
}

void nvc_depend_place(struct nvc_lower *L, const struct dla_data_cube *c,
		      int op)
{
	struct nvc_place p = { .slot = c->address, .offset = c->offset,
			       .line = c->line_stride, .surf = c->surf_stride,
			       .size = c->size };

	nvc_depend_at(L, &p, op);
}

/*
 * @op waits for the latest of the operations in @latest of each engine:
 * an engine completes its operations in order (its chain), so the
 * earlier ones are done by then, and an operation's count of events
 * stays within its 8 bits however many operations read a cube in
 * blocks or bands.
 */
static void note_latest(const struct nvc_lower *L, int *latest, int from,
			int op)
{
	int t;

	if (from < 0 || from == op)
		return;
	t = L->ops[from].graph.op_type;
	if (from > latest[t])
		latest[t] = from;
}

static void depend_latest(struct nvc_lower *L, const int *latest, int op)
{
	int t;

	for (t = 0; t < DLA_OP_NUM; t++)
		nvc_depend(L, latest[t], op);
}

void nvc_depend_at(struct nvc_lower *L, const struct nvc_place *p, int op)
{
	int latest[DLA_OP_NUM] = { -1, -1, -1, -1, -1, -1 };
	struct nvc_read *r;
	int i;

	for (i = 0; i < L->g->num_tensors; i++)
		if (L->ts[i].writer >= 0 && overlap(&L->ts[i].place, p))
			note_latest(L, latest, L->ts[i].writer, op);
	depend_latest(L, latest, op);
	r = realloc(L->deps.reads, (L->deps.n + 1) * sizeof(*r));
	if (!r) {
		L->oom = true;	/* nvc_lower fails */
		return;
	}
	L->deps.reads = r;
	L->deps.reads[L->deps.n++] = (struct nvc_read){ *p, op };
}

void nvc_written_place(struct nvc_lower *L, const struct nvc_place *place,
		       int op)
{
	int latest[DLA_OP_NUM] = { -1, -1, -1, -1, -1, -1 };
	int i;

	for (i = 0; i < L->deps.n; i++)
		if (overlap(&L->deps.reads[i].place, place))
			note_latest(L, latest, L->deps.reads[i].op, op);
	for (i = 0; i < L->g->num_tensors; i++)
		if (L->ts[i].writer >= 0 && overlap(&L->ts[i].place, place))
			note_latest(L, latest, L->ts[i].writer, op);
	depend_latest(L, latest, op);
}

void nvc_written(struct nvc_lower *L, int tensor, int op)
{
	nvc_written_place(L, &L->ts[tensor].place, op);
	L->ts[tensor].writer = op;
}

void nvc_fuse(struct nvc_lower *L, int head, int tail)
{
	nvdla_build_fuse(&L->ops[head], (int16_t)head, &L->ops[tail],
			 (int16_t)tail);
}

int nvc_task_push(struct nvc_lower *L, const struct nvc_task *t)
{
	struct nvc_task *p = realloc(L->tasks, (L->num_tasks + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	L->tasks = p;
	L->tasks[L->num_tasks++] = *t;
	return 0;
}

/* End the DLA task being built; later tasks run after it. */
int nvc_task_close(struct nvc_lower *L)
{
	struct nvc_task t = { .emu = false };
	int i, ret;

	if (!L->nops)
		return 0;
	t.ops = L->ops;
	t.nops = L->nops;
	t.nluts = L->nluts;
	memcpy(t.luts, L->luts, sizeof(t.luts));
	ret = nvc_task_push(L, &t);
	if (ret)
		return ret;
	L->ops = NULL;
	L->nops = L->opcap = 0;
	L->nluts = 0;
	L->deps.n = 0;
	for (i = 0; i < L->g->num_tensors; i++)
		L->ts[i].writer = -1;
	return 0;
}
