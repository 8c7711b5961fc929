/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * libnvdla_runtime: run NVDLA loadables on a device or on the in-process
 * hardware model.
 *
 * Every int function returns 0 or a negative errno; on failure
 * nvdla_runtime_error() says what went wrong and where. Objects are not
 * thread safe: use one runtime per thread, or lock around it.
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
 * Run the network once on the current inputs. The current backends run
 * the tasks synchronously: nvdla_network_submit() returns when all of them
 * completed or one failed. @timeout_ns (relative, for the whole network)
 * stops a task still running when it has passed, with -ETIMEDOUT. With 0,
 * no wall-clock limit applies in process (the model ends a task that can
 * never complete as soon as it goes idle: -EIO), and through the driver
 * each task has the driver's job timeout (module parameter
 * job_timeout_ms). -EINVAL for a negative @timeout_ns.
 */
int nvdla_network_submit(struct nvdla_network *net, int64_t timeout_ns);

/* Result of the last submission: 0 or its negative errno. */
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
 * Fill input @index with the raw bytes of file @path, already in the
 * tensor's layout and precision: the file must hold exactly the tensor's
 * size (nvdla_tensor_desc.size) in bytes.
 */
int nvdla_network_set_input_file(struct nvdla_network *net, unsigned int index,
				 const char *path);

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
 * and the operation's run time there.
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
 * Runs of operations with statistics from the last submission (0 if none):
 * each operation once per region of interest.
 */
unsigned int nvdla_network_num_op_stats(const struct nvdla_network *net);
/* Statistics of operation @index (0 .. nvdla_network_num_op_stats() - 1). */
int nvdla_network_op_stat(const struct nvdla_network *net, unsigned int index,
			  struct nvdla_op_stat *stat);

#if defined(__cplusplus)
}
#endif

#endif /* __NVDLA_RUNTIME_H__ */
