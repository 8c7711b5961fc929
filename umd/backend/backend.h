/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The one interface between the runtime and what runs its tasks: the
 * kernel driver through libdrm (backend_drm.c) or the firmware and hardware
 * model linked into the process (backend_sim.c). Every function returns 0
 * or a negative errno and, on failure, leaves a message in be->error.
 */
#ifndef __NVDLA_UMD_BACKEND_H__
#define __NVDLA_UMD_BACKEND_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <nvdla/cbuf_limits.h>
#include <nvdla/runtime.h>

struct nvdla_backend;
struct nvdla_record;
struct dla_hw_config;

/* A buffer object, mapped for the CPU for its whole life. */
struct nvdla_bo {
	struct nvdla_backend *be;
	uint64_t size;
	void *map;
};

/* A backend's message: room for a firmware refusal and the names it holds. */
#define NVDLA_BE_ERROR_MAX 384

/*
 * A chain of tasks queued one after another (queue() below), its failure
 * message in @error. A backend that queues makes them; a network keeps
 * one per run in flight, so that a run's tasks are waited for, and fail,
 * apart from the next run's, which the device runs after them.
 */
struct nvdla_chain {
	char error[NVDLA_BE_ERROR_MAX];
};

/* One address-list entry of a task. */
struct nvdla_backend_address {
	struct nvdla_bo *bo;
	uint64_t offset;
};

struct nvdla_backend_ops {
	/* Allocate a zeroed, mapped buffer of at least @size bytes. */
	int (*bo_new)(struct nvdla_backend *be, uint64_t size,
		      struct nvdla_bo **bo);
	void (*bo_del)(struct nvdla_bo *bo);
	/*
	 * A new file descriptor, owned by the caller, for @bo's memory
	 * without a copy: a dma-buf (DRM) or a memfd (in process).
	 */
	int (*bo_export)(struct nvdla_bo *bo, int *fd);
	/*
	 * A mapped buffer on the memory of @fd, of the size the fd reports
	 * (lseek to its end), without a copy. The caller keeps @fd.
	 */
	int (*bo_import)(struct nvdla_backend *be, int fd, struct nvdla_bo **bo);
	/*
	 * Run one firmware task whose address list is @list[@num] and wait
	 * until it ends: completed, failed, or stopped at the absolute
	 * CLOCK_MONOTONIC @deadline_ns (0: the backend's own bound, see
	 * nvdla_network_submit()). The in-process backend's way; the DRM
	 * one queues instead (below).
	 */
	int (*submit)(struct nvdla_backend *be,
		      const struct nvdla_backend_address *list, uint32_t num,
		      int64_t deadline_ns);
	/*
	 * Queue a task as submit() runs it, on @chain after the tasks queued
	 * there since its last finish(), and return at once: the device
	 * starts it when they have ended, and ends it unrun with their error
	 * if one failed. The device runs a backend's tasks in the order they
	 * were queued, whatever their chains. finish() waits for the chain's
	 * tasks and returns the first failure, with its task's @tag in *@tag
	 * and the message in chain->error (it may run on another thread than
	 * queue(), which reports in be->error like the rest). sync_file()
	 * gives a new sync_file fd, owned by the caller, that signals when
	 * the chain's last task queued ends. Only the DRM backend has them
	 * (the kernel orders its jobs by fences), and it measures @timing for
	 * a queue() then finish() of one task; the in-process one runs a task
	 * at a time.
	 */
	int (*chain_new)(struct nvdla_backend *be, struct nvdla_chain **chain);
	void (*chain_del)(struct nvdla_backend *be, struct nvdla_chain *chain);
	int (*queue)(struct nvdla_backend *be, struct nvdla_chain *chain,
		     const struct nvdla_backend_address *list, uint32_t num,
		     int64_t deadline_ns, uint32_t tag);
	int (*finish)(struct nvdla_backend *be, struct nvdla_chain *chain,
		      uint32_t *tag);
	int (*sync_file)(struct nvdla_backend *be, struct nvdla_chain *chain,
			 int *fd);
	void (*del)(struct nvdla_backend *be);
	/*
	 * Record the tasks submitted from now on into @rec (record.h), or
	 * stop recording (NULL). Only a backend that sees every register
	 * access and memory access of the engines has it: the in-process
	 * one, which resets its model and firmware when a recording starts
	 * so that the trace replays from the hardware's reset state.
	 */
	int (*record)(struct nvdla_backend *be, struct nvdla_record *rec);
	/*
	 * Estimate every operation's duration at @params (defaults filled
	 * in there) into @est_ops from now on: only the in-process model
	 * has it.
	 */
	int (*estimate)(struct nvdla_backend *be,
			struct nvdla_estimate_params *params);
};

/**
 * struct nvdla_backend_timing - latencies of the last task, for benchmarks
 * @measured: the backend measured them: the in-process one always, the
 *	DRM one when asked (nvdla_backend.want_timing), from the counters the
 *	driver keeps per file (fdinfo)
 * @submit_to_first_write_ns: from submit() to the first register write
 * @irq_to_next_ns: summed over the interrupts after which the task went
 *	on: from taking the interrupt to the firmware having started the
 *	operations it released (and programmed the ones after them)
 * @irqs_to_next: the number of those interrupts
 */
struct nvdla_backend_timing {
	bool measured;
	int64_t submit_to_first_write_ns;
	int64_t irq_to_next_ns;
	uint32_t irqs_to_next;
};

struct nvdla_backend {
	const struct nvdla_backend_ops *ops;
	const char *name;	/* device node or "sim:<config>" */
	/* The device's configuration, if known: tasks are checked at load. */
	const struct dla_hw_config *hw;
	char error[NVDLA_BE_ERROR_MAX];
	/* Measure @timing where it costs something (a benchmark asks). */
	bool want_timing;
	struct nvdla_backend_timing timing;
	/*
	 * Run layers the hardware cannot (a convolution-buffer limit) rather
	 * than refuse them: only a model can (@can_allow_hazards). @hazards
	 * counts those run, @hazard names the last one's rule and numbers.
	 */
	bool can_allow_hazards, allow_hazards;
	unsigned int hazards;
	char hazard[NVDLA_CBUF_VERDICT_MAX];
	/*
	 * The operations estimated since @est_num was last zeroed (ops->
	 * estimate), at @est_params; @est_failed: one did not fit in memory.
	 */
	bool estimating, est_failed;
	bool no_values;		/* estimates alone: compute no element */
	struct nvdla_estimate_params est_params;
	struct nvdla_op_estimate *est_ops;
	unsigned int est_num, est_cap;
};

/*
 * The bytes behind @fd, from its end's offset (fd_size.c): -EINVAL for an
 * empty one or one without an end (a pipe, a socket), -EBADF for no fd.
 */
int nvdla_fd_size(int fd, uint64_t *size);

/* Open the NVDLA DRM device node @path. */
int nvdla_backend_drm_open(const char *path, struct nvdla_backend **be,
			   char *err, size_t errlen);

/* Find the first NVDLA device node; -ENODEV if there is none. */
int nvdla_backend_drm_find(char *path, size_t len);

/* Create an in-process hardware model of configuration @config. */
int nvdla_backend_sim_open(const char *config, struct nvdla_backend **be,
			   char *err, size_t errlen);

#endif /* __NVDLA_UMD_BACKEND_H__ */
