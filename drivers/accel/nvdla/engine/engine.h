/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Engine context and the hooks every processor (one per operation type)
 * implements. Everything the firmware knows about a device lives in struct
 * dla_engine, and about a task in its struct dla_checked_task; there is no
 * file-scope mutable state.
 */
#ifndef __NVDLA_FW_ENGINE_H__
#define __NVDLA_FW_ENGINE_H__

#include <nvdla/dla_interface.h>
#include <nvdla/firmware.h>
#include <nvdla/regs.h>

/* One register group of a processor and the operation loaded into it. */
struct dla_group {
	bool loaded;		/* an operation is programmed into the group */
	bool enabled;		/* ... and started */
	bool early;		/* its fetch started ahead (@enable_early) */
	s16 index;		/* its index in the dependency graph */
	u16 roi;		/* the region of interest it runs for */
	u8 rdma_gid;		/* group of the unit's RDMA, if it reads */
	u64 start_us;		/* when it was enabled, for its statistics */
	/* Its descriptors in the checked task; desc counts down there. */
	const struct dla_common_op_desc *desc;
	const union dla_operation_container *op;
	const union dla_surface_container *surf;
};

struct dla_processor {
	s16 next_index;		/* next operation of this type, -1: none */
	u16 next_roi;		/* ... and the region it runs for next */
	u8 next_group;		/* group the next operation goes to */
	u8 next_rdma_group;	/* group the RDMA runs next (see rdma_unit) */
	struct dla_group groups[DLA_NUM_GROUPS];
};

/**
 * struct dla_processor_ops - what one operation type implements
 * @name: for messages
 * @groups: register groups it can hold operations in at once
 * @pointer_unit: the unit whose S_POINTER.CONSUMER names the group the
 *	hardware runs next, or -1 (no register groups)
 * @done_bits: GLB interrupt status bit of each group's completion
 * @data_bits: status bits of each group's CDMA_DT_DONE event (or 0)
 * @weight_bits: status bits of each group's CDMA_WT_DONE event (or 0)
 * @rdma_unit: a read DMA with register groups of its own, which only the
 *	operations that read memory use, so that its group pointer moves
 *	apart from the unit's (SDP, PDP); valid when @uses_rdma is set
 * @uses_rdma: the operation in @group runs the RDMA
 * @lut: the LUT the operation @op loads into the unit's single LUT, or -1;
 *	NULL where the groups never hold two operations at once
 * @validate: check the operation's descriptors against the task and the
 *	device; no register access
 * @program: write the operation's registers into group @gid
 * @enable: start group @gid
 * @enable_early: start the part of group @gid's operation that waits by
 *	itself for the rest (its counters first: dla_stat_arm()), when the
 *	operation before it, @before, in the other group, is enabled;
 *	returns whether it did (NULL: never)
 * @stat_enable: turn on the performance counters of group @gid
 * @stat_read: read the counters of the finished group @gid into @stat
 *	(all but the run time)
 */
struct dla_processor_ops {
	const char *name;
	u8 groups;
	int pointer_unit;
	u32 done_bits[DLA_NUM_GROUPS];
	u32 data_bits[DLA_NUM_GROUPS];
	u32 weight_bits[DLA_NUM_GROUPS];
	int rdma_unit;
	bool (*uses_rdma)(const struct dla_group *group);
	s16 (*lut)(const union dla_operation_container *op);
	int (*validate)(struct dla_engine *engine,
			const union dla_operation_container *op,
			const union dla_surface_container *surf);
	int (*program)(struct dla_engine *engine, struct dla_group *group,
		       u8 gid);
	int (*enable)(struct dla_engine *engine, struct dla_group *group,
		      u8 gid);
	bool (*enable_early)(struct dla_engine *engine,
			     const struct dla_group *group, u8 gid,
			     const struct dla_group *before);
	void (*stat_enable)(struct dla_engine *engine,
			    const struct dla_group *group, u8 gid);
	void (*stat_read)(struct dla_engine *engine,
			  const struct dla_group *group, u8 gid,
			  union dla_stat_container *stat);
};

/**
 * struct dla_checked_task - a task's descriptors, copied out of its buffers
 *	and validated once (snapshot.c)
 * @host_task: the host's task object, passed back to the port's entry hook
 * @num_addresses: length of the task's address list
 * @started: it was given to dla_execute_task(), which consumes @graph's
 *	dependency counts: a checked task runs once
 * @network: the network descriptor
 * @graph: dependency graph, [roi][op]; the scheduler counts
 *	dependency_count down here, never in the host's buffer
 * @ops: operation descriptors, [roi][op]
 * @surfs: surface descriptors, [roi][op]
 * @luts: the network's num_luts LUTs
 *
 * Nothing here is written after validation but the dependency counts.
 */
struct dla_checked_task {
	void *host_task;
	u16 num_addresses;
	bool started;
	struct dla_network_desc network;
	struct dla_common_op_desc *graph;
	union dla_operation_container *ops;
	union dla_surface_container *surfs;
	struct dla_lut_param *luts;
};

struct dla_engine {
	void *drv;
	const struct dla_port_ops *ops;
	const struct dla_hw_config *config;

	/* The task being validated or run, or NULL. */
	struct dla_checked_task *task;
	u32 num_completed;	/* operations completed, counting each ROI */
	int status;		/* first error of the task, or 0 */
	s32 log_op;		/* operation being validated, named in messages; -1 none */

	u32 irq_status;		/* done bits latched by dla_isr_handler */
	bool allow_hw_hazards;	/* dla_allow_hw_hazards() */
	struct dla_processor processors[DLA_OP_NUM];
};

/* The convolution fits the convolution buffer (nvdla/cbuf_limits.h). */
int dla_cbuf_validate(struct dla_engine *engine,
		      const struct dla_conv_op_desc *p,
		      const struct dla_conv_surface_desc *s);
/* The task's convolutions in turn leave each room for its weights. */
int dla_cbuf_validate_stale(struct dla_engine *engine);
/* A rule of the hardware broken: refused, or where allowed a warning. */
int dla_hw_hazard(struct dla_engine *engine,
		  const struct nvdla_cbuf_verdict *v);

extern const struct dla_processor_ops dla_bdma_ops;
extern const struct dla_processor_ops dla_pdp_ops;
extern const struct dla_processor_ops dla_sdp_ops;
extern const struct dla_processor_ops dla_rubik_ops;
extern const struct dla_processor_ops dla_cdp_ops;
extern const struct dla_processor_ops dla_conv_ops;

u32 dla_reg_read(struct dla_engine *engine, enum nvdla_unit unit, u32 reg);
void dla_reg_write(struct dla_engine *engine, enum nvdla_unit unit, u32 reg,
		   u32 val);

/* Log a formatted message through the host; returns @err for tail calls. */
int dla_log(struct dla_engine *engine, enum dla_log_level level, int err,
	    const char *fmt, ...) __printf(4, 5);

/*
 * Memory for the task @engine prepares, from the port, and back; the
 * allocation's error, logged, is the preparation's.
 */
int dla_task_alloc(struct dla_engine *engine, size_t size, void **ptr);
void dla_task_free(struct dla_engine *engine, void *ptr, size_t size);

#define dla_reject(engine, fmt, ...) \
	dla_log(engine, DLA_LOG_ERROR, -EINVAL, fmt, ##__VA_ARGS__)

/* Operations times regions of interest a task may run. */
#define DLA_MAX_RUNS 65535

/*
 * Element of operation @op for region @roi in the per-operation arrays
 * (dependency graph, operations, surfaces), laid out [roi][op].
 */
static inline u32 dla_op_elem(const struct dla_engine *engine, u16 roi,
			      s16 op)
{
	return (u32)roi * engine->task->network.num_operations + op;
}

/*
 * Copy @count elements of @size bytes from the start of address-list
 * entry @index into @dst, after checking that they lie inside the buffer.
 */
int dla_copy_in(struct dla_engine *engine, s16 index, u32 count, u32 size,
		void *dst);
/* Write element @elem (of @size bytes) of the array at entry @index. */
int dla_write_desc(struct dla_engine *engine, s16 index, u32 elem,
		   const void *src, u32 size);

/*
 * Device address of address-list entry @index plus @offset, after checking
 * that @len bytes from there lie inside the buffer.
 */
int dla_dma_range(struct dla_engine *engine, s16 index, u64 offset, u64 len,
		  u64 *addr);

#endif /* __NVDLA_FW_ENGINE_H__ */
