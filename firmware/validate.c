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
	if (net->num_rois != 1 || net->dynamic_roi)
		return dla_reject(engine, "%u regions of interest unsupported",
				  net->num_rois);
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

static int dla_validate_link(struct dla_engine *engine,
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
	return 0;
}

static int dla_validate_node(struct dla_engine *engine, u16 op,
			     struct dla_common_op_desc *desc)
{
	int ret, k;

	ret = dla_read_desc(engine, engine->network.dependency_graph_index,
			    op, desc, sizeof(*desc));
	if (ret)
		return ret;
	if (desc->op_type >= DLA_OP_NUM ||
	    !dla_processor_available(engine, desc->op_type))
		return dla_reject_type(engine, desc->op_type);
	for (k = 0; k < DLA_OP_NUM; k++) {
		ret = dla_validate_link(engine, &desc->consumers[k],
					"consumer");
		if (ret)
			return ret;
	}
	return dla_validate_link(engine, &desc->fused_parent, "fused parent");
}

static int dla_validate_operation(struct dla_engine *engine, u16 op,
				  const struct dla_common_op_desc *desc)
{
	const struct dla_network_desc *net = &engine->network;
	union dla_operation_container opd;
	union dla_surface_container surf;
	int ret;

	ret = dla_read_desc(engine, net->operation_desc_index, op, &opd,
			    sizeof(opd));
	if (!ret)
		ret = dla_read_desc(engine, net->surface_desc_index, op, &surf,
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

int dla_validate_task(struct dla_engine *engine)
{
	struct dla_common_op_desc desc;
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
		ret = dla_validate_node(engine, op, &desc);
		if (!ret)
			ret = dla_validate_operation(engine, op, &desc);
		engine->log_op = -1;
		if (ret)
			return ret;
	}
	return dla_validate_chains(engine);
}
