// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A recording: the trace script, its data files, and the task in progress
 * (its register events and touched pages, written out when it ends).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>

#include "record.h"
#include "record_internal.h"

static const uint32_t v1_map[] = NVDLA_UNIT_BASES_NV_FULL;

static int reg_by_addr(const void *a, const void *b)
{
	const struct rec_reg *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Every named register of the configuration, by byte address. */
static int names_build(struct nvdla_record *rec)
{
	static const struct {
		int unit;
		const char *reg;
		uint32_t offset;
	} regs[] = NVDLA_REG_NAMES;
	static const char *const units[] = NVDLA_UNIT_NAMES;
	size_t i;

	rec->regs = calloc(sizeof(regs) / sizeof(regs[0]), sizeof(*rec->regs));
	if (!rec->regs)
		return -ENOMEM;
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		uint32_t base = rec->hw->unit_base[regs[i].unit];

		if (base == NVDLA_UNIT_ABSENT)
			continue;
		rec->regs[rec->num_regs++] = (struct rec_reg){
			.addr = base + regs[i].offset,
			.unit = units[regs[i].unit],
			.name = regs[i].reg,
		};
	}
	qsort(rec->regs, rec->num_regs, sizeof(*rec->regs), reg_by_addr);
	return 0;
}

const struct rec_reg *rec_reg_find(const struct nvdla_record *rec,
				   uint32_t addr)
{
	const struct rec_reg key = { .addr = addr };

	return bsearch(&key, rec->regs, rec->num_regs, sizeof(key),
		       reg_by_addr);
}

/* Files an earlier recording left: its scripts and data files. */
static bool recorded_file(const struct nvdla_record *rec, const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(name, "input.txn") || !strcmp(name, rec->cfg_name))
		return true;
	return n > 4 && !strcmp(name + n - 4, ".dat") &&
	       (!strncmp(name, "load_", 5) || !strncmp(name, "check_", 6));
}

static int dir_prepare(const struct nvdla_record *rec, const char *dir,
		       char *err, size_t errlen)
{
	struct dirent *e;
	DIR *d;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dir,
			 strerror(errno));
		return -errno;
	}
	d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "cannot open %s: %s", dir,
			 strerror(errno));
		return -errno;
	}
	while ((e = readdir(d))) {
		char path[REC_PATH_MAX];

		if (!recorded_file(rec, e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		remove(path);
	}
	closedir(d);
	return 0;
}

/*
 * The script's name: input.txn, or <directory name>.cfg as in the benches
 * (trace.cfg for "." or "..").
 */
static void script_name(struct nvdla_record *rec)
{
	const char *end = rec->dir + strlen(rec->dir), *b;

	while (end > rec->dir + 1 && end[-1] == '/')
		end--;
	for (b = end; b > rec->dir && b[-1] != '/'; b--)
		;
	if (end - b > 0 && strncmp(b, ".", end - b) &&
	    strncmp(b, "..", end - b))
		snprintf(rec->cfg_name, sizeof(rec->cfg_name), "%.*s.cfg",
			 (int)(end - b), b);
	else
		snprintf(rec->cfg_name, sizeof(rec->cfg_name), "trace.cfg");
	snprintf(rec->script_name, sizeof(rec->script_name), "%s",
		 rec->cfg ? rec->cfg_name : "input.txn");
}

int nvdla_record_open(const char *dir, const struct dla_hw_config *hw,
		      enum nvdla_record_format format,
		      struct nvdla_record **out, char *err, size_t errlen)
{
	struct nvdla_record *rec;
	char path[REC_PATH_MAX];
	int ret;

	if (strlen(dir) + 64 > REC_PATH_MAX) {
		snprintf(err, errlen, "record directory name too long");
		return -ENAMETOOLONG;
	}
	rec = calloc(1, sizeof(*rec));
	if (rec)
		rec->hw = hw;
	if (!rec || names_build(rec)) {
		free(rec);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(rec->dir, sizeof(rec->dir), "%s", dir);
	rec->cfg = format == NVDLA_RECORD_AUTO ?
		   memcmp(hw->unit_base, v1_map, sizeof(v1_map)) != 0 :
		   format == NVDLA_RECORD_CFG;
	script_name(rec);
	ret = dir_prepare(rec, dir, err, errlen);
	if (ret) {
		free(rec->regs);
		free(rec);
		return ret;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, rec->script_name);
	rec->script = fopen(path, "w");
	if (!rec->script) {
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(errno));
		free(rec->regs);
		free(rec);
		return -EIO;
	}
	rec_format_header(rec);
	*out = rec;
	return 0;
}

int nvdla_record_close(struct nvdla_record *rec, char *err, size_t errlen)
{
	int ret = 0;

	if (ferror(rec->script) | fclose(rec->script)) {
		snprintf(err, errlen, "cannot write %s/%s", rec->dir,
			 rec->script_name);
		ret = -EIO;
	}
	rec_pages_clear(&rec->pages);
	free(rec->events);
	free(rec->regs);
	free(rec);
	return ret;
}

void nvdla_record_task_begin(struct nvdla_record *rec)
{
	rec->num_events = 0;
	rec_pages_clear(&rec->pages);
}

static void event_add(struct nvdla_record *rec, uint8_t type, uint32_t addr,
		      uint32_t val)
{
	if (rec->num_events == rec->cap_events) {
		size_t cap = rec->cap_events ? rec->cap_events * 2 : 1024;
		struct rec_event *e = realloc(rec->events, cap * sizeof(*e));

		if (!e) {
			rec->oom = true;
			return;
		}
		rec->events = e;
		rec->cap_events = cap;
	}
	rec->events[rec->num_events++] = (struct rec_event){ type, addr, val };
}

void nvdla_record_reg(struct nvdla_record *rec, bool write, uint32_t addr,
		      uint32_t val)
{
	event_add(rec, write ? REC_WRITE : REC_READ, addr, val);
}

void nvdla_record_irq(struct nvdla_record *rec)
{
	event_add(rec, REC_IRQ, 0, 0);
}

void nvdla_record_touch(struct nvdla_record *rec, uint64_t addr,
			uint64_t len, const uint8_t *host, bool write)
{
	if (addr >= NVDLA_RECORD_ADDR_LIMIT ||
	    len > NVDLA_RECORD_ADDR_LIMIT - addr)
		rec->beyond = true;
	else
		rec_pages_touch(&rec->pages, addr, len, host, write);
}

int nvdla_record_task_end(struct nvdla_record *rec, char *err, size_t errlen)
{
	struct rec_page **pages;
	int ret;

	if (rec->beyond) {
		snprintf(err, errlen, "the engines touched memory above 4 GiB, which a trace cannot hold");
		return -ERANGE;
	}
	pages = rec_pages_sorted(&rec->pages);
	if (rec->oom || rec->pages.oom) {
		free(pages);
		snprintf(err, errlen, "out of memory while recording");
		return -ENOMEM;
	}
	ret = rec_format_task(rec, pages, rec->pages.count, err, errlen);
	free(pages);
	rec->task++;
	rec_pages_clear(&rec->pages);
	rec->num_events = 0;
	return ret;
}
