/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * libnvdla_runtime: run NVDLA loadables on a device or on the in-process
 * hardware model.
 *
 * Every int function returns 0 or a negative errno; on failure
 * nvdla_runtime_error() says what went wrong and where.
 *
 * Threads: a runtime, its networks and its buffers belong to one thread
 * at a time (use one runtime per thread, or lock around it). Runs (struct
 * nvdla_run) are the exception: nvdla_run_wait(), nvdla_run_poll(),
 * nvdla_run_fd(), nvdla_run_sync_file() and nvdla_run_error() may be
 * called from any thread on a run not yet freed, alongside calls on its
 * network. Each network runs its submitted runs on two threads of the
 * library, in submission order: a worker executes a run's device part
 * (its tasks up to the last DLA task), a finisher waits for it to end,
 * runs the CPU tasks after it and ends the run, so the next run's device
 * part executes while a run's CPU tasks run (on a copy, allocated once
 * for a second run in flight, of the memory they share with the device
 * part). The device parts of all networks of a runtime share its device
 * one at a time, and nvdla_buffer_new(), nvdla_buffer_del(),
 * nvdla_buffer_import() and nvdla_buffer_export() wait for the device
 * part that holds it.
 */
#ifndef __NVDLA_RUNTIME_H__
#define __NVDLA_RUNTIME_H__

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

struct nvdla_runtime;
struct nvdla_network;
struct nvdla_buffer;

/* Tensor data types (loadable TensorDescListEntry.data_type). */
enum nvdla_data_type {
	NVDLA_DATA_TYPE_UNKNOWN = 0,
	NVDLA_DATA_TYPE_FLOAT = 1,
	NVDLA_DATA_TYPE_HALF = 2,
	NVDLA_DATA_TYPE_INT16 = 3,
	NVDLA_DATA_TYPE_INT8 = 4,
};

/*
 * Pixel formats of tensors (loadable TensorDescListEntry.pixel_format)
 * the runtime reads and writes: pitch-linear pixels of the hardware's
 * image formats R8 (int8), A16B16G16R16_F (fp16) and A8B8G8R8 (int8), the
 * official compiler's image inputs, and features in 32-byte atoms (8-byte
 * atoms for int8 on nv_small), whose codes follow the hardware's 36 image
 * formats.
 */
enum nvdla_tensor_format {
	NVDLA_TENSOR_R8 = 0,
	NVDLA_TENSOR_A16B16G16R16_F = 8,
	NVDLA_TENSOR_A8B8G8R8 = 12,
	NVDLA_TENSOR_FEATURE = 36,
	NVDLA_TENSOR_FEATURE_X8 = 37,
};

#define NVDLA_TENSOR_NAME_MAX 80

/**
 * struct nvdla_tensor_desc - an input or output of a network
 * @name: tensor name from the loadable
 * @size: bytes of the buffer that holds it
 * @n, @c, @h, @w: dimensions
 * @data_format, @data_type, @data_category, @pixel_format, @pixel_mapping:
 *	the loadable's codes (enum nvdla_data_type for @data_type, enum
 *	nvdla_tensor_format for the formats the runtime reads and writes)
 * @stride: [0] bytes per element, [1] line stride, [2] surface stride
 */
struct nvdla_tensor_desc {
	char name[NVDLA_TENSOR_NAME_MAX + 1];
	uint64_t size;
	int32_t n, c, h, w;
	uint8_t data_format;
	uint8_t data_type;
	uint8_t data_category;
	uint8_t pixel_format;
	uint8_t pixel_mapping;
	uint32_t stride[8];
};

/*
 * Open @device: a DRM device node, "sim:nv_full", "sim:nv_small" or
 * "sim:nv_large" for the in-process model, or NULL for the first NVDLA
 * device node and, without one, "sim:nv_full". On failure *@rt is NULL
 * and, if @err is not NULL, a message is left there.
 */
int nvdla_runtime_new(const char *device, struct nvdla_runtime **rt,
		      char *err, size_t errlen);
void nvdla_runtime_del(struct nvdla_runtime *rt);

/* The device in use, as accepted by nvdla_runtime_new(). */
const char *nvdla_runtime_device(const struct nvdla_runtime *rt);

/* Message of the last failure on @rt or one of its objects. */
const char *nvdla_runtime_error(const struct nvdla_runtime *rt);

/*
 * With @allow non-zero, run networks with layers the hardware cannot run
 * (a limit of the convolution buffer that makes the chip hang, as NVIDIA's
 * C model and RTL show: docs/model.md) on the in-process model instead of
 * refusing them at load and at submission. -EOPNOTSUPP on a device.
 */
int nvdla_runtime_allow_hw_hazards(struct nvdla_runtime *rt, int allow);

/*
 * Layers run so far that the hardware could not run (allowed above);
 * *@last, if not NULL, names the last one's rule and numbers.
 */
unsigned int nvdla_runtime_hw_hazards(const struct nvdla_runtime *rt,
				      const char **last);

/*
 * Load a loadable: check it completely, allocate and fill its memory. The
 * data at @data may be freed afterwards.
 */
int nvdla_network_load(struct nvdla_runtime *rt, const void *data,
		       size_t size, struct nvdla_network **net);
int nvdla_network_load_file(struct nvdla_runtime *rt, const char *path,
			    struct nvdla_network **net);
void nvdla_network_unload(struct nvdla_network *net);

unsigned int nvdla_network_num_inputs(const struct nvdla_network *net);
unsigned int nvdla_network_num_outputs(const struct nvdla_network *net);
int nvdla_network_input_desc(const struct nvdla_network *net,
			     unsigned int index, struct nvdla_tensor_desc *desc);
int nvdla_network_output_desc(const struct nvdla_network *net,
			      unsigned int index,
			      struct nvdla_tensor_desc *desc);

/* Device memory the CPU can reach, for inputs and outputs. */
int nvdla_buffer_new(struct nvdla_runtime *rt, uint64_t size,
		     struct nvdla_buffer **buf);
void *nvdla_buffer_map(const struct nvdla_buffer *buf);
uint64_t nvdla_buffer_size(const struct nvdla_buffer *buf);
/* The buffer must not be bound to a loaded network any more. */
void nvdla_buffer_del(struct nvdla_buffer *buf);

/*
 * Zero-copy sharing. nvdla_buffer_export() gives in *@fd a new file
 * descriptor for @buf's memory, which the caller owns and closes; the
 * buffer lives on until nvdla_buffer_del(). Through the driver it is a
 * dma-buf (PRIME), which mmap() maps and nvdla_buffer_import() takes, in
 * this runtime or another one (another DRM file); in process a memfd (the
 * buffer's memory moves into it, in place, at the first export), which
 * mmap() maps and another in-process runtime imports.
 *
 * nvdla_buffer_import() makes a buffer of the memory behind @fd, of the
 * size the fd reports, without a copy; the caller keeps @fd (the buffer
 * holds its own reference). Through the driver @fd must be a dma-buf the
 * device sees as one range of addresses (it has no MMU of its own): an
 * nvdla device's, and another driver's behind an IOMMU, or without one a
 * physically contiguous one; the driver refuses others with -EINVAL. In
 * process any file that maps shared
 * (a memfd, a dma-buf that supports mmap, a regular file opened for
 * reading and writing). -EINVAL for an fd without a size (a pipe, a
 * socket) or an empty one, -EBADF for no open fd, and the mapping's
 * errno (-EACCES for one opened read-only); nothing is created then.
 */
int nvdla_buffer_export(struct nvdla_buffer *buf, int *fd);
int nvdla_buffer_import(struct nvdla_runtime *rt, int fd,
			struct nvdla_buffer **buf);

/*
 * Use @buf for input/output @index (at least the tensor's size). Until a
 * buffer is bound the network uses one of its own, zero-filled.
 */
int nvdla_network_bind_input(struct nvdla_network *net, unsigned int index,
			     struct nvdla_buffer *buf);
int nvdla_network_bind_output(struct nvdla_network *net, unsigned int index,
			      struct nvdla_buffer *buf);

/* The buffer input/output @index uses now (bound or the network's own). */
struct nvdla_buffer *nvdla_network_input(const struct nvdla_network *net,
					 unsigned int index);
struct nvdla_buffer *nvdla_network_output(const struct nvdla_network *net,
					  unsigned int index);

/*
 * Asynchronous runs. nvdla_run_submit() queues one run of @net on the
 * buffers bound to its inputs and outputs at that moment (the network's
 * own where none is bound) and returns at once with its handle in *@run.
 * Rebinding afterwards changes only later runs, so several runs can be in
 * flight, each on its own set of buffers (double or triple buffering);
 * their device parts run one after another, each the next while the run
 * before runs its CPU tasks, and they end in submission order. A run that
 * fails ends with its own error; the runs after it still run. The
 * buffers of a run in flight must not be written, read for results, or
 * deleted until it has ended.
 *
 * @timeout_ns bounds the run from when it starts (after the runs queued
 * before it), as for nvdla_network_submit(); 0 for no wall-clock limit.
 * -EINVAL for a negative @timeout_ns, nothing queued.
 *
 * Unloading a network cancels its runs still queued: they end with
 * -ECANCELED. The run it has started completes first.
 */
struct nvdla_run;

int nvdla_run_submit(struct nvdla_network *net, int64_t timeout_ns,
		     struct nvdla_run **run);

/*
 * Wait up to @timeout_ns (relative; negative: until it ends) for @run to
 * end. Returns its result, 0 or the negative errno it failed with, once it
 * has ended; -EINPROGRESS while it is still queued or running.
 */
int nvdla_run_wait(struct nvdla_run *run, int64_t timeout_ns);

/* nvdla_run_wait(@run, 0): its result, or -EINPROGRESS without waiting. */
int nvdla_run_poll(struct nvdla_run *run);

/*
 * A file descriptor for an event loop (poll, epoll, select) that becomes
 * readable (POLLIN) when @run ends and stays readable. It is an eventfd
 * of the library, on the in-process model and through the driver alike.
 * It belongs to @run: do not read, write or close it; nvdla_run_free()
 * closes it.
 */
int nvdla_run_fd(const struct nvdla_run *run);

/*
 * Through the driver, a sync_file of @run's device part: a new file
 * descriptor, which the caller owns and closes, for the kernel's fence of
 * the job of the network's last DLA task. Through the driver the jobs of
 * a run wait for one another in the kernel (a job ends unrun with the
 * error of a failed one before it), so that the fence signals when the
 * run's device work has ended, with the error of the first job that
 * failed (SYNC_IOC_FILE_INFO's status); poll() gives POLLIN then, and the
 * fd can wait in another driver's job or in an event loop. What the DLA
 * tasks wrote is in memory then.
 *
 * CPU tasks after the last DLA task (the softmax that ends most
 * classifiers) run in the library once that job has ended, so the outputs
 * they write are not there yet when the fence signals: nvdla_run_wait()
 * and nvdla_run_fd() say when the whole run has ended, and collect its
 * result. Without such tasks the fence may still signal a little before
 * them. The kernel accepts no fence that user-space work signals, so no
 * sync_file covers the library's CPU tasks.
 *
 * The call waits until that job is queued in the kernel, that is until
 * the runs submitted before @run have ended. It returns -EOPNOTSUPP, with
 * nvdla_run_error() saying why, on the in-process model, for a network
 * without DLA tasks, and for one where a CPU task comes before a DLA task
 * (the library queues that DLA task only once the CPU task has run, so
 * the kernel holds no fence of the device part while the run is queued);
 * the run's error if it ended before that job was queued (failed, or
 * cancelled: -ECANCELED); the driver's error if the fence could not be
 * exported (nvdla_run_error() has its message).
 */
int nvdla_run_sync_file(struct nvdla_run *run);

/*
 * Why @run failed, once it has ended with an error; else, once
 * nvdla_run_sync_file() has refused it, why; "" otherwise.
 */
const char *nvdla_run_error(const struct nvdla_run *run);

/*
 * Release the handle. A run still in flight goes on (its outputs are
 * written) and frees itself when it ends.
 */
void nvdla_run_free(struct nvdla_run *run);

/*
 * Run the network once on the current inputs and wait for it:
 * nvdla_run_submit(), nvdla_run_wait() until it ends, nvdla_run_free(),
 * with the run's error message on the runtime. @timeout_ns (relative, for
 * the whole network, from its start) stops a task still running when it
 * has passed, with -ETIMEDOUT. With 0, no wall-clock limit applies in
 * process (the model ends a task that can never complete as soon as it
 * goes idle: -EIO), and through the driver each task has the driver's job
 * timeout (module parameter job_timeout_ms). -EINVAL for a negative
 * @timeout_ns.
 */
int nvdla_network_submit(struct nvdla_network *net, int64_t timeout_ns);

/* Result of the last run of @net that ended: 0 or its negative errno. */
int nvdla_network_wait(struct nvdla_network *net);

/**
 * struct nvdla_image_options - how pixels become input values
 * @mean: subtracted per channel (B, G, R, A or gray) for fp16/int16 inputs
 * @normalize: divides after the mean (1 for none). An integer input
 *	whose loadable records its scale (nvdla_compile's "tensor-scales")
 *	takes round((pixel - mean) / normalize / scale) + zero point; int8
 *	inputs without one take round(pixel * 127 / 255), as the official
 *	runtime does
 */
struct nvdla_image_options {
	float mean[4];
	float normalize;
};

/*
 * Fill input @index from an image file of the tensor's width and height,
 * converted to its layout and precision: PGM or PPM (P2, P3, P5, P6, any
 * maxval), JPEG or PNG (gray, colour, palette; alpha dropped; 16-bit
 * samples scaled to 8 bits), recognised by content, not by name.
 */
int nvdla_network_set_image(struct nvdla_network *net, unsigned int index,
			    const char *path,
			    const struct nvdla_image_options *opt);

/*
 * The mapping of pixels to values input @index was compiled for, as its
 * loadable records it (nvdla_compile's "input-mapping"): 1 with *@opt
 * filled, 0 when the loadable records none (the official compiler's),
 * or a negative errno.
 */
int nvdla_network_input_mapping(struct nvdla_network *net, unsigned int index,
				struct nvdla_image_options *opt);

/*
 * Fill input @index with the raw bytes of file @path, already in the
 * tensor's layout and precision: the file must hold exactly the tensor's
 * size (nvdla_tensor_desc.size) in bytes.
 */
int nvdla_network_set_input_file(struct nvdla_network *net, unsigned int index,
				 const char *path);

/*
 * Fill input @index with the values of the .npy array @path (float32,
 * float16, uint8 or int8, little-endian, C order) of the input's shape
 * C, H, W (batch 1 and trailing ones optional: [1, T, D] for a token
 * input of T x D x 1), as nvdla_network_set_input_values() takes them.
 */
int nvdla_network_set_input_npy(struct nvdla_network *net, unsigned int index,
				const char *path);

/*
 * Fill input @index with @n real numbers in C, H, W order (@n must be
 * c * h * w of its description), converted to its layout and precision:
 * integer inputs whose loadable records their scale take round(value /
 * scale) + zero point, others round(value), saturated; fp16 inputs the
 * value. The inverse of nvdla_network_output_values().
 */
int nvdla_network_set_input_values(struct nvdla_network *net,
				   unsigned int index, const float *values,
				   size_t n);

/*
 * The elements of output @index as numbers, in C, H, W order (the order of
 * a DIMG file's payload): @n must be c * h * w of its description. Integer
 * outputs whose loadable records their scale are real numbers,
 * (code - zero point) * scale; others are the codes.
 */
int nvdla_network_output_values(struct nvdla_network *net, unsigned int index,
				float *values, size_t n);

/*
 * Write output @index as a DIMG file, the official runtime's output format
 * (36-byte header, then the C x H x W elements in order).
 */
int nvdla_network_write_dimg(struct nvdla_network *net, unsigned int index,
			     const char *path);

/*
 * Per-operation statistics (profiling): from the next submission on, every
 * DLA task gets a statistics buffer, one more entry of its address list,
 * which the runtime's copy of the task's network descriptor names as its
 * stat list (the loadable is not changed). The firmware turns the engines'
 * performance counters on and, as each operation completes, writes them
 * and the operation's run time there. -EBUSY while runs of @net are in
 * flight.
 */
int nvdla_network_enable_stats(struct nvdla_network *net);

/* The trace formats a recording writes (nvdla_network_set_record_dir()). */
enum nvdla_record_format {
	NVDLA_RECORD_AUTO,	/* the configuration's: txn on nv_full's map */
	NVDLA_RECORD_TXN,	/* input.txn, NVIDIA's nvdlav1 trace player */
	NVDLA_RECORD_CFG,	/* <dir name>.cfg, NVIDIA's RTL test bench */
};

/*
 * Hardware trace recording: from the next submission on, each submission
 * is written into directory @dir (created if missing; an earlier
 * recording's files there are replaced) as a register-level trace that
 * NVIDIA's test benches and nvdla_trace replay, in @format (AUTO: input.txn
 * on nv_full's register map, <dir name>.cfg on the nv_small family's). It
 * holds every register write of the firmware, the reads it checks, its
 * interrupt waits, the memory the engines read (loaded before), and what
 * they wrote (checked after). The device is reset when the submission
 * starts, so the trace replays from the hardware's reset state. A NULL
 * @dir stops recording. Only the in-process model can record (-EOPNOTSUPP
 * through the kernel driver, which owns the registers and the interrupt).
 * -EBUSY while runs of @net are in flight.
 */
int nvdla_network_set_record_dir(struct nvdla_network *net, const char *dir,
				 enum nvdla_record_format format);

#define NVDLA_OP_STAT_COUNTERS_MAX 10

/**
 * struct nvdla_op_stat - what one operation counted
 * @task: its task's position among the network's tasks (submission order)
 * @op: its index in the task
 * @roi: the region of interest it ran for (0 unless the task has several)
 * @type: "bdma", "conv", "sdp", "pdp", "cdp" or "rubik"
 * @runtime_us: from enabling it to its completion being handled
 * @num_counters: entries of @counters: the engine's counters, in the
 *	order of the firmware's statistics descriptor
 */
struct nvdla_op_stat {
	unsigned int task;
	unsigned int op;
	unsigned int roi;
	const char *type;
	uint32_t runtime_us;
	unsigned int num_counters;
	struct {
		const char *name;
		uint32_t value;
	} counters[NVDLA_OP_STAT_COUNTERS_MAX];
};

/*
 * Runs of operations with statistics from the last run that ended (0 if
 * none, or if it failed): each operation once per region of interest.
 * Read them while no run of the network is in flight.
 */
unsigned int nvdla_network_num_op_stats(const struct nvdla_network *net);
/* Statistics of operation @index (0 .. nvdla_network_num_op_stats() - 1). */
int nvdla_network_op_stat(const struct nvdla_network *net, unsigned int index,
			  struct nvdla_op_stat *stat);

/**
 * struct nvdla_estimate_params - the system a performance estimate assumes
 * @clock_mhz: core clock, 1 to 100000 (0: the configuration's default)
 * @dram_gbps: memory bandwidth, reads and writes together, GB/s, up to
 *	10000 (0: the configuration's default)
 * @latency_ns: memory read latency, 0 to 1000000 (negative: the default)
 */
struct nvdla_estimate_params {
	double clock_mhz;
	double dram_gbps;
	double latency_ns;
};

/*
 * Performance estimates: from the next run on, the in-process model also
 * estimates how long each operation it runs would take on its
 * configuration at @params (NULL: every default), from the registers the
 * firmware programs (docs/performance.md). The run's values are computed
 * as always. -EOPNOTSUPP on a device, -EINVAL for a parameter out of its
 * range (nothing changed).
 */
int nvdla_runtime_estimate(struct nvdla_runtime *rt,
			   const struct nvdla_estimate_params *params);

/*
 * Estimates alone: with @on set, the in-process model's runs that follow
 * check, estimate and end every DLA operation as before (the same
 * estimate, the same refusals) but compute none of its elements; what
 * the DLA tasks would write is undefined, and CPU tasks compute on it.
 * @on 0 computes again. -EOPNOTSUPP on a device.
 */
int nvdla_runtime_estimate_only(struct nvdla_runtime *rt, int on);

/**
 * struct nvdla_op_estimate - one estimated hardware operation: an engine,
 *	or engines fed on the fly ("conv+sdp+pdp"), in the order they ran
 * @engines: "conv", "sdp", "pdp", "cdp", "bdma", "rubik", joined by '+'
 * @group: the register group it ran from
 * @bound: what limits it: "mac" (the MAC array), "memory" (bandwidth or
 *	latency) or "post" (SDP, PDP, CDP or RUBIK throughput)
 * @start_cycle: its first cycle, from the run's first
 * @cycles: its duration
 * @time_us: @cycles at the clock
 * @mac_cycles, @post_cycles, @mem_cycles: each part alone
 * @macs: multiply-accumulates it computes
 * @peak_macs: what the MAC array does per cycle in its precision
 * @read_bytes, @write_bytes: its memory traffic
 */
struct nvdla_op_estimate {
	char engines[40];
	unsigned int group;
	const char *bound;
	uint64_t start_cycle, cycles;
	double time_us;
	uint64_t mac_cycles, post_cycles, mem_cycles;
	uint64_t macs;
	uint32_t peak_macs;
	uint64_t read_bytes, write_bytes;
};

/**
 * struct nvdla_run_estimate - the estimate of a whole run
 * @params: what it assumed, defaults filled in
 * @num_ops: operations (nvdla_network_op_estimate())
 * @cycles: from the first operation's start to the last one's end, or the
 *	run's memory traffic at the bandwidth if longer (engines running
 *	together share the memory)
 * @time_us: @cycles at the clock
 * @fps: runs per second, one after another
 * @macs: multiply-accumulates of the run
 * @mac_efficiency: @macs over what the MAC array could do in @cycles
 * @bytes: memory traffic, reads and writes
 */
struct nvdla_run_estimate {
	struct nvdla_estimate_params params;
	unsigned int num_ops;
	uint64_t cycles;
	double time_us;
	double fps;
	uint64_t macs;
	double mac_efficiency;
	uint64_t bytes;
};

/*
 * The estimate of the last run of @net that ended: -ENODATA if estimates
 * were not on for it, or it failed. Read while no run of @net is in flight.
 */
int nvdla_network_estimate(const struct nvdla_network *net,
			   struct nvdla_run_estimate *est);
/* Operation @index (0 .. num_ops - 1) of that estimate. */
int nvdla_network_op_estimate(const struct nvdla_network *net,
			      unsigned int index,
			      struct nvdla_op_estimate *op);

/*
 * Object detection: the outputs of a YOLO-style network decoded into
 * scored boxes on the CPU (nvdla_runtime --detect;
 * tools/models/detect_ref.py is the reference of this decoding).
 *
 * A .yolo file describes the network's heads, a line each of ('#' starts
 * a comment):
 *   yolo 2                the first line
 *   classes K             the class count, 1 to NVDLA_DETECT_MAX_CLASSES
 *   names N...            the class names, one word each, over as many
 *                         'names' lines as needed (none, or K in all)
 *   head OUTPUT STRIDE    a head (up to NVDLA_DETECT_MAX_HEADS): the
 *                         network's output OUTPUT (from 0), whose grid
 *                         has a cell every STRIDE pixels of the input
 *   anchor W H            an anchor of the last head, in pixels (1 to
 *                         NVDLA_DETECT_MAX_ANCHORS a head)
 * A head of A anchors has A x (5 + K) channels: per anchor x, y, w, h and
 * objectness, then the K class scores, all raw. Anchor a of cell (gx, gy)
 * predicts the box centred at ((gx + sigmoid(x)) * STRIDE, (gy +
 * sigmoid(y)) * STRIDE), W * exp(w) wide and H * exp(h) high, clipped to
 * the input, of its best class c, scored sigmoid(objectness) *
 * softmax(scores)[c].
 */
#define NVDLA_DETECT_MAX_HEADS 8
#define NVDLA_DETECT_MAX_ANCHORS 16
#define NVDLA_DETECT_MAX_CLASSES 1000

struct nvdla_yolo;

/*
 * Read the .yolo file @path into *@yolo. On failure *@yolo is NULL and,
 * if @err is not NULL, a message naming the file and line is left there.
 */
int nvdla_yolo_read(const char *path, struct nvdla_yolo **yolo, char *err,
		    size_t errlen);
void nvdla_yolo_free(struct nvdla_yolo *yolo);
unsigned int nvdla_yolo_num_classes(const struct nvdla_yolo *yolo);
/* The name of class @cls, or NULL when the file names none or no @cls. */
const char *nvdla_yolo_class_name(const struct nvdla_yolo *yolo,
				  unsigned int cls);

/* An output's real values (nvdla_network_output_values()), C x H x W. */
struct nvdla_detect_output {
	const float *values;
	int32_t c, h, w;
};

/* A box, corners in input pixels (x1, y1 past its right, bottom edges). */
struct nvdla_detect_box {
	float x0, y0, x1, y1;
	float score;
	uint32_t cls;
};

/*
 * The boxes that the heads of @yolo find in @outputs (the network's
 * @num_outputs outputs, by index) for an input of @width x @height
 * pixels: those scoring at least @threshold, then, best first (equal
 * scores in the order of the heads, anchors, rows and columns), those not
 * overlapping a box kept before them of their class, of any head, by an
 * IoU above @nms. Returns their count, of which the first @max_boxes are
 * written to @boxes (NULL for none), or -EINVAL, with a message in @err,
 * if the outputs are not the heads @yolo describes, -ENOMEM.
 */
int nvdla_detect_decode(const struct nvdla_yolo *yolo,
			const struct nvdla_detect_output *outputs,
			unsigned int num_outputs, int32_t width, int32_t height,
			float threshold, float nms,
			struct nvdla_detect_box *boxes, size_t max_boxes,
			char *err, size_t errlen);

#if defined(__cplusplus)
}
#endif

#endif /* __NVDLA_RUNTIME_H__ */
