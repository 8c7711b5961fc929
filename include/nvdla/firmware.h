/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The contract between the portable engine scheduler (firmware/) and the
 * host that embeds it: the kernel driver, or the runtime's in-process
 * backend.
 *
 * Implemented by the firmware, called by the host:
 *   dla_engine_size, dla_register_driver, dla_execute_task, dla_isr_handler,
 *   dla_process_events, dla_clear_task.
 * dla_isr_handler runs in interrupt context; every other entry point runs
 * in process context. The host serialises all of them on one engine with
 * its own lock (an IRQ-safe spinlock in the kernel), so the firmware itself
 * takes no lock and never sleeps.
 *
 * Implemented by the host, called by the firmware: struct dla_port_ops.
 * All functions return 0 or a negative errno.
 */
#ifndef __NVDLA_FIRMWARE_H__
#define __NVDLA_FIRMWARE_H__

#include "deps.h"

struct dla_engine;

/**
 * struct dla_hw_config - what the firmware may drive on this device
 * @name: the configuration's name, for messages
 * @unit_base: byte offset of every unit (enum nvdla_unit) from the register
 *	base, NVDLA_UNIT_ABSENT where the device has no such unit
 * @atom_size: memory atom in bytes
 * @bdma: the device has the bridge DMA
 * @rubik: the device has the RUBIK engine
 * @weight_compress: the convolution pipeline accepts compressed weights
 * @precisions: BIT(DLA_PRECISION_*) of every precision the engines compute
 * @addr_bits: width of the memory addresses its DMA engines drive
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
	u32 precisions;
	u32 addr_bits;
};

enum dla_log_level {
	DLA_LOG_ERROR,
	DLA_LOG_WARN,
	DLA_LOG_INFO,
	DLA_LOG_DEBUG,
};

/**
 * struct dla_port_ops - services the host provides to the firmware
 * @reg_read: read the 32-bit register at byte offset @addr
 * @reg_write: write the 32-bit register at byte offset @addr
 * @entry: where address-list entry @index of @task is (its buffer's start
 *	plus the entry's offset): the device address in *@dma, the CPU
 *	mapping in *@cpu, and in *@size the bytes from there to the end of
 *	the buffer. The firmware keeps every access within @size.
 * @time_us: a monotonic time in microseconds
 * @log: report a message; @msg is complete, without a newline
 * @alloc: @size bytes of zeroed memory the firmware holds for a while, or
 *	NULL; called from dla_check_task() only, which a host calls where it
 *	may sleep; a host that never calls it may leave @alloc and @free NULL
 * @free: give back what @alloc returned (or NULL)
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
	void *(*alloc)(void *drv, size_t size);
	void (*free)(void *drv, void *ptr);
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
 * Validate @task completely, then start it. Nothing is written to the
 * hardware unless validation passes. Returns -EBUSY while another task is
 * loaded, -EINVAL for a malformed task. On success the task stays loaded
 * until dla_clear_task().
 */
int dla_execute_task(struct dla_engine *engine, const struct dla_task *task);

/*
 * Validate @task as dla_execute_task() does, against the engine's
 * configuration, without starting it: no register is read or written, so
 * that a host can refuse a task when it is submitted rather than when it
 * reaches the engine. It also checks the dependency graph as a whole
 * (each operation waits for exactly the events linked to it, and they can
 * all happen), in time and memory linear in the task, which is why
 * dla_execute_task(), run where the host may not sleep, leaves it out.
 * A host whose engine runs tasks meanwhile passes a second context of its
 * own (bound to the same host and configuration). Returns -EBUSY while a
 * task is loaded, -EINVAL (with a message through the port's log) for a
 * task the device cannot run, -ENOMEM if @alloc fails.
 */
int dla_check_task(struct dla_engine *engine, const struct dla_task *task);

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
