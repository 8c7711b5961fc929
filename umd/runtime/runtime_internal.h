/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Objects behind the public runtime API. */
#ifndef __NVDLA_UMD_RUNTIME_INTERNAL_H__
#define __NVDLA_UMD_RUNTIME_INTERNAL_H__

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include <nvdla/runtime.h>

#include "backend.h"
#include "loadable.h"

#define NVDLA_EXPORT __attribute__((visibility("default")))

#define NVDLA_RT_ERROR_MAX 512

struct nvdla_runtime {
	struct nvdla_backend *be;
	/* Held by a worker for a run's device part, and around bo_new/del. */
	pthread_mutex_t be_lock;
	char error[NVDLA_RT_ERROR_MAX];
};

struct nvdla_buffer {
	struct nvdla_runtime *rt;
	struct nvdla_bo *bo;
};

/* A DLA task ready to submit. */
struct nvdla_net_task {
	const struct nvdla_lbl_task *src;
	uint32_t num;
	struct nvdla_backend_address *list;
	struct nvdla_buffer *stats;	/* its stat list, once enabled */
};

/* An input or output: the memory entry it lives in and its description. */
struct nvdla_binding {
	uint16_t mem;			/* index into memories */
	struct nvdla_tensor_desc desc;
	struct nvdla_buffer *bound;	/* the application's, or NULL */
	bool scaled;			/* real value = (code - zero) * scale */
	float scale;
	int32_t zero;
	bool mapped;			/* the loadable records @map (inputs) */
	struct nvdla_image_options map;
};

/**
 * struct nvdla_run - a submitted run (run.c)
 * @io: the buffers of its inputs, then of its outputs, at submission
 * @timeout_ns: its time limit from its start, or 0
 * @lock, @cond: guard @ended, @status and @error after submission
 * @efd: eventfd, readable once it has ended
 * @refs: the application's handle and the network's queue
 * @next: the next run in the queue
 */
struct nvdla_run {
	struct nvdla_buffer **io;
	int64_t timeout_ns;
	/*
	 * Set by the worker: the network's slot it holds (run_slot.c) from
	 * its device part to its end, and how its device part went.
	 */
	unsigned int slot;
	int device_status;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool ended;
	int status;
	char error[NVDLA_RT_ERROR_MAX];
	int efd;
	/*
	 * The sync_file of the run's device part, the fence of the job of
	 * task @sync_task (-1: none can be had): @sync_fd once that job is
	 * queued in the kernel, or @sync_err and @sync_error why there is
	 * none; @sync_known when either is set; @sync_refused once
	 * nvdla_run_sync_file() has given @sync_err.
	 */
	int64_t sync_task;
	int sync_fd;
	int sync_err;
	char sync_error[NVDLA_RT_ERROR_MAX];
	bool sync_known;
	bool sync_refused;
	unsigned int refs;
	struct nvdla_run *next;
};

/* A run of @net on its current bindings, with two references (run.c). */
int nvdla_run_new(struct nvdla_network *net, int64_t timeout_ns,
		  struct nvdla_run **run);
/* End @run with @status (its message already in run->error). */
void nvdla_run_end(struct nvdla_run *run, int status);
/* Export the fence of @chain's last task queued as @run's sync_file. */
void nvdla_run_sync_file_set(struct nvdla_run *run, struct nvdla_backend *be,
			     struct nvdla_chain *chain);
/* Drop a reference; the last frees it. */
void nvdla_run_put(struct nvdla_run *run);

/**
 * struct nvdla_net_worker - a network's two threads (run_worker.c): the
 *	worker executes each run's device part, the finisher waits for it
 *	to end, runs the CPU tail and ends the run, both in submission order
 * @lock: guards everything here, the network's @status and @stats_valid,
 *	and its slots' @busy
 * @cond: a run was queued, a slot freed, or the network is closing
 * @head, @tail: runs queued, not started
 * @done_cond: a run's device part was executed, or the worker stopped
 * @done_head, @done_tail: runs whose device part was executed, not ended
 * @in_flight: runs submitted that have not ended
 * @started: the threads exist
 * @closing: the network is being unloaded
 * @stopped: the worker will hand the finisher no more runs
 */
struct nvdla_net_worker {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct nvdla_run *head, *tail;
	pthread_cond_t done_cond;
	struct nvdla_run *done_head, *done_tail;
	unsigned int in_flight;
	bool started;
	bool closing;
	bool stopped;
	pthread_t thread, finisher;
};

void nvdla_net_worker_init(struct nvdla_net_worker *w);
/* Queue @run, taking its second reference; start the thread if needed. */
int nvdla_net_worker_queue(struct nvdla_network *net, struct nvdla_run *run);
/* Cancel the queued runs, let the started one end, join the thread. */
void nvdla_net_worker_close(struct nvdla_network *net);
/* -EBUSY with a message while runs of @net are in flight, else 0. */
int nvdla_net_idle(struct nvdla_network *net, const char *what);

/*
 * @run's device part, its tasks up to the last DLA task, queued or run
 * on its slot holding the device (the worker); failure messages go to
 * run->error.
 */
int nvdla_net_execute(struct nvdla_network *net, struct nvdla_run *run);
/*
 * After nvdla_net_execute(): wait for @run's device part to end, then run
 * its CPU tail (the finisher); the run's result.
 */
int nvdla_net_complete(struct nvdla_network *net, struct nvdla_run *run);

/*
 * Runs in flight with memory of their own at most: one whose device part
 * executes while the one before runs its CPU tail (more would wait for
 * the same device or the same CPU tail).
 */
#define NVDLA_NET_SLOTS 2

/**
 * struct nvdla_net_slot - what a run in flight holds of its own
 *	(run_slot.c)
 * @mem: per memory entry, the slot's copy of a memory the CPU tail
 *	reads or writes (nvdla_net_slot_memories()), or NULL: the network's
 *	own; NULL for slot 0, which uses the network's own
 * @chain: the backend's chain for its device part, if the backend queues
 * @busy: a run holds it (guarded by the worker's lock)
 */
struct nvdla_net_slot {
	struct nvdla_buffer **mem;
	struct nvdla_chain *chain;
	bool busy;
};

/*
 * At load: net->tail, and in net->per_run the memories that need a copy
 * per slot: those the CPU tail's operations read or write, other than
 * the inputs and outputs (bound per run), that the device part's tasks
 * address too.
 */
int nvdla_net_slot_memories(struct nvdla_network *net);
/* Make slot @s ready for a run: its copies and chain, once. */
int nvdla_net_slot_ready(struct nvdla_network *net, unsigned int s);
/* Free the slots' copies and chains. */
void nvdla_net_slots_free(struct nvdla_network *net);

/*
 * Each entry of @net's loadable blob @name, a table of @magic with
 * entries of @entry_size (blob_table.c), through @entry; 0 without the
 * blob, -EINVAL with a message for a malformed one.
 */
int nvdla_net_blob_table(struct nvdla_network *net, const char *name,
			 uint32_t magic, uint32_t entry_size,
			 int (*entry)(struct nvdla_network *net,
				      const uint8_t *e, uint32_t i));
/* Bindings' scales from the loadable's "tensor-scales" blob (scales.c). */
int nvdla_net_scales(struct nvdla_network *net);
/* The "input-mapping" blob (input_map.h) into the input bindings. */
int nvdla_net_input_map(struct nvdla_network *net);

struct nvdla_network {
	struct nvdla_runtime *rt;
	struct nvdla_loadable *l;
	struct nvdla_buffer **mem;	/* per memory entry; NULL if none */
	uint32_t num_tasks;
	struct nvdla_net_task *tasks;	/* in submission order */
	unsigned int num_inputs, num_outputs;
	struct nvdla_binding *inputs, *outputs;
	int status;		/* of the last run that ended */
	bool stats_valid;	/* the last run that ended filled the stat lists */
	struct nvdla_net_worker worker;
	uint32_t tail;		/* the first task of the CPU tail */
	bool *per_run;		/* per memory entry: a copy per slot */
	struct nvdla_net_slot slots[NVDLA_NET_SLOTS];
	char *record_dir;	/* recording each submission there, or NULL */
	enum nvdla_record_format record_format;
	/* The performance estimate of the last run that ended (estimate.c). */
	bool est_valid;
	struct nvdla_estimate_params est_params;
	struct nvdla_op_estimate *est_ops;
	unsigned int est_num;
};

/* Around a run, on the device's lock: collect its estimate, keep it. */
void nvdla_net_estimate_begin(struct nvdla_network *net);
void nvdla_net_estimate_end(struct nvdla_network *net, int status);

/*
 * How a tensor's elements lie in its buffer: bytes per element and
 * elements per atom of the feature layout (@lanes), or for pitch-linear
 * pixels 0 lanes and @pixel elements (components) per pixel.
 */
struct nvdla_layout {
	uint32_t bpe;
	uint32_t lanes;
	uint32_t pixel;
};

/* The layout of @d; -EOPNOTSUPP for a format the runtime cannot address. */
int nvdla_tensor_layout(const struct nvdla_tensor_desc *d,
			struct nvdla_layout *l);
/* Byte offset of element (@c, @y, @x) of @d laid out as @l. */
uint64_t nvdla_tensor_at(const struct nvdla_tensor_desc *d,
			 const struct nvdla_layout *l, uint32_t c, uint32_t y,
			 uint32_t x);

/*
 * The C x H x W elements of @d in *@n; -EINVAL for an empty dimension or
 * a count beyond 64 bits.
 */
int nvdla_tensor_elements(const struct nvdla_tensor_desc *d, uint64_t *n);

/*
 * Run the tasks of one submission, recorded into net->record_dir if set
 * (network_record.c), through @run_tasks.
 */
int nvdla_net_submit_recorded(struct nvdla_network *net,
			      struct nvdla_run *run, int64_t deadline,
			      int (*run_tasks)(struct nvdla_network *net,
					       struct nvdla_run *run,
					       int64_t deadline));

/* A DLA blob made for firmware before 0.12 (28-byte data cubes). */
bool nvdla_legacy_blob(const struct nvdla_lbl_blob *blob);
/*
 * Rewrite @num_operations surface descriptors (every region's) from the
 * legacy layout to the current one in place; op types come from the
 * dependency graph.
 */
int nvdla_legacy_upgrade(uint8_t *surfaces, uint64_t surfaces_size,
			 const uint8_t *graph, uint64_t graph_size,
			 uint32_t num_operations);

/*
 * Check every DLA task of @net against the device's configuration with
 * the firmware's own validation, when the backend knows it (task_check.c).
 */
int nvdla_net_check_tasks(struct nvdla_network *net);

/*
 * Run CPU task @lt (emu.h's operations) on @run's buffers. Returns 0, or
 * -EINVAL / -EOPNOTSUPP with a message when a descriptor or buffer does not
 * fit, before anything is written.
 */
int nvdla_emu_run(struct nvdla_network *net, const struct nvdla_run *run,
		  const struct nvdla_lbl_task *lt);
/*
 * Mark in @mem (per memory entry) the memories CPU task @lt's operations
 * read or write, as its descriptors say now; a message and an error if
 * they do not decode.
 */
int nvdla_emu_memories(struct nvdla_network *net,
		       const struct nvdla_lbl_task *lt, bool *mem);
/*
 * Decode every CPU task's descriptors at load: a message and an error for
 * the first that does not.
 */
int nvdla_emu_check(struct nvdla_network *net);
/* fp16 of @f, nearest with ties away from zero (the emulator's rounding). */
uint16_t nvdla_emu_half(float f);
/* The value of IEEE half @h (NaN and infinities included). */
float nvdla_half_to_float(uint16_t h);
/*
 * @v rounded to the nearest integer, ties away from zero, within [@lo,
 * @hi] (NaN: 0): how the hardware requantises (its AC_RND_INF rounding,
 * sim/sim_math.h), and so how the runtime makes integers of the values
 * it computes (inputs, this stack's CPU operations).
 */
static inline long nvdla_round_sat(float v, long lo, long hi)
{
	if (isnan(v))
		return 0;
	return lroundf(fminf(fmaxf(v, (float)lo), (float)hi));
}

/*
 * Open the regular file @path for reading, its size in *@size; on failure
 * (missing, unreadable, a directory or device) a message naming it.
 */
int nvdla_rt_open_file(struct nvdla_runtime *rt, const char *path, FILE **f,
		       uint64_t *size);

/*
 * Record a failure message on @rt (in a worker executing a run: on the
 * run); returns @err.
 */
int nvdla_rt_error(struct nvdla_runtime *rt, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The last message nvdla_rt_error() recorded for the calling thread. */
const char *nvdla_rt_message(struct nvdla_runtime *rt);
/*
 * From now on, send the calling thread's messages to @buf
 * (NVDLA_RT_ERROR_MAX bytes), or to the runtime again (NULL).
 */
void nvdla_rt_error_to(char *buf);

/*
 * Host mapping of address @index of task @lt, and in *@size the bytes from
 * there to the end of its memory; NULL if it has none.
 */
uint8_t *nvdla_net_address(const struct nvdla_network *net,
			   const struct nvdla_lbl_task *lt, int16_t index,
			   uint64_t *size);

/*
 * Statistics (stats.c): before each run of task @t with a stat buffer,
 * name it in the network descriptor and as address-list entry t->num.
 */
void nvdla_net_stats_prepare(struct nvdla_network *net,
			     struct nvdla_net_task *t);

/*
 * The buffer memory entry @mem is for @run (its inputs and outputs, its
 * slot's copies), or without a run the one it uses now (an application
 * binding wins).
 */
struct nvdla_buffer *nvdla_net_memory(const struct nvdla_network *net,
				      const struct nvdla_run *run, uint16_t mem);
/* Fill memory entry @m's buffer @buf from the loadable's blobs. */
void nvdla_net_fill(struct nvdla_network *net, uint16_t m,
		    struct nvdla_buffer *buf);

#endif /* __NVDLA_UMD_RUNTIME_INTERNAL_H__ */
