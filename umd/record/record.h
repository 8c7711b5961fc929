/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Recording runs of the in-process backend as hardware traces in the
 * public formats: input.txn (nv_full, NVIDIA's trace player) or a <name>.cfg
 * register script (the nv_small family, NVIDIA's RTL test bench). The
 * backend reports what the firmware does on the register bus and what the
 * engines touch in memory; each task becomes, in the trace, the loads of
 * the memory pages its engines touched (as they were when it started),
 * its register writes, reads and interrupt waits in order, and checks of
 * the bytes its engines wrote (as they were when it ended).
 */
#ifndef __NVDLA_UMD_RECORD_H__
#define __NVDLA_UMD_RECORD_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvdla/runtime.h>

struct dla_hw_config;
struct nvdla_record;

/*
 * The script's first line names the configuration after this tag, for the
 * player (nvdla_trace); NVIDIA's benches read it as a comment.
 */
#define NVDLA_RECORD_CONFIG_TAG "nvdla configuration: "

/* Device addresses a trace can hold: the benches' 32-bit memory. */
#define NVDLA_RECORD_ADDR_LIMIT (1ull << 32)

/*
 * Start a recording into directory @dir (created if missing; the files of
 * an earlier recording there are replaced) for configuration @hw.
 */
int nvdla_record_open(const char *dir, const struct dla_hw_config *hw,
		      enum nvdla_record_format format,
		      struct nvdla_record **rec, char *err, size_t errlen);
/* Finish the trace files; 0 or a negative errno with @err. Frees @rec. */
int nvdla_record_close(struct nvdla_record *rec, char *err, size_t errlen);

void nvdla_record_task_begin(struct nvdla_record *rec);
/* Write the task's part of the trace; 0 or a negative errno with @err. */
int nvdla_record_task_end(struct nvdla_record *rec, char *err, size_t errlen);

/*
 * The engines touch the @len bytes at device address @addr, which the host
 * sees at @host; @write if they write them. Device and host pages must be
 * aligned alike (4 KiB), and the whole page around each byte readable.
 */
void nvdla_record_touch(struct nvdla_record *rec, uint64_t addr,
			uint64_t len, const uint8_t *host, bool write);
/* A register write or read of the firmware (byte address, its value). */
void nvdla_record_reg(struct nvdla_record *rec, bool write, uint32_t addr,
		      uint32_t val);
/* The firmware waits for the interrupt (its handler is about to run). */
void nvdla_record_irq(struct nvdla_record *rec);

#endif /* __NVDLA_UMD_RECORD_H__ */
