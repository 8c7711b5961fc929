// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A task's checked copy: every descriptor the engine reads, copied out of
 * the host's buffers (which their owner may still write) into memory from
 * the port's alloc, and validated once there. The scheduler then runs from
 * the copy only.
 *
 * Validation runs on a scratch engine bound like the host's: the host's
 * engine is only read (its port and configuration), so a task can be
 * prepared while another runs on that engine, without its lock.
 */
#include "engine.h"
#include "processors.h"

int dla_task_alloc(struct dla_engine *engine, size_t size, void **ptr)
{
	int ret;

	ret = engine->ops->alloc(engine->drv, engine->task->host_task, size,
				 ptr);
	if (ret)
		return dla_log(engine, DLA_LOG_ERROR, ret,
			       "cannot allocate %zu bytes for the task: %d",
			       size, ret);
	return 0;
}

void dla_task_free(struct dla_engine *engine, void *ptr, size_t size)
{
	engine->ops->free(engine->drv, engine->task->host_task, ptr, size);
}

/*
 * Copy @count elements of @size bytes at address-list entry @index into
 * *@dst, allocated here; the buffer's extent is checked before anything is
 * allocated, so the copy is never larger than what the host already holds.
 */
static int dla_snapshot_array(struct dla_engine *engine, s16 index,
			      u32 count, u32 size, void **dst)
{
	u64 addr;
	int ret;

	if (!count)
		return 0;
	ret = dla_dma_range(engine, index, 0, (u64)count * size, &addr);
	if (ret)
		return ret;
	ret = dla_task_alloc(engine, (size_t)count * size, dst);
	if (ret)
		return ret;
	return dla_copy_in(engine, index, count, size, *dst);
}

/* Copy and validate the task @engine->task names. */
static int dla_snapshot(struct dla_engine *engine)
{
	struct dla_checked_task *task = engine->task;
	const struct dla_network_desc *net = &task->network;
	u32 elems;
	int ret;

	if (!task->num_addresses)
		return dla_reject(engine, "task has an empty address list");
	ret = dla_copy_in(engine, 0, 1, sizeof(task->network), &task->network);
	if (!ret)
		ret = dla_validate_network(engine);
	if (ret)
		return ret;

	elems = (u32)net->num_rois * net->num_operations;
	ret = dla_snapshot_array(engine, net->dependency_graph_index, elems,
				 sizeof(*task->graph), (void **)&task->graph);
	if (!ret)
		ret = dla_snapshot_array(engine, net->operation_desc_index,
					 elems, sizeof(*task->ops),
					 (void **)&task->ops);
	if (!ret)
		ret = dla_snapshot_array(engine, net->surface_desc_index,
					 elems, sizeof(*task->surfs),
					 (void **)&task->surfs);
	if (!ret)
		ret = dla_snapshot_array(engine, net->lut_data_index,
					 net->num_luts, sizeof(*task->luts),
					 (void **)&task->luts);
	if (!ret)
		ret = dla_validate_task(engine);
	if (!ret)
		ret = dla_validate_graph(engine);
	return ret;
}

int dla_task_prepare(struct dla_engine *engine, const struct dla_task *task,
		     struct dla_checked_task **checked)
{
	const struct dla_port_ops *ops = engine->ops;
	struct dla_engine *scratch = NULL;
	struct dla_checked_task *copy = NULL;
	int ret;

	*checked = NULL;
	ret = ops->alloc(engine->drv, task->host_task, sizeof(*scratch),
			 (void **)&scratch);
	if (!ret)
		ret = ops->alloc(engine->drv, task->host_task, sizeof(*copy),
				 (void **)&copy);
	if (ret) {
		ops->free(engine->drv, task->host_task, scratch,
			  sizeof(*scratch));
		return ret;
	}
	scratch->drv = engine->drv;
	scratch->ops = ops;
	scratch->config = engine->config;
	scratch->allow_hw_hazards = engine->allow_hw_hazards;
	scratch->log_op = -1;
	scratch->task = copy;
	copy->host_task = task->host_task;
	copy->num_addresses = task->num_addresses;

	ret = dla_snapshot(scratch);
	ops->free(engine->drv, task->host_task, scratch, sizeof(*scratch));
	if (ret)
		dla_task_release(engine, copy);
	else
		*checked = copy;
	return ret;
}

/*
 * The arrays' sizes follow from the network descriptor, which is copied
 * first: an array is allocated only once the ones before it are.
 */
void dla_task_release(struct dla_engine *engine,
		      struct dla_checked_task *checked)
{
	const struct dla_port_ops *ops = engine->ops;
	const struct dla_network_desc *net;
	void *host;
	u32 elems;

	if (!checked)
		return;
	net = &checked->network;
	host = checked->host_task;
	elems = (u32)net->num_rois * net->num_operations;
	ops->free(engine->drv, host, checked->luts,
		  (size_t)net->num_luts * sizeof(*checked->luts));
	ops->free(engine->drv, host, checked->surfs,
		  (size_t)elems * sizeof(*checked->surfs));
	ops->free(engine->drv, host, checked->ops,
		  (size_t)elems * sizeof(*checked->ops));
	ops->free(engine->drv, host, checked->graph,
		  (size_t)elems * sizeof(*checked->graph));
	ops->free(engine->drv, host, checked, sizeof(*checked));
}

bool dla_task_needs_reset(const struct dla_engine *engine,
			  const struct dla_checked_task *checked)
{
	return engine->config->cdma_early &&
	       checked->network.op_head[DLA_OP_CONV] >= 0;
}
