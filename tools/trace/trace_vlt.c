// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The command stream that nvdla/hw's RTL bench (verif/verilator) plays:
 * one opcode byte, then little-endian 32-bit fields. Written while a .cfg
 * script plays on the model, so that what reaches the RTL is a script the
 * model has just passed. Registers go by word address; memory by byte.
 */
#include <stdlib.h>
#include <string.h>

#include "trace.h"

enum vlt_opcode {
	VLT_WAIT_IRQ = 1,	/* hold the register queue until the interrupt */
	VLT_WRITE_REG = 2,	/* address, value */
	VLT_READ_REG = 3,	/* address, mask, value: retried until it matches */
	VLT_LOAD_MEM = 5,	/* address, length, bytes */
	VLT_SYNCPT = 6,		/* id, interrupt status bits that fire it */
	VLT_INTR_REGS = 7,	/* status and mask register addresses */
	VLT_CHECK_CRC = 8,	/* id, address, length, CRC-32 */
	VLT_CHECK_NOTHING = 9,	/* id */
	VLT_END = 0xff,
};

#define VLT_SYNCPTS 64

struct trace_vlt {
	FILE *f;
	char *syncpt[VLT_SYNCPTS];	/* names, in order of their ids */
	unsigned int nsyncpts;
};

static void put_op(struct trace_vlt *v, enum vlt_opcode op)
{
	fputc(op, v->f);
}

static void put32(struct trace_vlt *v, uint32_t x)
{
	const uint8_t b[4] = { x, x >> 8, x >> 16, x >> 24 };

	fwrite(b, 1, sizeof(b), v->f);
}

struct trace_vlt *trace_vlt_open(const char *path)
{
	struct trace_vlt *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->f = fopen(path, "wb");
	if (!v->f) {
		free(v);
		return NULL;
	}
	return v;
}

int trace_vlt_close(struct trace_vlt *v, uint32_t status_reg,
		    uint32_t mask_reg)
{
	unsigned int i;
	int ret;

	put_op(v, VLT_INTR_REGS);
	put32(v, status_reg >> 2);
	put32(v, mask_reg >> 2);
	put_op(v, VLT_END);
	ret = ferror(v->f) | fclose(v->f);
	for (i = 0; i < v->nsyncpts; i++)
		free(v->syncpt[i]);
	free(v);
	return ret ? -1 : 0;
}

void trace_vlt_load(struct trace_vlt *v, uint32_t addr, const uint8_t *p,
		    uint32_t len)
{
	put_op(v, VLT_LOAD_MEM);
	put32(v, addr);
	put32(v, len);
	fwrite(p, 1, len, v->f);
}

void trace_vlt_write(struct trace_vlt *v, uint32_t addr, uint32_t val)
{
	put_op(v, VLT_WRITE_REG);
	put32(v, addr >> 2);
	put32(v, val);
}

void trace_vlt_read(struct trace_vlt *v, uint32_t addr, uint32_t mask,
		    uint32_t val)
{
	put_op(v, VLT_READ_REG);
	put32(v, addr >> 2);
	put32(v, mask);
	put32(v, val);
}

void trace_vlt_wait_irq(struct trace_vlt *v)
{
	put_op(v, VLT_WAIT_IRQ);
}

/* The id of synchronisation point @name, given one on first use; -1 if full. */
static int syncpt_id(struct trace_vlt *v, const char *name)
{
	unsigned int i;

	for (i = 0; i < v->nsyncpts; i++)
		if (!strcmp(v->syncpt[i], name))
			return i;
	if (v->nsyncpts == VLT_SYNCPTS)
		return -1;
	v->syncpt[i] = strdup(name);
	if (!v->syncpt[i])
		return -1;
	return v->nsyncpts++;
}

int trace_vlt_syncpt(struct trace_vlt *v, const char *name, uint32_t bits)
{
	int id = syncpt_id(v, name);

	if (id < 0)
		return -1;
	put_op(v, VLT_SYNCPT);
	put32(v, id);
	put32(v, bits);
	return 0;
}

int trace_vlt_check_crc(struct trace_vlt *v, const char *name, uint32_t addr,
			uint32_t len, uint32_t crc)
{
	int id = syncpt_id(v, name);

	if (id < 0)
		return -1;
	put_op(v, VLT_CHECK_CRC);
	put32(v, id);
	put32(v, addr);
	put32(v, len);
	put32(v, crc);
	return 0;
}

int trace_vlt_check_nothing(struct trace_vlt *v, const char *name)
{
	int id = syncpt_id(v, name);

	if (id < 0)
		return -1;
	put_op(v, VLT_CHECK_NOTHING);
	put32(v, id);
	return 0;
}
