// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Loadable reader: walks the schema tables over a bounded flatbuffer
 * reader, copying every field into the structs of loadable.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flatbuf.h"
#include "loadable.h"
#include "loadable_schema.h"

#define PATH_MAX_LEN 96

static void *member(void *obj, uint16_t off)
{
	return (char *)obj + off;
}

/* @v into the @size-byte integer at @dst, in the host's order. */
static void store_uint(void *dst, uint64_t v, uint32_t size)
{
	switch (size) {
	case 1:
		*(uint8_t *)dst = v;
		break;
	case 2:
		*(uint16_t *)dst = v;
		break;
	case 4:
		*(uint32_t *)dst = v;
		break;
	default:
		*(uint64_t *)dst = v;
	}
}

static int parse_vector(struct fb_reader *r, const struct fb_table *t,
			const struct lbl_field *f, void *obj, const char *path)
{
	uint32_t count, i;
	size_t data;
	uint8_t *arr;
	int ret;

	ret = fb_vector(r, t, f->slot, f->size, &data, &count, path);
	if (ret || !count)
		return ret;
	arr = malloc((size_t)count * f->size);
	if (!arr)
		return -ENOMEM;
	/* bytes, or a host of the file's order: one copy (blobs are MBs) */
	if (f->size == 1 || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
		memcpy(arr, r->buf + data, (size_t)count * f->size);
	else
		for (i = 0; i < count; i++)
			store_uint(arr + (size_t)i * f->size,
				   fb_read_le(r->buf + data + (size_t)i * f->size,
					      f->size), f->size);
	*(void **)member(obj, f->off) = arr;
	*(uint32_t *)member(obj, f->count_off) = count;
	return 0;
}

static int parse_strings(struct fb_reader *r, const struct fb_table *t,
			 const struct lbl_field *f, void *obj, const char *path)
{
	char elem[PATH_MAX_LEN + 16];
	uint32_t count, i;
	size_t data;
	char **arr;
	int ret;

	ret = fb_vector(r, t, f->slot, 4, &data, &count, path);
	if (ret || !count)
		return ret;
	arr = calloc(count, sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	*(char ***)member(obj, f->off) = arr;
	*(uint32_t *)member(obj, f->count_off) = count;
	for (i = 0; i < count; i++) {
		snprintf(elem, sizeof(elem), "%s[%u]", path, i);
		ret = fb_string_at(r, data + 4 * (size_t)i, &arr[i], elem);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_field(struct fb_reader *r, const struct fb_table *t,
		       const struct lbl_field *f, void *obj, const char *path)
{
	uint64_t v;
	size_t at;
	int ret;

	switch (f->kind) {
	case LBL_UINT:
		ret = fb_uint(r, t, f->slot, f->size, f->def, &v, path);
		if (!ret)
			store_uint(member(obj, f->off), v, f->size);
		return ret;
	case LBL_STRING:
		return fb_string(r, t, f->slot, member(obj, f->off), path);
	case LBL_VERSION:
		ret = fb_field(r, t, f->slot, 3, &at, path);
		if (!ret && at)
			memcpy(member(obj, f->off), r->buf + at, 3);
		return ret;
	case LBL_VECTOR:
		return parse_vector(r, t, f, obj, path);
	default:
		return parse_strings(r, t, f, obj, path);
	}
}

static int parse_list(struct fb_reader *r, const struct fb_table *root,
		      const struct lbl_list *list, struct nvdla_loadable *l)
{
	const struct lbl_table *tab = list->table;
	char path[PATH_MAX_LEN];
	struct fb_table t;
	uint32_t count, i, k;
	size_t data;
	char *arr;
	int ret;

	ret = fb_vector(r, root, list->slot, 4, &data, &count, tab->name);
	if (ret || !count)
		return ret;
	if (count > LBL_MAX_LIST) {
		snprintf(r->err, r->errlen, "%s: %u entries, at most %u",
			 tab->name, count, LBL_MAX_LIST);
		return -EINVAL;
	}
	arr = calloc(count, tab->size);
	if (!arr)
		return -ENOMEM;
	*(void **)member(l, list->off) = arr;
	*(uint32_t *)member(l, list->count_off) = count;

	for (i = 0; i < count; i++) {
		void *obj = arr + (size_t)i * tab->size;

		snprintf(path, sizeof(path), "%s[%u]", tab->name, i);
		ret = fb_table_at(r, data + 4 * (size_t)i, &t, path);
		for (k = 0; !ret && k < tab->num_fields; k++) {
			const struct lbl_field *f = &tab->fields[k];

			snprintf(path, sizeof(path), "%s[%u].%s", tab->name, i,
				 f->name);
			ret = parse_field(r, &t, f, obj, path);
		}
		if (ret)
			return ret;
	}
	return 0;
}

int nvdla_loadable_parse(const void *buf, size_t len,
			 struct nvdla_loadable **out, char *err, size_t errlen)
{
	struct fb_reader r = { buf, len, err, errlen };
	struct nvdla_loadable *l;
	struct fb_table root;
	size_t at;
	int i, ret;

	*out = NULL;
	err[0] = '\0';
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;

	ret = fb_table_at(&r, 0, &root, "root");
	if (!ret)
		ret = fb_field(&r, &root, LBL_VERSION_SLOT, 3, &at, "version");
	if (!ret && !at) {
		snprintf(err, errlen, "version: missing");
		ret = -EINVAL;
	}
	if (!ret)
		memcpy(&l->version, r.buf + at, 3);
	for (i = 0; !ret && i < LBL_NUM_LISTS; i++)
		ret = parse_list(&r, &root, &lbl_lists[i], l);

	if (ret) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		nvdla_loadable_free(l);
		return ret;
	}
	*out = l;
	return 0;
}

static void free_fields(const struct lbl_table *tab, void *obj)
{
	uint32_t k, i;

	for (k = 0; k < tab->num_fields; k++) {
		const struct lbl_field *f = &tab->fields[k];
		void **p = member(obj, f->off);

		if (f->kind == LBL_STRINGS && *p)
			for (i = 0; i < *(uint32_t *)member(obj, f->count_off); i++)
				free(((char **)*p)[i]);
		if (f->kind == LBL_STRING || f->kind == LBL_VECTOR ||
		    f->kind == LBL_STRINGS)
			free(*p);
	}
}

void nvdla_loadable_clear(struct nvdla_loadable *l)
{
	int i;
	uint32_t n;

	for (i = 0; i < LBL_NUM_LISTS; i++) {
		const struct lbl_list *list = &lbl_lists[i];
		char *arr = *(char **)member(l, list->off);
		uint32_t count = *(uint32_t *)member(l, list->count_off);

		for (n = 0; arr && n < count; n++)
			free_fields(list->table, arr + (size_t)n * list->table->size);
		free(arr);
	}
	memset(l, 0, sizeof(*l));
}

void nvdla_loadable_free(struct nvdla_loadable *l)
{
	if (!l)
		return;
	nvdla_loadable_clear(l);
	free(l);
}

const struct nvdla_lbl_memory *
nvdla_loadable_memory(const struct nvdla_loadable *l, uint16_t id)
{
	uint32_t i;

	for (i = 0; i < l->num_memories; i++)
		if (l->memories[i].id == id)
			return &l->memories[i];
	return NULL;
}

const struct nvdla_lbl_blob *
nvdla_loadable_blob(const struct nvdla_loadable *l, const char *name)
{
	uint32_t i;

	for (i = 0; i < l->num_blobs; i++)
		if (l->blobs[i].name && !strcmp(l->blobs[i].name, name))
			return &l->blobs[i];
	return NULL;
}
