// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Bounded flatbuffer reader and front-to-back builder (see flatbuf.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flatbuf.h"

static int fb_fail(struct fb_reader *r, const char *what, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = snprintf(r->err, r->errlen, "%s: ", what);
	if (n < r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err + n, r->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

uint64_t fb_read_le(const uint8_t *p, size_t size)
{
	uint64_t v = 0;

	while (size--)
		v = v << 8 | p[size];
	return v;
}

/* @size bytes at @pos lie inside the buffer. */
static int fb_inside(const struct fb_reader *r, size_t pos, size_t size)
{
	return pos <= r->len && size <= r->len - pos;
}

/* Follow the uoffset stored at @at. */
static int fb_deref(struct fb_reader *r, size_t at, size_t *target,
		    const char *what)
{
	uint64_t off;

	if (!fb_inside(r, at, 4))
		return fb_fail(r, what, "offset at %zu out of bounds", at);
	off = fb_read_le(r->buf + at, 4);
	if (off > r->len - at)
		return fb_fail(r, what, "offset %llu at %zu points past the end",
			       (unsigned long long)off, at);
	*target = at + off;
	return 0;
}

int fb_table_at(struct fb_reader *r, size_t at, struct fb_table *t,
		const char *what)
{
	int64_t soff;
	int ret;

	ret = fb_deref(r, at, &t->pos, what);
	if (ret)
		return ret;
	if (!fb_inside(r, t->pos, 4))
		return fb_fail(r, what, "table at %zu out of bounds", t->pos);
	soff = (int32_t)fb_read_le(r->buf + t->pos, 4);
	if ((int64_t)t->pos - soff < 0 ||
	    (int64_t)t->pos - soff > (int64_t)r->len - 4)
		return fb_fail(r, what, "vtable out of bounds");
	t->vt = t->pos - soff;
	t->vt_size = fb_read_le(r->buf + t->vt, 2);
	t->size = fb_read_le(r->buf + t->vt + 2, 2);
	if (t->vt_size < 4 || t->vt_size % 2 || !fb_inside(r, t->vt, t->vt_size))
		return fb_fail(r, what, "vtable of %u bytes out of bounds",
			       t->vt_size);
	if (t->size < 4 || !fb_inside(r, t->pos, t->size))
		return fb_fail(r, what, "table of %u bytes out of bounds",
			       t->size);
	return 0;
}

int fb_field(struct fb_reader *r, const struct fb_table *t, int slot,
	     size_t size, size_t *at, const char *what)
{
	size_t entry = 4 + 2 * (size_t)slot;
	uint16_t off;

	*at = 0;
	if (entry + 2 > t->vt_size)
		return 0;
	off = fb_read_le(r->buf + t->vt + entry, 2);
	if (!off)
		return 0;
	/*
	 * Within the buffer, not within the vtable's table size: flatc 1.6
	 * records a size that leaves out a trailing struct field.
	 */
	if (off < 4 || !fb_inside(r, t->pos + off, size))
		return fb_fail(r, what, "field out of bounds");
	*at = t->pos + off;
	return 0;
}

int fb_uint(struct fb_reader *r, const struct fb_table *t, int slot,
	    size_t size, uint64_t def, uint64_t *val, const char *what)
{
	size_t at;
	int ret = fb_field(r, t, slot, size, &at, what);

	if (ret)
		return ret;
	*val = at ? fb_read_le(r->buf + at, size) : def;
	return 0;
}

int fb_vector(struct fb_reader *r, const struct fb_table *t, int slot,
	      size_t elem, size_t *data, uint32_t *count, const char *what)
{
	size_t at, vec;
	int ret;

	*count = 0;
	*data = 0;
	ret = fb_field(r, t, slot, 4, &at, what);
	if (ret || !at)
		return ret;
	ret = fb_deref(r, at, &vec, what);
	if (ret)
		return ret;
	if (!fb_inside(r, vec, 4))
		return fb_fail(r, what, "vector length out of bounds");
	*count = fb_read_le(r->buf + vec, 4);
	if ((uint64_t)*count * elem > r->len - vec - 4)
		return fb_fail(r, what, "vector of %u elements out of bounds",
			       *count);
	*data = vec + 4;
	return 0;
}

int fb_string_at(struct fb_reader *r, size_t at, char **out, const char *what)
{
	size_t s;
	uint32_t n;
	int ret;

	*out = NULL;
	ret = fb_deref(r, at, &s, what);
	if (ret)
		return ret;
	if (!fb_inside(r, s, 4))
		return fb_fail(r, what, "string out of bounds");
	n = fb_read_le(r->buf + s, 4);
	if ((uint64_t)n + 1 > r->len - s - 4)
		return fb_fail(r, what, "string out of bounds");
	if (r->buf[s + 4 + n] || memchr(r->buf + s + 4, 0, n))
		return fb_fail(r, what, "string not terminated where its length says");
	*out = malloc(n + 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, r->buf + s + 4, n + 1);
	return 0;
}

int fb_string(struct fb_reader *r, const struct fb_table *t, int slot,
	      char **out, const char *what)
{
	size_t at;
	int ret;

	*out = NULL;
	ret = fb_field(r, t, slot, 4, &at, what);
	if (ret || !at)
		return ret;
	return fb_string_at(r, at, out, what);
}

/* Builder */

void fb_builder_init(struct fb_builder *b)
{
	memset(b, 0, sizeof(*b));
}

static uint8_t *fb_grow(struct fb_builder *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->err)
		return NULL;
	if (n > b->cap - b->len) {
		cap = b->cap ? b->cap : 256;
		while (cap - b->len < n)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		memset(p + b->cap, 0, cap - b->cap);
		b->data = p;
		b->cap = cap;
	}
	p = b->data + b->len;
	b->len += n;
	return p;
}

/* Pad so that position + @bias is a multiple of @align. */
static void fb_align(struct fb_builder *b, size_t align, size_t bias)
{
	fb_grow(b, (align - (b->len + bias) % align) % align);
}

static void fb_put_le(uint8_t *p, uint64_t v, size_t size)
{
	while (size--) {
		*p++ = v;
		v >>= 8;
	}
}

static size_t fb_put(struct fb_builder *b, const void *p, size_t n)
{
	size_t pos = b->len;
	uint8_t *dst = fb_grow(b, n);

	if (dst && n)
		memcpy(dst, p, n);
	return pos;
}

void fb_builder_start(struct fb_builder *b)
{
	fb_grow(b, 8);	/* root uoffset, padded so tables start 8-aligned */
}

void fb_builder_root(struct fb_builder *b, size_t table)
{
	if (!b->err)
		fb_put_le(b->data, table, 4);
}

void fb_table_begin(struct fb_table_builder *t, struct fb_builder *b,
		    int slots)
{
	memset(t, 0, sizeof(*t));
	t->b = b;
	t->slots = slots;
	t->size = 8;	/* soffset, padded: the inline data is 8-aligned */
	if (slots > FB_MAX_SLOTS)
		b->err = -EINVAL;
}

static uint8_t *fb_table_slot(struct fb_table_builder *t, int slot,
			      size_t size, size_t align)
{
	size_t at = (t->size + align - 1) / align * align;

	if (slot >= t->slots || at + size > FB_MAX_INLINE) {
		t->b->err = -EINVAL;
		return NULL;
	}
	t->off[slot] = at;
	t->size = at + size;
	return t->inline_data + at;
}

void fb_table_scalar(struct fb_table_builder *t, int slot, uint64_t val,
		     size_t size)
{
	uint8_t *p = fb_table_slot(t, slot, size, size);

	if (p)
		fb_put_le(p, val, size);
}

void fb_table_bytes(struct fb_table_builder *t, int slot, const void *p,
		    size_t size, size_t align)
{
	uint8_t *dst = fb_table_slot(t, slot, size, align);

	if (dst)
		memcpy(dst, p, size);
}

void fb_table_offset(struct fb_table_builder *t, int slot)
{
	fb_table_slot(t, slot, 4, 4);
}

size_t fb_table_end(struct fb_table_builder *t)
{
	struct fb_builder *b = t->b;
	size_t vt_size = 4 + 2 * t->slots, vt;
	uint8_t *p;
	int i;

	fb_align(b, 2, 0);
	vt = b->len;
	p = fb_grow(b, vt_size);
	if (p) {
		fb_put_le(p, vt_size, 2);
		fb_put_le(p + 2, t->size, 2);
		for (i = 0; i < t->slots; i++)
			fb_put_le(p + 4 + 2 * i, t->off[i], 2);
	}
	fb_align(b, 8, 0);
	t->pos = b->len;
	fb_put_le(t->inline_data, t->pos - vt, 4);
	fb_put(b, t->inline_data, t->size);
	return t->pos;
}

void fb_table_patch(struct fb_table_builder *t, int slot, size_t target)
{
	size_t at = t->pos + t->off[slot];

	if (!t->b->err)
		fb_put_le(t->b->data + at, target - at, 4);
}

size_t fb_string_new(struct fb_builder *b, const char *s)
{
	size_t n = strlen(s), pos;
	uint8_t len[4];

	fb_align(b, 4, 0);
	fb_put_le(len, n, 4);
	pos = fb_put(b, len, 4);
	fb_put(b, s, n + 1);
	return pos;
}

size_t fb_vector_scalars(struct fb_builder *b, const void *data,
			 uint32_t count, size_t elem)
{
	uint8_t len[4];
	size_t pos, i;
	uint8_t *p;

	/* The length is 4-aligned, the elements aligned to their size. */
	fb_align(b, elem > 4 ? elem : 4, 4);
	fb_put_le(len, count, 4);
	pos = fb_put(b, len, 4);
	p = fb_grow(b, (size_t)count * elem);
	for (i = 0; p && i < count; i++)
		fb_put_le(p + i * elem,
			  fb_read_le((const uint8_t *)data + i * elem, elem),
			  elem);
	return pos;
}

size_t fb_vector_offsets(struct fb_builder *b, uint32_t count)
{
	uint8_t len[4];
	size_t pos;

	fb_align(b, 4, 0);
	fb_put_le(len, count, 4);
	pos = fb_put(b, len, 4);
	fb_grow(b, (size_t)count * 4);
	return pos;
}

void fb_vector_patch(struct fb_builder *b, size_t vec, uint32_t i,
		     size_t target)
{
	size_t at = vec + 4 + 4 * (size_t)i;

	if (!b->err)
		fb_put_le(b->data + at, target - at, 4);
}
