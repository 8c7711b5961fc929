/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The back end's memory (lower_mem.c, lower_chunk.c): where tensors
 * live, the constants gathered for the loadable and the activation pool
 * with its free blocks and the liveness that frees them.
 */
#ifndef __NVDLA_COMPILER_MEM_H__
#define __NVDLA_COMPILER_MEM_H__

#include <stdbool.h>
#include <stdint.h>

/*
 * Memories every task names, in this order after its own descriptors:
 * the constants, the activation pool, then the graph's inputs and
 * outputs (one memory each).
 */
enum { NVC_SLOT_CONST, NVC_SLOT_POOL, NVC_SLOT_IO };

/*
 * The largest memory the compiler makes unless one block needs more: the
 * largest contiguous buffer Debian's kernels give without CMA (4 MiB,
 * what the driver reports as DRM_NVDLA_PARAM_MAX_BO_SIZE there).
 */
#define NVC_MEM_MAX (4ull << 20)

/* A space of offsets cut into memories: where each one starts. */
struct nvc_chunks {
	uint64_t *start;
	int n;
};

/* Where a tensor's bytes are: a slot, an offset and feature strides. */
struct nvc_place {
	int slot;		/* -1: not placed yet */
	uint32_t offset;
	uint32_t line, surf, size;
};

/* The constants (weights, SDP operands, LUTs' data) of the loadable. */
struct nvc_consts {
	uint8_t *data;
	uint64_t len, cap;
	struct nvc_chunks chunks;	/* their memories */
};

/* A pool block free for reuse. */
struct nvc_block {
	uint64_t offset, size;
};

/* The activation pool. */
struct nvc_act_pool {
	uint64_t size;			/* bytes */
	struct nvc_chunks chunks;	/* its memories */
	int *last_use;		/* per tensor owning bytes: its last reader node */
	bool *freed;
	struct nvc_block *free;	/* blocks free again, by offset */
	int nfree;
};

#endif /* __NVDLA_COMPILER_MEM_H__ */
