/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The recorder's parts: the recording (record.c), touched memory
 * (record_mem.c), the trace formats (record_format.c).
 */
#ifndef __NVDLA_UMD_RECORD_INTERNAL_H__
#define __NVDLA_UMD_RECORD_INTERNAL_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REC_PAGE 4096u

/* A page the engines touched in the task: as it was before, what they wrote. */
struct rec_page {
	uint64_t addr;
	const uint8_t *host;		/* the host's view, for the final bytes */
	uint8_t written[REC_PAGE / 8];	/* one bit a byte */
	uint8_t initial[REC_PAGE];
};

struct rec_pages {
	struct rec_page **slot;		/* open addressing on the page number */
	size_t cap, count;
	bool oom;
};

void rec_pages_touch(struct rec_pages *p, uint64_t addr, uint64_t len,
		     const uint8_t *host, bool write);
/* The pages in address order (a new array, NULL with p->oom if none). */
struct rec_page **rec_pages_sorted(struct rec_pages *p);
void rec_pages_clear(struct rec_pages *p);
bool rec_page_written(const struct rec_page *pg, uint32_t off);

/* A region of the trace: loaded before a task, or checked after it. */
struct rec_region {
	uint64_t addr, len;
};

/*
 * Byte runs the engines wrote, joined across gaps shorter than @gap whose
 * bytes all lie in touched pages (their bytes are loaded, so they compare
 * equal); a new array of *@n regions, NULL when none or out of memory.
 */
struct rec_region *rec_written_regions(struct rec_page **pages, size_t n,
				       uint64_t gap, size_t *count);
/* Copy the bytes of @r (in @pages, final or @initial) to @dst. */
void rec_region_bytes(struct rec_page **pages, size_t n,
		      const struct rec_region *r, bool initial, uint8_t *dst);

/* One register access or interrupt wait of the firmware. */
enum rec_event_type { REC_WRITE, REC_READ, REC_IRQ };

struct rec_event {
	uint8_t type;
	uint32_t addr, val;
};

#define REC_PATH_MAX 1024

/* A named register of the configuration. */
struct rec_reg {
	uint32_t addr;
	const char *unit, *name;
};

struct nvdla_record {
	const struct dla_hw_config *hw;
	char dir[REC_PATH_MAX];
	char script_name[256];
	char cfg_name[256];	/* the .cfg script's name, either format */
	FILE *script;
	bool cfg;		/* the .cfg format, else input.txn */
	uint32_t task;		/* tasks recorded so far */
	struct rec_pages pages;
	struct rec_event *events;
	size_t num_events, cap_events;
	bool oom;		/* an event was lost */
	bool beyond;		/* memory above what a trace holds */
	struct rec_reg *regs;	/* by address */
	size_t num_regs;
};

/* The register at byte address @addr, or NULL. */
const struct rec_reg *rec_reg_find(const struct nvdla_record *rec,
				   uint32_t addr);

/* The script's first lines; then each task: loads, events, checks. */
void rec_format_header(struct nvdla_record *rec);
int rec_format_task(struct nvdla_record *rec, struct rec_page **pages,
		    size_t n, char *err, size_t errlen);

#endif /* __NVDLA_UMD_RECORD_INTERNAL_H__ */
