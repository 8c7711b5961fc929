// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Per-operation statistics: when the network names a stat list, every
 * operation's counters are turned on when it is enabled, and when it
 * completes the counters and its run time are written to its container,
 * element [roi][op] of the list.
 */
#include "engine.h"
#include "processors.h"

static bool dla_stats_on(const struct dla_engine *engine)
{
	return engine->task->network.stat_list_index != -1;
}

int dla_stat_validate(struct dla_engine *engine)
{
	const struct dla_network_desc *net = &engine->task->network;
	u64 len = (u64)net->num_rois * net->num_operations *
		  sizeof(union dla_stat_container);
	u64 addr;

	if (!dla_stats_on(engine))
		return 0;
	if (net->stat_list_index < 0 ||
	    net->stat_list_index >= engine->task->num_addresses)
		return dla_reject(engine,
				  "stat list index %d outside the list of %u",
				  net->stat_list_index,
				  engine->task->num_addresses);
	/* Room for every container, so that no write-back can fail. */
	if (dla_dma_range(engine, net->stat_list_index, 0, len, &addr))
		return dla_reject(engine,
				  "stat list at address %d: no room for %u x %u containers",
				  net->stat_list_index, net->num_rois,
				  net->num_operations);
	return 0;
}

void dla_stat_arm(struct dla_engine *engine, u8 type,
		  const struct dla_group *group, u8 gid)
{
	if (dla_stats_on(engine))
		dla_processor_ops[type]->stat_enable(engine, group, gid);
}

/* A group started early had its counters armed then: its registers are shut. */
void dla_stat_enable(struct dla_engine *engine, u8 type,
		     struct dla_group *group, u8 gid)
{
	if (!dla_stats_on(engine))
		return;
	group->start_us = engine->ops->time_us(engine->drv);
	if (!group->early)
		dla_stat_arm(engine, type, group, gid);
}

/* The run time of every layout sits in its last word. */
static u32 *dla_stat_runtime(union dla_stat_container *stat, u8 type)
{
	switch (type) {
	case DLA_OP_BDMA:
		return &stat->bdma_stat.runtime;
	case DLA_OP_CONV:
		return &stat->conv_stat.runtime;
	case DLA_OP_SDP:
		return &stat->sdp_stat.runtime;
	case DLA_OP_PDP:
		return &stat->pdp_stat.runtime;
	case DLA_OP_CDP:
		return &stat->cdp_stat.runtime;
	default:
		return &stat->rubik_stat.runtime;
	}
}

int dla_stat_write(struct dla_engine *engine, u8 type,
		   const struct dla_group *group, u8 gid)
{
	const struct dla_network_desc *net = &engine->task->network;
	union dla_stat_container stat;
	u64 now;

	if (!dla_stats_on(engine))
		return 0;
	memset(&stat, 0, sizeof(stat));
	dla_processor_ops[type]->stat_read(engine, group, gid, &stat);
	now = engine->ops->time_us(engine->drv) - group->start_us;
	*dla_stat_runtime(&stat, type) = now > U32_MAX ? U32_MAX : now;
	return dla_write_desc(engine, net->stat_list_index,
			      dla_op_elem(engine, group->roi, group->index),
			      &stat, sizeof(stat));
}
