/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The contract between the portable engine scheduler (drivers/accel/nvdla/engine/) and the
 * host that embeds it: the kernel driver, or the runtime's in-process
 * backend.
 *
 * Implemented by the firmware, called by the host:
 *   dla_engine_size, dla_register_driver, dla_allow_hw_hazards,
 *   dla_task_prepare,
 *   dla_task_release, dla_execute_task, dla_isr_handler,
 *   dla_process_events, dla_clear_task.
 *
 * A task's life: dla_task_prepare() copies every descriptor the engine
 * will read out of the task's buffers and validates the copy, in process
 * context where the host may sleep (it allocates through the port), with
 * no engine lock held: it only reads the engine's binding. The host keeps
 * the returned checked task with its job, and dla_execute_task() runs it
 * from that copy alone: the task's buffers are afterwards only the data
 * the engines read and write, within the extents that were checked, so
 * whoever can still write them cannot change what runs. A checked task
 * runs once (its dependency counts are consumed); dla_task_release()
 * frees it once the engine no longer holds it (after dla_clear_task(), or
 * if it never ran).
 *
 * dla_execute_task, dla_isr_handler, dla_process_events and dla_clear_task
 * touch the engine's state: the host serialises them on one engine with
 * its own lock (an IRQ-safe spinlock in the kernel); dla_isr_handler runs
 * in interrupt context. None of them validates, allocates or sleeps, and
 * each does work bounded per operation it programs, enables or completes,
 * never proportional to the task's size. The firmware takes no lock.
 *
 * Implemented by the host, called by the firmware: struct dla_port_ops.
 * All functions return 0 or a negative errno.
 */
#ifndef __NVDLA_FIRMWARE_H__
#define __NVDLA_FIRMWARE_H__

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#include <nvdla/cbuf_limits.h>

struct dla_engine;
struct dla_checked_task;

/**
 * struct dla_hw_config - what the firmware may drive on this device
 * @name: the configuration's name, for messages
 * @unit_base: byte offset of every unit (enum nvdla_unit) from the register
 *	base, NVDLA_UNIT_ABSENT where the device has no such unit
 * @atom_size: memory atom in bytes
 * @bdma: the device has the bridge DMA
 * @rubik: the device has the RUBIK engine
 * @weight_compress: the convolution pipeline accepts compressed weights
 * @winograd: the convolution pipeline has Winograd mode
 * @cdma_early: a convolution's CDMA may be enabled before its CSC
 * @sdp_y: the SDP has its Y stage (element-wise operand, ALU, MUL, LUT)
 * @precisions: BIT(DLA_PRECISION_*) of every precision the engines compute
 * @addr_bits: width of the memory addresses its DMA engines drive
 * @cbuf: its convolution buffer and MAC array, as the buffer's limits
 *	(nvdla/cbuf_limits.h) need them
 *
 * The values of each standard configuration: nvdla/hw_configs.h.
 */
struct dla_hw_config {
	const char *name;
	const u32 *unit_base;
	u32 atom_size;
	bool bdma;
	bool rubik;
	bool weight_compress;
	bool winograd;
	bool cdma_early;
	bool sdp_y;
	u32 precisions;
	u32 addr_bits;
	struct nvdla_cbuf cbuf;
};

enum dla_log_level {
	DLA_LOG_ERROR,
	DLA_LOG_WARN,
	DLA_LOG_INFO,
	DLA_LOG_DEBUG,
};

/* The longest message dla_port_ops.log gets, its NUL included. */
#define DLA_LOG_MAX 256

/**
 * struct dla_port_ops - services the host provides to the firmware
 * @reg_read: read the 32-bit register at byte offset @addr
 * @reg_write: write the 32-bit register at byte offset @addr
 * @entry: where address-list entry @index of @task is (its buffer's start
 *	plus the entry's offset): the device address in *@dma, the CPU
 *	mapping in *@cpu, and in *@size the bytes from there to the end of
 *	the buffer. @cpu is NULL when the firmware will not read or write
 *	the buffer itself. The firmware keeps every access within @size. Called
 *	by dla_task_prepare(), which copies the descriptors through *@cpu,
 *	and under the engine lock, for device addresses and to write
 *	statistics: it must not sleep.
 * @time_us: a monotonic time in microseconds
 * @log: report a message; @msg is complete, without a newline, and at
 *	most DLA_LOG_MAX bytes with its terminating NUL
 * @alloc: @size bytes of zeroed memory for the task @task (its
 *	dla_task.host_task) in *@ptr; returns 0, or the negative errno the
 *	preparation fails with (-ENOMEM, or a limit of the host's: the
 *	host may account and bound what each task holds). Called from
 *	dla_task_prepare() only, where the host may sleep: checked tasks
 *	(as large as the descriptors in the task's buffers) and scratch
 *	memory of the validation
 * @free: give back @size bytes at @ptr (NULL for nothing) that @alloc
 *	gave @task; called from dla_task_prepare() and dla_task_release()
 *
 * @index is always inside the task's address list: the firmware checks it
 * against dla_task.num_addresses first.
 */
struct dla_port_ops {
	u32 (*reg_read)(void *drv, u32 addr);
	void (*reg_write)(void *drv, u32 addr, u32 val);
	int (*entry)(void *drv, void *task, u16 index, u64 *dma, void **cpu,
		     u64 *size);
	u64 (*time_us)(void *drv);
	void (*log)(void *drv, enum dla_log_level level, const char *msg);
	int (*alloc)(void *drv, void *task, size_t size, void **ptr);
	void (*free)(void *drv, void *task, void *ptr, size_t size);
};

/**
 * struct dla_task - one task as the host hands it to the firmware
 * @host_task: the host's task object, passed back to every port call
 * @num_addresses: length of the task's address list
 */
struct dla_task {
	void *host_task;
	u16 num_addresses;
};

/*
 * The configuration of a standard NVDLA build, by its name
 * (nvdla/hw_configs.h); NULL for another name.
 */
const struct dla_hw_config *dla_hw_config_get(const char *name);

/* Size of the engine context the host must allocate (zeroed, any align). */
size_t dla_engine_size(void);

/*
 * Bind an engine context to its host and hardware. @ops and @config must
 * outlive the engine. Returns -EINVAL if @config lacks GLB.
 */
int dla_register_driver(struct dla_engine *engine, void *drv,
			const struct dla_port_ops *ops,
			const struct dla_hw_config *config);

/*
 * Accept tasks with convolutions the hardware cannot run (a limit of the
 * convolution buffer, nvdla/cbuf_limits.h), logging a warning for each,
 * instead of refusing them: for hosts that run them on the model, which
 * must be told the same (nvdla_sim_allow_hazards()). Off after
 * dla_register_driver().
 */
void dla_allow_hw_hazards(struct dla_engine *engine, bool allow);

/*
 * Copy @task's descriptors (network, dependency graph, operation and
 * surface descriptors of every region, LUTs) into memory from the port's
 * alloc and validate the copy completely against @engine's configuration:
 * each descriptor, the per-type chains and the dependency graph as a whole
 * (each operation waits for exactly the events linked to it, and they can
 * all happen), in time and memory linear in the task. No register is read
 * or written and @engine is not modified, so this may run concurrently
 * with a task on @engine, outside its lock. On success *@checked is the
 * host's until dla_task_release(). Returns -EINVAL (with a message through
 * the port's log) for a task the device cannot run, or the error of a
 * failed @alloc; *@checked is then NULL.
 */
int dla_task_prepare(struct dla_engine *engine, const struct dla_task *task,
		     struct dla_checked_task **checked);

/*
 * Free a checked task (NULL does nothing). Not while an engine runs it:
 * call dla_clear_task() first. Process context.
 */
void dla_task_release(struct dla_engine *engine,
		      struct dla_checked_task *checked);

/*
 * Whether the host must reset the engine once @checked has run, before the
 * next task: on the designs whose CDMA counts its weight entries on a
 * gated clock (cdma_early), the releases of a task's last convolution
 * come when no CDMA is enabled; the count keeps them as held, the room of
 * later convolutions shrinks until one stops for good, and only a reset
 * clears it (docs/model.md).
 */
bool dla_task_needs_reset(const struct dla_engine *engine,
			  const struct dla_checked_task *checked);

/*
 * Start @checked, which dla_task_prepare() returned for @engine and which
 * never ran: program the first operations of each type from the copy.
 * Returns -EBUSY while another task is loaded and -EINVAL for a checked
 * task that ran before, changing nothing; otherwise the task is loaded,
 * even if starting it failed, and the engine uses @checked until
 * dla_clear_task().
 */
int dla_execute_task(struct dla_engine *engine,
		     struct dla_checked_task *checked);

/* Interrupt context: latch and acknowledge the hardware's done bits. */
int dla_isr_handler(struct dla_engine *engine);

/*
 * Process context, after dla_isr_handler: complete operations and start the
 * ones they release. Sets *@task_complete when the whole task is done.
 * Returns a negative errno once the task has failed.
 */
int dla_process_events(struct dla_engine *engine, bool *task_complete);

/* Unload the current task, masking the engine's interrupts, whatever state it is in. */
void dla_clear_task(struct dla_engine *engine);

#endif /* __NVDLA_FIRMWARE_H__ */
