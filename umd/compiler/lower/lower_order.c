// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The dependency ordering pass, run on a task's operations when it
 * closes, from what each reads and writes in the order they were made
 * (lower_deps.c): the official compiler's dependency graph, in which each
 * operation names the next one of its engine as the consumer it lets be
 * programmed, and the operations that read what it wrote, or write where
 * it read or wrote, as consumers waiting for its completion.
 */
#include <errno.h>
#include <stdlib.h>

#include "lower_internal.h"

/* The pass's state: the reads so far and each tensor's last writer. */
struct order {
	struct nvc_lower *L;
	const struct nvc_access **reads;
	int nreads;
	const struct nvc_access **writer;	/* per tensor, or NULL */
};

/* @from's consumer of @to's type is the tail it is fused with. */
static bool fused_tail(const struct nvc_lower *L, int from, int idx)
{
	return L->ops[idx].graph.fused_parent.index == from;
}

static void depend(struct nvc_lower *L, int from, int to)
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

/*
 * The engine's previous operation lets new operation @op be programmed;
 * on nv_full (cdma_early 0) a convolution waits for the one before to be
 * enabled. Its CDMA does not wait for its CSC there: a convolution
 * enabled before the one ahead of it (waiting for a RUBIK, say) is
 * fetched while the CSC still runs that one, and in other banks the CSC
 * forgets its kernels and waits for them forever (NVIDIA's nvdlav1 C
 * model: no CACC done; NVDLA_CBUF_OVERTAKES). The hardware runs the
 * groups in turn, so nothing starts later.
 */
static void chain(struct nvc_lower *L, int op)
{
	uint8_t type = L->ops[op].graph.op_type;
	int i;

	for (i = op - 1; i >= 0; i--) {
		if (L->ops[i].graph.op_type != type)
			continue;
		L->ops[i].graph.consumers[type] = (struct dla_consumer){
			.index = (int16_t)op,
			.event = type == DLA_OP_CONV && !L->t.hw->cdma_early ?
				 DLA_EVENT_OP_ENABLED : DLA_EVENT_OP_PROGRAMMED };
		L->ops[op].graph.dependency_count++;
		break;
	}
}

static bool overlap(const struct nvc_place *a, const struct nvc_place *b)
{
	return a->slot == b->slot && a->offset < b->offset + b->size &&
	       b->offset < a->offset + a->size;
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
		depend(L, latest[t], op);
}

/* The latest writers of what overlaps @p, into @latest. */
static void writers(const struct order *o, const struct nvc_place *p,
		    int *latest, int op)
{
	int i;

	for (i = 0; i < o->L->ir.num_tensors; i++)
		if (o->writer[i] && overlap(&o->writer[i]->place, p))
			note_latest(o->L, latest, o->writer[i]->op, op);
}

/* @a reads: wait for every operation of the task that wrote there. */
static void on_read(struct order *o, const struct nvc_access *a)
{
	int latest[DLA_OP_NUM] = { -1, -1, -1, -1, -1, -1 };

	writers(o, &a->place, latest, a->op);
	depend_latest(o->L, latest, a->op);
	o->reads[o->nreads++] = a;
}

/* @a writes: after the reads and writes of what was there. */
static void on_write(struct order *o, const struct nvc_access *a)
{
	int latest[DLA_OP_NUM] = { -1, -1, -1, -1, -1, -1 };
	int i;

	for (i = 0; i < o->nreads; i++)
		if (overlap(&o->reads[i]->place, &a->place))
			note_latest(o->L, latest, o->reads[i]->op, a->op);
	writers(o, &a->place, latest, a->op);
	depend_latest(o->L, latest, a->op);
}

static void replay(struct order *o, const struct nvc_access *a)
{
	struct nvc_lower *L = o->L;

	switch (a->kind) {
	case NVC_ACC_OP:
		chain(L, a->op);
		break;
	case NVC_ACC_EDGE:
		depend(L, a->other, a->op);
		break;
	case NVC_ACC_READ:
		on_read(o, a);
		break;
	case NVC_ACC_WRITE:
		on_write(o, a);
		break;
	case NVC_ACC_WRITER:
		o->writer[a->other] = a;
		break;
	case NVC_ACC_FUSE:
		nvdla_build_fuse(&L->ops[a->other], (int16_t)a->other,
				 &L->ops[a->op], (int16_t)a->op);
		break;
	}
}

int nvc_order(struct nvc_lower *L)
{
	struct order o = { .L = L };
	int i, ret = 0;

	o.reads = calloc(L->deps.n ? L->deps.n : 1, sizeof(*o.reads));
	o.writer = calloc(L->ir.num_tensors ? L->ir.num_tensors : 1,
			  sizeof(*o.writer));
	if (!o.reads || !o.writer)
		ret = -ENOMEM;
	for (i = 0; !ret && i < L->deps.n; i++)
		replay(&o, &L->deps.acc[i]);
	free(o.reads);
	free(o.writer);
	return ret;
}
