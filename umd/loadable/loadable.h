/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The official NVDLA loadable (flatbuffer schema "nvdla.loadable" 0.7.0) as
 * plain C data: nvdla_loadable_parse() checks every offset and length of a
 * file before it reads them and copies what it finds into these structs;
 * nvdla_loadable_write() serialises them back into a file the official
 * runtime can read. Field names follow the schema.
 */
#ifndef __NVDLA_UMD_LOADABLE_H__
#define __NVDLA_UMD_LOADABLE_H__

#include <stddef.h>
#include <stdint.h>

enum nvdla_lbl_interface {
	NVDLA_LBL_IF_NONE = 0,
	NVDLA_LBL_IF_DLA1 = 1,
	NVDLA_LBL_IF_EMU1 = 2,
};

/* MemoryListEntry.flags */
#define NVDLA_LBL_MEM_ALLOC	0x1
#define NVDLA_LBL_MEM_SET	0x2
#define NVDLA_LBL_MEM_INPUT	0x4
#define NVDLA_LBL_MEM_OUTPUT	0x8

/* MemoryListEntry.domain */
#define NVDLA_LBL_DOMAIN_SYSTEM	0
#define NVDLA_LBL_DOMAIN_SRAM	1

struct nvdla_lbl_version {
	uint8_t major;
	uint8_t minor;
	uint8_t sub_minor;
};

struct nvdla_lbl_blob {
	char *name;
	uint64_t size;
	uint32_t interface;
	uint32_t sub_interface;
	struct nvdla_lbl_version version;
	uint8_t *data;
	uint32_t data_len;
};

struct nvdla_lbl_memory {
	uint16_t id;
	uint8_t domain;
	uint16_t flags;
	uint64_t size;
	uint32_t alignment;
	uint32_t num_contents;
	char **contents;	/* blob names */
	uint32_t num_offsets;
	uint64_t *offsets;	/* where each blob goes */
	uint16_t bind_id;
	uint16_t tensor_desc_id;
};

struct nvdla_lbl_address {
	uint16_t id;
	uint16_t mem_id;
	uint64_t offset;
	uint64_t size;
};

struct nvdla_lbl_event {
	uint16_t id;
	uint8_t type;
	uint16_t target;
	uint32_t val;
	uint8_t op;
};

struct nvdla_lbl_task {
	uint16_t id;
	uint32_t interface;	/* enum nvdla_lbl_interface */
	int16_t instance;
	uint32_t num_addresses;
	uint16_t *address_list;	/* indices into nvdla_loadable.addresses */
	uint32_t num_pre_actions;
	uint16_t *pre_actions;
	uint32_t num_post_actions;
	uint16_t *post_actions;
};

struct nvdla_lbl_submit {
	uint16_t id;
	uint32_t num_tasks;
	uint16_t *task_ids;
};

struct nvdla_lbl_tensor_desc {
	char *name;
	uint16_t id;
	uint16_t mem_id;
	uint64_t size;
	uint64_t offset;
	uint8_t data_format;
	uint8_t data_type;
	uint8_t data_category;
	uint8_t pixel_format;
	uint8_t pixel_mapping;
	int32_t n, c, h, w;
	uint32_t stride[8];
};

struct nvdla_lbl_reloc {
	uint16_t address_id;
	uint16_t write_id;
	uint64_t offset;
	uint32_t interface;
	uint32_t sub_interface;
	uint8_t reloc_type;
};

struct nvdla_loadable {
	struct nvdla_lbl_version version;
	uint32_t num_tasks;
	struct nvdla_lbl_task *tasks;
	uint32_t num_memories;
	struct nvdla_lbl_memory *memories;
	uint32_t num_addresses;
	struct nvdla_lbl_address *addresses;
	uint32_t num_events;
	struct nvdla_lbl_event *events;
	uint32_t num_blobs;
	struct nvdla_lbl_blob *blobs;
	uint32_t num_tensor_descs;
	struct nvdla_lbl_tensor_desc *tensor_descs;
	uint32_t num_relocs;
	struct nvdla_lbl_reloc *relocs;
	uint32_t num_submits;
	struct nvdla_lbl_submit *submits;
};

/*
 * Decode @len bytes at @buf. On success *@out owns copies of everything
 * (free with nvdla_loadable_free) and 0 is returned. On failure returns
 * -EINVAL (malformed: an offset, length, vtable or string out of bounds or
 * inconsistent) or -ENOMEM, and writes a message naming the table and field
 * into @err (@errlen bytes, always NUL-terminated).
 *
 * Only the flatbuffer structure is checked here; what the lists mean (ids,
 * cross references) is checked by nvdla_loadable_check().
 */
int nvdla_loadable_parse(const void *buf, size_t len,
			 struct nvdla_loadable **out, char *err, size_t errlen);

/*
 * Check the cross references: every address entry names an existing memory
 * and lies inside it, every task address index exists, every blob named by
 * a memory exists and fits at its offset, submit entries name existing
 * tasks, bind ids are unique per direction. Returns 0 or -EINVAL with @err.
 */
int nvdla_loadable_check(const struct nvdla_loadable *l, char *err,
			 size_t errlen);

/* Look a memory entry / blob up by id / name; NULL if absent. */
const struct nvdla_lbl_memory *
nvdla_loadable_memory(const struct nvdla_loadable *l, uint16_t id);
const struct nvdla_lbl_blob *
nvdla_loadable_blob(const struct nvdla_loadable *l, const char *name);

/*
 * Serialise @l into a new buffer (*@buf, *@len; free() it). Returns 0 or
 * -ENOMEM / -EINVAL.
 */
int nvdla_loadable_write(const struct nvdla_loadable *l, void **buf,
			 size_t *len);

/* Free what @l holds and zero it; nvdla_loadable_free() also frees @l. */
void nvdla_loadable_clear(struct nvdla_loadable *l);
void nvdla_loadable_free(struct nvdla_loadable *l);

#endif /* __NVDLA_UMD_LOADABLE_H__ */
