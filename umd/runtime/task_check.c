// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Loading a network checks its DLA tasks against the device's
 * configuration with the firmware's own validation (dla_task_prepare) on an
 * engine of its own, so that a loadable the device cannot run (an engine
 * it lacks, a precision it does not compute, another atom size) is refused
 * at load with the firmware's message, whatever the backend; the device
 * checks again at every submission.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <nvdla/firmware.h>

#include "port_heap.h"
#include "runtime_internal.h"

struct check {
	const struct nvdla_network *net;
	const struct nvdla_net_task *task;
	char error[DLA_LOG_MAX];
};

/* Validation touches no register. */
static u32 check_reg_read(void *drv, u32 addr)
{
	(void)drv;
	(void)addr;
	return 0;
}

static void check_reg_write(void *drv, u32 addr, u32 val)
{
	(void)drv;
	(void)addr;
	(void)val;
}

/* Address-list entry @index: the network's buffer at the entry's offset. */
static int check_entry(void *drv, void *task, u16 index, u64 *dma, void **cpu,
		       u64 *size)
{
	const struct check *c = drv;
	const struct nvdla_loadable *l = c->net->l;
	const struct nvdla_lbl_address *a =
		&l->addresses[c->task->src->address_list[index]];
	struct nvdla_buffer *buf =
		nvdla_net_memory(c->net, NULL, nvdla_loadable_memory(l, a->mem_id) -
					 l->memories);
	uint64_t len = nvdla_buffer_size(buf);

	(void)task;
	*dma = a->offset;
	if (cpu)
		*cpu = (uint8_t *)nvdla_buffer_map(buf) + a->offset;
	*size = a->offset < len ? len - a->offset : 0;
	return 0;
}

static u64 check_time_us(void *drv)
{
	(void)drv;
	return 0;
}

static void check_log(void *drv, enum dla_log_level level, const char *msg)
{
	struct check *c = drv;

	if (level == DLA_LOG_ERROR)
		snprintf(c->error, sizeof(c->error), "%s", msg);
}

static const struct dla_port_ops check_ops = {
	.reg_read = check_reg_read,
	.reg_write = check_reg_write,
	.entry = check_entry,
	.time_us = check_time_us,
	.log = check_log,
	.alloc = nvdla_port_heap_alloc,
	.free = nvdla_port_heap_free,
};

int nvdla_net_check_tasks(struct nvdla_network *net)
{
	const struct dla_hw_config *hw = net->rt->be->hw;
	struct check c = { .net = net };
	struct dla_engine *engine;
	uint32_t n;
	int ret = 0;

	if (!hw)
		return 0;	/* the device checks at submission only */
	engine = calloc(1, dla_engine_size());
	if (!engine)
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");
	ret = dla_register_driver(engine, &c, &check_ops, hw);
	dla_allow_hw_hazards(engine, net->rt->be->allow_hazards);
	for (n = 0; n < net->num_tasks && !ret; n++) {
		struct dla_task task = {
			.host_task = &c, .num_addresses = net->tasks[n].num,
		};
		struct dla_checked_task *checked;

		if (net->tasks[n].src->interface != NVDLA_LBL_IF_DLA1)
			continue;
		c.task = &net->tasks[n];
		ret = dla_task_prepare(engine, &task, &checked);
		if (ret)
			nvdla_rt_error(net->rt, ret, "task %u: %s", n, c.error);
		dla_task_release(engine, checked);
	}
	free(engine);
	return ret;
}
