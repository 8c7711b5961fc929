// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Loadable writer: the reader's schema walk in reverse. Each table is
 * written before its strings and vectors, so every uoffset points forward.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flatbuf.h"
#include "loadable.h"
#include "loadable_schema.h"

static const void *member(const void *obj, uint16_t off)
{
	return (const char *)obj + off;
}

static uint32_t count_of(const void *obj, const struct lbl_field *f)
{
	return *(const uint32_t *)member(obj, f->count_off);
}

static void write_inline(struct fb_table_builder *tb,
			 const struct lbl_field *f, const void *obj)
{
	uint64_t v = 0;

	switch (f->kind) {
	case LBL_UINT:
		memcpy(&v, member(obj, f->off), f->size);
		fb_table_scalar(tb, f->slot, v, f->size);
		break;
	case LBL_VERSION:
		fb_table_bytes(tb, f->slot, member(obj, f->off), 3, 1);
		break;
	case LBL_STRING:
		if (*(char *const *)member(obj, f->off))
			fb_table_offset(tb, f->slot);
		break;
	default:
		if (count_of(obj, f))
			fb_table_offset(tb, f->slot);
		break;
	}
}

static void write_child(struct fb_builder *b, struct fb_table_builder *tb,
			const struct lbl_field *f, const void *obj)
{
	const void *p;
	uint32_t n, i;
	size_t vec;

	if (f->kind == LBL_UINT || f->kind == LBL_VERSION)
		return;
	p = *(const void *const *)member(obj, f->off);
	n = f->kind == LBL_STRING ? 0 : count_of(obj, f);
	if (f->kind == LBL_STRING && p) {
		fb_table_patch(tb, f->slot, fb_string_new(b, p));
	} else if (f->kind == LBL_VECTOR && n) {
		fb_table_patch(tb, f->slot, fb_vector_scalars(b, p, n, f->size));
	} else if (f->kind == LBL_STRINGS && n) {
		vec = fb_vector_offsets(b, n);
		fb_table_patch(tb, f->slot, vec);
		for (i = 0; i < n; i++)
			fb_vector_patch(b, vec, i,
					fb_string_new(b, ((char *const *)p)[i]));
	}
}

static size_t write_table(struct fb_builder *b, const struct lbl_table *tab,
			  const void *obj)
{
	struct fb_table_builder tb;
	size_t pos;
	uint32_t k;

	fb_table_begin(&tb, b, tab->slots);
	for (k = 0; k < tab->num_fields; k++)
		write_inline(&tb, &tab->fields[k], obj);
	pos = fb_table_end(&tb);
	for (k = 0; k < tab->num_fields; k++)
		write_child(b, &tb, &tab->fields[k], obj);
	return pos;
}

static void write_list(struct fb_builder *b, struct fb_table_builder *root,
		       const struct lbl_list *list,
		       const struct nvdla_loadable *l)
{
	const char *arr = *(const char *const *)member(l, list->off);
	uint32_t count = *(const uint32_t *)member(l, list->count_off), i;
	size_t vec;

	vec = fb_vector_offsets(b, count);
	fb_table_patch(root, list->slot, vec);
	for (i = 0; i < count; i++)
		fb_vector_patch(b, vec, i,
				write_table(b, list->table,
					    arr + (size_t)i * list->table->size));
}

int nvdla_loadable_write(const struct nvdla_loadable *l, void **buf,
			 size_t *len)
{
	struct fb_table_builder root;
	struct fb_builder b;
	int i;

	fb_builder_init(&b);
	fb_builder_start(&b);
	fb_table_begin(&root, &b, LBL_ROOT_SLOTS);
	fb_table_bytes(&root, LBL_VERSION_SLOT, &l->version, 3, 1);
	for (i = 0; i < LBL_NUM_LISTS; i++)
		fb_table_offset(&root, lbl_lists[i].slot);
	fb_builder_root(&b, fb_table_end(&root));
	for (i = 0; i < LBL_NUM_LISTS; i++)
		write_list(&b, &root, &lbl_lists[i], l);

	if (b.err) {
		free(b.data);
		return b.err;
	}
	*buf = b.data;
	*len = b.len;
	return 0;
}
