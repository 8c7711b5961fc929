// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Whole-task validation, run before the first register write: the network
 * descriptor, every node of the dependency graph, the per-type operation
 * chains and every operation's own descriptors.
 */
#include "engine.h"
#include "processors.h"

/* Type @t is not one this device runs: say why. */
static int dla_reject_type(struct dla_engine *engine, unsigned int t)
{
	if (t >= DLA_OP_NUM || !dla_processor_ops[t])
		return dla_reject(engine, "operation type %u invalid", t);
	return dla_reject(engine, "%s: %s has no such engine",
			  dla_processor_ops[t]->name, engine->config->name);
}

static int dla_validate_network(struct dla_engine *engine)
{
	const struct dla_network_desc *net = &engine->network;
	int t;

	if (!net->num_operations)
		return dla_reject(engine, "network has no operations");
	if (!net->num_rois)
		return dla_reject(engine, "network has no region of interest");
	/* Bounds the work and memory of every check over the whole task. */
	if ((u32)net->num_rois * net->num_operations > DLA_MAX_RUNS)
		return dla_reject(engine, "%u operations in %u regions: over %u runs",
				  net->num_operations, net->num_rois,
				  DLA_MAX_RUNS);
	if (net->dynamic_roi)
		return dla_reject(engine, "dynamic regions of interest unsupported");
	if (net->num_luts) {
		struct dla_lut_param lut;
		int ret = dla_read_desc(engine, net->lut_data_index,
					net->num_luts - 1, &lut, sizeof(lut));

		if (ret)
			return ret;
	}
	if (dla_stat_validate(engine))
		return -EINVAL;

	for (t = 0; t < DLA_OP_NUM; t++) {
		s16 head = net->op_head[t];

		if (head == -1)
			continue;
		if (head < 0 || head >= net->num_operations)
			return dla_reject(engine, "op_head[%d] = %d out of range",
					  t, head);
		if (!dla_processor_available(engine, t))
			return dla_reject_type(engine, t);
	}
	return 0;
}

/* A link from an operation of type @type to @c. */
static int dla_validate_link(struct dla_engine *engine, u8 type,
			     const struct dla_consumer *c, const char *what)
{
	if (c->index == -1)
		return 0;
	if (c->index < 0 || c->index >= engine->network.num_operations)
		return dla_reject(engine, "%s %d out of range", what, c->index);
	/* DLA_EVENT_NONE links without a dependency: never signalled. */
	if (c->event > DLA_EVENT_CDMA_DT_DONE)
		return dla_reject(engine, "%s event %u invalid", what,
				  c->event);
	/* Only the convolution pipeline has a CDMA to raise them. */
	if (c->event >= DLA_EVENT_CDMA_WT_DONE && type != DLA_OP_CONV)
		return dla_reject(engine, "%s event %u: a %s raises no CDMA event",
				  what, c->event, dla_processor_ops[type]->name);
	return 0;
}

/*
 * Node @op of region @roi; @first is the same node of region 0, which
 * every region must agree with on the type and on the next operation of
 * that type, since the scheduler runs one order for all regions.
 */
static int dla_validate_node(struct dla_engine *engine, u16 roi, u16 op,
			     struct dla_common_op_desc *desc,
			     const struct dla_common_op_desc *first)
{
	int ret, k;

	ret = dla_read_desc(engine, engine->network.dependency_graph_index,
			    dla_op_elem(engine, roi, op), desc, sizeof(*desc));
	if (ret)
		return ret;
	if (roi && (desc->op_type != first->op_type ||
		    desc->consumers[desc->op_type].index !=
		    first->consumers[first->op_type].index))
		return dla_reject(engine,
				  "region %u: type or order differs from region 0",
				  roi);
	if (desc->op_type >= DLA_OP_NUM ||
	    !dla_processor_available(engine, desc->op_type))
		return dla_reject_type(engine, desc->op_type);
	for (k = 0; k < DLA_OP_NUM; k++) {
		ret = dla_validate_link(engine, desc->op_type,
					&desc->consumers[k], "consumer");
		if (ret)
			return ret;
	}
	return dla_validate_link(engine, desc->op_type, &desc->fused_parent,
				 "fused parent");
}

static int dla_validate_operation(struct dla_engine *engine, u16 roi, u16 op,
				  const struct dla_common_op_desc *desc)
{
	const struct dla_network_desc *net = &engine->network;
	u32 elem = dla_op_elem(engine, roi, op);
	union dla_operation_container opd;
	union dla_surface_container surf;
	int ret;

	ret = dla_read_desc(engine, net->operation_desc_index, elem, &opd,
			    sizeof(opd));
	if (!ret)
		ret = dla_read_desc(engine, net->surface_desc_index, elem, &surf,
				    sizeof(surf));
	if (ret)
		return ret;
	return dla_processor_ops[desc->op_type]->validate(engine, &opd, &surf);
}

/*
 * Follow each type's chain from op_head through consumers[type]: every
 * operation must be reached exactly once, by the chain of its own type,
 * or the task could never complete.
 */
static int dla_validate_chains(struct dla_engine *engine)
{
	const struct dla_network_desc *net = &engine->network;
	struct dla_common_op_desc desc;
	u32 reached = 0;
	int t, ret;

	for (t = 0; t < DLA_OP_NUM; t++) {
		s16 op = net->op_head[t];

		while (op != -1) {
			if (++reached > net->num_operations)
				return dla_reject(engine,
						  "type %d chain loops", t);
			ret = dla_read_desc(engine, net->dependency_graph_index,
					    op, &desc, sizeof(desc));
			if (ret)
				return ret;
			if (desc.op_type != t)
				return dla_reject(engine,
						  "op %d of type %u in the type %d chain",
						  op, desc.op_type, t);
			op = desc.consumers[t].index;
		}
	}
	if (reached != net->num_operations)
		return dla_reject(engine, "%u of %u operations unreachable",
				  net->num_operations - reached,
				  net->num_operations);
	return 0;
}

/* Operation @op in every region of interest. */
static int dla_validate_op(struct dla_engine *engine, u16 op)
{
	struct dla_common_op_desc first, desc;
	u16 roi;
	int ret = 0;

	for (roi = 0; roi < engine->network.num_rois && !ret; roi++) {
		ret = dla_validate_node(engine, roi, op, roi ? &desc : &first,
					&first);
		if (!ret)
			ret = dla_validate_operation(engine, roi, op,
						     roi ? &desc : &first);
	}
	return ret;
}

int dla_validate_task(struct dla_engine *engine)
{
	u16 op;
	int ret;

	ret = dla_read_desc(engine, 0, 0, &engine->network,
			    sizeof(engine->network));
	if (!ret)
		ret = dla_validate_network(engine);
	if (ret)
		return ret;

	for (op = 0; op < engine->network.num_operations; op++) {
		engine->log_op = op;	/* messages name the operation */
		ret = dla_validate_op(engine, op);
		engine->log_op = -1;
		if (ret)
			return ret;
	}
	return dla_validate_chains(engine);
}
