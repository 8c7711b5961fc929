// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The register-script format of the nv_small trace tests (<test>.cfg):
 * mem_init, mem_load, reg_write, poll_reg_equal, intr_notify, check_crc,
 * check_nothing, sync_notify and sync_wait.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <nvdla/regs.h>

#include "crc32.h"
#include "trace.h"

#define MAX_ARGS 6

/* GLB interrupt status bit of group 0 of each source intr_notify names. */
static const struct {
	const char *name;
	uint32_t bit;
} intr_sources[] = {
	{ "SDP", 0 }, { "CDP", 2 }, { "PDP", 4 }, { "BDMA", 6 },
	{ "RUBIK", 8 }, { "CDMA_DAT", 16 }, { "CDMA_WT", 18 }, { "CACC", 20 },
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	if (*s == '"' && e > s + 1 && e[-1] == '"') {
		e[-1] = '\0';
		s++;
	}
	return s;
}

/* Split "name(a, b, ...);" into the name and its arguments. */
static int split(struct trace *t, char *line, char **name, char **args,
		 int *nargs)
{
	char *open = strchr(line, '('), *close = strrchr(line, ')'), *a;

	if (!open || !close || close < open)
		return trace_fail(t, "expected a command like name(args);");
	*open = '\0';
	*close = '\0';
	*name = trim(line);
	*nargs = 0;
	for (a = strtok(open + 1, ","); a; a = strtok(NULL, ",")) {
		if (*nargs == MAX_ARGS)
			return trace_fail(t, "too many arguments");
		args[(*nargs)++] = trim(a);
	}
	return 0;
}

static int number(struct trace *t, const char *s, uint64_t *v)
{
	char *end;

	*v = strtoull(s, &end, 0);
	if (end == s || *end)
		return trace_fail(t, "'%s' is not a number", s);
	return 0;
}

/* Records "{offset:0x0, size:32, payload:0x00 0x01 ...}," of a .dat file. */
static int load_records(struct trace *t, uint64_t base, char *text)
{
	char *rec = text;
	uint64_t off, size, i;
	int n;

	while ((rec = strstr(rec, "{offset:"))) {
		uint8_t *dst;
		char *p;

		if (sscanf(rec, "{offset:%lli, size:%lli, payload:%n",
			   (long long *)&off, (long long *)&size, &n) != 2)
			return trace_fail(t, "malformed record in data file");
		dst = trace_mem_need(t, base + off, size);
		if (!dst)
			return -1;
		p = rec + n;
		for (i = 0; i < size; i++) {
			char *end;
			unsigned long byte = strtoul(p, &end, 16);

			if (end == p || byte > 0xff)
				return trace_fail(t, "record at 0x%llx: short payload",
						  (unsigned long long)off);
			dst[i] = byte;
			p = end;
		}
		if (t->vlt)
			trace_vlt_load(t->vlt, base + off, dst, size);
		rec = p;
	}
	return 0;
}

static int cmd_mem_load(struct trace *t, char **a, int n)
{
	uint64_t addr;
	size_t len;
	char *text;
	int ret;

	if (n != 3 || number(t, a[1], &addr))
		return n != 3 ? trace_fail(t, "mem_load takes 3 arguments") : -1;
	text = trace_read_file(t, a[2], &len);
	if (!text)
		return -1;
	ret = load_records(t, addr, text);
	free(text);
	return ret;
}

static int cmd_mem_init(struct trace *t, char **a, int n)
{
	uint64_t addr, size;
	uint8_t *p;

	if (n != 4)
		return trace_fail(t, "mem_init takes 4 arguments");
	if (number(t, a[1], &addr) || number(t, a[2], &size))
		return -1;
	if (strcmp(a[3], "ALL_ZERO"))
		return trace_fail(t, "fill pattern %s unknown", a[3]);
	p = trace_mem_need(t, addr, size);
	if (!p)
		return -1;
	memset(p, 0, size);
	if (t->vlt)
		trace_vlt_load(t->vlt, addr, p, size);
	return 0;
}

static int reg_arg(struct trace *t, const char *name, uint32_t *addr)
{
	int64_t a = trace_reg_by_name(t, name);

	if (a < 0)
		return trace_fail(t, "no register %s in this configuration",
				  name);
	*addr = a;
	return 0;
}

static int cmd_reg_write(struct trace *t, char **a, int n)
{
	uint32_t addr = 0;
	uint64_t val;

	if (n != 2)
		return trace_fail(t, "reg_write takes 2 arguments");
	if (reg_arg(t, a[0], &addr) || number(t, a[1], &val))
		return -1;
	trace_reg_write(t, addr, val);
	if (t->vlt)
		trace_vlt_write(t->vlt, addr, val);
	return 0;
}

/*
 * For the RTL, a poll of the interrupt status waits for its own bits only:
 * the RTL may raise two engines' done bits together, or in another order,
 * or much later than the model did. The bench can wait for the interrupt
 * line but gives up on a read after ten tries, so every other source is
 * masked for the wait (the status register holds raw bits, the line only
 * unmasked ones) and the script's mask is put back after the read. The
 * mask is read back before the wait: the line takes a few cycles to fall.
 */
static void vlt_poll(struct trace *t, uint32_t addr, uint32_t val)
{
	uint32_t mask_reg = trace_glb_reg(t, NVDLA_GLB_S_INTR_MASK);

	if (addr == trace_glb_reg(t, NVDLA_GLB_S_INTR_STATUS) && val) {
		trace_vlt_write(t->vlt, mask_reg, ~val);
		trace_vlt_read(t->vlt, mask_reg, val, 0);
		trace_vlt_wait_irq(t->vlt);
		trace_vlt_read(t->vlt, addr, val, val);
		trace_vlt_write(t->vlt, mask_reg, trace_reg_read(t, mask_reg));
	} else {
		trace_vlt_read(t->vlt, addr, ~0u, val);
	}
}

static int cmd_poll_reg_equal(struct trace *t, char **a, int n)
{
	uint32_t addr = 0, got;
	uint64_t val;

	if (n != 2)
		return trace_fail(t, "poll_reg_equal takes 2 arguments");
	if (reg_arg(t, a[0], &addr) || number(t, a[1], &val))
		return -1;
	got = trace_reg_poll(t, addr, ~0u, val);
	if (got != val)
		return trace_fail(t, "%s reads 0x%x, expected 0x%llx", a[0], got,
				  (unsigned long long)val);
	if (t->vlt)
		vlt_poll(t, addr, val);
	return 0;
}

/*
 * "PDP_0" (any case: the generators also write "cdma_dat_0"): the done bit
 * of that source's group; -1 if unknown.
 */
static int intr_bit(const char *src)
{
	const char *us = strrchr(src, '_');
	size_t i;

	if (!us || (us[1] != '0' && us[1] != '1') || us[2])
		return -1;
	for (i = 0; i < sizeof(intr_sources) / sizeof(intr_sources[0]); i++)
		if (strlen(intr_sources[i].name) == (size_t)(us - src) &&
		    !strncasecmp(intr_sources[i].name, src, us - src))
			return intr_sources[i].bit + (us[1] - '0');
	return -1;
}

static int cmd_intr_notify(struct trace *t, char **a, int n)
{
	uint32_t status = trace_glb_reg(t, NVDLA_GLB_S_INTR_STATUS);
	int bit;

	if (n != 2)
		return trace_fail(t, "intr_notify takes 2 arguments");
	bit = intr_bit(a[0]);
	if (bit < 0)
		return trace_fail(t, "interrupt source %s unknown", a[0]);
	trace_sync(t);
	if (!(trace_reg_read(t, status) & 1u << bit))
		return trace_fail(t, "interrupt %s was never raised", a[0]);
	trace_reg_write(t, status, 1u << bit);
	if (t->vlt && trace_vlt_syncpt(t->vlt, a[1], 1u << bit))
		return trace_fail(t, "too many synchronisation points");
	return 0;
}

static int cmd_check_crc(struct trace *t, char **a, int n)
{
	uint64_t addr, size, crc;
	uint8_t *p;
	uint32_t got;

	if (n != 5)
		return trace_fail(t, "check_crc takes 5 arguments");
	if (number(t, a[2], &addr) || number(t, a[3], &size) ||
	    number(t, a[4], &crc))
		return -1;
	trace_sync(t);
	p = trace_mem_need(t, addr, size);
	if (!p)
		return -1;
	got = nvdla_crc32(p, size);
	if (got != crc)
		return trace_fail(t, "CRC of 0x%llx+0x%llx is 0x%08x, expected 0x%08llx",
				  (unsigned long long)addr,
				  (unsigned long long)size, got,
				  (unsigned long long)crc);
	if (t->vlt && trace_vlt_check_crc(t->vlt, a[0], addr, size, crc))
		return trace_fail(t, "too many synchronisation points");
	return 0;
}

/* A synchronisation point whose test checks nothing. */
static int cmd_check_nothing(struct trace *t, char **a, int n)
{
	if (n != 1)
		return trace_fail(t, "check_nothing takes 1 argument");
	trace_sync(t);
	if (t->vlt && trace_vlt_check_nothing(t->vlt, a[0]))
		return trace_fail(t, "too many synchronisation points");
	return 0;
}

/*
 * Orderings between the bench's register-programming threads: a script
 * played line by line already keeps them.
 */
static int cmd_sync_event(struct trace *t, char **a, int n)
{
	(void)a;
	if (n != 2)
		return trace_fail(t, "sync_notify and sync_wait take 2 arguments");
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct trace *t, char **args, int nargs);
} commands[] = {
	{ "mem_init", cmd_mem_init },
	{ "mem_load", cmd_mem_load },
	{ "reg_write", cmd_reg_write },
	{ "poll_reg_equal", cmd_poll_reg_equal },
	{ "intr_notify", cmd_intr_notify },
	{ "check_crc", cmd_check_crc },
	{ "check_nothing", cmd_check_nothing },
	{ "sync_notify", cmd_sync_event },
	{ "sync_wait", cmd_sync_event },
};

static int play_line(struct trace *t, char *line)
{
	char *comment = strstr(line, "//"), *name = NULL, *args[MAX_ARGS];
	size_t i;
	int n;

	if (comment)
		*comment = '\0';
	line = trim(line);
	if (!*line)
		return 0;
	if (split(t, line, &name, args, &n))
		return -1;
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return commands[i].run(t, args, n);
	return trace_fail(t, "unknown command %s", name);
}

int trace_play_cfg(struct trace *t, const char *path)
{
	return trace_play_lines(t, path, play_line);
}
