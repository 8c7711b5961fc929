/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* nvdla_trace: plays the public NVDLA register-level tests on the model. */
#ifndef __NVDLA_TRACE_H__
#define __NVDLA_TRACE_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct nvdla_sim;

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
	const char *file;	/* script being played, for messages */
	int line;
	char err[512];
};

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

/* Play one script; 0 when every check passed, else -1 with t->err. */
int trace_play_cfg(struct trace *t, const char *path);
int trace_play_txn(struct trace *t, const char *path);

#endif /* __NVDLA_TRACE_H__ */
