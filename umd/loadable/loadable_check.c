// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Cross references between a decoded loadable's lists. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "loadable.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* @size bytes at @offset lie inside @total. */
static int fits(uint64_t offset, uint64_t size, uint64_t total)
{
	return offset <= total && size <= total - offset;
}

static int check_memory(const struct nvdla_loadable *l, uint32_t m,
			char *err, size_t errlen)
{
	const struct nvdla_lbl_memory *mem = &l->memories[m];
	const struct nvdla_lbl_blob *blob;
	uint32_t i;

	if (nvdla_loadable_memory(l, mem->id) != mem)
		return fail(err, errlen, "memory_list[%u]: id %u used twice", m,
			    mem->id);
	if (mem->num_offsets != mem->num_contents)
		return fail(err, errlen,
			    "memory_list[%u]: %u contents but %u offsets", m,
			    mem->num_contents, mem->num_offsets);
	for (i = 0; i < mem->num_contents; i++) {
		if (!mem->contents[i][0])
			continue;	/* official files list "" for no content */
		blob = nvdla_loadable_blob(l, mem->contents[i]);
		if (!blob)
			return fail(err, errlen,
				    "memory_list[%u].contents[%u]: no blob '%s'",
				    m, i, mem->contents[i]);
		if (!fits(mem->offsets[i], blob->data_len, mem->size))
			return fail(err, errlen,
				    "memory_list[%u]: blob '%s' (%u bytes at %llu) overruns %llu bytes",
				    m, blob->name, blob->data_len,
				    (unsigned long long)mem->offsets[i],
				    (unsigned long long)mem->size);
	}
	return 0;
}

static int check_bind_ids(const struct nvdla_loadable *l, uint16_t flag,
			  char *err, size_t errlen)
{
	uint32_t i, j;

	for (i = 0; i < l->num_memories; i++) {
		if (!(l->memories[i].flags & flag))
			continue;
		for (j = i + 1; j < l->num_memories; j++)
			if ((l->memories[j].flags & flag) &&
			    l->memories[j].bind_id == l->memories[i].bind_id)
				return fail(err, errlen,
					    "memory_list[%u] and [%u]: same %s bind id %u",
					    i, j, flag == NVDLA_LBL_MEM_INPUT ?
					    "input" : "output",
					    l->memories[i].bind_id);
	}
	return 0;
}

/*
 * An address entry starts inside its memory. The size it records is no
 * bound: the official compiler records the whole memory's size on an entry
 * that points part-way into it, and the official runtime never reads it.
 * What an entry's users reach is checked against the rest of the memory
 * (the firmware's descriptor checks, the CPU tasks, the tensors).
 */
static int check_addresses(const struct nvdla_loadable *l, char *err,
			   size_t errlen)
{
	const struct nvdla_lbl_memory *mem;
	uint32_t i;

	for (i = 0; i < l->num_addresses; i++) {
		const struct nvdla_lbl_address *a = &l->addresses[i];

		mem = nvdla_loadable_memory(l, a->mem_id);
		if (!mem)
			return fail(err, errlen,
				    "address_list[%u]: no memory %u", i,
				    a->mem_id);
		if (a->offset >= mem->size)
			return fail(err, errlen,
				    "address_list[%u]: offset %llu is past the end of memory %u (%llu bytes)",
				    i, (unsigned long long)a->offset, a->mem_id,
				    (unsigned long long)mem->size);
	}
	return 0;
}

static int check_tasks(const struct nvdla_loadable *l, char *err,
		       size_t errlen)
{
	uint32_t i, k, t;

	for (i = 0; i < l->num_tasks; i++)
		for (k = 0; k < l->tasks[i].num_addresses; k++)
			if (l->tasks[i].address_list[k] >= l->num_addresses)
				return fail(err, errlen,
					    "task_list[%u].address_list[%u]: %u past the %u addresses",
					    i, k, l->tasks[i].address_list[k],
					    l->num_addresses);
	for (i = 0; i < l->num_submits; i++) {
		for (k = 0; k < l->submits[i].num_tasks; k++) {
			for (t = 0; t < l->num_tasks; t++)
				if (l->tasks[t].id == l->submits[i].task_ids[k])
					break;
			if (t == l->num_tasks)
				return fail(err, errlen,
					    "submit_list[%u].task_id[%u]: no task %u",
					    i, k, l->submits[i].task_ids[k]);
		}
	}
	return 0;
}

int nvdla_loadable_check(const struct nvdla_loadable *l, char *err,
			 size_t errlen)
{
	uint32_t m;
	int ret;

	for (m = 0; m < l->num_memories; m++) {
		ret = check_memory(l, m, err, errlen);
		if (ret)
			return ret;
	}
	ret = check_bind_ids(l, NVDLA_LBL_MEM_INPUT, err, errlen);
	if (!ret)
		ret = check_bind_ids(l, NVDLA_LBL_MEM_OUTPUT, err, errlen);
	if (!ret)
		ret = check_addresses(l, err, errlen);
	if (!ret)
		ret = check_tasks(l, err, errlen);
	return ret;
}
