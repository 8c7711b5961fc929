// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The memory a recorded task touched: each page copied when the engines
 * first touch it (so as it was when the task started: nothing else writes
 * the task's buffers while it runs), with a bit per byte they write.
 */
#include <stdlib.h>
#include <string.h>

#include "record_internal.h"

static size_t slot_of(const struct rec_pages *p, uint64_t addr)
{
	uint64_t h = addr / REC_PAGE * 0x9e3779b97f4a7c15ull;

	return (h >> 20) & (p->cap - 1);
}

static struct rec_page **find(struct rec_pages *p, uint64_t addr)
{
	size_t i = slot_of(p, addr);

	while (p->slot[i] && p->slot[i]->addr != addr)
		i = (i + 1) & (p->cap - 1);
	return &p->slot[i];
}

/* Keep at most half of the slots used. */
static bool grow(struct rec_pages *p)
{
	struct rec_pages bigger = { .cap = p->cap ? p->cap * 2 : 1024 };
	size_t i;

	if (p->count + 1 <= p->cap / 2)
		return true;
	bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
	if (!bigger.slot)
		return false;
	for (i = 0; i < p->cap; i++)
		if (p->slot[i])
			*find(&bigger, p->slot[i]->addr) = p->slot[i];
	free(p->slot);
	p->slot = bigger.slot;
	p->cap = bigger.cap;
	return true;
}

static struct rec_page *page_get(struct rec_pages *p, uint64_t addr,
				 const uint8_t *host)
{
	struct rec_page **s, *pg;

	if (p->cap) {
		s = find(p, addr);
		if (*s)
			return *s;
	}
	if (!grow(p))
		return NULL;
	pg = calloc(1, sizeof(*pg));
	if (!pg)
		return NULL;
	pg->addr = addr;
	pg->host = host;
	memcpy(pg->initial, host, REC_PAGE);
	*find(p, addr) = pg;
	p->count++;
	return pg;
}

static void mark_written(struct rec_page *pg, uint32_t from, uint32_t to)
{
	for (; from < to && from % 8; from++)
		pg->written[from / 8] |= 1u << from % 8;
	if (to - from >= 8) {
		memset(&pg->written[from / 8], 0xff, (to - from) / 8);
		from += (to - from) / 8 * 8;
	}
	for (; from < to; from++)
		pg->written[from / 8] |= 1u << from % 8;
}

void rec_pages_touch(struct rec_pages *p, uint64_t addr, uint64_t len,
		     const uint8_t *host, bool write)
{
	uint64_t end = addr + len, base = addr - addr % REC_PAGE, a;
	const uint8_t *host_base = host - addr % REC_PAGE;

	for (a = base; a < end && !p->oom; a += REC_PAGE) {
		struct rec_page *pg = page_get(p, a, host_base + (a - base));
		uint64_t from = a > addr ? a : addr;
		uint64_t to = end < a + REC_PAGE ? end : a + REC_PAGE;

		if (!pg)
			p->oom = true;
		else if (write)
			mark_written(pg, from - a, to - a);
	}
}

static int by_addr(const void *a, const void *b)
{
	const struct rec_page *x = *(struct rec_page *const *)a;
	const struct rec_page *y = *(struct rec_page *const *)b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct rec_page **rec_pages_sorted(struct rec_pages *p)
{
	struct rec_page **out;
	size_t i, n = 0;

	if (!p->count)
		return NULL;
	out = malloc(p->count * sizeof(*out));
	if (!out) {
		p->oom = true;
		return NULL;
	}
	for (i = 0; i < p->cap; i++)
		if (p->slot[i])
			out[n++] = p->slot[i];
	qsort(out, n, sizeof(*out), by_addr);
	return out;
}

void rec_pages_clear(struct rec_pages *p)
{
	size_t i;

	for (i = 0; i < p->cap; i++)
		free(p->slot[i]);
	free(p->slot);
	*p = (struct rec_pages){ 0 };
}

bool rec_page_written(const struct rec_page *pg, uint32_t off)
{
	return pg->written[off / 8] >> off % 8 & 1;
}

/* Append [addr, end) to the regions, joining it to the last if close. */
static bool add_run(struct rec_region **r, size_t *n, size_t *cap,
		    uint64_t addr, uint64_t end, uint64_t gap,
		    uint64_t touched_from)
{
	struct rec_region *last = *n ? &(*r)[*n - 1] : NULL;

	if (last && addr - (last->addr + last->len) < gap &&
	    last->addr + last->len >= touched_from) {
		last->len = end - last->addr;
		return true;
	}
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct rec_region *m = realloc(*r, c * sizeof(**r));

		if (!m)
			return false;
		*r = m;
		*cap = c;
	}
	(*r)[(*n)++] = (struct rec_region){ addr, end - addr };
	return true;
}

struct rec_region *rec_written_regions(struct rec_page **pages, size_t n,
				       uint64_t gap, size_t *count)
{
	struct rec_region *r = NULL;
	uint64_t touched_from = 0;	/* start of the current page run */
	size_t cap = 0, i;

	*count = 0;
	for (i = 0; i < n; i++) {
		const struct rec_page *pg = pages[i];
		uint32_t off = 0;

		if (!i || pages[i - 1]->addr + REC_PAGE != pg->addr)
			touched_from = pg->addr;
		while (off < REC_PAGE) {
			uint32_t end;

			while (off < REC_PAGE && !rec_page_written(pg, off))
				off++;
			if (off == REC_PAGE)
				break;
			for (end = off; end < REC_PAGE &&
			     rec_page_written(pg, end); end++)
				;
			if (!add_run(&r, count, &cap, pg->addr + off,
				     pg->addr + end, gap, touched_from)) {
				free(r);
				*count = 0;
				return NULL;
			}
			off = end;
		}
	}
	return r;
}

void rec_region_bytes(struct rec_page **pages, size_t n,
		      const struct rec_region *r, bool initial, uint8_t *dst)
{
	uint64_t a = r->addr, end = r->addr + r->len;
	size_t lo = 0, hi = n;

	while (lo < hi) {	/* the page holding the region's first byte */
		size_t mid = (lo + hi) / 2;

		if (pages[mid]->addr + REC_PAGE <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; a < end && lo < n; lo++) {
		const struct rec_page *pg = pages[lo];
		uint64_t off = a - pg->addr;
		uint64_t k = end - a < REC_PAGE - off ? end - a : REC_PAGE - off;

		memcpy(dst, (initial ? pg->initial : pg->host) + off, k);
		dst += k;
		a += k;
	}
}
