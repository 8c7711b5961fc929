// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A loaded network: the loadable's memories allocated and filled, its
 * inputs and outputs, and its DLA tasks in submission order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvdla/dla_interface.h>
#include <nvdla_accel.h>

#include "runtime_internal.h"

void nvdla_net_fill(struct nvdla_network *net, uint16_t m,
		    struct nvdla_buffer *buf)
{
	const struct nvdla_lbl_memory *mem = &net->l->memories[m];
	uint8_t *map = nvdla_buffer_map(buf);
	uint32_t i;

	for (i = 0; i < mem->num_contents; i++) {
		const struct nvdla_lbl_blob *blob;

		if (!mem->contents[i][0])
			continue;	/* official files name no blob this way */
		blob = nvdla_loadable_blob(net->l, mem->contents[i]);
		if (blob->data_len)
			memcpy(map + mem->offsets[i], blob->data, blob->data_len);
	}
}

static int net_alloc_memories(struct nvdla_network *net)
{
	const struct nvdla_loadable *l = net->l;
	uint32_t m;
	int ret;

	net->mem = calloc(l->num_memories, sizeof(*net->mem));
	if (!net->mem)
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");
	for (m = 0; m < l->num_memories; m++) {
		const struct nvdla_lbl_memory *mem = &l->memories[m];

		if (mem->domain != NVDLA_LBL_DOMAIN_SYSTEM ||
		    !(mem->flags & NVDLA_LBL_MEM_ALLOC))
			continue;
		if (!mem->size || mem->size > DRM_NVDLA_MAX_BO_SIZE)
			return nvdla_rt_error(net->rt, -EINVAL,
					      "memory %u: %llu bytes, a buffer holds 1 to %llu",
					      mem->id, (unsigned long long)mem->size,
					      DRM_NVDLA_MAX_BO_SIZE);
		ret = nvdla_buffer_new(net->rt, mem->size, &net->mem[m]);
		if (ret)
			return nvdla_rt_error(net->rt, ret, "memory %u: %s",
					      mem->id, nvdla_rt_message(net->rt));
		if (mem->flags & NVDLA_LBL_MEM_SET)
			nvdla_net_fill(net, m, net->mem[m]);
	}
	return 0;
}

/* Position of the memory entry with id @id (checked to exist). */
static uint16_t net_memory_index(const struct nvdla_network *net, uint16_t id)
{
	return nvdla_loadable_memory(net->l, id) - net->l->memories;
}

static void net_tensor_desc(const struct nvdla_lbl_tensor_desc *t,
			    struct nvdla_tensor_desc *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", t->name ? t->name : "");
	d->size = t->size;
	d->n = t->n;
	d->c = t->c;
	d->h = t->h;
	d->w = t->w;
	d->data_format = t->data_format;
	d->data_type = t->data_type;
	d->data_category = t->data_category;
	d->pixel_format = t->pixel_format;
	d->pixel_mapping = t->pixel_mapping;
	memcpy(d->stride, t->stride, sizeof(d->stride));
}

/*
 * Each element of a bound tensor takes a byte at least: a tensor with
 * more elements than its memory has bytes, or so many that their count
 * overflows, is malformed (its count would size buffers).
 */
static int net_check_tensor(struct nvdla_network *net,
			    const struct nvdla_lbl_memory *mem,
			    const struct nvdla_tensor_desc *d, const char *what)
{
	uint64_t n;

	if (d->c <= 0 || d->h <= 0 || d->w <= 0)
		return 0;	/* refused where it is used */
	if (nvdla_tensor_elements(d, &n) || n > mem->size)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "memory %u: %s tensor %dx%dx%d has more elements than the memory's %llu bytes",
				      mem->id, what, d->w, d->h, d->c,
				      (unsigned long long)mem->size);
	return 0;
}

/* Inputs or outputs: memories flagged @flag, indexed by their bind id. */
static int net_bindings(struct nvdla_network *net, uint16_t flag,
			struct nvdla_binding **out, unsigned int *count)
{
	const struct nvdla_loadable *l = net->l;
	const char *what = flag == NVDLA_LBL_MEM_INPUT ? "input" : "output";
	unsigned int n = 0;
	uint32_t m;
	int ret;

	for (m = 0; m < l->num_memories; m++)
		n += !!(l->memories[m].flags & flag);
	*count = n;
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");

	for (m = 0; m < l->num_memories; m++) {
		const struct nvdla_lbl_memory *mem = &l->memories[m];

		if (!(mem->flags & flag))
			continue;
		if (mem->bind_id >= n || mem->tensor_desc_id >= l->num_tensor_descs)
			return nvdla_rt_error(net->rt, -EINVAL,
					      "memory %u: %s bind id %u or tensor %u out of range",
					      mem->id, what, mem->bind_id,
					      mem->tensor_desc_id);
		if (!net->mem[m])
			return nvdla_rt_error(net->rt, -EINVAL,
					      "memory %u: %s not in system memory",
					      mem->id, what);
		(*out)[mem->bind_id].mem = m;
		net_tensor_desc(&l->tensor_descs[mem->tensor_desc_id],
				&(*out)[mem->bind_id].desc);
		ret = net_check_tensor(net, mem, &(*out)[mem->bind_id].desc,
				       what);
		if (ret)
			return ret;
	}
	return 0;
}

/* The blob a memory is filled from, if any. */
static const struct nvdla_lbl_blob *net_memory_blob(const struct nvdla_network *net,
						    uint16_t m)
{
	const struct nvdla_lbl_memory *mem = &net->l->memories[m];

	return mem->num_contents ? nvdla_loadable_blob(net->l, mem->contents[0]) :
				   NULL;
}

uint8_t *nvdla_net_address(const struct nvdla_network *net,
			   const struct nvdla_lbl_task *lt, int16_t index,
			   uint64_t *size)
{
	const struct nvdla_lbl_address *a;
	uint16_t m;

	if (index < 0 || (uint32_t)index >= lt->num_addresses)
		return NULL;
	a = &net->l->addresses[lt->address_list[index]];
	m = net_memory_index(net, a->mem_id);
	if (!net->mem[m])
		return NULL;
	/* To the end of the memory: compiler-made entries have size 0. */
	*size = net->l->memories[m].size - a->offset;
	return (uint8_t *)nvdla_buffer_map(net->mem[m]) + a->offset;
}

/* Bring a pre-0.12 task's surface descriptors to the current layout. */
static int net_upgrade(struct nvdla_network *net,
		       const struct nvdla_lbl_task *lt,
		       const struct dla_network_desc *nd)
{
	uint64_t surf_size, graph_size;
	uint8_t *surf = nvdla_net_address(net, lt, nd->surface_desc_index,
					  &surf_size);
	uint8_t *graph = nvdla_net_address(net, lt, nd->dependency_graph_index,
					   &graph_size);

	if (!surf || !graph ||
	    nvdla_legacy_upgrade(surf, surf_size, graph, graph_size,
				 (uint32_t)nd->num_rois * nd->num_operations))
		return nvdla_rt_error(net->rt, -EINVAL,
				      "task %u: legacy descriptors do not fit their buffers",
				      lt->id);
	return 0;
}

/* Read the task's network descriptor; upgrade a pre-0.12 task's layout. */
static int net_network_desc(struct nvdla_network *net,
			    const struct nvdla_lbl_task *lt)
{
	const struct nvdla_lbl_address *a0;
	struct dla_network_desc nd;
	uint16_t m0;

	a0 = &net->l->addresses[lt->address_list[0]];
	m0 = net_memory_index(net, a0->mem_id);
	/* Compiler-made loadables give these address entries no size. */
	if (!net->mem[m0] ||
	    a0->offset + sizeof(nd) > net->l->memories[m0].size)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "task %u: no network descriptor at address 0",
				      lt->id);
	memcpy(&nd, (uint8_t *)nvdla_buffer_map(net->mem[m0]) + a0->offset,
	       sizeof(nd));
	if (nvdla_legacy_blob(net_memory_blob(net, m0)))
		return net_upgrade(net, lt, &nd);
	return 0;
}

static int net_add_task(struct nvdla_network *net,
			const struct nvdla_lbl_task *lt)
{
	struct nvdla_net_task *t = &net->tasks[net->num_tasks];
	uint32_t i;

	if (lt->interface != NVDLA_LBL_IF_DLA1 &&
	    lt->interface != NVDLA_LBL_IF_EMU1)
		return nvdla_rt_error(net->rt, -EOPNOTSUPP,
				      "task %u: unknown interface %u",
				      lt->id, lt->interface);
	if (!lt->num_addresses)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "task %u: empty address list", lt->id);
	for (i = 0; i < lt->num_addresses; i++) {
		const struct nvdla_lbl_address *a =
			&net->l->addresses[lt->address_list[i]];

		if (!net->mem[net_memory_index(net, a->mem_id)])
			return nvdla_rt_error(net->rt, -EOPNOTSUPP,
					      "task %u: address %u is in memory %u, which is not allocated (SRAM)",
					      lt->id, i, a->mem_id);
	}
	t->src = lt;
	t->num = lt->num_addresses;
	t->list = calloc(t->num, sizeof(*t->list));
	if (!t->list)
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");
	net->num_tasks++;
	if (lt->interface == NVDLA_LBL_IF_EMU1)
		return 0;	/* run on the CPU (emu.c) */
	return net_network_desc(net, lt);
}

static const struct nvdla_lbl_task *net_task(const struct nvdla_loadable *l,
					     uint16_t id)
{
	uint32_t i;

	for (i = 0; i < l->num_tasks; i++)
		if (l->tasks[i].id == id)
			return &l->tasks[i];
	return NULL;
}

/* Submit entries run in id order, their tasks in list order. */
static int net_build_tasks(struct nvdla_network *net)
{
	const struct nvdla_loadable *l = net->l;
	uint32_t total = 0, s, k, id;
	int ret;

	for (s = 0; s < l->num_submits; s++)
		total += l->submits[s].num_tasks;
	if (!total)
		return nvdla_rt_error(net->rt, -EINVAL, "loadable submits no task");
	net->tasks = calloc(total, sizeof(*net->tasks));
	if (!net->tasks)
		return nvdla_rt_error(net->rt, -ENOMEM, "out of memory");

	for (id = 0; id <= UINT16_MAX; id++) {
		for (s = 0; s < l->num_submits; s++) {
			const struct nvdla_lbl_submit *sub = &l->submits[s];

			if (sub->id != id)
				continue;
			for (k = 0; k < sub->num_tasks; k++) {
				ret = net_add_task(net, net_task(l, sub->task_ids[k]));
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

NVDLA_EXPORT int nvdla_network_load(struct nvdla_runtime *rt, const void *data,
				    size_t size, struct nvdla_network **out)
{
	struct nvdla_network *net;
	char err[256];
	int ret;

	*out = NULL;
	net = calloc(1, sizeof(*net));
	if (!net)
		return nvdla_rt_error(rt, -ENOMEM, "out of memory");
	net->rt = rt;
	nvdla_net_worker_init(&net->worker);

	ret = nvdla_loadable_parse(data, size, &net->l, err, sizeof(err));
	if (!ret)
		ret = nvdla_loadable_check(net->l, err, sizeof(err));
	if (ret)
		nvdla_rt_error(rt, ret, "malformed loadable: %s", err);
	if (!ret)
		ret = net_alloc_memories(net);
	if (!ret)
		ret = net_bindings(net, NVDLA_LBL_MEM_INPUT, &net->inputs,
				   &net->num_inputs);
	if (!ret)
		ret = net_bindings(net, NVDLA_LBL_MEM_OUTPUT, &net->outputs,
				   &net->num_outputs);
	if (!ret)
		ret = nvdla_net_scales(net);
	if (!ret)
		ret = nvdla_net_input_map(net);
	if (!ret)
		ret = net_build_tasks(net);
	if (!ret)
		ret = nvdla_net_check_tasks(net);
	if (!ret)
		ret = nvdla_emu_check(net);
	if (!ret)
		ret = nvdla_net_slot_memories(net);
	if (ret) {
		nvdla_network_unload(net);
		return ret;
	}
	*out = net;
	return 0;
}

NVDLA_EXPORT int nvdla_network_load_file(struct nvdla_runtime *rt,
					 const char *path,
					 struct nvdla_network **out)
{
	uint64_t size;
	void *data = NULL;
	FILE *f;
	int ret;

	*out = NULL;
	ret = nvdla_rt_open_file(rt, path, &f, &size);
	if (ret)
		return ret;
	data = size <= SIZE_MAX ? malloc(size ? size : 1) : NULL;
	if (!data) {
		ret = nvdla_rt_error(rt, -ENOMEM, "%s: out of memory for %llu bytes",
				     path, (unsigned long long)size);
		goto out;
	}
	if (fread(data, 1, size, f) != size) {
		ret = nvdla_rt_error(rt, -EIO, "%s: short read", path);
		goto out;
	}
	ret = nvdla_network_load(rt, data, size, out);
	if (ret) {
		char msg[NVDLA_RT_ERROR_MAX];

		snprintf(msg, sizeof(msg), "%s", rt->error);
		nvdla_rt_error(rt, ret, "%s: %s", path, msg);
	}
out:
	free(data);
	fclose(f);
	return ret;
}

NVDLA_EXPORT void nvdla_network_unload(struct nvdla_network *net)
{
	uint32_t i;

	if (!net)
		return;
	nvdla_net_worker_close(net);
	nvdla_net_slots_free(net);
	free(net->per_run);
	for (i = 0; i < net->num_tasks; i++) {
		free(net->tasks[i].list);
		nvdla_buffer_del(net->tasks[i].stats);
	}
	free(net->tasks);
	free(net->est_ops);
	free(net->record_dir);
	free(net->inputs);
	free(net->outputs);
	for (i = 0; net->mem && i < net->l->num_memories; i++)
		nvdla_buffer_del(net->mem[i]);
	free(net->mem);
	nvdla_loadable_free(net->l);
	free(net);
}

NVDLA_EXPORT unsigned int
nvdla_network_num_inputs(const struct nvdla_network *net)
{
	return net->num_inputs;
}

NVDLA_EXPORT unsigned int
nvdla_network_num_outputs(const struct nvdla_network *net)
{
	return net->num_outputs;
}

static int net_desc(const struct nvdla_network *net,
		    const struct nvdla_binding *b, unsigned int n,
		    unsigned int index, struct nvdla_tensor_desc *desc)
{
	if (index >= n)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "tensor %u of %u does not exist", index, n);
	*desc = b[index].desc;
	return 0;
}

NVDLA_EXPORT int nvdla_network_input_desc(const struct nvdla_network *net,
					  unsigned int index,
					  struct nvdla_tensor_desc *desc)
{
	return net_desc(net, net->inputs, net->num_inputs, index, desc);
}

NVDLA_EXPORT int nvdla_network_output_desc(const struct nvdla_network *net,
					   unsigned int index,
					   struct nvdla_tensor_desc *desc)
{
	return net_desc(net, net->outputs, net->num_outputs, index, desc);
}

static int net_bind(struct nvdla_network *net, struct nvdla_binding *b,
		    unsigned int n, unsigned int index,
		    struct nvdla_buffer *buf)
{
	uint64_t need;

	if (index >= n)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "tensor %u of %u does not exist", index, n);
	need = net->l->memories[b[index].mem].size;
	if (buf->rt != net->rt || nvdla_buffer_size(buf) < need)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "buffer of %llu bytes for a tensor of %llu, or from another runtime",
				      (unsigned long long)nvdla_buffer_size(buf),
				      (unsigned long long)need);
	b[index].bound = buf;
	return 0;
}

NVDLA_EXPORT int nvdla_network_bind_input(struct nvdla_network *net,
					  unsigned int index,
					  struct nvdla_buffer *buf)
{
	return net_bind(net, net->inputs, net->num_inputs, index, buf);
}

NVDLA_EXPORT int nvdla_network_bind_output(struct nvdla_network *net,
					   unsigned int index,
					   struct nvdla_buffer *buf)
{
	return net_bind(net, net->outputs, net->num_outputs, index, buf);
}

static struct nvdla_buffer *net_binding_buffer(const struct nvdla_network *net,
					       const struct nvdla_binding *b)
{
	return b->bound ? b->bound : net->mem[b->mem];
}

NVDLA_EXPORT struct nvdla_buffer *
nvdla_network_input(const struct nvdla_network *net, unsigned int index)
{
	return index < net->num_inputs ?
	       net_binding_buffer(net, &net->inputs[index]) : NULL;
}

NVDLA_EXPORT struct nvdla_buffer *
nvdla_network_output(const struct nvdla_network *net, unsigned int index)
{
	return index < net->num_outputs ?
	       net_binding_buffer(net, &net->outputs[index]) : NULL;
}

struct nvdla_buffer *nvdla_net_memory(const struct nvdla_network *net,
				      const struct nvdla_run *run, uint16_t mem)
{
	const struct nvdla_net_slot *slot = run ? &net->slots[run->slot] : NULL;
	unsigned int i;

	for (i = 0; i < net->num_inputs; i++)
		if (net->inputs[i].mem == mem)
			return run ? run->io[i] :
			       net_binding_buffer(net, &net->inputs[i]);
	for (i = 0; i < net->num_outputs; i++)
		if (net->outputs[i].mem == mem)
			return run ? run->io[net->num_inputs + i] :
			       net_binding_buffer(net, &net->outputs[i]);
	if (slot && slot->mem && slot->mem[mem])
		return slot->mem[mem];
	return net->mem[mem];
}

static int64_t net_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Wait for the tasks queued on @run's chain; the first failure's message. */
static int net_finish(struct nvdla_network *net, const struct nvdla_run *run)
{
	struct nvdla_backend *be = net->rt->be;
	struct nvdla_chain *chain = net->slots[run->slot].chain;
	uint32_t n;
	int ret;

	if (!be->ops->finish)
		return 0;
	ret = be->ops->finish(be, chain, &n);
	if (ret)
		return nvdla_rt_error(net->rt, ret, "task %u failed: %s", n,
				      chain->error);
	return 0;
}

/*
 * Queue DLA task @n on @run's chain behind the ones before it where the
 * backend can (the driver: the kernel chains them by fences), else run
 * it. With a time limit (each task's starts when it is queued) or
 * latencies asked for (measured per task), it ends before the next is
 * queued. After the run's last DLA task, the run gets a sync_file of its
 * device part.
 */
static int net_queue_task(struct nvdla_network *net, struct nvdla_run *run,
			  uint32_t n, int64_t deadline)
{
	struct nvdla_net_task *t = &net->tasks[n];
	struct nvdla_backend *be = net->rt->be;
	struct nvdla_chain *chain = net->slots[run->slot].chain;
	uint32_t num = t->num + !!t->stats;
	int ret;

	if (!be->ops->queue) {
		ret = be->ops->submit(be, t->list, num, deadline);
		if (ret)
			return nvdla_rt_error(net->rt, ret, "task %u failed: %s",
					      n, be->error);
		return 0;
	}
	ret = be->ops->queue(be, chain, t->list, num, deadline, n);
	if (ret) {
		nvdla_rt_error(net->rt, ret, "task %u failed: %s", n, be->error);
		be->ops->finish(be, chain, &num);
		return ret;
	}
	if (n == run->sync_task)
		nvdla_run_sync_file_set(run, be, chain);
	return deadline || be->want_timing ? net_finish(net, run) : 0;
}

static int net_run_task(struct nvdla_network *net, struct nvdla_run *run,
			uint32_t n, int64_t deadline)
{
	struct nvdla_net_task *t = &net->tasks[n];
	uint32_t i;
	int ret;

	/* A CPU task reads what the tasks before it wrote. */
	if (t->src->interface == NVDLA_LBL_IF_EMU1) {
		ret = net_finish(net, run);
		return ret ? ret : nvdla_emu_run(net, run, t->src);
	}

	for (i = 0; i < t->num; i++) {
		const struct nvdla_lbl_address *a =
			&net->l->addresses[t->src->address_list[i]];
		uint16_t m = net_memory_index(net, a->mem_id);

		t->list[i].bo = nvdla_net_memory(net, run, m)->bo;
		t->list[i].offset = a->offset;
	}
	if (t->stats)
		nvdla_net_stats_prepare(net, t);
	return net_queue_task(net, run, n, deadline);
}

/* The device part: the tasks before the CPU tail, queued or run. */
static int net_run_device(struct nvdla_network *net, struct nvdla_run *run,
			  int64_t deadline)
{
	uint32_t n;
	int ret = 0;

	for (n = 0; n < net->tail && !ret; n++)
		ret = net_run_task(net, run, n, deadline);
	return ret;
}

int nvdla_net_execute(struct nvdla_network *net, struct nvdla_run *run)
{
	int64_t now = net_now_ns(), deadline = 0;
	int ret;

	if (run->timeout_ns)
		deadline = run->timeout_ns > INT64_MAX - now ? INT64_MAX :
			   now + run->timeout_ns;
	ret = nvdla_net_slot_ready(net, run->slot);
	if (ret)
		return ret;
	pthread_mutex_lock(&net->rt->be_lock);
	nvdla_net_estimate_begin(net);
	ret = net->record_dir ?
	      nvdla_net_submit_recorded(net, run, deadline, net_run_device) :
	      net_run_device(net, run, deadline);
	nvdla_net_estimate_end(net, ret);
	pthread_mutex_unlock(&net->rt->be_lock);
	return ret;
}

int nvdla_net_complete(struct nvdla_network *net, struct nvdla_run *run)
{
	uint32_t n;
	int ret = run->device_status;

	if (!ret)
		ret = net_finish(net, run);
	for (n = net->tail; n < net->num_tasks && !ret; n++)
		ret = nvdla_emu_run(net, run, net->tasks[n].src);
	return ret;
}

NVDLA_EXPORT int nvdla_network_submit(struct nvdla_network *net,
				      int64_t timeout_ns)
{
	struct nvdla_run *run;
	int ret;

	ret = nvdla_run_submit(net, timeout_ns, &run);
	if (ret)
		return ret;
	ret = nvdla_run_wait(run, -1);
	if (ret)
		nvdla_rt_error(net->rt, ret, "%s", nvdla_run_error(run));
	nvdla_run_free(run);
	return ret;
}

NVDLA_EXPORT int nvdla_network_wait(struct nvdla_network *net)
{
	int ret;

	pthread_mutex_lock(&net->worker.lock);
	ret = net->status;
	pthread_mutex_unlock(&net->worker.lock);
	return ret;
}
