// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The operations of the task being built with their dependency graph
 * (the official compiler's: each operation names the next one of its
 * engine as the consumer it lets be programmed, and the operations that
 * read what it wrote as consumers waiting for its completion), and the
 * finished tasks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lower_internal.h"

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
	nvc_conv_banks_differ(L);
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
