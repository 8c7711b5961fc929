// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The trace-player format of the nv_full tests (input.txn): load_mem,
 * write_reg and read_reg on CSB word addresses (0xffff0000 | byte / 4),
 * wait for an interrupt, dump_mem compared with the expected file.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/sim.h>

#include "trace.h"

#define CSB_WORD_MASK 0xffffu

/*
 * The bytes of a data file: lines made only of "0xNN" tokens; header
 * lines ("W = 8", "dumped memory,...") are skipped. Returns the count.
 */
static long parse_bytes(char *text, uint8_t *out, size_t max)
{
	char *line, *save = NULL;
	size_t n = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *end;
		size_t start = n;

		while (*p) {
			unsigned long v;

			while (isspace((unsigned char)*p))
				p++;
			if (!*p)
				break;
			if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
				break;
			v = strtoul(p, &end, 16);
			if (end - p > 4 || end - p < 3 || v > 0xff ||
			    (*end && !isspace((unsigned char)*end)))
				break;
			if (n < max)
				out[n] = v;
			n++;
			p = end;
		}
		if (*p)
			n = start;	/* not a data line */
	}
	return n;
}

static int txn_load(struct trace *t, uint64_t addr, uint64_t size,
		    const char *name)
{
	uint8_t *dst = trace_mem_need(t, addr, size);
	size_t len;
	char *text = dst ? trace_read_file(t, name, &len) : NULL;
	long n;

	if (!text)
		return -1;
	n = parse_bytes(text, dst, size);
	free(text);
	return n > 0 ? 0 : trace_fail(t, "%s holds no data", name);
}

static int txn_dump(struct trace *t, uint64_t addr, uint64_t size,
		    const char *name)
{
	uint8_t *mem, *want;
	size_t len, i;
	char *text;
	long n;

	trace_sync(t);
	mem = trace_mem_need(t, addr, size);
	if (!mem)
		return -1;
	text = trace_read_file(t, name, &len);
	want = malloc(size);
	if (!text || !want) {
		free(text);
		free(want);
		return text ? trace_fail(t, "out of memory") : -1;
	}
	n = parse_bytes(text, want, size);
	free(text);
	for (i = 0; i < size && (long)i < n; i++)
		if (mem[i] != want[i])
			break;
	free(want);
	if ((uint64_t)n < size)
		return trace_fail(t, "%s has %ld of 0x%llx bytes", name, n,
				  (unsigned long long)size);
	if (i < size)
		return trace_fail(t, "byte 0x%zx of 0x%llx+0x%llx differs from %s",
				  i, (unsigned long long)addr,
				  (unsigned long long)size, name);
	return 0;
}

static uint32_t csb_byte_address(uint64_t word)
{
	return (word & CSB_WORD_MASK) * 4;
}

static int play_line(struct trace *t, char *line)
{
	char cmd[32], file[256];
	unsigned long long a, b, c;
	uint32_t got;

	if (line[0] == '#' || sscanf(line, "%31s", cmd) != 1)
		return 0;
	if (!strcmp(cmd, "load_mem") &&
	    sscanf(line, "%*s %lli %lli %255s", &a, &b, file) == 3)
		return txn_load(t, a, b, file);
	if (!strcmp(cmd, "dump_mem") &&
	    sscanf(line, "%*s %lli %lli %255s", &a, &b, file) == 3)
		return txn_dump(t, a, b, file);
	if (!strcmp(cmd, "write_reg") &&
	    sscanf(line, "%*s %lli %lli", &a, &b) == 2) {
		trace_reg_write(t, csb_byte_address(a), b);
		return 0;
	}
	if (!strcmp(cmd, "read_reg") &&
	    sscanf(line, "%*s %lli %lli %lli", &a, &b, &c) == 3) {
		got = trace_reg_poll(t, csb_byte_address(a), b, c);
		if ((got & b) != c)
			return trace_fail(t, "register 0x%x reads 0x%x (mask 0x%llx), expected 0x%llx",
					  csb_byte_address(a), got, b, c);
		return 0;
	}
	if (!strcmp(cmd, "wait")) {
		trace_wait_irq(t);
		if (!nvdla_sim_irq_level(t->sim))
			return trace_fail(t, "no interrupt to wait for");
		return 0;
	}
	return trace_fail(t, "cannot parse '%s'", cmd);
}

int trace_play_txn(struct trace *t, const char *path)
{
	return trace_play_lines(t, path, play_line);
}
