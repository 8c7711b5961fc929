// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Test memory, data files and registers for the trace player. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <nvdla/regs.h>
#include <nvdla/sim.h>

#include "nvdla_accel.h"

#include "trace.h"

int trace_fail(struct trace *t, const char *fmt, ...)
{
	int n = snprintf(t->err, sizeof(t->err), "%s:%d: ", t->file, t->line);
	va_list ap;

	if (n < 0 || (size_t)n >= sizeof(t->err))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(t->err + n, sizeof(t->err) - n, fmt, ap);
	va_end(ap);
	return -1;
}

int trace_mem_init(struct trace_mem *mem)
{
	mem->dram = mmap(NULL, TRACE_DRAM_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return mem->dram == MAP_FAILED ? -errno : 0;
}

uint8_t *trace_mem_ptr(struct trace_mem *mem, uint64_t addr, uint64_t len)
{
	if (addr > TRACE_DRAM_SIZE || len > TRACE_DRAM_SIZE - addr)
		return NULL;
	return mem->dram + addr;
}

uint8_t *trace_mem_need(struct trace *t, uint64_t addr, uint64_t len)
{
	uint8_t *p = trace_mem_ptr(&t->mem, addr, len);

	if (!p)
		trace_fail(t, "region 0x%llx+0x%llx outside the memory",
			   (unsigned long long)addr, (unsigned long long)len);
	return p;
}

void trace_mem_free(struct trace_mem *mem)
{
	munmap(mem->dram, TRACE_DRAM_SIZE);
}

char *trace_read_file(struct trace *t, const char *name, size_t *len)
{
	char path[1024];
	char *buf = NULL;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", t->dir, name);
	f = fopen(path, "rb");
	if (!f) {
		trace_fail(t, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc(n + 1);
		if (buf && fread(buf, 1, n, f) == (size_t)n) {
			buf[n] = '\0';
			*len = n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	if (!buf)
		trace_fail(t, "%s: cannot read", path);
	return buf;
}

static const char *const seed_configs[] = DRM_NVDLA_CONFIG_NAMES;

static const struct {
	int unit;
	const char *name;
	uint32_t offset;
} seed_regs[] = NVDLA_REG_NAMES;

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

int trace_seed_start(struct trace *t, const char *config)
{
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(seed_configs); i++)
		if (!strcmp(seed_configs[i], config))
			return fputc(i, t->seed) == EOF ? -1 : 0;
	return -1;
}

/* Registers outside the named list are left out of the seed. */
static void trace_seed_write(struct trace *t, uint32_t addr, uint32_t val)
{
	uint32_t i;

	for (i = 0; i < ARRAY_LEN(seed_regs); i++) {
		if (t->unit_base[seed_regs[i].unit] != NVDLA_UNIT_ABSENT &&
		    t->unit_base[seed_regs[i].unit] + seed_regs[i].offset == addr) {
			const uint8_t rec[6] = {
				i, i >> 8, val, val >> 8, val >> 16, val >> 24,
			};

			fwrite(rec, sizeof(rec), 1, t->seed);
			return;
		}
	}
}

void trace_reg_write(struct trace *t, uint32_t addr, uint32_t val)
{
	if (t->seed)
		trace_seed_write(t, addr, val);
	nvdla_sim_reg_write(t->sim, addr, val);
}

void trace_sync(struct trace *t)
{
	while (t->kicked) {
		t->kicked = false;
		nvdla_sim_run(t->sim);
	}
}

void trace_wait_irq(struct trace *t)
{
	while (t->kicked && !nvdla_sim_irq_level(t->sim)) {
		t->kicked = false;
		nvdla_sim_run(t->sim);
	}
}

/*
 * One step of the model at a time, as a bus master polling sees it: an
 * interrupt status read returns the bits of the first moment they are
 * all there, not those of the end of all pending work.
 */
uint32_t trace_reg_poll(struct trace *t, uint32_t addr, uint32_t mask,
			uint32_t want)
{
	uint32_t v = trace_reg_read(t, addr);

	while ((v & mask) != want && t->kicked) {
		t->kicked = false;
		nvdla_sim_run(t->sim);
		v = trace_reg_read(t, addr);
	}
	return v;
}

uint32_t trace_reg_read(struct trace *t, uint32_t addr)
{
	return nvdla_sim_reg_read(t->sim, addr);
}

int64_t trace_reg_by_name(struct trace *t, const char *name)
{
	static const struct {
		int unit;
		const char *reg;
		uint32_t offset;
	} regs[] = NVDLA_REG_NAMES;
	static const char *const units[] = NVDLA_UNIT_NAMES;
	char buf[128], *dot, *reg;
	size_t i, len;

	if (strncmp(name, "NVDLA_", 6) || strlen(name) >= sizeof(buf))
		return -1;
	strcpy(buf, name + 6);
	dot = strchr(buf, '.');
	if (!dot)
		return -1;
	*dot = '\0';
	reg = dot + 1;
	len = strlen(reg);
	if (len > 2 && !strcmp(reg + len - 2, "_0"))
		reg[len - 2] = '\0';
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		if (!strcmp(units[regs[i].unit], buf) &&
		    !strcmp(regs[i].reg, reg) &&
		    t->unit_base[regs[i].unit] != NVDLA_UNIT_ABSENT)
			return t->unit_base[regs[i].unit] + regs[i].offset;
	}
	return -1;
}

int trace_play_lines(struct trace *t, const char *path,
		     int (*line)(struct trace *t, char *text))
{
	char text[4096];
	FILE *f = fopen(path, "r");
	int ret = 0;

	t->file = path;
	t->line = 0;
	if (!f)
		return trace_fail(t, "cannot open");
	while (!ret && fgets(text, sizeof(text), f)) {
		t->line++;
		ret = line(t, text);
	}
	fclose(f);
	return ret;
}
