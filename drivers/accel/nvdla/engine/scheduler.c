// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The engine scheduler: loads a validated task, programs each operation
 * type's chain into the processor's register groups, enables operations
 * whose dependencies are met, and completes them from interrupts.
 *
 * It runs the task from its checked copy (snapshot.c) only: dependency
 * counts are counted down in the copy, and no descriptor is read from the
 * host's buffers again. Nothing here is proportional to the task's size:
 * each call programs, enables and completes a bounded number of operations.
 *
 * With several regions of interest (ROIs) every operation runs once per
 * region, all regions of one operation before the next operation of its
 * type; each region has its own descriptors and dependency counts, and an
 * event releases consumers in the same region only.
 */
#include "engine.h"
#include "processors.h"

const struct dla_processor_ops *const dla_processor_ops[DLA_OP_NUM] = {
	[DLA_OP_BDMA] = &dla_bdma_ops,
	[DLA_OP_CONV] = &dla_conv_ops,
	[DLA_OP_SDP] = &dla_sdp_ops,
	[DLA_OP_PDP] = &dla_pdp_ops,
	[DLA_OP_CDP] = &dla_cdp_ops,
	[DLA_OP_RUBIK] = &dla_rubik_ops,
};

bool dla_processor_available(struct dla_engine *engine, int t)
{
	const struct dla_hw_config *config = engine->config;

	if (!dla_processor_ops[t])
		return false;
	if (t == DLA_OP_BDMA)
		return config->bdma &&
		       config->unit_base[NVDLA_UNIT_BDMA] != NVDLA_UNIT_ABSENT;
	if (t == DLA_OP_RUBIK)
		return config->rubik &&
		       config->unit_base[NVDLA_UNIT_RBK] != NVDLA_UNIT_ABSENT;
	return true;
}

/*
 * Register groups the hardware alternates between for @ops: both where the
 * unit has a group pointer, even if the processor holds one operation at
 * a time (CDP), since the hardware runs the group its pointer names next.
 */
static u8 dla_hw_groups(const struct dla_processor_ops *ops)
{
	return ops->pointer_unit >= 0 ? DLA_NUM_GROUPS : ops->groups;
}

static u32 dla_done_bits(void)
{
	u32 bits = 0;
	int t, g;

	for (t = 0; t < DLA_OP_NUM; t++)
		for (g = 0; dla_processor_ops[t] && g < DLA_NUM_GROUPS; g++)
			bits |= dla_processor_ops[t]->done_bits[g] |
				dla_processor_ops[t]->data_bits[g] |
				dla_processor_ops[t]->weight_bits[g];
	return bits;
}

static int dla_fail(struct dla_engine *engine, int err)
{
	if (!engine->status)
		engine->status = err;
	return err;
}

static struct dla_group *dla_find_loaded(struct dla_engine *engine, u8 type,
					 s16 index, u16 roi)
{
	struct dla_processor *proc = &engine->processors[type];
	int g;

	for (g = 0; g < DLA_NUM_GROUPS; g++)
		if (proc->groups[g].loaded && proc->groups[g].index == index &&
		    proc->groups[g].roi == roi)
			return &proc->groups[g];
	return NULL;
}

static int dla_enable(struct dla_engine *engine, u8 type,
		      struct dla_group *group);

/* Operation @index of region @roi has seen one of the events it waits for. */
static int dla_release(struct dla_engine *engine, s16 index, u16 roi)
{
	struct dla_common_op_desc *desc =
		&engine->task->graph[dla_op_elem(engine, roi, index)];
	struct dla_group *group;

	/* The graph check proved this cannot happen: keep it a failure. */
	if (!desc->dependency_count)
		return dla_log(engine, DLA_LOG_ERROR, -EINVAL,
			       "op %d released more often than it waits", index);
	desc->dependency_count--;

	group = dla_find_loaded(engine, desc->op_type, index, roi);
	if (!group)
		return 0;	/* enabled when it is loaded, if the count is 0 */
	if (!desc->dependency_count)
		return dla_enable(engine, desc->op_type, group);
	return 0;
}

/*
 * Tell the consumers of the operation in @group (and its fused parent)
 * that @event fired.
 */
static int dla_signal(struct dla_engine *engine, const struct dla_group *group,
		      u8 event)
{
	const struct dla_common_op_desc *desc = group->desc;
	int k, ret;

	for (k = 0; k < DLA_OP_NUM; k++) {
		const struct dla_consumer *c = &desc->consumers[k];

		if (c->index != -1 && c->event == event) {
			ret = dla_release(engine, c->index, group->roi);
			if (ret)
				return ret;
		}
	}
	if (desc->fused_parent.index != -1 &&
	    desc->fused_parent.event == event)
		return dla_release(engine, desc->fused_parent.index,
				   group->roi);
	return 0;
}

/*
 * Start ahead what @group's operation can (the convolution's CDMA:
 * docs/model.md) while it waits for its dependencies, once the operation
 * before it, in the other group, is enabled. The older of two loaded
 * groups is the one programmed over next.
 */
static void dla_enable_early(struct dla_engine *engine, u8 type,
			     struct dla_group *group)
{
	const struct dla_processor_ops *ops = dla_processor_ops[type];
	struct dla_processor *proc = &engine->processors[type];
	u8 gid = group - proc->groups;
	const struct dla_group *before = &proc->groups[gid ^ 1];

	if (!ops->enable_early || !group->loaded || group->enabled ||
	    group->early || gid == proc->next_group || !before->loaded ||
	    !before->enabled)
		return;
	group->early = ops->enable_early(engine, group, gid, before);
}

static int dla_enable(struct dla_engine *engine, u8 type,
		      struct dla_group *group)
{
	struct dla_processor *proc = &engine->processors[type];
	u8 gid = group - proc->groups;
	int ret;

	if (group->enabled)
		return 0;
	dla_stat_enable(engine, type, group, gid);
	ret = dla_processor_ops[type]->enable(engine, group, gid);
	if (ret)
		return ret;
	group->enabled = true;
	dla_enable_early(engine, type, &proc->groups[gid ^ 1]);
	return dla_signal(engine, group, DLA_EVENT_OP_ENABLED);
}

static bool dla_can_load(const struct dla_processor *proc, u8 type)
{
	const struct dla_processor_ops *ops = dla_processor_ops[type];
	int g, busy = 0;

	for (g = 0; g < DLA_NUM_GROUPS; g++)
		busy += proc->groups[g].loaded;
	return proc->next_index != -1 && busy < ops->groups &&
	       !proc->groups[proc->next_group].loaded;
}

/*
 * Move @proc past the operation of @type just programmed: the same
 * operation for the next region, or the next operation for the first.
 */
static void dla_advance(struct dla_engine *engine, struct dla_processor *proc,
			const struct dla_group *group, u8 type)
{
	if (proc->next_roi + 1 < engine->task->network.num_rois) {
		proc->next_roi++;
		return;
	}
	proc->next_roi = 0;
	proc->next_index = group->desc->consumers[type].index;
}

/*
 * The unit's one LUT can take the operation read into @group: it loads
 * none, the other group is empty, or the other group's operation uses the
 * same LUT (then it is not written again). Otherwise the operation waits
 * for the other group to complete: the LUT may not change under it.
 */
static bool dla_lut_ready(const struct dla_processor *proc,
			  const struct dla_processor_ops *ops,
			  const struct dla_group *group)
{
	const struct dla_group *other = &proc->groups[(group - proc->groups) ^ 1];
	s16 lut = ops->lut ? ops->lut(group->op) : -1;

	return lut == -1 || !other->loaded || ops->lut(other->op) == lut;
}

/*
 * Program the next operation of @type if a group is free for it: 1 if it
 * did, 0 if the operation must wait, or an error.
 */
static int dla_program_next(struct dla_engine *engine, u8 type)
{
	const struct dla_checked_task *task = engine->task;
	struct dla_processor *proc = &engine->processors[type];
	const struct dla_processor_ops *ops = dla_processor_ops[type];
	u8 gid = proc->next_group;
	struct dla_group *group = &proc->groups[gid];
	s16 index = proc->next_index;
	u16 roi = proc->next_roi;
	u32 elem;
	int ret;

	if (!dla_can_load(proc, type))
		return 0;

	elem = dla_op_elem(engine, roi, index);
	group->desc = &task->graph[elem];
	group->op = &task->ops[elem];
	group->surf = &task->surfs[elem];
	if (!dla_lut_ready(proc, ops, group))
		return 0;	/* programmed when the other group completes */
	if (ops->uses_rdma && ops->uses_rdma(group)) {
		group->rdma_gid = proc->next_rdma_group;
		proc->next_rdma_group ^= 1;
	}
	ret = ops->program(engine, group, gid);
	if (ret)
		return ret;

	group->loaded = true;
	group->enabled = false;
	group->early = false;
	group->index = index;
	group->roi = roi;
	dla_advance(engine, proc, group, type);
	proc->next_group = (gid + 1) % dla_hw_groups(ops);

	ret = dla_signal(engine, group, DLA_EVENT_OP_PROGRAMMED);
	if (ret)
		return ret;
	if (group->desc->dependency_count)
		dla_enable_early(engine, type, group);
	else
		ret = dla_enable(engine, type, group);
	return ret ? ret : 1;
}

/*
 * Program operations of @type into every group free for them, so that the
 * hardware finds the next one ready when the current one completes.
 */
static int dla_program_ready(struct dla_engine *engine, u8 type)
{
	int ret;

	do
		ret = dla_program_next(engine, type);
	while (ret > 0);
	return ret;
}

static int dla_start(struct dla_engine *engine)
{
	u32 done = dla_done_bits();
	int t, g, ret;

	for (t = 0; t < DLA_OP_NUM; t++) {
		const struct dla_processor_ops *ops = dla_processor_ops[t];
		struct dla_processor *proc = &engine->processors[t];

		proc->next_index = engine->task->network.op_head[t];
		proc->next_roi = 0;
		/* Start where the hardware's group pointers are. */
		proc->next_group = ops && ops->pointer_unit >= 0 ?
				   dla_consumer_group(engine, ops->pointer_unit) : 0;
		proc->next_rdma_group = ops && ops->uses_rdma ?
					dla_consumer_group(engine, ops->rdma_unit) : 0;
		for (g = 0; g < DLA_NUM_GROUPS; g++)
			proc->groups[g].loaded = false;
	}

	/* Drop stale completions, then let this task's ones through. */
	dla_reg_write(engine, NVDLA_UNIT_GLB, NVDLA_GLB_S_INTR_STATUS, done);
	dla_reg_write(engine, NVDLA_UNIT_GLB, NVDLA_GLB_S_INTR_MASK, ~done);

	for (t = 0; t < DLA_OP_NUM; t++) {
		if (!dla_processor_ops[t])
			continue;
		ret = dla_program_ready(engine, t);
		if (ret)
			return dla_fail(engine, ret);
	}
	return 0;
}

int dla_execute_task(struct dla_engine *engine, struct dla_checked_task *task)
{
	if (engine->task)
		return -EBUSY;
	if (task->started)
		return dla_log(engine, DLA_LOG_ERROR, -EINVAL,
			       "a checked task runs once");
	task->started = true;
	engine->task = task;
	engine->num_completed = 0;
	engine->status = 0;
	engine->irq_status = 0;
	return dla_start(engine);
}

int dla_isr_handler(struct dla_engine *engine)
{
	u32 mask = dla_reg_read(engine, NVDLA_UNIT_GLB, NVDLA_GLB_S_INTR_MASK);
	u32 status = dla_reg_read(engine, NVDLA_UNIT_GLB,
				  NVDLA_GLB_S_INTR_STATUS);

	dla_reg_write(engine, NVDLA_UNIT_GLB, NVDLA_GLB_S_INTR_STATUS, status);
	engine->irq_status |= status & ~mask;
	return 0;
}

static int dla_complete(struct dla_engine *engine, u8 type,
			struct dla_group *group)
{
	u8 gid = group - engine->processors[type].groups;
	int ret;

	if (!group->loaded || !group->enabled)
		return dla_log(engine, DLA_LOG_ERROR, -EIO,
			       "%s completion without an operation",
			       dla_processor_ops[type]->name);
	ret = dla_stat_write(engine, type, group, gid);
	if (ret)
		return ret;
	group->loaded = false;
	group->enabled = false;
	engine->num_completed++;
	ret = dla_signal(engine, group, DLA_EVENT_OP_COMPLETED);
	if (ret)
		return ret;
	return dla_program_ready(engine, type);
}

/* Complete the finished groups of one processor, oldest first. */
static int dla_process_processor(struct dla_engine *engine, u8 type,
				 u32 status)
{
	const struct dla_processor_ops *ops = dla_processor_ops[type];
	struct dla_processor *proc = &engine->processors[type];
	u8 first = proc->next_group;
	int i, ret;

	for (i = 0; i < dla_hw_groups(ops); i++) {
		u8 gid = (first + i) % dla_hw_groups(ops);
		struct dla_group *group = &proc->groups[gid];

		ret = 0;
		if (status & ops->data_bits[gid] && group->loaded)
			ret = dla_signal(engine, group, DLA_EVENT_CDMA_DT_DONE);
		if (!ret && status & ops->weight_bits[gid] && group->loaded)
			ret = dla_signal(engine, group, DLA_EVENT_CDMA_WT_DONE);
		if (!ret && status & ops->done_bits[gid])
			ret = dla_complete(engine, type, group);
		if (ret)
			return ret;
	}
	return 0;
}

int dla_process_events(struct dla_engine *engine, bool *task_complete)
{
	u32 status = engine->irq_status;
	int t, ret;

	*task_complete = false;
	if (!engine->task)
		return -EINVAL;
	if (engine->status)
		return engine->status;

	engine->irq_status = 0;
	for (t = 0; t < DLA_OP_NUM; t++) {
		if (!dla_processor_ops[t])
			continue;
		ret = dla_process_processor(engine, t, status);
		if (ret)
			return dla_fail(engine, ret);
	}
	*task_complete = engine->num_completed ==
			 (u32)engine->task->network.num_rois *
			 engine->task->network.num_operations;
	return 0;
}

void dla_clear_task(struct dla_engine *engine)
{
	int t;

	dla_reg_write(engine, NVDLA_UNIT_GLB, NVDLA_GLB_S_INTR_MASK,
		      dla_done_bits());
	for (t = 0; t < DLA_OP_NUM; t++)
		memset(&engine->processors[t], 0,
		       sizeof(engine->processors[t]));
	engine->task = NULL;
	engine->irq_status = 0;
	engine->status = 0;
}
