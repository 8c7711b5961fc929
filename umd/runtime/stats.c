// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Per-operation statistics: a stat list for every DLA task, named in the
 * runtime's copy of its network descriptor, and its containers read back
 * as named counters.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/dla_interface.h>

#include "runtime_internal.h"

/*
 * The counters of each container layout, in order; every field is a u32
 * and the run time comes last (checked below against the layouts).
 */
struct stat_layout {
	const char *type;
	unsigned int num;
	const char *names[NVDLA_OP_STAT_COUNTERS_MAX];
};

static const struct stat_layout stat_layouts[DLA_OP_NUM] = {
	[DLA_OP_BDMA] = { "bdma", 2, { "read_stall", "write_stall" } },
	[DLA_OP_CONV] = { "conv", 9, {
		"data_read_stall", "weight_read_stall", "data_read_latency",
		"weight_read_latency", "saturation", "nan_data", "nan_weight",
		"inf_data", "inf_weight" } },
	[DLA_OP_SDP] = { "sdp", 10, {
		"nan_in", "inf_in", "nan_out", "write_stall", "lut_uflow",
		"lut_oflow", "lut_hybrid", "lut_le_hit", "lut_lo_hit",
		"saturation" } },
	[DLA_OP_PDP] = { "pdp", 4, {
		"inf_in", "nan_in", "nan_out", "write_stall" } },
	[DLA_OP_CDP] = { "cdp", 10, {
		"nan_in", "inf_in", "nan_out", "write_stall", "lut_uflow",
		"lut_oflow", "lut_hybrid", "lut_le_hit", "lut_lo_hit",
		"saturation" } },
	[DLA_OP_RUBIK] = { "rubik", 2, { "read_stall", "write_stall" } },
};

#define RUNTIME_AT(s, n) \
	static_assert(offsetof(struct s, runtime) == 4 * (n) && \
		      sizeof(struct s) == 4 * ((n) + 1), #s " layout")
RUNTIME_AT(dla_bdma_stat_desc, 2);
RUNTIME_AT(dla_conv_stat_desc, 9);
RUNTIME_AT(dla_sdp_stat_desc, 10);
RUNTIME_AT(dla_pdp_stat_desc, 4);
RUNTIME_AT(dla_cdp_stat_desc, 10);
RUNTIME_AT(dla_rubik_stat_desc, 2);

/* The task's network descriptor, in the runtime's memory. */
static struct dla_network_desc *stat_network(const struct nvdla_network *net,
					     const struct nvdla_net_task *t)
{
	uint64_t size;
	uint8_t *p = nvdla_net_address(net, t->src, 0, &size);

	return p && size >= sizeof(struct dla_network_desc) ?
	       (struct dla_network_desc *)p : NULL;
}

static int stat_add(struct nvdla_network *net, struct nvdla_net_task *t,
		    unsigned int n)
{
	struct dla_network_desc *nd = stat_network(net, t);
	struct nvdla_backend_address *list;
	uint64_t size;
	int ret;

	if (!nd)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "task %u: no network descriptor", n);
	/* The stat list index is an int16 like every address index. */
	if (t->num > INT16_MAX)
		return nvdla_rt_error(net->rt, -E2BIG,
				      "task %u: %u addresses leave no index for a stat list",
				      n, t->num);
	size = (uint64_t)nd->num_rois * nd->num_operations *
	       sizeof(union dla_stat_container);
	list = realloc(t->list, (t->num + 1) * sizeof(*list));
	if (!list)
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");
	t->list = list;
	ret = nvdla_buffer_new(net->rt, size ? size : 1, &t->stats);
	if (ret)
		return nvdla_rt_error(net->rt, ret, "task %u: stat list: %s", n,
				      nvdla_rt_message(net->rt));
	return 0;
}

NVDLA_EXPORT int nvdla_network_enable_stats(struct nvdla_network *net)
{
	uint32_t n;
	int ret;

	ret = nvdla_net_idle(net, "statistics");
	if (ret)
		return ret;
	for (n = 0; n < net->num_tasks; n++) {
		struct nvdla_net_task *t = &net->tasks[n];

		if (t->src->interface != NVDLA_LBL_IF_DLA1 || t->stats)
			continue;
		ret = stat_add(net, t, n);
		if (ret)
			return ret;
	}
	return 0;
}

void nvdla_net_stats_prepare(struct nvdla_network *net,
			     struct nvdla_net_task *t)
{
	struct dla_network_desc *nd = stat_network(net, t);

	nd->stat_list_index = t->num;
	nd->num_addresses = t->num + 1;
	memset(nvdla_buffer_map(t->stats), 0, nvdla_buffer_size(t->stats));
	t->list[t->num].bo = t->stats->bo;
	t->list[t->num].offset = 0;
}

/* Containers of task @t: every operation in every region of interest. */
static unsigned int stat_ops(const struct nvdla_network *net,
			     const struct nvdla_net_task *t)
{
	const struct dla_network_desc *nd;

	if (!t->stats)
		return 0;
	nd = stat_network(net, t);
	return (unsigned int)nd->num_rois * nd->num_operations;
}

NVDLA_EXPORT unsigned int
nvdla_network_num_op_stats(const struct nvdla_network *net)
{
	unsigned int total = 0;
	uint32_t n;

	for (n = 0; net->stats_valid && n < net->num_tasks; n++)
		total += stat_ops(net, &net->tasks[n]);
	return total;
}

/* The type of graph node @op ([roi][op]) of task @t. */
static int stat_op_type(const struct nvdla_network *net,
			const struct nvdla_net_task *t, unsigned int op)
{
	const struct dla_network_desc *nd = stat_network(net, t);
	const struct dla_common_op_desc *node;
	uint64_t size;
	uint8_t *graph = nvdla_net_address(net, t->src,
					   nd->dependency_graph_index, &size);

	if (!graph || size < (op + 1) * sizeof(*node))
		return -1;
	node = (const struct dla_common_op_desc *)graph + op;
	return node->op_type < DLA_OP_NUM ? node->op_type : -1;
}

NVDLA_EXPORT int nvdla_network_op_stat(const struct nvdla_network *net,
				       unsigned int index,
				       struct nvdla_op_stat *stat)
{
	const struct stat_layout *layout;
	unsigned int i, wanted = index;
	const uint32_t *words;
	uint16_t ops;
	uint32_t n;
	int type;

	for (n = 0; net->stats_valid && n < net->num_tasks; n++) {
		const struct nvdla_net_task *t = &net->tasks[n];

		if (index >= stat_ops(net, t)) {
			index -= stat_ops(net, t);
			continue;
		}
		type = stat_op_type(net, t, index);
		if (type < 0)
			return nvdla_rt_error(net->rt, -EINVAL,
					      "task %u: op %u has no type", n, index);
		layout = &stat_layouts[type];
		words = (const uint32_t *)nvdla_buffer_map(t->stats) +
			index * sizeof(union dla_stat_container) / 4;
		ops = stat_network(net, t)->num_operations;
		memset(stat, 0, sizeof(*stat));
		stat->task = n;
		stat->op = index % ops;
		stat->roi = index / ops;
		stat->type = layout->type;
		stat->num_counters = layout->num;
		for (i = 0; i < layout->num; i++) {
			stat->counters[i].name = layout->names[i];
			stat->counters[i].value = words[i];
		}
		stat->runtime_us = words[layout->num];
		return 0;
	}
	return nvdla_rt_error(net->rt, -ERANGE,
			      "no statistics of operation %u", wanted);
}
