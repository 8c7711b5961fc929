/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Building loadables for single operations, the way the official compiler
 * lays them out: one memory, address entry and blob per descriptor list and
 * per data buffer, one DLA task whose address list is every address entry
 * in order, one submit entry. Used by tests and tools/nvdla_mkloadable.
 */
#ifndef __NVDLA_UMD_BUILDER_H__
#define __NVDLA_UMD_BUILDER_H__

#include <stddef.h>
#include <stdint.h>

#include <nvdla/dla_interface.h>
#include <nvdla/runtime.h>

#include "loadable.h"

struct nvdla_builder {
	struct nvdla_loadable l;
	int error;		/* first failure, reported by finish */
};

void nvdla_builder_init(struct nvdla_builder *b);

/*
 * Add a memory of @size bytes with its address entry; if @data is not NULL
 * it is the memory's content (a blob named @name). Returns the address
 * index (equal to the memory id), or -1 after a failure.
 */
int nvdla_builder_memory(struct nvdla_builder *b, const char *name,
			 const void *data, uint64_t size);

/* Add a blob no memory holds (metadata such as "tensor-scales"). */
int nvdla_builder_blob(struct nvdla_builder *b, const char *name,
		       const void *data, uint64_t size);

/*
 * Make the memory at @index input or output 0 (@flag NVDLA_LBL_MEM_INPUT
 * or NVDLA_LBL_MEM_OUTPUT) described by @desc.
 */
void nvdla_builder_bind(struct nvdla_builder *b, int index,
			const struct nvdla_tensor_desc *desc, uint16_t flag);

/**
 * struct nvdla_build_op - one operation of a task
 * @graph: its dependency-graph node (index and op_head are filled in)
 * @op, @surf: its operation and surface descriptors
 */
struct nvdla_build_op {
	struct dla_common_op_desc graph;
	union dla_operation_container op;
	union dla_surface_container surf;
};

/* Start @op as an operation of @type with no consumer and no parent. */
void nvdla_build_op_init(struct nvdla_build_op *op, uint8_t type);

/*
 * Fuse @head (operation @head_index of the task) into @tail (operation
 * @tail_index), which takes @head's output on the fly: @tail is programmed
 * first, @head waits for that, and @tail waits for @head to be enabled.
 */
void nvdla_build_fuse(struct nvdla_build_op *head, int16_t head_index,
		      struct nvdla_build_op *tail, int16_t tail_index);

/* Start @op as a BDMA operation of the one transfer @x, in memory. */
void nvdla_build_bdma_op(struct nvdla_build_op *op,
			 const struct dla_bdma_transfer_desc *x);

/*
 * Add the task's descriptor memories, first of all: network descriptor
 * (address 0), dependency graph, operations, surfaces and, if @num_luts,
 * the LUT list. @num_data data memories follow; their address indices
 * start at the value returned (4, or 5 with LUTs), or -1 after a failure.
 */
int nvdla_builder_task(struct nvdla_builder *b,
		       const struct nvdla_build_op *ops, uint16_t num_ops,
		       const struct dla_lut_param *luts, uint16_t num_luts,
		       uint16_t num_data);

/*
 * The same for @num_rois regions of interest: @ops holds num_rois x
 * @num_ops operations, region by region.
 */
int nvdla_builder_task_rois(struct nvdla_builder *b,
			    const struct nvdla_build_op *ops, uint16_t num_ops,
			    uint16_t num_rois, const struct dla_lut_param *luts,
			    uint16_t num_luts, uint16_t num_data);

/*
 * Tasks of several kinds, each with its own descriptor memories and an
 * address list of those followed by the shared memories @data (memory
 * ids, from nvdla_builder_memory), in submission order, one submit entry
 * each. A DLA task's descriptors name data[i] as address index
 * NVDLA_BUILD_DLA_DATA(num_luts) + i, an EMU task's as
 * NVDLA_BUILD_EMU_DATA + i. Finish with nvdla_builder_write.
 */
#define NVDLA_BUILD_DLA_DATA(num_luts) (4 + !!(num_luts))
#define NVDLA_BUILD_EMU_DATA 3

int nvdla_builder_dla_task(struct nvdla_builder *b,
			   const struct nvdla_build_op *ops, uint16_t num_ops,
			   const struct dla_lut_param *luts, uint16_t num_luts,
			   const uint16_t *data, uint16_t num_data);

/* An EMU task's descriptors (emu.h): network, operations, buffers. */
struct nvdla_build_emu {
	const void *net, *ops, *bufs;
	size_t net_size, ops_size, bufs_size;
};

int nvdla_builder_emu_task(struct nvdla_builder *b,
			   const struct nvdla_build_emu *emu,
			   const uint16_t *data, uint16_t num_data);

/* Serialise a loadable whose tasks were added as above. */
int nvdla_builder_write(struct nvdla_builder *b, void **buf, size_t *len);

/* Add the DLA task over every address entry and serialise the loadable. */
int nvdla_builder_finish(struct nvdla_builder *b, void **buf, size_t *len);

/* Free what the builder holds (finish does not). */
void nvdla_builder_fini(struct nvdla_builder *b);

/**
 * struct nvdla_bdma_copy - one BDMA operation copying a data cube
 * @transfer: the transfer; source/destination indices are filled in
 * @src: source bytes (@src_size of them), or NULL when the source is
 *	input 0 described by @in
 * @dst_size: size of the output buffer
 * @in: the input tensor's description when @src is NULL
 * @out: the output tensor's description (for the DIMG writer)
 */
struct nvdla_bdma_copy {
	struct dla_bdma_transfer_desc transfer;
	const void *src;
	uint64_t src_size;
	uint64_t dst_size;
	struct nvdla_tensor_desc in;
	struct nvdla_tensor_desc out;
};

/* Build a complete loadable that runs @copy on nv_full. */
int nvdla_build_bdma_copy(const struct nvdla_bdma_copy *copy, void **buf,
			  size_t *len);

/*
 * Build an echo: a loadable whose BDMA copies input 0, the tensor @t of
 * one surface (t->stride[1] bytes per line, t->size bytes), to output 0
 * of the same description.
 */
int nvdla_build_echo(const struct nvdla_tensor_desc *t, void **buf,
		     size_t *len);

/*
 * Add a DLA task whose BDMA copies the tensor @t of one surface (as
 * nvdla_build_echo()'s) from memory @from to memory @to.
 */
int nvdla_builder_copy_task(struct nvdla_builder *b,
			    const struct nvdla_tensor_desc *t, int from, int to);

/*
 * The same echo in @num_tasks DLA tasks, one after the other: each copies
 * the memory the one before wrote into the next (input 0, intermediate
 * memories, output 0).
 */
int nvdla_build_echo_tasks(const struct nvdla_tensor_desc *t,
			   unsigned int num_tasks, void **buf, size_t *len);
#endif /* __NVDLA_UMD_BUILDER_H__ */
