/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* nvdla_trace: plays the public NVDLA register-level tests on the model. */
#ifndef __NVDLA_TRACE_H__
#define __NVDLA_TRACE_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nvdla/regs.h"

struct nvdla_sim;
struct trace_vlt;

/*
 * The test bench's memory: the whole 32-bit device address space, reserved
 * up front and backed by zero pages as it is touched, so that tests can
 * read and write wherever the bench could.
 */
#define TRACE_DRAM_SIZE (1ull << 32)

struct trace_mem {
	uint8_t *dram;
};

struct trace {
	struct nvdla_sim *sim;
	const uint32_t *unit_base;
	struct trace_mem mem;
	bool kicked;
	const char *dir;	/* test directory, for data files */
	FILE *seed;		/* register writes recorded for fuzz_sim, or NULL */
	struct trace_vlt *vlt;	/* the RTL bench's commands written, or NULL */
	const char *file;	/* script being played, for messages */
	int line;
	char err[512];
};

/* The bus address of GLB register @off. */
static inline uint32_t trace_glb_reg(const struct trace *t, uint32_t off)
{
	return t->unit_base[NVDLA_UNIT_GLB] + off;
}

/* Fail with "file:line: message"; returns -1. */
int trace_fail(struct trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int trace_mem_init(struct trace_mem *mem);
/* The host view of [addr, addr + len), or NULL outside the memory. */
uint8_t *trace_mem_ptr(struct trace_mem *mem, uint64_t addr, uint64_t len);
void trace_mem_free(struct trace_mem *mem);
/* trace_mem_ptr, or a failure naming the region. */
uint8_t *trace_mem_need(struct trace *t, uint64_t addr, uint64_t len);

/* Read a data file of the test directory into a new buffer. */
char *trace_read_file(struct trace *t, const char *name, size_t *len);

/*
 * Registers. Writes only latch, as on the bus; the model's work runs at
 * the script's synchronisation points (trace_sync), so that a register
 * read right after an enable sees the operation still pending, as the
 * hardware tests expect. A read that does not match yet lets time pass.
 */
void trace_reg_write(struct trace *t, uint32_t addr, uint32_t val);
/*
 * The seed format of tests/fuzz/fuzz_sim.c: one byte, the configuration
 * (its index in DRM_NVDLA_CONFIG_NAMES); then per register write, its
 * index in NVDLA_REG_NAMES (16 bits) and value (32 bits), little endian.
 * Returns -1 for a configuration outside that list.
 */
int trace_seed_start(struct trace *t, const char *config);
uint32_t trace_reg_read(struct trace *t, uint32_t addr);
void trace_sync(struct trace *t);
/* Let the model run until its interrupt line is high or it is idle. */
void trace_wait_irq(struct trace *t);
/* Read until (value & mask) == want, letting the model run a step between. */
uint32_t trace_reg_poll(struct trace *t, uint32_t addr, uint32_t mask,
			uint32_t want);
/* Byte address of NVDLA_<UNIT>.<REG>_0 in this configuration; -1 if none. */
int64_t trace_reg_by_name(struct trace *t, const char *name);

/* Feed each line of @path to @line until one fails; 0 or -1 with t->err. */
int trace_play_lines(struct trace *t, const char *path,
		     int (*line)(struct trace *t, char *text));

/*
 * The command stream of nvdla/hw's RTL bench (verif/verilator, its
 * trace.bin), written as a .cfg script plays (trace_vlt.c). Register
 * addresses are byte addresses; a synchronisation point goes by the name
 * the script gives it. Calls that take a name return -1 past 64 of them.
 */
struct trace_vlt *trace_vlt_open(const char *path);
/* Names the interrupt registers the bench's synchronisation points read. */
int trace_vlt_close(struct trace_vlt *v, uint32_t status_reg,
		    uint32_t mask_reg);
void trace_vlt_load(struct trace_vlt *v, uint32_t addr, const uint8_t *p,
		    uint32_t len);
void trace_vlt_write(struct trace_vlt *v, uint32_t addr, uint32_t val);
/* Read until (value & mask) == (val & mask). */
void trace_vlt_read(struct trace_vlt *v, uint32_t addr, uint32_t mask,
		    uint32_t val);
void trace_vlt_wait_irq(struct trace_vlt *v);
/* Point @name fires when all of @bits are set in the interrupt status. */
int trace_vlt_syncpt(struct trace_vlt *v, const char *name, uint32_t bits);
int trace_vlt_check_crc(struct trace_vlt *v, const char *name, uint32_t addr,
			uint32_t len, uint32_t crc);
int trace_vlt_check_nothing(struct trace_vlt *v, const char *name);

/* Play one script; 0 when every check passed, else -1 with t->err. */
int trace_play_cfg(struct trace *t, const char *path);
int trace_play_txn(struct trace *t, const char *path);

#endif /* __NVDLA_TRACE_H__ */
