// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Several regions of interest through the runtime on the model: in each
 * region a BDMA copies that region's input into a scratch buffer of its
 * own and a max-pooling PDP, waiting for the copy, reduces it into the
 * region's slice of the output. A region released by another region's
 * copy, or run with another region's descriptors, pools stale or foreign
 * data and the comparison with the hand-computed maxima fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/dla_interface.h>
#include <nvdla/runtime.h>

#include "builder.h"
#include "../lib/tap.h"

#define ATOM 32			/* nv_full: int8 channels per atom */
#define W 4
#define H 4
#define IN_LINE (W * ATOM)
#define IN_SIZE (H * IN_LINE)
#define OUT_W (W / 2)
#define OUT_H (H / 2)
#define OUT_LINE (OUT_W * ATOM)
#define OUT_SIZE (OUT_H * OUT_LINE)
#define MAX_ROIS 4

enum { OP_COPY, OP_POOL, NUM_OPS };

/* Address indices: 4 descriptor lists, then inputs, scratches, output. */
static int16_t input_index(int roi) { return 4 + roi; }
static int16_t scratch_index(int rois, int roi) { return 4 + rois + roi; }
static int16_t output_index(int rois) { return 4 + 2 * rois; }

static void copy_op(struct nvdla_build_op *op, int rois, int roi)
{
	nvdla_build_bdma_op(op, &(struct dla_bdma_transfer_desc){
		.source_address = input_index(roi),
		.destination_address = scratch_index(rois, roi),
		.line_size = IN_LINE, .line_repeat = H,
		.source_line = IN_LINE, .destination_line = IN_LINE,
		.surface_repeat = 1, .source_surface = IN_SIZE,
		.destination_surface = IN_SIZE,
	});
	op->graph.consumers[DLA_OP_PDP] = (struct dla_consumer){
		.index = OP_POOL, .event = DLA_EVENT_OP_COMPLETED,
	};
}

static void pool_op(struct nvdla_build_op *op, int rois, int roi)
{
	struct dla_pdp_surface_desc *s = &op->surf.pdp_surface;

	nvdla_build_op_init(op, DLA_OP_PDP);
	op->graph.dependency_count = 1;		/* the copy's completion */
	op->op.pdp_op = (struct dla_pdp_op_desc){
		.partial_in_width_first = W, .partial_width_first = OUT_W,
		.split_num = 1, .pool_mode = 1 /* max */, .pool_width = 1,
		.pool_height = 1, .stride_x = 2, .stride_y = 2,
	};
	s->src_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = scratch_index(rois, roi),
		.size = IN_SIZE, .width = W, .height = H, .channel = ATOM,
		.line_stride = IN_LINE, .surf_stride = IN_SIZE,
	};
	s->dst_data = (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = output_index(rois),
		.offset = roi * OUT_SIZE, .size = OUT_SIZE, .width = OUT_W,
		.height = OUT_H, .channel = ATOM, .line_stride = OUT_LINE,
		.surf_stride = OUT_SIZE,
	};
}

static int build(int rois, uint8_t in[][IN_SIZE], void **buf, size_t *len)
{
	struct nvdla_build_op ops[MAX_ROIS * NUM_OPS];
	struct nvdla_tensor_desc out = {
		.name = "pooled", .size = rois * OUT_SIZE, .n = rois,
		.c = ATOM, .h = OUT_H, .w = OUT_W,
		.data_type = NVDLA_DATA_TYPE_INT8,
	};
	struct nvdla_builder b;
	char name[24];
	int r, ret;

	for (r = 0; r < rois; r++) {
		copy_op(&ops[r * NUM_OPS + OP_COPY], rois, r);
		pool_op(&ops[r * NUM_OPS + OP_POOL], rois, r);
	}
	nvdla_builder_init(&b);
	nvdla_builder_task_rois(&b, ops, NUM_OPS, rois, NULL, 0,
				2 * rois + 1);
	for (r = 0; r < rois; r++) {
		snprintf(name, sizeof(name), "input-%d", r);
		nvdla_builder_memory(&b, name, in[r], IN_SIZE);
	}
	for (r = 0; r < rois; r++)
		nvdla_builder_memory(&b, NULL, NULL, IN_SIZE);
	nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL, out.size),
			   &out, NVDLA_LBL_MEM_OUTPUT);
	ret = nvdla_builder_finish(&b, buf, len);
	nvdla_builder_fini(&b);
	return ret;
}

/* Elements of region @roi's output that differ from the 2x2 maxima. */
static int wrong(const uint8_t *in, const uint8_t *out)
{
	int c, y, x, dy, dx, bad = 0;

	for (y = 0; y < OUT_H; y++) {
		for (x = 0; x < OUT_W; x++) {
			for (c = 0; c < ATOM; c++) {
				int8_t best = -128;

				for (dy = 0; dy < 2; dy++)
					for (dx = 0; dx < 2; dx++) {
						int8_t v = in[(2 * y + dy) * IN_LINE +
							      (2 * x + dx) * ATOM + c];

						best = v > best ? v : best;
					}
				bad += (int8_t)out[y * OUT_LINE + x * ATOM + c] != best;
			}
		}
	}
	return bad;
}

static void test_rois(struct nvdla_runtime *rt, int rois)
{
	static uint8_t in[MAX_ROIS][IN_SIZE];
	struct nvdla_network *net = NULL;
	const uint8_t *out;
	void *buf = NULL;
	int r, run, ret, bad;
	size_t len, i;

	for (r = 0; r < rois; r++)
		for (i = 0; i < IN_SIZE; i++)
			in[r][i] = (uint8_t)rand();
	ret = build(rois, in, &buf, &len);
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &net);
	/* Twice: the regions' dependency counts are restored in between. */
	for (run = 0; run < 2; run++) {
		bad = -1;
		if (!ret)
			ret = nvdla_network_submit(net, 0);
		if (!ret) {
			out = nvdla_buffer_map(nvdla_network_output(net, 0));
			for (bad = 0, r = 0; r < rois; r++)
				bad += wrong(in[r], out + r * OUT_SIZE);
		}
		tap_ok(!ret && !bad,
		       "%d regions, run %d: every region pooled its own copy (%s, %d wrong)",
		       rois, run + 1, ret ? nvdla_runtime_error(rt) : "ran", bad);
	}
	nvdla_network_unload(net);
	free(buf);
}

/* A region whose node names another type than region 0's is refused. */
static void test_mixed_regions(struct nvdla_runtime *rt)
{
	static uint8_t in[2][IN_SIZE];
	struct nvdla_network *net = NULL;
	struct nvdla_build_op ops[2 * NUM_OPS];
	struct nvdla_builder b;
	void *buf = NULL;
	size_t len;
	int ret;

	copy_op(&ops[OP_COPY], 2, 0);
	pool_op(&ops[OP_POOL], 2, 0);
	pool_op(&ops[NUM_OPS + OP_COPY], 2, 1);	/* a PDP where a copy was */
	copy_op(&ops[NUM_OPS + OP_POOL], 2, 1);
	nvdla_builder_init(&b);
	nvdla_builder_task_rois(&b, ops, NUM_OPS, 2, NULL, 0, 5);
	nvdla_builder_memory(&b, "input-0", in[0], IN_SIZE);
	nvdla_builder_memory(&b, "input-1", in[1], IN_SIZE);
	nvdla_builder_memory(&b, NULL, NULL, IN_SIZE);
	nvdla_builder_memory(&b, NULL, NULL, IN_SIZE);
	nvdla_builder_memory(&b, NULL, NULL, 2 * OUT_SIZE);
	ret = nvdla_builder_finish(&b, &buf, &len);
	nvdla_builder_fini(&b);
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &net);
	tap_ok(ret == -EINVAL &&
	       strstr(nvdla_runtime_error(rt), "region 1: type or order differs"),
	       "regions disagreeing on an operation's type: %s",
	       nvdla_runtime_error(rt));
	nvdla_network_unload(net);
	free(buf);
}

int main(void)
{
	struct nvdla_runtime *rt = NULL;
	char err[256];

	srand(7);
	if (nvdla_runtime_new("sim:nv_full", &rt, err, sizeof(err))) {
		tap_ok(0, "runtime on sim:nv_full: %s", err);
		return tap_done();
	}
	test_rois(rt, 1);
	test_rois(rt, 2);
	test_rois(rt, MAX_ROIS);
	test_mixed_regions(rt);
	nvdla_runtime_del(rt);
	return tap_done();
}
