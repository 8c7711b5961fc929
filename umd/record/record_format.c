// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The two public trace formats, per recorded task.
 *
 * input.txn (nv_full; NVIDIA's nvdlav1 trace player, our nvdla_trace,
 * the C model's player): load_mem ADDR SIZE FILE, write_reg and read_reg
 * MASK VALUE on CSB word addresses (0xffff0000 | byte / 4), wait for the
 * interrupt, dump_mem ADDR SIZE FILE compared with the file; data files
 * hold 32 bytes a line as " 0xNN".
 *
 * <name>.cfg (the nv_small family; NVIDIA's RTL test bench through its
 * trace parser): mem_load(pri_mem, ADDR, FILE) of {offset, size, payload}
 * records, reg_write and poll_reg_equal by register name, and at the
 * task's last interrupt intr_notify(SOURCE_GROUP, SYNC) per done bit,
 * followed by check_crc(SYNC, pri_mem, ADDR, SIZE, CRC) of each written
 * region; the format has no interrupt wait, so the earlier interrupts are
 * polls of GLB.S_INTR_STATUS for the bits the firmware saw.
 *
 * Reads are checked where their value is a fact of the register program
 * rather than of timing: the interrupt status (the bits the firmware saw),
 * the interrupt mask, the group pointers and the BDMA's free slots (txn
 * only: the .cfg format compares whole registers). The others (the
 * statistics' counters) are comments.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>

#include "crc32.h"
#include "record.h"
#include "record_internal.h"

#define LINE_BYTES 32u
/* Written runs closer than this are checked as one region. */
#define JOIN_GAP 4096u

enum read_kind { READ_NOTE, READ_CHECK, READ_STATUS };

/* The done bit of group 0 of each source intr_notify names. */
#define INTR_SOURCE(src) { #src, NVDLA_GLB_S_INTR_STATUS_##src##_DONE_STATUS0_SHIFT }
static const struct {
	const char *name;
	uint32_t bit;
} intr_sources[] = {
	INTR_SOURCE(SDP), INTR_SOURCE(CDP), INTR_SOURCE(PDP),
	INTR_SOURCE(BDMA), INTR_SOURCE(RUBIK), INTR_SOURCE(CDMA_DAT),
	INTR_SOURCE(CDMA_WT), INTR_SOURCE(CACC),
};

static uint32_t unit_reg(const struct nvdla_record *rec, enum nvdla_unit unit,
			 uint32_t reg)
{
	return rec->hw->unit_base[unit] + reg;
}

static enum read_kind read_kind(const struct nvdla_record *rec, uint32_t addr,
				uint32_t val, uint32_t *mask)
{
	const struct rec_reg *r = rec_reg_find(rec, addr);

	*mask = 0xffffffffu;
	if (addr == unit_reg(rec, NVDLA_UNIT_GLB, NVDLA_GLB_S_INTR_STATUS)) {
		*mask = val;
		return val ? READ_STATUS : READ_NOTE;
	}
	if (addr == unit_reg(rec, NVDLA_UNIT_GLB, NVDLA_GLB_S_INTR_MASK) ||
	    (r && !strcmp(r->name, "S_POINTER")))
		return READ_CHECK;
	if (rec->hw->bdma && !rec->cfg &&
	    addr == unit_reg(rec, NVDLA_UNIT_BDMA, NVDLA_BDMA_STATUS)) {
		*mask = NVDLA_BDMA_STATUS_FREE_SLOT_MASK;
		return READ_CHECK;
	}
	return READ_NOTE;
}

static void reg_label(const struct nvdla_record *rec, uint32_t addr,
		      char *buf, size_t len)
{
	const struct rec_reg *r = rec_reg_find(rec, addr);

	if (r)
		snprintf(buf, len, "NVDLA_%s.%s_0", r->unit, r->name);
	else
		snprintf(buf, len, "0x%x", addr);
}

static void hex_bytes(FILE *f, const uint8_t *p, uint32_t n)
{
	static const char digits[] = "0123456789abcdef";
	char line[LINE_BYTES * 5 + 1];
	uint32_t i;

	for (i = 0; i < n; i++) {
		line[i * 5] = ' ';
		line[i * 5 + 1] = '0';
		line[i * 5 + 2] = 'x';
		line[i * 5 + 3] = digits[p[i] >> 4];
		line[i * 5 + 4] = digits[p[i] & 15];
	}
	fwrite(line, 5, n, f);
}

static bool all_zero(const uint8_t *p, uint64_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/*
 * Data file @name of the @len bytes at @p (device address @addr): the txn
 * player's 32 bytes a line after a header, or .cfg records, the all-zero
 * ones left out when @skip_zero (the bench's memory starts zeroed).
 */
static int data_file(struct nvdla_record *rec, const char *name, bool check,
		     uint64_t addr, const uint8_t *p, uint64_t len,
		     bool skip_zero, char *err, size_t errlen)
{
	char path[REC_PATH_MAX + 64];
	uint64_t off;
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/%s", rec->dir, name);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "cannot create %s: %s", path,
			 strerror(errno));
		return -EIO;
	}
	if (rec->cfg)
		fputs("{\n", f);
	else if (check)
		fprintf(f, "dumped memory,start_address=0x%llx size=0x%llx\nmemory type:dram\n==============================\n",
			(unsigned long long)addr, (unsigned long long)len);
	else
		fprintf(f, "Data_size = 0x%llx\n", (unsigned long long)len);
	for (off = 0; off < len; off += LINE_BYTES) {
		uint32_t n = len - off < LINE_BYTES ? len - off : LINE_BYTES;

		if (rec->cfg && skip_zero && all_zero(p + off, n))
			continue;
		if (rec->cfg)
			fprintf(f, "{offset:0x%llx, size:%u, payload:",
				(unsigned long long)off, n);
		hex_bytes(f, p + off, n);
		fputs(rec->cfg ? "} ,\n" : "\n", f);
	}
	if (rec->cfg)
		fputs("}\n", f);
	bad = ferror(f) | fclose(f);
	if (bad) {
		snprintf(err, errlen, "cannot write %s", path);
		return -EIO;
	}
	return 0;
}

void rec_format_header(struct nvdla_record *rec)
{
	fprintf(rec->script, "%s " NVDLA_RECORD_CONFIG_TAG "%s (recorded by libnvdla_runtime on the in-process model)\n",
		rec->cfg ? "//" : "#", rec->hw->name);
}

/* One loaded region: its data file and the script's line. */
static int emit_load(struct nvdla_record *rec, const struct rec_region *r,
		     struct rec_page **pages, size_t n, char *err,
		     size_t errlen)
{
	uint8_t *bytes = malloc(r->len);
	char name[64];
	int ret;

	if (!bytes) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rec_region_bytes(pages, n, r, true, bytes);
	snprintf(name, sizeof(name), "load_%u_%08llx.dat", rec->task,
		 (unsigned long long)r->addr);
	ret = data_file(rec, name, false, r->addr, bytes, r->len,
			rec->task == 0, err, errlen);
	free(bytes);
	if (ret)
		return ret;
	if (rec->cfg)
		fprintf(rec->script, "mem_load(pri_mem, 0x%llx, \"%s\");\n",
			(unsigned long long)r->addr, name);
	else
		fprintf(rec->script, "load_mem 0x%llx 0x%llx %s\n",
			(unsigned long long)r->addr,
			(unsigned long long)r->len, name);
	return 0;
}

/*
 * Runs of touched pages, as they were when the task started; before the
 * first task the bench's memory is zero, so zero pages need no load.
 */
static int emit_loads(struct nvdla_record *rec, struct rec_page **pages,
		      size_t n, char *err, size_t errlen)
{
	size_t i = 0;
	int ret;

	while (i < n) {
		struct rec_region r;
		size_t j;

		if (rec->task == 0 && all_zero(pages[i]->initial, REC_PAGE)) {
			i++;
			continue;
		}
		for (j = i + 1; j < n && pages[j]->addr == pages[j - 1]->addr + REC_PAGE &&
		     !(rec->task == 0 && all_zero(pages[j]->initial, REC_PAGE)); j++)
			;
		r.addr = pages[i]->addr;
		r.len = (uint64_t)(j - i) * REC_PAGE;
		ret = emit_load(rec, &r, pages, n, err, errlen);
		if (ret)
			return ret;
		i = j;
	}
	return 0;
}

static void emit_read(struct nvdla_record *rec, const struct rec_event *e)
{
	char label[96];
	uint32_t mask;
	enum read_kind kind = read_kind(rec, e->addr, e->val, &mask);

	reg_label(rec, e->addr, label, sizeof(label));
	if (kind == READ_NOTE || (rec->cfg && mask != 0xffffffffu &&
				  kind != READ_STATUS))
		fprintf(rec->script, "%s read %s: 0x%08x\n",
			rec->cfg ? "//" : "#", label, e->val);
	else if (rec->cfg)
		fprintf(rec->script, "poll_reg_equal(%s, 0x%x);\n", label,
			e->val);
	else
		fprintf(rec->script, "read_reg 0xffff%04x 0x%08x 0x%08x #%s\n",
			e->addr / 4, mask, e->val & mask, label);
}

static int emit_event(struct nvdla_record *rec, const struct rec_event *e,
		      char *err, size_t errlen)
{
	char label[96];

	if (e->type == REC_READ) {
		emit_read(rec, e);
		return 0;
	}
	if (e->type == REC_IRQ) {
		fputs(rec->cfg ? "// interrupt\n" : "wait\n", rec->script);
		return 0;
	}
	if (rec->cfg && !rec_reg_find(rec, e->addr)) {
		snprintf(err, errlen, "register 0x%x has no name for the .cfg format",
			 e->addr);
		return -EINVAL;
	}
	reg_label(rec, e->addr, label, sizeof(label));
	if (rec->cfg)
		fprintf(rec->script, "reg_write(%s, 0x%x);\n", label, e->val);
	else
		fprintf(rec->script, "write_reg 0xffff%04x 0x%x #%s\n",
			e->addr / 4, e->val, label);
	return 0;
}

/*
 * The .cfg format's end of a task: the last interrupt's status read and
 * clear become intr_notify per done bit (the bench clears what it
 * notifies); the checks follow under the last sync id.
 */
static void cfg_notify(struct nvdla_record *rec, uint32_t status)
{
	size_t i;
	int g;

	for (i = 0; i < sizeof(intr_sources) / sizeof(intr_sources[0]); i++)
		for (g = 0; g < 2; g++)
			if (status & 1u << (intr_sources[i].bit + g))
				fprintf(rec->script, "intr_notify(%s_%d, sync_id_%u_%u);\n",
					intr_sources[i].name, g, rec->task,
					intr_sources[i].bit + g);
}

/* The last bit cfg_notify names: the sync id the checks wait for. */
static int cfg_last_sync(uint32_t status)
{
	int best = -1;
	size_t i;
	int g;

	for (i = 0; i < sizeof(intr_sources) / sizeof(intr_sources[0]); i++)
		for (g = 0; g < 2; g++)
			if (status & 1u << (intr_sources[i].bit + g))
				best = intr_sources[i].bit + g;
	return best;
}

/* Indices of the last interrupt's status read and clear; -1 if none. */
static void last_interrupt(const struct nvdla_record *rec, long *read,
			   long *clear)
{
	uint32_t status = unit_reg(rec, NVDLA_UNIT_GLB, NVDLA_GLB_S_INTR_STATUS);
	long i, irq = -1;

	*read = *clear = -1;
	for (i = 0; i < (long)rec->num_events; i++)
		if (rec->events[i].type == REC_IRQ)
			irq = i;
	for (i = irq + 1; irq >= 0 && i < (long)rec->num_events; i++) {
		const struct rec_event *e = &rec->events[i];

		if (e->addr != status)
			continue;
		if (*read < 0 && e->type == REC_READ && e->val)
			*read = i;
		else if (*read >= 0 && e->type == REC_WRITE) {
			*clear = i;
			return;
		}
	}
	*read = -1;
}

static int emit_checks(struct nvdla_record *rec, struct rec_page **pages,
		       size_t n, int sync, char *err, size_t errlen)
{
	struct rec_region *w;
	size_t count, i;
	int ret = 0;

	w = rec_written_regions(pages, n, JOIN_GAP, &count);
	for (i = 0; i < count && !ret; i++) {
		uint8_t *bytes = malloc(w[i].len);
		char name[64];

		if (!bytes) {
			ret = -ENOMEM;
			break;
		}
		rec_region_bytes(pages, n, &w[i], false, bytes);
		if (rec->cfg) {
			fprintf(rec->script, "check_crc(sync_id_%u_%d, pri_mem, 0x%llx, 0x%llx, 0x%08x);\n",
				rec->task, sync, (unsigned long long)w[i].addr,
				(unsigned long long)w[i].len,
				nvdla_crc32(bytes, w[i].len));
		} else {
			snprintf(name, sizeof(name), "check_%u_%08llx.dat",
				 rec->task, (unsigned long long)w[i].addr);
			ret = data_file(rec, name, true, w[i].addr, bytes,
					w[i].len, false, err, errlen);
			if (!ret)
				fprintf(rec->script, "dump_mem 0x%llx 0x%llx %s\n",
					(unsigned long long)w[i].addr,
					(unsigned long long)w[i].len, name);
		}
		free(bytes);
	}
	free(w);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return ret;
}

int rec_format_task(struct nvdla_record *rec, struct rec_page **pages,
		    size_t n, char *err, size_t errlen)
{
	long read = -1, clear = -1, i;
	int ret, sync = -1;

	fprintf(rec->script, "%s task %u\n", rec->cfg ? "//" : "#", rec->task);
	ret = emit_loads(rec, pages, n, err, errlen);
	if (rec->cfg)
		last_interrupt(rec, &read, &clear);
	for (i = 0; !ret && i < (long)rec->num_events; i++) {
		if (i == read) {
			cfg_notify(rec, rec->events[i].val);
			sync = cfg_last_sync(rec->events[i].val);
		} else if (i != clear) {
			ret = emit_event(rec, &rec->events[i], err, errlen);
		}
	}
	if (!ret && rec->cfg && sync < 0) {
		snprintf(err, errlen, "task %u ended without an interrupt to check its results at",
			 rec->task);
		ret = -EINVAL;
	}
	if (!ret)
		ret = emit_checks(rec, pages, n, sync, err, errlen);
	return ret;
}
