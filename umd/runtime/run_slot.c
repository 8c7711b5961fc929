// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Slots: what a run in flight holds of its own so that the next run's
 * device part can execute while it runs its CPU tail (the CPU tasks
 * after the last DLA task). Each slot has a chain of the backend, which
 * the run's device part is queued on and waited for apart from the
 * next run's, and a copy of each memory that the CPU tail's operations
 * read or write and the device part's tasks address as well (the
 * intermediate tensor a softmax reads, for one): without it the next
 * run's jobs would overwrite it while the CPU tail still reads it. Two
 * slots: slot 0 uses the network's own memories; slot 1's copies are
 * allocated when a second run first overlaps, and kept until unload.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

/* Mark in @mem the memories tasks @from to @to address. */
static void slot_addressed(struct nvdla_network *net, uint32_t from,
			   uint32_t to, bool *mem)
{
	const struct nvdla_loadable *l = net->l;
	uint32_t n, i;

	for (n = from; n < to; n++) {
		const struct nvdla_lbl_task *lt = net->tasks[n].src;

		for (i = 0; i < lt->num_addresses; i++)
			mem[nvdla_loadable_memory(l, l->addresses[lt->address_list[i]].mem_id) -
			    l->memories] = true;
	}
}

int nvdla_net_slot_memories(struct nvdla_network *net)
{
	uint32_t m, n, num = net->l->num_memories;
	bool *device;
	char msg[NVDLA_RT_ERROR_MAX];
	int ret = 0;

	net->tail = 0;
	for (n = 0; n < net->num_tasks; n++)
		if (net->tasks[n].src->interface != NVDLA_LBL_IF_EMU1)
			net->tail = n + 1;
	net->per_run = calloc(num ? num : 1, sizeof(*net->per_run));
	device = calloc(num ? num : 1, sizeof(*device));
	if (!net->per_run || !device) {
		free(device);
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");
	}
	/*
	 * A CPU task whose descriptors do not decode fails each run before
	 * it reads or writes anything: its message is for then.
	 */
	nvdla_rt_error_to(msg);
	for (n = net->tail; n < net->num_tasks && !ret; n++)
		ret = nvdla_emu_memories(net, net->tasks[n].src, net->per_run);
	nvdla_rt_error_to(NULL);
	if (ret)
		memset(net->per_run, 0, num * sizeof(*net->per_run));
	slot_addressed(net, 0, net->tail, device);
	for (m = 0; m < num; m++)
		net->per_run[m] &= device[m];
	for (n = 0; n < net->num_inputs; n++)
		net->per_run[net->inputs[n].mem] = false;
	for (n = 0; n < net->num_outputs; n++)
		net->per_run[net->outputs[n].mem] = false;
	free(device);
	return 0;
}

static void slot_free(struct nvdla_network *net, struct nvdla_net_slot *slot)
{
	struct nvdla_backend *be = net->rt->be;
	uint32_t m;

	for (m = 0; slot->mem && m < net->l->num_memories; m++)
		nvdla_buffer_del(slot->mem[m]);
	free(slot->mem);
	slot->mem = NULL;
	if (slot->chain)
		be->ops->chain_del(be, slot->chain);
	slot->chain = NULL;
}

/* @slot's copies of the per-run memories, filled as at load. */
static int slot_copies(struct nvdla_network *net, struct nvdla_net_slot *slot)
{
	const struct nvdla_loadable *l = net->l;
	uint32_t m;
	int ret;

	slot->mem = calloc(l->num_memories ? l->num_memories : 1,
			   sizeof(*slot->mem));
	if (!slot->mem)
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");
	for (m = 0; m < l->num_memories; m++) {
		if (!net->per_run[m])
			continue;
		ret = nvdla_buffer_new(net->rt, l->memories[m].size,
				       &slot->mem[m]);
		if (ret)
			return nvdla_rt_error(net->rt, ret,
					      "memory %u of a second run in flight: %s",
					      l->memories[m].id,
					      nvdla_rt_message(net->rt));
		if (l->memories[m].flags & NVDLA_LBL_MEM_SET)
			nvdla_net_fill(net, m, slot->mem[m]);
	}
	return 0;
}

int nvdla_net_slot_ready(struct nvdla_network *net, unsigned int s)
{
	struct nvdla_net_slot *slot = &net->slots[s];
	struct nvdla_backend *be = net->rt->be;
	int ret;

	if (s && !slot->mem) {
		ret = slot_copies(net, slot);
		if (ret) {
			slot_free(net, slot);
			return ret;
		}
	}
	if (slot->chain || !be->ops->chain_new)
		return 0;
	pthread_mutex_lock(&net->rt->be_lock);
	ret = be->ops->chain_new(be, &slot->chain);
	if (ret)
		nvdla_rt_error(net->rt, ret, "%s", be->error);
	pthread_mutex_unlock(&net->rt->be_lock);
	return ret;
}

void nvdla_net_slots_free(struct nvdla_network *net)
{
	unsigned int s;

	for (s = 0; s < NVDLA_NET_SLOTS; s++)
		slot_free(net, &net->slots[s]);
}
