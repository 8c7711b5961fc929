/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Flatbuffers, the little that loadables need: a reader that checks every
 * offset, vtable, vector and string against the buffer before it reads,
 * and a builder that writes front to back (children after their parents,
 * so every uoffset points forward as the format requires).
 */
#ifndef __NVDLA_UMD_FLATBUF_H__
#define __NVDLA_UMD_FLATBUF_H__

#include <stddef.h>
#include <stdint.h>

/* Reader. Every function returns 0 or -EINVAL with fb->err set. */
struct fb_reader {
	const uint8_t *buf;
	size_t len;
	char *err;
	size_t errlen;
};

struct fb_table {
	size_t pos;		/* table start */
	size_t vt;		/* its vtable */
	uint16_t vt_size;
	uint16_t size;		/* inline size of the table */
};

/* The table that the uoffset at @at points to. */
int fb_table_at(struct fb_reader *r, size_t at, struct fb_table *t,
		const char *what);

/*
 * Locate field @slot of @t, which must hold @size bytes inside the table.
 * *@at is 0 when the field is absent.
 */
int fb_field(struct fb_reader *r, const struct fb_table *t, int slot,
	     size_t size, size_t *at, const char *what);

/* A scalar field; @def when absent. Little-endian, any alignment. */
int fb_uint(struct fb_reader *r, const struct fb_table *t, int slot,
	    size_t size, uint64_t def, uint64_t *val, const char *what);

/*
 * A vector field of @count elements of @elem bytes starting at *@data;
 * an absent vector has count 0.
 */
int fb_vector(struct fb_reader *r, const struct fb_table *t, int slot,
	      size_t elem, size_t *data, uint32_t *count, const char *what);

/* The string that the uoffset at @at points to, as a new C string. */
int fb_string_at(struct fb_reader *r, size_t at, char **out,
		 const char *what);

/* A string field (NULL when absent). */
int fb_string(struct fb_reader *r, const struct fb_table *t, int slot,
	      char **out, const char *what);

uint64_t fb_read_le(const uint8_t *p, size_t size);

/* Builder. Failures are sticky in b->err and reported by the caller. */
struct fb_builder {
	uint8_t *data;
	size_t len, cap;
	int err;
};

#define FB_MAX_SLOTS 24
#define FB_MAX_INLINE 256

struct fb_table_builder {
	struct fb_builder *b;
	int slots;
	uint16_t off[FB_MAX_SLOTS];	/* field offset in the table, 0: absent */
	uint8_t inline_data[FB_MAX_INLINE];
	uint16_t size;
	size_t pos;			/* table position once ended */
};

void fb_builder_init(struct fb_builder *b);
/* Reserve the root uoffset; fb_builder_root() fills it in. */
void fb_builder_start(struct fb_builder *b);
void fb_builder_root(struct fb_builder *b, size_t table);

void fb_table_begin(struct fb_table_builder *t, struct fb_builder *b,
		    int slots);
void fb_table_scalar(struct fb_table_builder *t, int slot, uint64_t val,
		     size_t size);
void fb_table_bytes(struct fb_table_builder *t, int slot, const void *p,
		    size_t size, size_t align);
void fb_table_offset(struct fb_table_builder *t, int slot);
/* Write the vtable and the table; returns the table's position. */
size_t fb_table_end(struct fb_table_builder *t);
/* Point offset field @slot of an ended table at @target. */
void fb_table_patch(struct fb_table_builder *t, int slot, size_t target);

size_t fb_string_new(struct fb_builder *b, const char *s);
size_t fb_vector_scalars(struct fb_builder *b, const void *data,
			 uint32_t count, size_t elem);
/* A vector of @count uoffsets, filled in with fb_vector_patch(). */
size_t fb_vector_offsets(struct fb_builder *b, uint32_t count);
void fb_vector_patch(struct fb_builder *b, size_t vec, uint32_t i,
		     size_t target);

#endif /* __NVDLA_UMD_FLATBUF_H__ */
