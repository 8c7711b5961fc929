// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The operations of the task being built, what each reads and writes
 * (noted in the order emission makes them, for the ordering pass,
 * lower_order.c, when the task closes), and the finished tasks.
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

/* Note access @a of the task being built for the ordering pass. */
static void note(struct nvc_lower *L, struct nvc_access a)
{
	struct nvc_deps *d = &L->deps;

	if (d->n == d->cap) {
		int cap = d->cap * 2 + 64;
		struct nvc_access *p = realloc(d->acc, cap * sizeof(*p));

		if (!p) {
			L->oom = true;	/* nvc_lower fails */
			return;
		}
		d->acc = p;
		d->cap = cap;
	}
	d->acc[d->n++] = a;
}

int nvc_op_new(struct nvc_lower *L, uint8_t type)
{
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
	note(L, (struct nvc_access){ .kind = NVC_ACC_OP, .op = L->nops });
	return L->nops++;
}

void nvc_depend(struct nvc_lower *L, int from, int to)
{
	note(L, (struct nvc_access){ .kind = NVC_ACC_EDGE, .op = to,
				     .other = from });
}

void nvc_depend_tensor(struct nvc_lower *L, int tensor, int op)
{
	nvc_depend_at(L, &L->ir.ts[nvc_read(L, tensor)].place, op);
}

void nvc_depend_place(struct nvc_lower *L, const struct dla_data_cube *c,
		      int op)
{
	struct nvc_place p = { .slot = c->address, .offset = c->offset,
			       .line = c->line_stride, .surf = c->surf_stride,
			       .size = c->size };

	nvc_depend_at(L, &p, op);
}

void nvc_depend_at(struct nvc_lower *L, const struct nvc_place *p, int op)
{
	note(L, (struct nvc_access){ .kind = NVC_ACC_READ, .op = op,
				     .place = *p });
}

void nvc_written_place(struct nvc_lower *L, const struct nvc_place *place,
		       int op)
{
	note(L, (struct nvc_access){ .kind = NVC_ACC_WRITE, .op = op,
				     .place = *place });
}

void nvc_writer(struct nvc_lower *L, int tensor, int op)
{
	note(L, (struct nvc_access){ .kind = NVC_ACC_WRITER, .op = op,
				     .other = tensor,
				     .place = L->ir.ts[tensor].place });
}

void nvc_written(struct nvc_lower *L, int tensor, int op)
{
	nvc_written_place(L, &L->ir.ts[tensor].place, op);
	nvc_writer(L, tensor, op);
}

void nvc_fuse(struct nvc_lower *L, int head, int tail)
{
	note(L, (struct nvc_access){ .kind = NVC_ACC_FUSE, .op = tail,
				     .other = head });
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
	int ret;

	if (!L->nops)
		return 0;
	ret = nvc_order(L);
	if (ret)
		return ret;
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
	return 0;
}
