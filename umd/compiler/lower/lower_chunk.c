// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Memories no larger than a device gives. The constants and the activation
 * pool are each one space of offsets while the graph is lowered; a space
 * is cut into memories of at most NVC_MEM_MAX bytes (a block never spans
 * two), and at emission every descriptor's (slot, offset) is moved to the
 * memory holding it.
 */
#include <errno.h>
#include <stdlib.h>

#include "lower_internal.h"

static int chunk_push(struct nvc_chunks *c, uint64_t start)
{
	uint64_t *p = realloc(c->start, (c->n + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	c->start = p;
	c->start[c->n++] = start;
	return 0;
}

/*
 * Make the block [@off, @off + @size), laid after every other, lie in one
 * memory: the last one, or a new one starting at @off when the last would
 * grow past NVC_MEM_MAX. A block larger than that has a memory alone.
 */
int nvc_chunk_fit(struct nvc_chunks *c, uint64_t off, uint64_t size)
{
	uint64_t last;

	if (!c->n && chunk_push(c, 0))
		return -ENOMEM;
	last = c->start[c->n - 1];
	if (off == last || off + size - last <= NVC_MEM_MAX)
		return 0;
	return chunk_push(c, off);
}

/* Whether a memory starts inside the block (which reuse must not span). */
bool nvc_chunk_crosses(const struct nvc_chunks *c, uint64_t off,
		       uint64_t size)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->start[i] > off && c->start[i] < off + size)
			return true;
	return false;
}

int nvc_chunk_index(const struct nvc_chunks *c, uint64_t off)
{
	int i = c->n - 1;

	while (i > 0 && c->start[i] > off)
		i--;
	return i;
}

uint64_t nvc_chunk_size(const struct nvc_chunks *c, int i, uint64_t total)
{
	return (i + 1 < c->n ? c->start[i + 1] : total) - c->start[i];
}

/*
 * The memory slot of (@slot, *@offset) once the spaces are cut, and the
 * offset in it: chunk 0 of the constants and of the pool keep their
 * slots, the others follow the inputs and outputs, constants first.
 */
int nvc_chunk_slot(const struct nvc_lower *L, int slot, uint32_t *offset)
{
	const struct nvc_chunks *c;
	int base = NVC_SLOT_IO + L->g->num_inputs + L->g->num_outputs, i;

	if (slot == NVC_SLOT_CONST) {
		c = &L->consts.chunks;
	} else if (slot == NVC_SLOT_POOL) {
		c = &L->pool.chunks;
		base += L->consts.chunks.n - 1;
	} else {
		return slot;
	}
	i = nvc_chunk_index(c, *offset);
	*offset -= (uint32_t)c->start[i];
	return i ? base + i - 1 : slot;
}
