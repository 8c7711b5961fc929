// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Firmware validation: every malformed task is rejected with -EINVAL (or
 * -EBUSY) before a single register write, and the engine then accepts a
 * good task. The port here records register writes instead of driving a
 * device; memory is a few host buffers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvdla/dla_interface.h>
#include <nvdla/firmware.h>
#include <nvdla/pixel_formats.h>
#include <nvdla/regs.h>

#include "port_heap.h"
#include "../lib/tap.h"

#define NUM_BUFS 6
#define DATA_SIZE 4096

struct fake {
	uint8_t *buf[NUM_BUFS];
	uint64_t size[NUM_BUFS];
	unsigned int writes;
	unsigned int entries;	/* calls of the entry hook */
	unsigned int cpu_entries;	/* entries asked for their CPU mapping, a bit each */
	char last_error[DLA_LOG_MAX];
	char last_warning[DLA_LOG_MAX];
	uint32_t intr_status;	/* GLB S_INTR_STATUS as the fake reads it */
	uint32_t glb;		/* where GLB is: 0 on nv_full */
	uint32_t bdma_cfg_status;	/* last BDMA CFG_STATUS written */
	uint64_t now;		/* time_us */
	uint32_t reg[0x11000 / 4];	/* the last value written, by address */
	struct { uint32_t addr, val; } log[512];	/* writes, in order */
	unsigned int nlog;
};

#define BDMA_BASE 0x4000u	/* nv_full; GLB is at 0 */

static uint32_t fake_reg_read(void *drv, uint32_t addr)
{
	struct fake *f = drv;

	if (addr == f->glb + NVDLA_GLB_S_INTR_STATUS)
		return f->intr_status;
	switch (addr) {
	case BDMA_BASE + NVDLA_BDMA_STATUS:
		return 0x114;	/* 20 free slots, idle */
	case BDMA_BASE + NVDLA_BDMA_STATUS_GRP0_READ_STALL:
		return 7;
	case BDMA_BASE + NVDLA_BDMA_STATUS_GRP0_WRITE_STALL:
		return 9;
	default:
		return 0;
	}
}

static void fake_reg_write(void *drv, uint32_t addr, uint32_t val)
{
	struct fake *f = drv;

	if (addr == BDMA_BASE + NVDLA_BDMA_CFG_STATUS)
		f->bdma_cfg_status = val;
	if (addr / 4 < sizeof(f->reg) / sizeof(f->reg[0]))
		f->reg[addr / 4] = val;
	if (f->nlog < sizeof(f->log) / sizeof(f->log[0]))
		f->log[f->nlog++] = (typeof(f->log[0])){ addr, val };
	f->writes++;
}

static int fake_entry(void *drv, void *task, uint16_t index, uint64_t *dma,
		      void **cpu, uint64_t *size)
{
	struct fake *f = drv;

	(void)task;
	f->entries++;
	*dma = 0x10000000ull * (index + 1);
	if (cpu) {
		f->cpu_entries |= 1u << index;
		*cpu = f->buf[index];
	}
	*size = f->size[index];
	return 0;
}

static uint64_t fake_time_us(void *drv)
{
	return ((struct fake *)drv)->now;
}

static void fake_log(void *drv, enum dla_log_level level, const char *msg)
{
	struct fake *f = drv;

	if (level == DLA_LOG_ERROR)
		snprintf(f->last_error, sizeof(f->last_error), "%s", msg);
	if (level == DLA_LOG_WARN)
		snprintf(f->last_warning, sizeof(f->last_warning), "%s", msg);
}

static const struct dla_port_ops fake_ops = {
	.reg_read = fake_reg_read,
	.reg_write = fake_reg_write,
	.entry = fake_entry,
	.time_us = fake_time_us,
	.log = fake_log,
	.alloc = nvdla_port_heap_alloc,
	.free = nvdla_port_heap_free,
};

#define MAX_ELEMS 2	/* operations x regions of interest */

/* The descriptors of a good one-transfer BDMA task, edited per case. */
struct task_descs {
	struct dla_network_desc net;
	struct dla_common_op_desc graph[MAX_ELEMS];
	union dla_operation_container op[MAX_ELEMS];
	union dla_surface_container surf[MAX_ELEMS];
};

static void good_task(struct task_descs *d)
{
	struct dla_bdma_transfer_desc *x;
	int i, k;

	memset(d, 0, sizeof(*d));
	d->net = (struct dla_network_desc){
		.operation_desc_index = 2, .surface_desc_index = 3,
		.dependency_graph_index = 1, .lut_data_index = -1,
		.roi_array_index = -1, .surface_index = -1,
		.stat_list_index = -1, .reserved1 = -1,
		.op_head = { 0, -1, -1, -1, -1, -1 },
		.num_rois = 1, .num_operations = 1, .num_addresses = NUM_BUFS,
	};
	for (i = 0; i < MAX_ELEMS; i++) {
		d->graph[i].op_type = DLA_OP_BDMA;
		for (k = 0; k < DLA_OP_NUM; k++)
			d->graph[i].consumers[k].index = -1;
		d->graph[i].fused_parent.index = -1;
		d->op[i].bdma_op.num_transfers = 1;
		d->surf[i].bdma_surface.num_transfers = 1;
		x = &d->surf[i].bdma_surface.transfers[0];
		*x = (struct dla_bdma_transfer_desc){
			.source_address = 4, .destination_address = 5,
			.line_size = 256, .line_repeat = 8, .source_line = 256,
			.destination_line = 256, .surface_repeat = 2,
			.source_surface = 2048, .destination_surface = 2048,
		};
	}
}

static struct dla_engine *engine;
static struct fake fake;

/* Descriptor arrays sized for the network's operations and regions. */
static void load(const struct task_descs *d)
{
	unsigned int n = d->net.num_operations * d->net.num_rois;

	n = n < MAX_ELEMS ? n : MAX_ELEMS;
	memcpy(fake.buf[0], &d->net, sizeof(d->net));
	memcpy(fake.buf[1], d->graph, sizeof(d->graph));
	memcpy(fake.buf[2], d->op, sizeof(d->op));
	memcpy(fake.buf[3], d->surf, sizeof(d->surf));
	fake.size[0] = sizeof(d->net);
	fake.size[1] = n * sizeof(d->graph[0]);
	fake.size[2] = n * sizeof(d->op[0]);
	fake.size[3] = n * sizeof(d->surf[0]);
}

/* The checked task the engine runs, released by finish(). */
static struct dla_checked_task *running;

/* Prepare @d and start it: the first error of the two steps. */
static int submit(const struct task_descs *d, uint16_t num_addresses)
{
	struct dla_task task = { .host_task = &fake,
				 .num_addresses = num_addresses };
	struct dla_checked_task *checked;
	int ret;

	load(d);
	fake.writes = 0;
	fake.last_error[0] = '\0';
	ret = dla_task_prepare(engine, &task, &checked);
	if (ret)
		return ret;
	ret = dla_execute_task(engine, checked);
	if (ret == -EBUSY)
		dla_task_release(engine, checked);	/* never loaded */
	else
		running = checked;
	return ret;
}

/* Unload the running task and free its copy. */
static void finish(void)
{
	dla_clear_task(engine);
	dla_task_release(engine, running);
	running = NULL;
}

/* dla_task_prepare on @d: its result, with no register written. */
static int check(const struct task_descs *d)
{
	struct dla_task task = { .host_task = &fake, .num_addresses = NUM_BUFS };
	struct dla_checked_task *checked;
	int ret;

	load(d);
	fake.writes = 0;
	ret = dla_task_prepare(engine, &task, &checked);
	dla_task_release(engine, checked);
	return ret ?: -(int)fake.writes;
}

/* A rejected task: -EINVAL, no register written, message mentions @what. */
static void expect_reject(const struct task_descs *d, const char *what,
			  const char *name)
{
	int ret = submit(d, NUM_BUFS);

	tap_ok(ret == -EINVAL && fake.writes == 0 &&
	       strstr(fake.last_error, what),
	       "%s: rejected before any register write (ret %d, %u writes, \"%s\")",
	       name, ret, fake.writes, fake.last_error);
}

typedef void (*mutate_fn)(struct task_descs *d);

static void m_no_ops(struct task_descs *d) { d->net.num_operations = 0; }
static void m_head(struct task_descs *d) { d->net.op_head[0] = 1; }
static void m_graph_idx(struct task_descs *d) { d->net.dependency_graph_index = 6; }
static void m_neg_idx(struct task_descs *d) { d->net.surface_desc_index = -2; }
static void m_src_idx(struct task_descs *d)
{
	d->surf[0].bdma_surface.transfers[0].source_address = 99;
}
static void m_dst_idx(struct task_descs *d)
{
	d->surf[0].bdma_surface.transfers[0].destination_address = NUM_BUFS;
}
static void m_line(struct task_descs *d)
{
	d->surf[0].bdma_surface.transfers[0].line_size = 100;
}
static void m_overrun(struct task_descs *d)
{
	d->surf[0].bdma_surface.transfers[0].surface_repeat = 3;
}
static void m_zero(struct task_descs *d)
{
	d->surf[0].bdma_surface.num_transfers = 0;
	d->op[0].bdma_op.num_transfers = 0;
}
static void m_many(struct task_descs *d)
{
	d->surf[0].bdma_surface.num_transfers = 21;
	d->op[0].bdma_op.num_transfers = 21;
}
static void m_mismatch(struct task_descs *d) { d->op[0].bdma_op.num_transfers = 2; }
static void m_ramtype(struct task_descs *d) { d->surf[0].bdma_surface.source_type = 2; }
static void m_stride(struct task_descs *d)
{
	d->surf[0].bdma_surface.transfers[0].source_line = 128;
}
static void m_type(struct task_descs *d) { d->graph[0].op_type = 9; }
static void m_conv(struct task_descs *d)
{
	d->graph[0].op_type = DLA_OP_CONV;
	d->net.op_head[0] = -1;
	d->net.op_head[DLA_OP_CONV] = 0;
}
static void m_consumer(struct task_descs *d) { d->graph[0].consumers[2].index = 7; }
static void m_event(struct task_descs *d)
{
	d->graph[0].consumers[2].index = 0;
	d->graph[0].consumers[2].event = 9;
}
static void m_loop(struct task_descs *d) { d->graph[0].consumers[DLA_OP_BDMA].index = 0; }
static void m_unreached(struct task_descs *d) { d->net.num_operations = 2; }
static void m_no_rois(struct task_descs *d) { d->net.num_rois = 0; }
static void m_dynamic(struct task_descs *d) { d->net.dynamic_roi = 1; }
static void m_roi_short(struct task_descs *d) { d->net.num_rois = 3; }
static void m_runs(struct task_descs *d)
{
	d->net.num_rois = 2;
	d->net.num_operations = 32768;
}
static void m_roi_type(struct task_descs *d)
{
	d->net.num_rois = 2;
	d->graph[1].op_type = DLA_OP_PDP;
}
static void m_roi_order(struct task_descs *d)
{
	d->net.num_rois = 2;
	d->graph[1].consumers[DLA_OP_BDMA].index = 0;
}
static void m_roi_source(struct task_descs *d)
{
	d->net.num_rois = 2;
	d->surf[1].bdma_surface.transfers[0].source_address = 99;
}

static void m_cdma_event(struct task_descs *d)
{
	d->net.num_operations = 2;
	d->graph[0].consumers[DLA_OP_BDMA] = (struct dla_consumer){
		.index = 1, .event = DLA_EVENT_CDMA_DT_DONE };
	d->graph[1].dependency_count = 1;
}

/* Two BDMA copies in a chain, the second waiting for the first. */
static void g_pair(struct task_descs *d)
{
	d->net.num_operations = 2;
	d->graph[0].consumers[DLA_OP_BDMA] = (struct dla_consumer){
		.index = 1, .event = DLA_EVENT_OP_COMPLETED };
	d->graph[1].dependency_count = 1;
}
static void g_count_high(struct task_descs *d) { d->graph[0].dependency_count = 1; }
static void g_count_low(struct task_descs *d)
{
	g_pair(d);
	d->graph[1].dependency_count = 0;
}
/* The first copy waits for the second, which runs after it. */
static void g_cycle(struct task_descs *d)
{
	g_pair(d);
	d->graph[0].consumers[DLA_OP_BDMA].event = DLA_EVENT_NONE;
	d->graph[1].dependency_count = 0;
	d->graph[1].fused_parent = (struct dla_consumer){
		.index = 0, .event = DLA_EVENT_OP_COMPLETED };
	d->graph[0].dependency_count = 1;
}

/* Graphs refused as a whole: each node alone is valid. */
static const struct {
	void (*mutate)(struct task_descs *d);
	const char *what;
	const char *name;
} graph_cases[] = {
	{ g_count_high, "op 0 of region 0 waits for 1 events but 0 are linked",
	  "a count no event releases" },
	{ g_count_low, "op 1 of region 0 waits for 0 events but 1 are linked",
	  "a count lower than its links" },
	{ g_cycle, "op 0 of region 0 can never complete",
	  "an operation waiting for one that runs after it" },
};
static void m_stat_idx(struct task_descs *d) { d->net.stat_list_index = 6; }
static void m_stat_neg(struct task_descs *d) { d->net.stat_list_index = -2; }
/* The network descriptor's 40 bytes cannot hold one 44-byte container. */
static void m_stat_small(struct task_descs *d) { d->net.stat_list_index = 0; }

/* Cases that only a device without int16 or with another atom refuses. */
static void m_conv_int16(struct task_descs *d)
{
	m_conv(d);
	d->op[0].conv_op.in_precision = DLA_PRECISION_INT16;
}
static void m_conv_wino(struct task_descs *d)
{
	m_conv(d);
	d->op[0].conv_op.conv_mode = 1;
}
/* @d's one operation an SDP from @src into @dst precision, no LUT. */
static struct dla_sdp_op_desc *sdp_only(struct task_descs *d, u8 src, u8 dst)
{
	struct dla_sdp_op_desc *p = &d->op[0].sdp_op;

	d->graph[0].op_type = DLA_OP_SDP;
	d->net.op_head[0] = -1;
	d->net.op_head[DLA_OP_SDP] = 0;
	p->src_precision = src;
	p->dst_precision = dst;
	p->batch_num = 1;
	p->lut_index = -1;
	return p;
}

/* An int8 SDP over 2x2x8 (8-byte atoms) whose Y multiplies by 3, or not. */
static void sdp_y_task(struct task_descs *d, bool y)
{
	struct dla_sdp_surface_desc *s = &d->surf[0].sdp_surface;
	struct dla_sdp_op_desc *p = sdp_only(d, DLA_PRECISION_INT8,
					     DLA_PRECISION_INT8);

	p->y_op = (struct dla_sdp_op){ .enable = y, .type = SDP_TYPE_MUL,
				       .precision = DLA_PRECISION_INT8,
				       .mul_operand = 3 };
	s->src_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 4, .width = 2, .height = 2,
		.channel = 8, .line_stride = 16, .surf_stride = 32,
	};
	s->dst_data = s->src_data;
	s->dst_data.address = 5;
}
static void m_sdp_y(struct task_descs *d) { sdp_y_task(d, true); }
static void m_pdp_stride(struct task_descs *d)
{
	struct dla_pdp_surface_desc *s = &d->surf[0].pdp_surface;

	d->graph[0].op_type = DLA_OP_PDP;
	d->net.op_head[0] = -1;
	d->net.op_head[DLA_OP_PDP] = 0;
	d->op[0].pdp_op.split_num = 1;
	d->op[0].pdp_op.stride_x = 1;
	d->op[0].pdp_op.stride_y = 1;
	s->src_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 4, .width = 1, .height = 2,
		.channel = 8, .line_stride = 40, .surf_stride = 80,
	};
	s->dst_data = s->src_data;
	s->dst_data.address = 5;
}

/*
 * A convolution from a 16x16 fp16 image (A16B16G16R16_F: 8 bytes a pixel,
 * lines 128 bytes apart, as the official compiler lays out its default
 * image input), kernels 1x3 pre-extended to 12 channels, into the SDP.
 */
static void m_image(struct task_descs *d)
{
	struct dla_conv_op_desc *p = &d->op[0].conv_op;
	struct dla_conv_surface_desc *s = &d->surf[0].conv_surface;

	m_conv(d);
	memset(&d->surf[0], 0, sizeof(d->surf[0]));
	*p = (struct dla_conv_op_desc){
		.data_format = NVDLA_PIXEL_A16B16G16R16_F, .batch = 1,
		.conv_stride_x = 1, .conv_stride_y = 1, .dilation_x = 1,
		.dilation_y = 1, .kernel_width_csc = 1, .kernel_height_csc = 3,
		.kernel_channel_csc = 12, .in_precision = DLA_PRECISION_FP16,
		.out_precision = DLA_PRECISION_FP16, .data_bank = 1,
		.weight_bank = 1, .entry_per_slice = 1, .release = 16,
		.input_width_csc = 16, .input_height_csc = 16,
		.input_channel_csc = 4, .bytes_per_kernel = 72,
	};
	s->src_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 4, .width = 16, .height = 16,
		.channel = 4, .line_stride = 128,
	};
	s->weight_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 5, .size = 128,
	};
	s->dst_data = (struct dla_data_cube){
		.type = DLA_MEM_HW, .address = -1, .width = 14, .height = 14,
		.channel = 1,
	};
}
/* A 4x4 fp16 feature cube, lines and surfaces packed, into one output atom. */
static void m_packed(struct task_descs *d)
{
	struct dla_conv_op_desc *p = &d->op[0].conv_op;
	struct dla_conv_surface_desc *s = &d->surf[0].conv_surface;

	m_image(d);
	p->data_format = NVDLA_DATA_FORMAT_FEATURE;
	p->kernel_width_csc = 4;
	p->kernel_height_csc = 4;
	p->kernel_channel_csc = 16;
	p->input_width_csc = 4;
	p->input_height_csc = 4;
	p->input_channel_csc = 16;
	p->release = 4;
	s->src_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 4, .width = 4, .height = 4,
		.channel = 16, .line_stride = 128, .surf_stride = 512,
	};
	s->dst_data.width = 1;
	s->dst_data.height = 1;
}
static void m_image_short_line(struct task_descs *d)
{
	m_image(d);
	d->surf[0].conv_surface.src_data.line_stride = 96;
}
static void m_image_tall(struct task_descs *d)
{
	m_image(d);
	d->surf[0].conv_surface.src_data.height = 40;
}
static void m_image_offset(struct task_descs *d)
{
	m_image(d);
	d->surf[0].conv_surface.src_data.offset = 16;
}
static void m_image_precision(struct task_descs *d)
{
	m_image(d);
	d->op[0].conv_op.in_precision = DLA_PRECISION_INT8;
}
static void m_image_channels(struct task_descs *d)
{
	m_image(d);
	d->surf[0].conv_surface.src_data.channel = 5;
}
static void m_image_format(struct task_descs *d)
{
	m_image(d);
	d->op[0].conv_op.data_format = 40;
}
/* Semi-planar Y8 and U8V8: chroma 1024 bytes after the luma, lines of 64. */
static void m_image_yuv(struct task_descs *d)
{
	m_image(d);
	d->op[0].conv_op.data_format = NVDLA_PIXEL_Y8_U8V8_N444;
	d->op[0].conv_op.in_precision = DLA_PRECISION_INT8;
	d->op[0].conv_op.out_precision = DLA_PRECISION_INT8;
	d->surf[0].conv_surface.src_data.channel = 3;
	d->surf[0].conv_surface.src_data.line_stride = 32;
	d->surf[0].conv_surface.offset_u = 1024;
	d->surf[0].conv_surface.in_line_uv_stride = 64;
}
static void m_image_uv_short(struct task_descs *d)
{
	m_image_yuv(d);
	d->surf[0].conv_surface.in_line_uv_stride = 0;
}
static void m_image_uv_beyond(struct task_descs *d)
{
	m_image_yuv(d);
	d->surf[0].conv_surface.offset_u = 3200;
}
static void m_image_uv_offset(struct task_descs *d)
{
	m_image_yuv(d);
	d->surf[0].conv_surface.offset_u = -32;
}

/* 8-bit pixels (A8B8G8R8) converted to fp16 by the CDMA. */
static void m_image_to_fp16(struct task_descs *d)
{
	m_image(d);
	d->op[0].conv_op.data_format = NVDLA_PIXEL_A8B8G8R8;
	d->op[0].conv_op.in_precision = DLA_PRECISION_INT8;
	d->op[0].conv_op.in_cvt.enable = 1;
	d->surf[0].conv_surface.src_data.line_stride = 64;
}
static void m_image_no_cvt(struct task_descs *d)
{
	m_image_to_fp16(d);
	d->op[0].conv_op.in_cvt.enable = 0;
}
static void m_feature_to_fp16(struct task_descs *d)
{
	m_image(d);
	d->op[0].conv_op.data_format = 36;	/* feature */
	d->op[0].conv_op.in_precision = DLA_PRECISION_INT8;
}

/* Image inputs the firmware refuses, with the reason. */
static const struct {
	mutate_fn mutate;
	const char *what;
	const char *name;
} image_cases[] = {
	{ m_image_short_line, "op 0: image plane 0 lines overlap: stride 96 below 16 pixels of 8 bytes",
	  "image line stride below its pixels" },
	{ m_image_tall, "op 0: image plane 0 of 16x40 pixels of 8 bytes, stride 128, does not fit address 4",
	  "image beyond its buffer" },
	{ m_image_offset, "op 0: data cube offset 16, strides 128/0 not aligned",
	  "image not on an atom boundary" },
	{ m_image_precision, "op 0: conv input: pixel format 8 holds fp16, not int8",
	  "fp16 pixels as int8 input" },
	{ m_image_channels, "op 0: image of 4 components with 5 channels",
	  "more channels than the pixels have" },
	{ m_image_format, "op 0: conv: data format 40 invalid",
	  "no such pixel format" },
	{ m_image_uv_short, "op 0: image plane 1 lines overlap: stride 0 below 16 pixels of 2 bytes",
	  "chroma line stride below its pixels" },
	{ m_image_uv_beyond, "op 0: image plane 1 of 16x16 pixels of 2 bytes, stride 64, does not fit address 4",
	  "chroma plane beyond the buffer" },
	{ m_image_uv_offset, "op 0: image plane 1 offset -32, stride 64 not aligned",
	  "chroma plane before the luma" },
	{ m_image_no_cvt, "op 0: conv: int8 pixels into fp16 need the input converter",
	  "int8 pixels into fp16 with the converter off" },
	{ m_feature_to_fp16, "op 0: conv: int8 feature input into fp16: only pixels convert",
	  "int8 feature cube into an fp16 convolution" },
};

/*
 * Image inputs are checked with their pixel format's rules: the official
 * compiler's fp16 image (lines of 16 pixels of 8 bytes, 128 apart, well
 * below 16 atoms) is accepted and its address programmed; a semi-planar
 * one programs its chroma plane; malformed ones are refused by name.
 */
/* m_packed in int8, for nv_small: @dbank data banks, @wbank weight banks. */
static void m_int8_banks(struct task_descs *d, u8 dbank, u8 wbank)
{
	struct dla_conv_op_desc *p = &d->op[0].conv_op;

	m_packed(d);
	p->in_precision = DLA_PRECISION_INT8;
	p->out_precision = DLA_PRECISION_INT8;
	p->bytes_per_kernel = 256;
	p->entry_per_slice = 8;
	p->data_bank = dbank;
	p->weight_bank = wbank;
}

/* Its input 65 lines tall, in a buffer of TALL_SIZE at entry 4. */
#define TALL_SIZE 32768
static void m_int8_tall(struct task_descs *d)
{
	struct dla_conv_surface_desc *s = &d->surf[0].conv_surface;

	m_int8_banks(d, 1, 1);
	d->op[0].conv_op.input_height_csc = 65;
	s->src_data.height = 65;
	s->src_data.surf_stride = 65 * 128;
}

/* Rejected before any register write with @text, all the message. */
static void expect_verdict(const struct task_descs *d, const char *text,
			   const char *name)
{
	int ret = submit(d, NUM_BUFS);

	tap_ok(ret == -EINVAL && fake.writes == 0 &&
	       !strcmp(fake.last_error, text),
	       "%s: rejected before any register write, with the rule and its numbers alone (ret %d, %u writes, \"%s\")",
	       name, ret, fake.writes, fake.last_error);
}

/*
 * The convolution buffer's limits (nvdla/cbuf_limits.h) on nv_small:
 * 32 banks of 512 entries of 8 bytes. D_BANK holds 5-bit fields there.
 */
static void test_cbuf_limits(void)
{
	const u32 *base = dla_hw_config_get("nv_small")->unit_base;
	u32 cdma = (base[NVDLA_UNIT_CDMA] + NVDLA_CDMA_D_BANK) / 4;
	u32 csc = (base[NVDLA_UNIT_CSC] + NVDLA_CSC_D_BANK) / 4;
	struct task_descs d;
	uint8_t *saved, *tall;
	int ret;

	dla_register_driver(engine, &fake, &fake_ops,
			    dla_hw_config_get("nv_small"));
	good_task(&d);
	m_int8_banks(&d, 25, 7);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 && fake.reg[cdma] == 0x60018 &&
	       fake.reg[csc] == 0x60018,
	       "25 data and 7 weight banks on nv_small: CDMA and CSC D_BANK 0x60018, 5-bit fields (0x%x, 0x%x, ret %d, \"%s\")",
	       fake.reg[cdma], fake.reg[csc], ret, fake.last_error);
	finish();
	good_task(&d);
	m_int8_banks(&d, 25, 8);
	expect_verdict(&d, "op 0: data and weight banks beyond the convolution buffer: 32 banks, needs 33",
		       "33 banks of nv_small's 32");
	good_task(&d);
	m_int8_banks(&d, 1, 1);
	d.op[0].conv_op.entry_per_slice = 16;
	expect_verdict(&d, "op 0: CDMA D_ENTRY_PER_SLICE is not what a line of the input takes: 16 entries, needs 8",
		       "16 entries for 4 pixels of 2 atoms");
	tall = calloc(1, TALL_SIZE);
	saved = fake.buf[4];
	fake.buf[4] = tall;
	fake.size[4] = TALL_SIZE;
	good_task(&d);
	m_int8_tall(&d);
	expect_verdict(&d, "op 0: CDMA insufficient cbuf space: the input does not fit its data banks: 512 entries, needs 520",
		       "65 lines of 8 entries in one data bank");
	good_task(&d);
	m_int8_banks(&d, 1, 1);
	d.op[0].conv_op.bytes_per_kernel = 4100;
	expect_verdict(&d, "op 0: one kernel group does not fit the weight banks (the CDMA waits forever): 512 entries, needs 513",
		       "a kernel of 4100 bytes in one weight bank");
	good_task(&d);
	m_int8_tall(&d);
	dla_allow_hw_hazards(engine, true);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 &&
	       strstr(fake.last_warning, "the hardware would not run this: CDMA insufficient cbuf space"),
	       "allowed, the same input runs with a warning (ret %d, \"%s\")",
	       ret, fake.last_warning);
	finish();
	dla_allow_hw_hazards(engine, false);
	fake.buf[4] = saved;
	fake.size[4] = DATA_SIZE;
	free(tall);
	dla_register_driver(engine, &fake, &fake_ops,
			    dla_hw_config_get("nv_full"));
}

/*
 * Two convolutions, int8 ones on nv_small (@small), the second (data banks
 * @dbank1) enabled when the first (@dbank0) completes.
 */
static void conv_pair(struct task_descs *d, bool small, u8 dbank0, u8 dbank1)
{
	if (small)
		m_int8_banks(d, dbank0, 1);
	else
		m_packed(d);
	d->op[0].conv_op.data_bank = dbank0;
	d->net.num_operations = 2;
	d->graph[0].consumers[DLA_OP_CONV] = (struct dla_consumer){
		.index = 1, .event = DLA_EVENT_OP_COMPLETED };
	d->graph[1] = d->graph[0];
	d->graph[1].consumers[DLA_OP_CONV].index = -1;
	d->graph[1].dependency_count = 1;
	d->op[1] = d->op[0];
	d->op[1].conv_op.data_bank = dbank1;
	d->surf[1] = d->surf[0];
}

/*
 * nv_small's gated CDMA weight count (nvdla/cbuf_limits.h): two int8
 * convolutions in the same data bank, the first's 4,096 bytes of weights
 * filling its one weight bank (512 entries), leave the second no room for
 * its input's 32 entries: refused, naming the second operation, the rule
 * and the stale count.
 */
static void test_cbuf_stale(void)
{
	const struct dla_hw_config *cfg = dla_hw_config_get("nv_small");
	struct task_descs d;

	dla_register_driver(engine, &fake, &fake_ops, cfg);
	fake.glb = cfg->unit_base[NVDLA_UNIT_GLB];
	good_task(&d);
	conv_pair(&d, true, 1, 1);
	d.surf[0].conv_surface.weight_data.size = DATA_SIZE;
	expect_verdict(&d, "op 1: the CDMA's gated weight count leaves too little room for the weights fetched with the input (the CDMA waits forever): 0 entries, needs 32 (stale count 512)",
		       "nv_small, a weight bank's worth of stale weights");
	fake.glb = 0;
	dla_register_driver(engine, &fake, &fake_ops,
			    dla_hw_config_get("nv_full"));
}

/*
 * The first of conv_pair()'s convolutions waits for the second to be
 * enabled, which waits for the first to be programmed: the scheduler
 * enables the second first.
 */
static void conv_overtaking(struct task_descs *d, u8 dbank0, u8 dbank1)
{
	conv_pair(d, false, dbank0, dbank1);
	d->graph[0].consumers[DLA_OP_CONV].event = DLA_EVENT_OP_PROGRAMMED;
	d->graph[1].fused_parent = (struct dla_consumer){
		.index = 0, .event = DLA_EVENT_OP_ENABLED };
	d->graph[0].dependency_count = 1;
}

/*
 * nv_full's CDMA does not wait for its CSC (NVDLA_CBUF_OVERTAKES): a
 * convolution the dependency graph lets the scheduler enable before the
 * one ahead of it, in other banks, would be fetched while the CSC runs
 * that one: refused at submission, naming it. In the same banks it runs;
 * so does a second convolution waiting only for the first to be
 * programmed when the first waits for nothing (it is enabled as it is
 * programmed); allowed, the first case runs with a warning.
 */
static void test_cbuf_overtakes(void)
{
	struct task_descs d;
	int ret;

	good_task(&d);
	conv_overtaking(&d, 1, 2);
	expect_verdict(&d, "op 1: CDMA D_OP_ENABLE before the convolution ahead had its CDMA, CSC, CMACs and CACC enabled, in other banks: the CSC forgets the kernels and waits forever: 0 of the one ahead's units enabled, needs 5",
		       "nv_full, the second convolution enabled first, in other banks");
	good_task(&d);
	conv_overtaking(&d, 1, 1);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0, "the same in the first's banks runs (ret %d, \"%s\")",
	       ret, fake.last_error);
	finish();
	good_task(&d);
	conv_pair(&d, false, 1, 2);
	d.graph[0].consumers[DLA_OP_CONV].event = DLA_EVENT_OP_PROGRAMMED;
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0,
	       "the second waiting for the first to be programmed, the first for nothing, runs (ret %d, \"%s\")",
	       ret, fake.last_error);
	finish();
	good_task(&d);
	conv_overtaking(&d, 1, 2);
	dla_allow_hw_hazards(engine, true);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 &&
	       !strcmp(fake.last_warning, "op 1: the hardware would not run this: CDMA D_OP_ENABLE before the convolution ahead had its CDMA, CSC, CMACs and CACC enabled, in other banks: the CSC forgets the kernels and waits forever: 0 of the one ahead's units enabled, needs 5"),
	       "allowed, it runs with a warning, the numbers whole (ret %d, \"%s\")",
	       ret, fake.last_warning);
	finish();
	dla_allow_hw_hazards(engine, false);
}

/*
 * The CDMA and CSC D_OP_ENABLE and CDMA D_PERF_ENABLE writes of
 * configuration @config in the log from entry @from, as "CDMA0 CSC1 PERF1
 * ..." (unit and the group its pointer names).
 */
static void conv_enables(const char *config, unsigned int from, char *out,
			 size_t len)
{
	const u32 *base = dla_hw_config_get(config)->unit_base;
	static const struct {
		const char *name;
		enum nvdla_unit unit;
		u32 pointer, enable;
	} units[] = {
		{ "CDMA", NVDLA_UNIT_CDMA, NVDLA_CDMA_S_POINTER,
		  NVDLA_CDMA_D_OP_ENABLE },
		{ "CSC", NVDLA_UNIT_CSC, NVDLA_CSC_S_POINTER,
		  NVDLA_CSC_D_OP_ENABLE },
		{ "PERF", NVDLA_UNIT_CDMA, NVDLA_CDMA_S_POINTER,
		  NVDLA_CDMA_D_PERF_ENABLE },
	};
	u32 group[3] = { 0, 0, 0 };
	size_t at = 0;
	unsigned int i, u;

	out[0] = '\0';
	for (i = 0; i < fake.nlog; i++)
		for (u = 0; u < ARRAY_SIZE(units); u++) {
			u32 addr = fake.log[i].addr - base[units[u].unit];

			if (addr == units[u].pointer)
				group[u] = fake.log[i].val &
					   NVDLA_CDMA_S_POINTER_PRODUCER_MASK;
			else if (addr == units[u].enable && i >= from &&
				 at < len)
				at += snprintf(out + at, len - at, "%s%s%u",
					       at ? " " : "", units[u].name,
					       group[u]);
		}
}

/*
 * nv_small's CDMA misses the CSC's weight releases while its current
 * group is not enabled (docs/model.md): the second convolution's CDMA is
 * enabled as soon as the first is, ahead of the first's CACC done, when
 * their data banks differ (it then waits for its CSC), and with the rest
 * after that done when they are the same (it would fetch at once). On
 * nv_full, whose C model stops for good on an early CDMA, never early.
 */
static void test_conv_early_enable(void)
{
	static const struct {
		const char *config;
		u8 dbank1;
		bool stats;
		const char *start, *after;
	} cases[] = {
		{ "nv_small", 2, false, "CSC0 CDMA0 CDMA1", "CSC1" },
		{ "nv_small", 1, false, "CSC0 CDMA0", "CSC1 CDMA1" },
		{ "nv_small", 2, true, "PERF0 CSC0 CDMA0 PERF1 CDMA1", "CSC1" },
		{ "nv_full", 2, false, "CSC0 CDMA0", "CSC1 CDMA1" },
	};
	char start[64], after[64];
	struct task_descs d;
	unsigned int mark;
	bool done = false;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct dla_hw_config *cfg =
			dla_hw_config_get(cases[i].config);

		dla_register_driver(engine, &fake, &fake_ops, cfg);
		fake.glb = cfg->unit_base[NVDLA_UNIT_GLB];
		good_task(&d);
		conv_pair(&d, !strcmp(cases[i].config, "nv_small"), 1,
			  cases[i].dbank1);
		d.net.stat_list_index = cases[i].stats ? 5 : -1;
		fake.nlog = 0;
		ret = submit(&d, NUM_BUFS);
		conv_enables(cases[i].config, 0, start, sizeof(start));
		mark = fake.nlog;
		fake.intr_status = NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS0_MASK;
		dla_isr_handler(engine);
		fake.intr_status = 0;
		ret = ret ?: dla_process_events(engine, &done);
		conv_enables(cases[i].config, mark, after, sizeof(after));
		tap_ok(ret == 0 && !done && !strcmp(start, cases[i].start) &&
		       !strcmp(after, cases[i].after),
		       "%s, data banks 1 then %u%s: \"%s\" at the start, \"%s\" after the first CACC done (ret %d, \"%s\")",
		       cases[i].config, cases[i].dbank1,
		       cases[i].stats ? ", counters on" : "",
		       start, after, ret, fake.last_error);
		finish();
	}
	fake.glb = 0;
	dla_register_driver(engine, &fake, &fake_ops,
			    dla_hw_config_get("nv_full"));
}

static void test_image_input(void)
{
	struct task_descs d;
	size_t i;
	int ret;

	good_task(&d);
	m_image(&d);
	fake.last_error[0] = '\0';
	ret = check(&d);
	tap_ok(ret == 0, "fp16 image, 8-byte pixels, lines 128 bytes apart: accepted (%d, \"%s\")",
	       ret, fake.last_error);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 &&
	       fake.reg[(0x5000 + NVDLA_CDMA_D_DAIN_ADDR_LOW_0) / 4] == 0x50000000 &&
	       fake.reg[(0x5000 + NVDLA_CDMA_D_LINE_STRIDE) / 4] == 128,
	       "its pixels' address and line stride are programmed (ret %d)", ret);
	/*
	 * The register holds the slices released less one, as in the public
	 * traces: one more would shift the next layer's data in the
	 * convolution buffer (NVIDIA's C model on a recorded LeNet).
	 */
	tap_ok(fake.reg[(0x6000 + NVDLA_CSC_D_RELEASE) / 4] == 15,
	       "16 slices released: CSC D_RELEASE 15 (got %u)",
	       fake.reg[(0x6000 + NVDLA_CSC_D_RELEASE) / 4]);
	/* lines 128 bytes apart, 16 atoms long: not packed */
	tap_ok(fake.reg[(0x5000 + NVDLA_CDMA_D_DAIN_MAP) / 4] == 0 &&
	       fake.reg[(0x9000 + NVDLA_CACC_D_DATAOUT_MAP) / 4] == 0,
	       "image lines apart, 14x14 output: CDMA D_DAIN_MAP and CACC D_DATAOUT_MAP 0");
	finish();
	/*
	 * NVIDIA's C model refuses a CDMA whose packing flags disagree with
	 * the strides (a recorded LeNet, nv_small), and the RTL stalls.
	 */
	good_task(&d);
	m_packed(&d);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 &&
	       fake.reg[(0x5000 + NVDLA_CDMA_D_DAIN_MAP) / 4] == 0x10001 &&
	       fake.reg[(0x9000 + NVDLA_CACC_D_DATAOUT_MAP) / 4] == 0x10001,
	       "packed 4x4 cube into one atom: D_DAIN_MAP 0x%x, D_DATAOUT_MAP 0x%x (ret %d, \"%s\")",
	       fake.reg[(0x5000 + NVDLA_CDMA_D_DAIN_MAP) / 4],
	       fake.reg[(0x9000 + NVDLA_CACC_D_DATAOUT_MAP) / 4], ret,
	       fake.last_error);
	finish();
	good_task(&d);
	m_image_yuv(&d);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 &&
	       fake.reg[(0x5000 + NVDLA_CDMA_D_DAIN_ADDR_LOW_1) / 4] == 0x50000400 &&
	       fake.reg[(0x5000 + NVDLA_CDMA_D_LINE_UV_STRIDE) / 4] == 64,
	       "semi-planar image: chroma plane address and line stride programmed (ret %d, \"%s\")",
	       ret, fake.last_error);
	finish();
	good_task(&d);
	m_image_to_fp16(&d);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 &&
	       fake.reg[(0x5000 + NVDLA_CDMA_D_MISC_CFG) / 4] == 0x2000 &&
	       fake.reg[(0x6000 + NVDLA_CSC_D_MISC_CFG) / 4] == 0x2200 &&
	       fake.reg[(0x7000 + NVDLA_CMAC_A_D_MISC_CFG) / 4] == 0x2000 &&
	       fake.reg[(0x9000 + NVDLA_CACC_D_MISC_CFG) / 4] == 0x2000,
	       "int8 pixels into fp16: the CDMA reads int8 and every unit processes fp16 (ret %d, CDMA 0x%x, CSC 0x%x)",
	       ret, fake.reg[(0x5000 + NVDLA_CDMA_D_MISC_CFG) / 4],
	       fake.reg[(0x6000 + NVDLA_CSC_D_MISC_CFG) / 4]);
	finish();
	for (i = 0; i < sizeof(image_cases) / sizeof(image_cases[0]); i++) {
		good_task(&d);
		image_cases[i].mutate(&d);
		expect_reject(&d, image_cases[i].what, image_cases[i].name);
	}
}

static const struct {
	mutate_fn mutate;
	const char *config;
	const char *what;
	const char *name;
} config_cases[] = {
	{ good_task, "nv_small", "bdma: nv_small has no such engine",
	  "BDMA on nv_small, which has none" },
	{ good_task, "nv_large", "bdma: nv_large has no such engine",
	  "BDMA on nv_large, which has none" },
	{ m_conv_int16, "nv_small", "op 0: conv input: int16, which nv_small does not compute",
	  "int16 convolution on nv_small (int8 only)" },
	{ m_conv_wino, "nv_large", "conv: Winograd mode unsupported here",
	  "Winograd convolution on nv_large, which has no Winograd mode" },
	{ m_sdp_y, "nv_small", "sdp: y (element-wise, LUT) enabled; nv_small has no such stage",
	  "SDP Y stage on nv_small, which has none (its RTL passes the data through)" },
	{ m_pdp_stride, "nv_large", "op 0: data cube offset 0, strides 40/80 not aligned to nv_large's 32-byte atom",
	  "8-byte aligned cube on nv_large (32-byte atoms)" },
};

static const struct {
	mutate_fn mutate;
	const char *what;
	const char *name;
} cases[] = {
	{ m_no_ops, "no operations", "empty network" },
	{ m_head, "op_head", "op_head past the operations" },
	{ m_graph_idx, "address index 6", "graph index past the address list" },
	{ m_neg_idx, "address index -2", "negative descriptor index" },
	{ m_src_idx, "address index 99", "transfer source index past the list" },
	{ m_dst_idx, "address index 6", "transfer destination index == list length" },
	{ m_line, "line size 100", "line size not a multiple of 32" },
	{ m_overrun, "overrun", "transfer beyond its buffer" },
	{ m_zero, "0 transfers", "no transfers" },
	{ m_many, "21 transfers", "21 transfers" },
	{ m_mismatch, "disagree", "op and surface transfer counts differ" },
	{ m_ramtype, "memory type", "unknown memory type" },
	{ m_stride, "line stride", "line stride below the line size" },
	{ m_type, "type 9", "unknown operation type" },
	{ m_conv, "conv: stride 0x0", "convolution with an all-zero descriptor" },
	{ m_consumer, "consumer 7", "consumer past the operations" },
	{ m_event, "event 9", "unknown consumer event" },
	{ m_loop, "loops", "operation chain loops" },
	{ m_cdma_event, "a bdma raises no CDMA event", "CDMA event from a BDMA" },
	{ m_unreached, "unreachable", "operation no chain reaches" },
	{ m_no_rois, "no region of interest", "no region of interest" },
	{ m_dynamic, "dynamic regions", "dynamic regions of interest" },
	{ m_roi_short, "overrun address 1", "graph too short for 3 regions" },
	{ m_runs, "32768 operations in 2 regions: over 65535 runs",
	  "65536 runs of operations" },
	{ m_roi_type, "region 1: type", "region 1 of another type" },
	{ m_roi_order, "region 1: type or order", "region 1 in another order" },
	{ m_roi_source, "address index 99", "bad index in region 1 only" },
	{ m_stat_idx, "stat list index 6 outside the list of 6",
	  "stat list index past the address list" },
	{ m_stat_neg, "stat list index -2", "negative stat list index" },
	{ m_stat_small, "stat list at address 0: no room for 1 x 1 containers",
	  "stat list too small for one container" },
};

/*
 * PAD_RIGHT and PAD_BOTTOM as programmed for an int8 pooling of a 22x4
 * cube by a 3x3 kernel, stride 2, into 11x2, with @right and @bottom
 * padding asked for.
 */
static u32 pdp_padding(u8 right, u8 bottom)
{
	u32 base = dla_hw_config_get("nv_full")->unit_base[NVDLA_UNIT_PDP];
	struct dla_pdp_surface_desc *s;
	struct dla_pdp_op_desc *p;
	struct task_descs d;
	u32 cfg;
	int ret;

	good_task(&d);
	m_pdp_stride(&d);
	p = &d.op[0].pdp_op;
	p->pool_width = 2;
	p->pool_height = 2;
	p->stride_x = 2;
	p->stride_y = 2;
	p->pad_right = right;
	p->pad_bottom = bottom;
	s = &d.surf[0].pdp_surface;
	s->src_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 4, .width = 22, .height = 4,
		.channel = 8, .line_stride = 22 * 32, .surf_stride = 22 * 4 * 32,
	};
	s->dst_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 5, .width = 11, .height = 2,
		.channel = 8, .line_stride = 11 * 32, .surf_stride = 11 * 2 * 32,
	};
	ret = submit(&d, NUM_BUFS);
	cfg = fake.reg[(base + NVDLA_PDP_D_POOLING_PADDING_CFG) / 4];
	finish();
	if (ret)
		return ~0u;
	return cfg & (NVDLA_PDP_D_POOLING_PADDING_CFG_PAD_RIGHT_MASK |
		      NVDLA_PDP_D_POOLING_PADDING_CFG_PAD_BOTTOM_MASK);
}

/*
 * Padding no window reaches is left out: the nv_small RTL computes the
 * lines after the first wrong with a surplus column of right padding
 * (docs/recording.md); the outputs are the same without it.
 */
static void test_pdp_padding(void)
{
	u32 right = NVDLA_PDP_D_POOLING_PADDING_CFG_PAD_RIGHT_SHIFT;
	u32 bottom = NVDLA_PDP_D_POOLING_PADDING_CFG_PAD_BOTTOM_SHIFT;
	u32 got;

	got = pdp_padding(2, 2);
	tap_ok(got == (1u << right | 1u << bottom),
	       "pdp: 2 columns and rows of trailing padding, 1 reached: 1 programmed (0x%x)",
	       got);
	got = pdp_padding(1, 1);
	tap_ok(got == (1u << right | 1u << bottom),
	       "pdp: trailing padding the windows reach is kept (0x%x)", got);
	got = pdp_padding(0, 0);
	tap_ok(got == 0,
	       "pdp: no trailing padding asked, none programmed (0x%x)",
	       got);
}

/*
 * An offline SDP from a 2x2x@c cube of @src to one of @dst, its data
 * buffers of @in_bytes and @out_bytes: the submission's result, and the
 * processing precision it programmed into SDP_RDMA (*@rdma) and SDP.
 */
static int sdp_convert(u32 src, u32 dst, u16 c, u64 in_bytes, u64 out_bytes,
		       u32 *rdma, u32 *proc)
{
	const struct dla_hw_config *cfg = dla_hw_config_get("nv_full");
	struct dla_sdp_surface_desc *s;
	struct task_descs d;
	int ret;

	good_task(&d);
	sdp_only(&d, src, dst);
	s = &d.surf[0].sdp_surface;
	s->src_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 4, .width = 2, .height = 2,
		.channel = c, .line_stride = 64, .surf_stride = 128,
	};
	s->dst_data = s->src_data;
	s->dst_data.address = 5;
	fake.size[4] = in_bytes;
	fake.size[5] = out_bytes;
	ret = submit(&d, NUM_BUFS);
	fake.size[4] = fake.size[5] = DATA_SIZE;
	*rdma = (fake.reg[(cfg->unit_base[NVDLA_UNIT_SDP_RDMA] +
			   NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG) / 4] &
		 NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_PROC_PRECISION_MASK) >>
		NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG_PROC_PRECISION_SHIFT;
	*proc = (fake.reg[(cfg->unit_base[NVDLA_UNIT_SDP] +
			   NVDLA_SDP_D_DATA_FORMAT) / 4] &
		 NVDLA_SDP_D_DATA_FORMAT_PROC_PRECISION_MASK) >>
		NVDLA_SDP_D_DATA_FORMAT_PROC_PRECISION_SHIFT;
	if (!ret)
		finish();
	return ret;
}

/*
 * An offline int8 SDP on nv_full over a @w x 1 x 40 cube (two 32-channel
 * surfaces, @in and @out bytes apart), X1 adding and multiplying int16
 * operands per channel (4 bytes a channel), groups @bs bytes apart.
 */
static void sdp_packed_task(struct task_descs *d, u16 w, u32 in, u32 bs,
			    u32 out)
{
	struct dla_sdp_surface_desc *s = &d->surf[0].sdp_surface;
	struct dla_sdp_op_desc *p;

	good_task(d);
	p = sdp_only(d, DLA_PRECISION_INT8, DLA_PRECISION_INT8);
	p->x1_op = (struct dla_sdp_op){ .enable = 1, .type = SDP_TYPE_BOTH,
					.mode = SDP_MODE_PER_KERNEL,
					.precision = DLA_PRECISION_INT16 };
	s->src_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 4, .width = w, .height = 1,
		.channel = 40, .line_stride = w * 32, .surf_stride = in,
	};
	s->dst_data = s->src_data;
	s->dst_data.address = 5;
	s->dst_data.surf_stride = out;
	s->x1_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = 4, .offset = 0x800,
		.size = 256, .width = 1, .height = 1, .channel = 40,
		.line_stride = bs, .surf_stride = bs,
	};
}

/*
 * The SDP moves a 1x1 cube packed whatever its surface strides say, and
 * NVIDIA's C models stop unless they say so (nvdla/sdp_layout.h).
 */
static void test_sdp_packed(void)
{
	static const struct {
		u32 in, bs, out;
		const char *what, *name;
	} bad[] = {
		{ 64, 128, 32, "op 0: SDP_RDMA D_SRC_SURFACE_STRIDE of a 1x1 cube is not one atom (the RDMA reads it packed; NVIDIA's C models stop): 64 bytes, needs 32",
		  "1x1 SDP input's surfaces two atoms apart" },
		{ 32, 32, 32, "op 0: SDP_RDMA D_BS_SURFACE_STRIDE of a 1x1 cube is not one group of operands (BRDMA reads them packed; NVIDIA's C models stop): 32 bytes, needs 128",
		  "1x1 SDP's per-channel operands an atom apart, not a group of four-byte ones" },
		{ 32, 128, 64, "op 0: SDP D_DST_SURFACE_STRIDE of a 1x1 cube is not one atom (the WDMA writes it packed; NVIDIA's C models stop): 64 bytes, needs 32",
		  "1x1 SDP output's surfaces two atoms apart" },
	};
	struct task_descs d;
	u32 i;
	int ret;

	sdp_packed_task(&d, 1, 32, 128, 32);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0, "1x1 SDP packed: input and output an atom, operands a group apart (ret %d, \"%s\")",
	       ret, fake.last_error);
	if (!ret)
		finish();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sdp_packed_task(&d, 1, bad[i].in, bad[i].bs, bad[i].out);
		expect_verdict(&d, bad[i].what, bad[i].name);
	}
	sdp_packed_task(&d, 2, 64, 0, 64);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0, "a 2x1 SDP keeps its strides, per-channel operands stride 0 (ret %d, \"%s\")",
	       ret, fake.last_error);
	if (!ret)
		finish();
	sdp_packed_task(&d, 1, 64, 128, 32);
	dla_allow_hw_hazards(engine, true);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 &&
	       strstr(fake.last_warning, "the hardware would not run this: SDP_RDMA D_SRC_SURFACE_STRIDE"),
	       "allowed, the unpacked input runs with a warning (ret %d, \"%s\")",
	       ret, fake.last_warning);
	if (!ret)
		finish();
	dla_allow_hw_hazards(engine, false);
}

/*
 * SDP precision conversions (nvdla/sdp_precision.h): int16 to int8 is
 * programmed as int8 processing, whose int16 side spans whole 32-channel
 * groups; a conversion the hardware lacks is rejected.
 */
static void test_sdp_convert(void)
{
	u32 rdma, proc;
	int ret;

	ret = sdp_convert(DLA_PRECISION_INT16, DLA_PRECISION_INT8, 10, 256,
			  128, &rdma, &proc);
	tap_ok(ret == 0 && rdma == DLA_PRECISION_INT8 &&
	       proc == DLA_PRECISION_INT8,
	       "sdp int16 to int8: int8 processing in SDP_RDMA and SDP (%d, %u, %u)",
	       ret, rdma, proc);
	ret = sdp_convert(DLA_PRECISION_INT16, DLA_PRECISION_FP16, 10, 128,
			  128, &rdma, &proc);
	tap_ok(ret == 0 && rdma == DLA_PRECISION_INT16 &&
	       proc == DLA_PRECISION_INT16,
	       "sdp int16 to fp16: int16 processing (%d, %u, %u)", ret, rdma,
	       proc);
	ret = sdp_convert(DLA_PRECISION_INT16, DLA_PRECISION_INT8, 10, 128,
			  128, &rdma, &proc);
	tap_ok(ret == -EINVAL && strstr(fake.last_error, "does not fit"),
	       "sdp int16 to int8: an input buffer without the pair's second surface is rejected (%d, \"%s\")",
	       ret, fake.last_error);
	ret = sdp_convert(DLA_PRECISION_INT8, DLA_PRECISION_INT16, 10, 128,
			  128, &rdma, &proc);
	tap_ok(ret == -EINVAL && strstr(fake.last_error, "does not fit"),
	       "sdp int8 to int16: an output buffer without the group's second surface is rejected (%d)",
	       ret);
	ret = sdp_convert(DLA_PRECISION_INT8, DLA_PRECISION_INT16, 10, 128,
			  256, &rdma, &proc);
	tap_ok(ret == 0 && proc == DLA_PRECISION_INT8,
	       "sdp int8 to int16: int8 processing, two int16 surfaces (%d)",
	       ret);
	ret = sdp_convert(DLA_PRECISION_INT8, DLA_PRECISION_FP16, 10, 256,
			  256, &rdma, &proc);
	tap_ok(ret == -EINVAL &&
	       strstr(fake.last_error, "no conversion from precision 0 to 2"),
	       "sdp int8 to fp16 rejected (%d, \"%s\")", ret,
	       fake.last_error);
	ret = sdp_convert(DLA_PRECISION_FP16, DLA_PRECISION_INT8, 10, 256,
			  256, &rdma, &proc);
	tap_ok(ret == -EINVAL &&
	       strstr(fake.last_error, "no conversion from precision 2 to 0"),
	       "sdp fp16 to int8 rejected (%d)", ret);
}

/*
 * A BDMA task with its stat list at address 5: counting is turned on
 * when the operation is enabled, and its completion writes the stall
 * counters of launch group 0 (7 and 9 here) and the 25 us it ran into
 * container [0][0]; the rest of the buffer is untouched.
 */
static void test_stat_write_back(void)
{
	struct dla_bdma_stat_desc want = { 7, 9, 25 }, got;
	struct task_descs d;
	bool done = false;
	int ret;

	good_task(&d);
	d.net.stat_list_index = 5;
	memset(fake.buf[5], 0xee, DATA_SIZE);
	fake.now = 100;
	fake.bdma_cfg_status = 0;
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 && fake.bdma_cfg_status ==
	       NVDLA_BDMA_CFG_STATUS_STALL_COUNT_EN_MASK,
	       "a task with a stat list runs; BDMA stall counting enabled (ret %d)",
	       ret);
	fake.now = 125;
	fake.intr_status = NVDLA_GLB_S_INTR_STATUS_BDMA_DONE_STATUS0_MASK;
	dla_isr_handler(engine);
	fake.intr_status = 0;
	ret = dla_process_events(engine, &done);
	memcpy(&got, fake.buf[5], sizeof(got));
	tap_ok(ret == 0 && done && !memcmp(&got, &want, sizeof(got)) &&
	       fake.buf[5][sizeof(union dla_stat_container)] == 0xee,
	       "completion writes stalls 7/9 and run time 25 us to container 0 (%u %u %u)",
	       got.read_stall, got.write_stall, got.runtime);
	finish();
}

/* Complete the BDMA operation in group 0 at time @now. */
static int bdma_done(uint64_t now, bool *done)
{
	fake.now = now;
	fake.intr_status = NVDLA_GLB_S_INTR_STATUS_BDMA_DONE_STATUS0_MASK;
	dla_isr_handler(engine);
	fake.intr_status = 0;
	return dla_process_events(engine, done);
}

/*
 * Two regions of interest: the copy runs twice, and each run's counters
 * and run time go to its own container, [1][0] after [0][0].
 */
static void test_stat_rois(void)
{
	struct dla_bdma_stat_desc want = { 7, 9, 35 }, got;
	union dla_stat_container *list = (void *)fake.buf[5];
	struct task_descs d;
	bool first = true, done = false;
	int ret;

	good_task(&d);
	d.net.num_rois = 2;
	d.net.stat_list_index = 5;
	memset(fake.buf[5], 0xee, DATA_SIZE);
	fake.now = 100;
	ret = submit(&d, NUM_BUFS);
	if (!ret)
		ret = bdma_done(125, &first);
	if (!ret)
		ret = bdma_done(160, &done);
	memcpy(&got, &list[1], sizeof(got));
	tap_ok(ret == 0 && !first && done && list[0].bdma_stat.runtime == 25 &&
	       !memcmp(&got, &want, sizeof(got)) &&
	       fake.buf[5][2 * sizeof(*list)] == 0xee,
	       "two regions: containers [0][0] and [1][0] filled in turn (%u %u %u, ret %d)",
	       got.read_stall, got.write_stall, got.runtime, ret);
	finish();
}

#define BIG_OPS 32767

/*
 * A chain of BIG_OPS BDMA copies: prepared (copied and validated) once,
 * in time linear in the task; starting it programs the first copy only,
 * and neither the start nor a completion reads the task's buffers again
 * or does work that grows with the task.
 */
static void test_big_task(void)
{
	struct dla_task task = { .host_task = &fake, .num_addresses = NUM_BUFS };
	struct dla_checked_task *checked = NULL;
	struct task_descs d;
	struct dla_common_op_desc *graph;
	union dla_surface_container *surf;
	uint8_t *saved[4];
	struct timespec t0, t1;
	unsigned int start_writes, start_entries;
	bool done = true;
	int i, ret;

	good_task(&d);
	d.net.num_operations = BIG_OPS;
	for (i = 0; i < 4; i++)
		saved[i] = fake.buf[i];
	fake.buf[0] = calloc(1, sizeof(d.net));
	fake.buf[1] = calloc(BIG_OPS, sizeof(*graph));
	fake.buf[2] = calloc(BIG_OPS, sizeof(d.op[0]));
	fake.buf[3] = calloc(BIG_OPS, sizeof(*surf));
	memcpy(fake.buf[0], &d.net, sizeof(d.net));
	fake.size[0] = sizeof(d.net);
	fake.size[1] = BIG_OPS * sizeof(*graph);
	fake.size[2] = BIG_OPS * sizeof(d.op[0]);
	fake.size[3] = BIG_OPS * sizeof(*surf);
	graph = (void *)fake.buf[1];
	surf = (void *)fake.buf[3];
	for (i = 0; i < BIG_OPS; i++) {
		graph[i] = d.graph[0];
		graph[i].consumers[DLA_OP_BDMA].index = i + 1 < BIG_OPS ? i + 1 : -1;
		memcpy(fake.buf[2] + i * sizeof(d.op[0]), &d.op[0], sizeof(d.op[0]));
		surf[i] = d.surf[0];
	}

	fake.cpu_entries = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = dla_task_prepare(engine, &task, &checked);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_ok(ret == 0, "%d operations copied and validated in %.1f ms (%d, \"%s\")",
	       BIG_OPS, (t1.tv_sec - t0.tv_sec) * 1e3 +
	       (t1.tv_nsec - t0.tv_nsec) / 1e6, ret, fake.last_error);
	tap_ok(fake.cpu_entries == 0xf,
	       "the CPU mapping asked for of the four descriptor buffers alone, not of the copy's source and destination (entries %#x)",
	       fake.cpu_entries);
	fake.writes = 0;
	fake.entries = 0;
	fake.cpu_entries = 0;
	ret = ret ?: dla_execute_task(engine, checked);
	start_writes = fake.writes;
	start_entries = fake.entries;
	tap_ok(ret == 0 && start_writes < 64 && start_entries <= 2,
	       "starting it programs one copy: %u register writes, %u buffer look-ups",
	       start_writes, start_entries);
	fake.writes = 0;
	fake.entries = 0;
	for (i = 0; i < 3 && !ret; i++)
		ret = bdma_done(0, &done);
	tap_ok(ret == 0 && !done && fake.writes < 3 * 64 && fake.entries <= 3 * 2,
	       "each completion programs the next copy alone: %u writes, %u look-ups for 3",
	       fake.writes, fake.entries);
	tap_ok(!fake.cpu_entries,
	       "running it asks for no CPU mapping (entries %#x)",
	       fake.cpu_entries);
	dla_clear_task(engine);
	dla_task_release(engine, checked);
	for (i = 0; i < 4; i++) {
		free(fake.buf[i]);
		fake.buf[i] = saved[i];
		fake.size[i] = DATA_SIZE;
	}
}

static int engine_setup(const char *config)
{
	int i;

	for (i = 0; i < NUM_BUFS; i++) {
		fake.buf[i] = calloc(1, DATA_SIZE);
		fake.size[i] = DATA_SIZE;
	}
	engine = calloc(1, dla_engine_size());
	return dla_register_driver(engine, &fake, &fake_ops,
				   dla_hw_config_get(config));
}

int main(void)
{
	struct task_descs d;
	bool done = false;
	size_t i;
	int ret;

	tap_ok(engine_setup("nv_full") == 0, "engine registers on nv_full");
	tap_ok(dla_register_driver(engine, &fake, &fake_ops, NULL) == -EINVAL,
	       "registration without a configuration is refused");
	dla_register_driver(engine, &fake, &fake_ops, dla_hw_config_get("nv_full"));

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		good_task(&d);
		cases[i].mutate(&d);
		tap_ok(check(&d) == -EINVAL, "%s: dla_task_prepare refuses it",
		       cases[i].name);
		expect_reject(&d, cases[i].what, cases[i].name);
	}

	good_task(&d);
	ret = check(&d);
	tap_ok(ret == 0, "dla_task_prepare passes the good task, writing nothing (%d)",
	       ret);
	good_task(&d);
	g_pair(&d);
	fake.last_error[0] = '\0';
	ret = check(&d);
	tap_ok(ret == 0, "dla_task_prepare passes two dependent copies (%d, \"%s\")",
	       ret, fake.last_error);
	for (i = 0; i < sizeof(graph_cases) / sizeof(graph_cases[0]); i++) {
		good_task(&d);
		graph_cases[i].mutate(&d);
		fake.last_error[0] = '\0';
		ret = check(&d);
		tap_ok(ret == -EINVAL && strstr(fake.last_error, graph_cases[i].what),
		       "%s: dla_task_prepare refuses it, no register touched (%d, \"%s\")",
		       graph_cases[i].name, ret, fake.last_error);
	}

	good_task(&d);
	ret = submit(&d, 0);
	tap_ok(ret == -EINVAL && fake.writes == 0,
	       "empty address list rejected (ret %d)", ret);

	good_task(&d);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 && fake.writes > 0,
	       "good task accepted after the rejections (ret %d, %u writes)",
	       ret, fake.writes);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == -EBUSY && fake.writes == 0,
	       "second task while one is loaded: -EBUSY, nothing written");
	tap_ok(dla_execute_task(engine, running) == -EBUSY,
	       "the running task again: -EBUSY");
	dla_clear_task(engine);
	fake.writes = 0;
	ret = dla_execute_task(engine, running);
	tap_ok(ret == -EINVAL && fake.writes == 0 &&
	       strstr(fake.last_error, "a checked task runs once"),
	       "a checked task that ran is refused: its counts are spent (%d, \"%s\")",
	       ret, fake.last_error);
	finish();
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0, "engine takes a task again after dla_clear_task");

	/* Prepare while the engine runs a task: no register, no interference. */
	good_task(&d);
	m_conv(&d);
	load(&d);
	fake.writes = 0;
	ret = check(&d);
	tap_ok(ret == -EINVAL && strstr(fake.last_error, "conv: stride 0x0"),
	       "dla_task_prepare refuses a task while another runs, writing nothing (%s)",
	       fake.last_error);
	good_task(&d);
	ret = check(&d);
	tap_ok(ret == 0, "dla_task_prepare accepts a good task while another runs");
	ret = bdma_done(0, &done);
	tap_ok(ret == 0 && done,
	       "the running task completes undisturbed (%d, done %d)", ret, done);
	finish();

	for (i = 0; i < sizeof(config_cases) / sizeof(config_cases[0]); i++) {
		dla_register_driver(engine, &fake, &fake_ops,
				    dla_hw_config_get(config_cases[i].config));
		good_task(&d);
		config_cases[i].mutate(&d);
		expect_reject(&d, config_cases[i].what, config_cases[i].name);
	}
	/* The same 8-byte aligned cube is fine where atoms are 8 bytes. */
	dla_register_driver(engine, &fake, &fake_ops,
			    dla_hw_config_get("nv_small"));
	good_task(&d);
	m_pdp_stride(&d);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 && fake.writes > 0,
	       "the 8-byte aligned cube is accepted on nv_small (ret %d, \"%s\")",
	       ret, fake.last_error);
	finish();
	good_task(&d);
	sdp_y_task(&d, false);
	ret = submit(&d, NUM_BUFS);
	tap_ok(ret == 0 && fake.writes > 0,
	       "the same SDP without Y is accepted on nv_small (ret %d, \"%s\")",
	       ret, fake.last_error);
	finish();

	dla_register_driver(engine, &fake, &fake_ops,
			    dla_hw_config_get("nv_full"));
	test_stat_write_back();
	test_pdp_padding();
	test_sdp_convert();
	test_sdp_packed();
	test_stat_rois();
	test_big_task();
	test_image_input();
	test_cbuf_limits();
	test_cbuf_stale();
	test_cbuf_overtakes();
	test_conv_early_enable();

	for (i = 0; i < NUM_BUFS; i++)
		free(fake.buf[i]);
	free(engine);
	return tap_done();
}
