/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The loadable schema (nvdla.loadable 0.7.0) as data: for every table, each
 * field's slot, kind and place in the C struct of loadable.h. The reader
 * and the writer both walk these tables, so the schema is stated once.
 */
#ifndef __NVDLA_UMD_LOADABLE_SCHEMA_H__
#define __NVDLA_UMD_LOADABLE_SCHEMA_H__

#include <stddef.h>
#include <stdint.h>

enum lbl_kind {
	LBL_UINT,	/* unsigned or two's complement scalar */
	LBL_STRING,	/* char * */
	LBL_VERSION,	/* struct nvdla_lbl_version, inline */
	LBL_VECTOR,	/* scalar vector: pointer + uint32_t count */
	LBL_STRINGS,	/* vector of strings: char ** + uint32_t count */
};

struct lbl_field {
	const char *name;
	uint8_t slot;
	uint8_t kind;
	uint8_t size;		/* scalar or element size */
	uint16_t off;		/* member in the C struct */
	uint16_t count_off;	/* vectors: the count member */
	int64_t def;		/* scalars: schema default */
};

struct lbl_table {
	const char *name;
	size_t size;		/* C struct size */
	uint8_t slots;		/* vtable entries */
	uint8_t num_fields;
	const struct lbl_field *fields;
};

/* One list of the root table and where struct nvdla_loadable keeps it. */
struct lbl_list {
	uint8_t slot;
	const struct lbl_table *table;
	uint16_t off;		/* array pointer in struct nvdla_loadable */
	uint16_t count_off;	/* its count */
};

#define LBL_ROOT_SLOTS 9
#define LBL_VERSION_SLOT 0
#define LBL_NUM_LISTS 8
#define LBL_MAX_LIST 65536	/* ids are 16-bit */

extern const struct lbl_list lbl_lists[LBL_NUM_LISTS];

#endif /* __NVDLA_UMD_LOADABLE_SCHEMA_H__ */
