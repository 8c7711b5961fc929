// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The dependency graph as a whole, checked when a task is submitted: every
 * operation waits for exactly the events linked to it, and the events of
 * the task can all happen in some order.
 *
 * Each operation of each region (an element, [roi][op]) has five events:
 * programmed, enabled, completed and the CDMA's weight and data done. They
 * must happen after one another as the scheduler and the hardware make
 * them: an operation is enabled after it is programmed and after every
 * event linked to it, one linked to none as it is programmed, before the
 * next of its processor; its other events follow its enable; a processor
 * programs and completes its operations in order, and programs one only
 * when the operation that held its register group has completed, or, if
 * it loads another LUT than the operation before it, when that one has
 * completed (a unit has one LUT). The task
 * can run to the end exactly when these constraints have no cycle, which
 * Kahn's topological sort finds in time linear in the task.
 *
 * The same constraints say which events follow which in every order the
 * task can run in: on nv_full each convolution must be enabled after the
 * one ahead of it where their banks differ (NVDLA_CBUF_OVERTAKES).
 */
#include "engine.h"
#include "processors.h"

#define DLA_NUM_EVENTS 5	/* DLA_EVENT_OP_COMPLETED .. CDMA_DT_DONE */

struct dla_graph {
	struct dla_engine *engine;
	u32 elems;		/* operations x regions */
	u32 *waits;		/* per event node: constraints not yet met */
	u32 *queue;		/* event nodes whose constraints are all met */
	u32 head, tail;
	u8 event;		/* the event being released */
	s32 *fused;		/* per element: the one it feeds on the fly, or -1 */
};

static u32 dla_node(u32 elem, u8 event)
{
	return elem * DLA_NUM_EVENTS + event - DLA_EVENT_OP_COMPLETED;
}

static const struct dla_common_op_desc *
dla_graph_desc(const struct dla_graph *g, u32 elem)
{
	return &g->engine->task->graph[elem];
}

/*
 * The element @n places after @elem in its processor's order, or -1:
 * the same operation in the next region, or the next operation of the
 * type in region 0.
 */
static s64 dla_graph_next(struct dla_graph *g, u32 elem, u32 n)
{
	u32 ops = g->engine->task->network.num_operations;
	const struct dla_common_op_desc *desc;
	s64 e = elem;

	while (n-- && e >= 0) {
		if (e + ops < g->elems) {
			e += ops;
			continue;
		}
		desc = dla_graph_desc(g, e);
		e = desc->consumers[desc->op_type].index;
	}
	return e;
}

/* Operation @next of a type with one LUT must wait for @elem to finish. */
static bool dla_graph_lut_wait(struct dla_graph *g, u8 type, u32 elem,
			       u32 next)
{
	const struct dla_processor_ops *ops = dla_processor_ops[type];
	const union dla_operation_container *opd = g->engine->task->ops;

	return ops->lut && ops->lut(&opd[next]) != -1 &&
	       ops->lut(&opd[next]) != ops->lut(&opd[elem]);
}

/*
 * Visit the constraints that start at the events of @elem: @visit is
 * called with the event node each one holds back.
 */
static void dla_graph_edges(struct dla_graph *g, u32 elem,
			    void (*visit)(struct dla_graph *g, u8 from_event,
					  u32 node))
{
	u32 roi_base = elem - elem % g->engine->task->network.num_operations;
	const struct dla_common_op_desc *desc = dla_graph_desc(g, elem);
	s64 next, freed;
	int k;

	for (k = 0; k <= DLA_OP_NUM; k++) {
		const struct dla_consumer *c = k < DLA_OP_NUM ?
					       &desc->consumers[k] :
					       &desc->fused_parent;

		if (c->index != -1 && c->event != DLA_EVENT_NONE)
			visit(g, c->event,
			      dla_node(roi_base + c->index,
				       DLA_EVENT_OP_ENABLED));
	}
	visit(g, DLA_EVENT_OP_PROGRAMMED,
	      dla_node(elem, DLA_EVENT_OP_ENABLED));
	visit(g, DLA_EVENT_OP_ENABLED,
	      dla_node(elem, DLA_EVENT_OP_COMPLETED));
	visit(g, DLA_EVENT_OP_ENABLED,
	      dla_node(elem, DLA_EVENT_CDMA_WT_DONE));
	visit(g, DLA_EVENT_OP_ENABLED,
	      dla_node(elem, DLA_EVENT_CDMA_DT_DONE));

	next = dla_graph_next(g, elem, 1);
	if (next >= 0) {
		visit(g, DLA_EVENT_OP_PROGRAMMED,
		      dla_node(next, DLA_EVENT_OP_PROGRAMMED));
		if (!desc->dependency_count)
			visit(g, DLA_EVENT_OP_ENABLED,
			      dla_node(next, DLA_EVENT_OP_PROGRAMMED));
		visit(g, DLA_EVENT_OP_COMPLETED,
		      dla_node(next, DLA_EVENT_OP_COMPLETED));
		if (dla_graph_lut_wait(g, desc->op_type, elem, next))
			visit(g, DLA_EVENT_OP_COMPLETED,
			      dla_node(next, DLA_EVENT_OP_PROGRAMMED));
	}
	freed = dla_graph_next(g, elem, dla_processor_ops[desc->op_type]->groups);
	if (freed >= 0)
		visit(g, DLA_EVENT_OP_COMPLETED,
		      dla_node(freed, DLA_EVENT_OP_PROGRAMMED));
}

static void dla_graph_count(struct dla_graph *g, u8 from_event, u32 node)
{
	(void)from_event;
	g->waits[node]++;
}

/* If @from_event is the one that happened, one constraint of @node is met. */
static void dla_graph_release(struct dla_graph *g, u8 from_event, u32 node)
{
	if (from_event == g->event && !--g->waits[node])
		g->queue[g->tail++] = node;
}

/* Each operation waits for as many events as are linked to it. */
static int dla_graph_check_counts(struct dla_graph *g)
{
	u32 ops = g->engine->task->network.num_operations;
	u32 elem, linked, count;

	for (elem = 0; elem < g->elems; elem++) {
		count = dla_graph_desc(g, elem)->dependency_count;
		/* Less the constraint of its own programming. */
		linked = g->waits[dla_node(elem, DLA_EVENT_OP_ENABLED)] - 1;
		if (count != linked)
			return dla_reject(g->engine,
					  "op %u of region %u waits for %u events but %u are linked to it",
					  elem % ops, elem / ops, count, linked);
	}
	return 0;
}

static int dla_graph_sort(struct dla_graph *g)
{
	u32 ops = g->engine->task->network.num_operations;
	u32 node, elem;

	for (node = 0; node < g->elems * DLA_NUM_EVENTS; node++)
		if (!g->waits[node])
			g->queue[g->tail++] = node;
	while (g->head < g->tail) {
		node = g->queue[g->head++];
		g->event = node % DLA_NUM_EVENTS + DLA_EVENT_OP_COMPLETED;
		dla_graph_edges(g, node / DLA_NUM_EVENTS, dla_graph_release);
	}
	if (g->tail == g->elems * DLA_NUM_EVENTS)
		return 0;
	/* A stuck event holds back its operation's completion. */
	for (elem = 0; elem + 1 < g->elems &&
	     !g->waits[dla_node(elem, DLA_EVENT_OP_COMPLETED)];)
		elem++;
	return dla_reject(g->engine,
			  "op %u of region %u can never complete: the events it needs wait for each other",
			  elem % ops, elem / ops);
}

/* Mark @node reached if the event just taken is the one it follows. */
static void dla_graph_reach(struct dla_graph *g, u8 from_event, u32 node)
{
	if (from_event == g->event && !g->waits[node]) {
		g->waits[node] = 1;
		g->queue[g->tail++] = node;
	}
}

/* Whether @to is enabled after @from in every order the task can run in. */
static bool dla_graph_follows(struct dla_graph *g, u32 from, u32 to)
{
	u32 node = dla_node(from, DLA_EVENT_OP_ENABLED);
	u32 target = dla_node(to, DLA_EVENT_OP_ENABLED);

	memset(g->waits, 0, (size_t)g->elems * DLA_NUM_EVENTS *
	       sizeof(*g->waits));
	g->waits[node] = 1;
	g->queue[0] = node;
	g->head = 0;
	g->tail = 1;
	while (g->head < g->tail) {
		node = g->queue[g->head++];
		if (node == target)
			return true;
		g->event = node % DLA_NUM_EVENTS + DLA_EVENT_OP_COMPLETED;
		dla_graph_edges(g, node / DLA_NUM_EVENTS, dla_graph_reach);
		if (g->event == DLA_EVENT_OP_ENABLED &&
		    g->fused[node / DLA_NUM_EVENTS] >= 0)
			dla_graph_reach(g, DLA_EVENT_OP_ENABLED,
					dla_node(g->fused[node / DLA_NUM_EVENTS],
						 DLA_EVENT_OP_COMPLETED));
	}
	return false;
}

/*
 * An operation fed on the fly by its fused parent (a convolution's SDP)
 * completes only once the parent runs: what follows its completion
 * follows the parent's enable. Not a constraint of the sort: a loadable
 * may name a fused parent that feeds nothing.
 */
static int dla_graph_fused(struct dla_graph *g)
{
	u32 ops = g->engine->task->network.num_operations, elem;
	const struct dla_consumer *parent;
	int ret;

	ret = dla_task_alloc(g->engine, (size_t)g->elems * sizeof(*g->fused),
			     (void **)&g->fused);
	if (ret)
		return ret;
	for (elem = 0; elem < g->elems; elem++)
		g->fused[elem] = -1;
	for (elem = 0; elem < g->elems; elem++) {
		parent = &dla_graph_desc(g, elem)->fused_parent;
		if (parent->index != -1)
			g->fused[elem - elem % ops + parent->index] = elem;
	}
	return 0;
}

static bool dla_graph_same_banks(struct dla_graph *g, u32 a, u32 b)
{
	const struct dla_conv_op_desc *p = &g->engine->task->ops[a].conv_op;
	const struct dla_conv_op_desc *q = &g->engine->task->ops[b].conv_op;

	return p->data_bank == q->data_bank && p->weight_bank == q->weight_bank;
}

/*
 * nv_full's CDMA fetches a convolution once it is enabled and the one
 * ahead is fetched, whether or not the CSC has finished that one (the
 * v2 designs' CDMA waits for its CSC). The scheduler enables a convolution's
 * units together; one enabled before the convolution ahead of it, in
 * other banks, would have its kernels forgotten by the CSC and never end
 * (NVIDIA's nvdlav1 C model). So each must follow the one ahead.
 */
static int dla_graph_check_conv_order(struct dla_graph *g)
{
	struct dla_engine *engine = g->engine;
	u32 ops = engine->task->network.num_operations;
	s64 elem = engine->task->network.op_head[DLA_OP_CONV], before = -1;
	const struct nvdla_cbuf_verdict v = {
		NVDLA_CBUF_OVERTAKES, 0, NVDLA_CBUF_CONV_UNITS, 0 };
	int ret;

	if (engine->config->cdma_early || elem < 0)
		return 0;
	ret = dla_graph_fused(g);
	if (ret)
		return ret;
	for (; elem >= 0; before = elem, elem = dla_graph_next(g, elem, 1)) {
		if (before < 0 || dla_graph_same_banks(g, before, elem) ||
		    dla_graph_follows(g, before, elem))
			continue;
		engine->log_op = elem % ops;
		ret = dla_hw_hazard(engine, &v);
		engine->log_op = -1;
		if (ret)
			return ret;
	}
	return 0;
}

int dla_validate_graph(struct dla_engine *engine)
{
	const struct dla_network_desc *net = &engine->task->network;
	struct dla_graph g = {
		.engine = engine,
		.elems = (u32)net->num_rois * net->num_operations,
	};
	size_t size = (size_t)g.elems * DLA_NUM_EVENTS * sizeof(u32);
	u32 elem;
	int ret;

	ret = dla_task_alloc(engine, size, (void **)&g.waits);
	if (!ret)
		ret = dla_task_alloc(engine, size, (void **)&g.queue);
	if (ret)
		goto out;
	for (elem = 0; elem < g.elems; elem++)
		dla_graph_edges(&g, elem, dla_graph_count);
	ret = dla_graph_check_counts(&g);
	if (!ret)
		ret = dla_graph_sort(&g);
	if (!ret)
		ret = dla_graph_check_conv_order(&g);
out:
	dla_task_free(engine, g.fused, (size_t)g.elems * sizeof(*g.fused));
	dla_task_free(engine, g.queue, size);
	dla_task_free(engine, g.waits, size);
	return ret;
}
