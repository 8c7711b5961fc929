// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Building single-operation loadables (see builder.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"

#define LBL_ID_MAX 0xffff

void nvdla_builder_init(struct nvdla_builder *b)
{
	memset(b, 0, sizeof(*b));
	b->l.version = (struct nvdla_lbl_version){ 0, 7, 0 };
}

/* Grow *@array by one zeroed element of @size bytes; NULL on failure. */
static void *grow(struct nvdla_builder *b, void **array, uint32_t *count,
		  size_t size)
{
	char *p;

	if (b->error)
		return NULL;
	p = realloc(*array, (*count + 1) * size);
	if (!p) {
		b->error = -ENOMEM;
		return NULL;
	}
	*array = p;
	memset(p + *count * size, 0, size);
	return p + (*count)++ * size;
}

static char *dup_str(struct nvdla_builder *b, const char *s)
{
	char *d = b->error ? NULL : strdup(s);

	if (!d && !b->error)
		b->error = -ENOMEM;
	return d;
}

static int add_blob(struct nvdla_builder *b, const char *name,
		    const void *data, uint64_t size)
{
	struct nvdla_lbl_blob *blob;

	if (size > UINT32_MAX)
		b->error = -EINVAL;
	blob = grow(b, (void **)&b->l.blobs, &b->l.num_blobs, sizeof(*blob));
	if (!blob)
		return b->error;
	blob->name = dup_str(b, name);
	blob->size = size;
	blob->interface = NVDLA_LBL_IF_DLA1;
	blob->version = (struct nvdla_lbl_version){ 0, 12, 0 };
	blob->data = malloc(size ? size : 1);
	if (!blob->data)
		return b->error = -ENOMEM;
	memcpy(blob->data, data, size);
	blob->data_len = size;
	return b->error;
}

int nvdla_builder_blob(struct nvdla_builder *b, const char *name,
		       const void *data, uint64_t size)
{
	return add_blob(b, name, data, size);
}

static int set_contents(struct nvdla_builder *b, struct nvdla_lbl_memory *m,
			const char *name)
{
	m->contents = calloc(1, sizeof(*m->contents));
	m->offsets = calloc(1, sizeof(*m->offsets));
	if (!m->contents || !m->offsets)
		return b->error = -ENOMEM;
	m->num_contents = 1;
	m->num_offsets = 1;
	m->contents[0] = dup_str(b, name);
	m->flags |= NVDLA_LBL_MEM_SET;
	return b->error;
}

int nvdla_builder_memory(struct nvdla_builder *b, const char *name,
			 const void *data, uint64_t size)
{
	struct nvdla_lbl_memory *m;
	struct nvdla_lbl_address *a;
	uint16_t id = b->l.num_memories;

	if (b->l.num_memories >= LBL_ID_MAX)
		b->error = -EINVAL;
	m = grow(b, (void **)&b->l.memories, &b->l.num_memories, sizeof(*m));
	if (!m)
		return -1;
	m->id = id;
	m->domain = NVDLA_LBL_DOMAIN_SYSTEM;
	m->flags = NVDLA_LBL_MEM_ALLOC;
	m->size = size;
	if (data && (add_blob(b, name, data, size) || set_contents(b, m, name)))
		return -1;

	a = grow(b, (void **)&b->l.addresses, &b->l.num_addresses, sizeof(*a));
	if (!a)
		return -1;
	a->id = id;
	a->mem_id = id;
	a->size = size;
	return id;
}

/* Memories bound in direction @flag so far: the next one's bind id. */
static uint16_t bind_count(const struct nvdla_loadable *l, uint16_t flag)
{
	uint16_t n = 0;
	uint32_t m;

	for (m = 0; m < l->num_memories; m++)
		n += !!(l->memories[m].flags & flag);
	return n;
}

void nvdla_builder_bind(struct nvdla_builder *b, int index,
			const struct nvdla_tensor_desc *desc, uint16_t flag)
{
	struct nvdla_lbl_tensor_desc *t;

	if (index < 0 || (uint32_t)index >= b->l.num_memories) {
		if (!b->error)
			b->error = -EINVAL;
		return;
	}
	t = grow(b, (void **)&b->l.tensor_descs, &b->l.num_tensor_descs,
		 sizeof(*t));
	if (!t)
		return;
	t->name = dup_str(b, desc->name);
	t->id = b->l.num_tensor_descs - 1;
	t->mem_id = index;
	t->size = desc->size;
	t->data_format = desc->data_format;
	t->data_type = desc->data_type;
	t->data_category = desc->data_category;
	t->pixel_format = desc->pixel_format;
	t->pixel_mapping = desc->pixel_mapping;
	t->n = desc->n;
	t->c = desc->c;
	t->h = desc->h;
	t->w = desc->w;
	memcpy(t->stride, desc->stride, sizeof(t->stride));

	b->l.memories[index].bind_id = bind_count(&b->l, flag);
	b->l.memories[index].flags |= flag;
	b->l.memories[index].tensor_desc_id = t->id;
}

int nvdla_builder_finish(struct nvdla_builder *b, void **buf, size_t *len)
{
	struct nvdla_lbl_submit *s;
	struct nvdla_lbl_task *t;
	uint32_t i;

	t = grow(b, (void **)&b->l.tasks, &b->l.num_tasks, sizeof(*t));
	if (t) {
		t->interface = NVDLA_LBL_IF_DLA1;
		t->instance = -1;
		t->address_list = calloc(b->l.num_addresses,
					 sizeof(*t->address_list));
		if (!t->address_list)
			b->error = -ENOMEM;
	}
	if (b->error)
		return b->error;
	t->num_addresses = b->l.num_addresses;
	for (i = 0; i < t->num_addresses; i++)
		t->address_list[i] = i;

	s = grow(b, (void **)&b->l.submits, &b->l.num_submits, sizeof(*s));
	if (s) {
		s->task_ids = calloc(1, sizeof(*s->task_ids));
		if (!s->task_ids)
			b->error = -ENOMEM;
		else
			s->num_tasks = 1;
	}
	if (b->error)
		return b->error;
	return nvdla_loadable_write(&b->l, buf, len);
}

void nvdla_builder_fini(struct nvdla_builder *b)
{
	nvdla_loadable_clear(&b->l);
}

void nvdla_build_op_init(struct nvdla_build_op *op, uint8_t type)
{
	int k;

	memset(op, 0, sizeof(*op));
	op->graph.op_type = type;
	for (k = 0; k < DLA_OP_NUM; k++)
		op->graph.consumers[k].index = -1;
	op->graph.fused_parent.index = -1;
	if (type == DLA_OP_SDP)
		op->op.sdp_op.batch_num = 1;
}

void nvdla_build_fuse(struct nvdla_build_op *head, int16_t head_index,
		      struct nvdla_build_op *tail, int16_t tail_index)
{
	head->graph.dependency_count++;
	head->graph.consumers[tail->graph.op_type] = (struct dla_consumer){
		.index = tail_index, .event = DLA_EVENT_OP_PROGRAMMED };
	tail->graph.dependency_count++;
	tail->graph.fused_parent = (struct dla_consumer){
		.index = head_index, .event = DLA_EVENT_OP_ENABLED };
}

/* Copy member @field of every operation into one array; NULL on failure. */
static void *gather(struct nvdla_builder *b, const struct nvdla_build_op *ops,
		    uint32_t n, size_t offset, size_t size)
{
	uint8_t *a = calloc(n ? n : 1, size);
	uint32_t i;

	if (!a) {
		b->error = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < n; i++)
		memcpy(a + i * size, (const uint8_t *)&ops[i] + offset, size);
	return a;
}

int nvdla_builder_task(struct nvdla_builder *b,
		       const struct nvdla_build_op *ops, uint16_t num_ops,
		       const struct dla_lut_param *luts, uint16_t num_luts,
		       uint16_t num_data)
{
	return nvdla_builder_task_rois(b, ops, num_ops, 1, luts, num_luts,
				       num_data);
}

/* Add the descriptor memories of DLA task @task; the first one's id. */
static int task_descs(struct nvdla_builder *b, uint32_t task,
		      const struct nvdla_build_op *ops, uint16_t num_ops,
		      uint16_t num_rois, const struct dla_lut_param *luts,
		      uint16_t num_luts, uint16_t num_data)
{
	struct dla_network_desc net = {
		.operation_desc_index = 2,
		.surface_desc_index = 3,
		.dependency_graph_index = 1,
		.lut_data_index = num_luts ? 4 : -1,
		.roi_array_index = -1,
		.surface_index = -1,
		.stat_list_index = -1,
		.reserved1 = -1,
		.op_head = { -1, -1, -1, -1, -1, -1 },
		.num_rois = num_rois,
		.num_operations = num_ops,
		.num_luts = num_luts,
		.num_addresses = 4 + !!num_luts + num_data,
	};
	uint32_t n = (uint32_t)num_ops * num_rois, i;
	struct dla_common_op_desc *graph;
	void *op, *surf;
	char name[32];
	int first = -1;

	graph = gather(b, ops, n, offsetof(struct nvdla_build_op, graph),
		       sizeof(*graph));
	op = gather(b, ops, n, offsetof(struct nvdla_build_op, op),
		    sizeof(ops->op));
	surf = gather(b, ops, n, offsetof(struct nvdla_build_op, surf),
		      sizeof(ops->surf));
	for (i = 0; graph && i < n; i++) {
		graph[i].index = i % num_ops;
		graph[i].roi_index = i / num_ops;
		if (i < num_ops && graph[i].op_type < DLA_OP_NUM &&
		    net.op_head[graph[i].op_type] == -1)
			net.op_head[graph[i].op_type] = i;
	}
	if (graph && op && surf) {
		snprintf(name, sizeof(name), "task-%u-addr0", task);
		first = nvdla_builder_memory(b, name, &net, sizeof(net));
		snprintf(name, sizeof(name), "task-%u-dep_graph", task);
		nvdla_builder_memory(b, name, graph, n * sizeof(*graph));
		snprintf(name, sizeof(name), "task-%u-op_list", task);
		nvdla_builder_memory(b, name, op, n * sizeof(ops->op));
		snprintf(name, sizeof(name), "task-%u-surf_list", task);
		nvdla_builder_memory(b, name, surf, n * sizeof(ops->surf));
		if (num_luts) {
			snprintf(name, sizeof(name), "task-%u-lut_list", task);
			nvdla_builder_memory(b, name, luts,
					     num_luts * sizeof(*luts));
		}
	}
	free(graph);
	free(op);
	free(surf);
	return b->error ? -1 : first;
}

int nvdla_builder_task_rois(struct nvdla_builder *b,
			    const struct nvdla_build_op *ops, uint16_t num_ops,
			    uint16_t num_rois, const struct dla_lut_param *luts,
			    uint16_t num_luts, uint16_t num_data)
{
	if (task_descs(b, 0, ops, num_ops, num_rois, luts, num_luts,
		       num_data) < 0)
		return -1;
	return 4 + !!num_luts;
}

/*
 * Add task @t (its interface set) over @num_own address entries from
 * @first, then the memories @data, and its submit entry.
 */
static int add_task(struct nvdla_builder *b, uint32_t interface, int first,
		    uint16_t num_own, const uint16_t *data, uint16_t num_data)
{
	uint32_t id = b->l.num_tasks, i;
	struct nvdla_lbl_submit *s;
	struct nvdla_lbl_task *t;

	if (first < 0)
		return b->error ? b->error : -EINVAL;
	t = grow(b, (void **)&b->l.tasks, &b->l.num_tasks, sizeof(*t));
	if (!t)
		return b->error;
	t->id = id;
	t->interface = interface;
	t->instance = -1;
	t->num_addresses = num_own + num_data;
	t->address_list = calloc(t->num_addresses, sizeof(*t->address_list));
	if (!t->address_list)
		return b->error = -ENOMEM;
	for (i = 0; i < num_own; i++)
		t->address_list[i] = first + i;
	for (i = 0; i < num_data; i++) {
		if (data[i] >= b->l.num_addresses)
			return b->error = -EINVAL;
		t->address_list[num_own + i] = data[i];
	}
	s = grow(b, (void **)&b->l.submits, &b->l.num_submits, sizeof(*s));
	if (!s)
		return b->error;
	s->id = id;
	s->task_ids = calloc(1, sizeof(*s->task_ids));
	if (!s->task_ids)
		return b->error = -ENOMEM;
	s->task_ids[0] = id;
	s->num_tasks = 1;
	return 0;
}

int nvdla_builder_dla_task(struct nvdla_builder *b,
			   const struct nvdla_build_op *ops, uint16_t num_ops,
			   const struct dla_lut_param *luts, uint16_t num_luts,
			   const uint16_t *data, uint16_t num_data)
{
	int first = task_descs(b, b->l.num_tasks, ops, num_ops, 1, luts,
			       num_luts, num_data);

	return add_task(b, NVDLA_LBL_IF_DLA1, first, 4 + !!num_luts, data,
			num_data);
}

int nvdla_builder_emu_task(struct nvdla_builder *b,
			   const struct nvdla_build_emu *emu,
			   const uint16_t *data, uint16_t num_data)
{
	uint32_t task = b->l.num_tasks;
	char name[32];
	int first;

	snprintf(name, sizeof(name), "task-%u-addr0", task);
	first = nvdla_builder_memory(b, name, emu->net, emu->net_size);
	snprintf(name, sizeof(name), "task-%u-op_list", task);
	nvdla_builder_memory(b, name, emu->ops, emu->ops_size);
	snprintf(name, sizeof(name), "task-%u-op_buf_list", task);
	nvdla_builder_memory(b, name, emu->bufs, emu->bufs_size);
	return add_task(b, NVDLA_LBL_IF_EMU1, first, 3, data, num_data);
}

int nvdla_builder_write(struct nvdla_builder *b, void **buf, size_t *len)
{
	if (b->error)
		return b->error;
	return nvdla_loadable_write(&b->l, buf, len);
}

void nvdla_build_bdma_op(struct nvdla_build_op *op,
			 const struct dla_bdma_transfer_desc *x)
{
	struct dla_bdma_surface_desc *s = &op->surf.bdma_surface;

	nvdla_build_op_init(op, DLA_OP_BDMA);
	op->op.bdma_op.num_transfers = 1;
	s->source_type = DLA_MEM_MC;
	s->destination_type = DLA_MEM_MC;
	s->num_transfers = 1;
	s->transfers[0] = *x;
}

int nvdla_build_bdma_copy(const struct nvdla_bdma_copy *copy, void **buf,
			  size_t *len)
{
	struct dla_bdma_transfer_desc x = copy->transfer;
	struct nvdla_build_op op;
	struct nvdla_builder b;
	int ret;

	x.source_address = 4;
	x.destination_address = 5;
	nvdla_build_bdma_op(&op, &x);

	nvdla_builder_init(&b);
	nvdla_builder_task(&b, &op, 1, NULL, 0, 2);
	if (copy->src)
		nvdla_builder_memory(&b, "bdma-source", copy->src,
				     copy->src_size);
	else
		nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL,
							    copy->src_size),
				   &copy->in, NVDLA_LBL_MEM_INPUT);
	nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL,
						    copy->dst_size),
			   &copy->out, NVDLA_LBL_MEM_OUTPUT);
	ret = nvdla_builder_finish(&b, buf, len);
	nvdla_builder_fini(&b);
	return ret;
}

/* The BDMA transfer of an echo of @t. */
static struct dla_bdma_transfer_desc echo_transfer(const struct nvdla_tensor_desc *t)
{
	return (struct dla_bdma_transfer_desc){
		.line_size = t->stride[1], .line_repeat = t->h,
		.source_line = t->stride[1],
		.destination_line = t->stride[1], .surface_repeat = 1,
		.source_surface = t->size,
		.destination_surface = t->size,
	};
}

int nvdla_build_echo(const struct nvdla_tensor_desc *t, void **buf,
		     size_t *len)
{
	struct nvdla_bdma_copy copy = {
		.transfer = echo_transfer(t),
		.src_size = t->size, .dst_size = t->size, .in = *t, .out = *t,
	};

	return nvdla_build_bdma_copy(&copy, buf, len);
}

int nvdla_builder_copy_task(struct nvdla_builder *b,
			    const struct nvdla_tensor_desc *t, int from, int to)
{
	struct dla_bdma_transfer_desc x = echo_transfer(t);
	const uint16_t data[2] = { (uint16_t)from, (uint16_t)to };
	struct nvdla_build_op op;

	x.source_address = NVDLA_BUILD_DLA_DATA(0);
	x.destination_address = NVDLA_BUILD_DLA_DATA(0) + 1;
	nvdla_build_bdma_op(&op, &x);
	return nvdla_builder_dla_task(b, &op, 1, NULL, 0, data, 2);
}

int nvdla_build_echo_tasks(const struct nvdla_tensor_desc *t,
			   unsigned int num_tasks, void **buf, size_t *len)
{
	struct nvdla_builder b;
	int from, to;
	unsigned int i;
	int ret;

	nvdla_builder_init(&b);
	to = nvdla_builder_memory(&b, NULL, NULL, t->size);
	nvdla_builder_bind(&b, to, t, NVDLA_LBL_MEM_INPUT);
	for (i = 0; i < num_tasks; i++) {
		from = to;
		to = nvdla_builder_memory(&b, NULL, NULL, t->size);
		nvdla_builder_copy_task(&b, t, from, to);
	}
	nvdla_builder_bind(&b, to, t, NVDLA_LBL_MEM_OUTPUT);
	ret = nvdla_builder_write(&b, buf, len);
	nvdla_builder_fini(&b);
	return ret;
}
