// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The SDP's LUT activation through the runtime on the model, and the rule
 * that the unit's one LUT may not change under a loaded operation.
 *
 * Each LUT here is linear from -64 with index select 0 in both tables,
 * so an int8 input x in [-63, 63] hits entry x + 64 exactly (no
 * interpolation) in the table that answers, which holds the same values
 * in both: the output is table[x + 64], through a converter of scale 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/dla_interface.h>
#include <nvdla/runtime.h>

#include "builder.h"
#include "../lib/tap.h"

#define ATOM 32
#define W 8
#define SIZE (W * ATOM)		/* one line of W x 32 int8 channels */
#define LUT_START -64
#define SDP_ACT_LUT 2

enum { LUT_F, LUT_G, NUM_LUTS };

/* The two functions the LUTs hold, with int8 values. */
static int16_t lut_value(int lut, int i)
{
	return lut == LUT_F ? (int16_t)((i * 7) % 200 - 100) :
			      (int16_t)(90 - (i * 13) % 180);
}

static void lut_fill(struct dla_lut_param *l, int lut)
{
	int i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < DLA_LUT_LE_TABLE_ENTRIES; i++)
		l->linear_exp_table[i] = lut_value(lut, i);
	for (i = 0; i < DLA_LUT_LO_TABLE_ENTRIES; i++)
		l->linear_only_table[i] = lut_value(lut, i);
	l->method = 1;		/* linear */
	l->linear_exp_start = (uint64_t)(int64_t)LUT_START;
	l->linear_only_start = (uint64_t)(int64_t)LUT_START;
}

static struct dla_data_cube cube(int16_t address)
{
	return (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = address, .size = SIZE,
		.width = W, .height = 1, .channel = ATOM, .line_stride = SIZE,
		.surf_stride = SIZE,
	};
}

/* An SDP reading @in, writing @out, with LUT @lut as Y activation. */
static void sdp_lut_op(struct nvdla_build_op *op, int16_t lut, int16_t in,
		       int16_t out)
{
	struct dla_sdp_op_desc *p = &op->op.sdp_op;

	nvdla_build_op_init(op, DLA_OP_SDP);
	p->lut_index = lut;
	p->out_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	p->y_op.enable = 1;
	p->y_op.act = SDP_ACT_LUT;
	op->surf.sdp_surface.src_data = cube(in);
	op->surf.sdp_surface.dst_data = cube(out);
}

/* A BDMA copying address @src to @dst. */
static void copy_op(struct nvdla_build_op *op, int16_t src, int16_t dst)
{
	nvdla_build_bdma_op(op, &(struct dla_bdma_transfer_desc){
		.source_address = src, .destination_address = dst,
		.line_size = SIZE, .line_repeat = 1, .source_line = SIZE,
		.destination_line = SIZE, .surface_repeat = 1,
		.source_surface = SIZE, .destination_surface = SIZE,
	});
}

struct job {
	struct nvdla_build_op ops[3];
	uint16_t num_ops;
	uint8_t in[2][SIZE];
	struct nvdla_network *net;
};

/*
 * Addresses: 0-3 descriptors, 4 LUTs, 5-6 inputs, 7 the output (two
 * lines), 8 a scratch buffer.
 * Loads @j; returns the runtime's verdict.
 */
static int load(struct nvdla_runtime *rt, struct job *j)
{
	struct dla_lut_param luts[NUM_LUTS];
	struct nvdla_tensor_desc out = {
		.name = "out", .size = 2 * SIZE, .n = 1, .c = ATOM, .h = 2,
		.w = W, .data_type = NVDLA_DATA_TYPE_INT8,
	};
	struct nvdla_builder b;
	void *buf = NULL;
	size_t len, i;
	int ret;

	for (i = 0; i < sizeof(j->in); i++)
		j->in[i / SIZE][i % SIZE] = (uint8_t)(rand() % 127 - 63);
	lut_fill(&luts[LUT_F], LUT_F);
	lut_fill(&luts[LUT_G], LUT_G);
	nvdla_builder_init(&b);
	nvdla_builder_task(&b, j->ops, j->num_ops, luts, NUM_LUTS, 4);
	nvdla_builder_memory(&b, "in-0", j->in[0], SIZE);
	nvdla_builder_memory(&b, "in-1", j->in[1], SIZE);
	/* Both outputs in one buffer: output 1 at address 8 is its second line. */
	nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL, 2 * SIZE),
			   &out, NVDLA_LBL_MEM_OUTPUT);
	nvdla_builder_memory(&b, NULL, NULL, SIZE);
	ret = nvdla_builder_finish(&b, &buf, &len);
	nvdla_builder_fini(&b);
	j->net = NULL;
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &j->net);
	free(buf);
	return ret;
}

/* Elements of output line @line that differ from LUT @lut of input @in. */
static int wrong(const struct job *j, int line, int lut, int in)
{
	const uint8_t *out = nvdla_buffer_map(nvdla_network_output(j->net, 0));
	int i, bad = 0;

	for (i = 0; i < SIZE; i++)
		bad += (int8_t)out[line * SIZE + i] !=
		       lut_value(lut, (int8_t)j->in[in][i] - LUT_START);
	return bad;
}

/* Counter @name of @st, or -1. */
static int64_t counter(const struct nvdla_op_stat *st, const char *name)
{
	unsigned int k;

	for (k = 0; k < st->num_counters; k++)
		if (!strcmp(st->counters[k].name, name))
			return st->counters[k].value;
	return -1;
}

/*
 * With statistics: every element hits the LO table (entries 1 to 127 of
 * 257); those below 0 hit the LE table too (entries 1 to 63 of 65) and the
 * others overflow it; each answer comes from a table entry, none from an
 * under- or overflow slope.
 */
static void check_counts(struct nvdla_runtime *rt, const struct job *j)
{
	struct nvdla_op_stat st = { 0 };
	int64_t below = 0;
	int ret, i;

	for (i = 0; i < SIZE; i++)
		below += (int8_t)j->in[0][i] < 0;
	ret = nvdla_network_op_stat(j->net, 0, &st);
	tap_ok(!ret && !strcmp(st.type, "sdp") &&
	       counter(&st, "lut_lo_hit") == SIZE &&
	       counter(&st, "lut_le_hit") == below &&
	       counter(&st, "lut_hybrid") == SIZE &&
	       counter(&st, "lut_uflow") == 0 && counter(&st, "lut_oflow") == 0,
	       "its LUT counters: %lld LO hits, %lld LE hits (%lld below 0), %lld from entries (%s)",
	       (long long)counter(&st, "lut_lo_hit"),
	       (long long)counter(&st, "lut_le_hit"), (long long)below,
	       (long long)counter(&st, "lut_hybrid"),
	       ret ? nvdla_runtime_error(rt) : "read");
}

static void test_one(struct nvdla_runtime *rt)
{
	struct job j = { .num_ops = 1 };
	int ret, bad = -1;

	sdp_lut_op(&j.ops[0], LUT_G, 5, 7);
	ret = load(rt, &j);
	if (!ret)
		ret = nvdla_network_enable_stats(j.net);
	if (!ret)
		ret = nvdla_network_submit(j.net, 0);
	if (!ret)
		bad = wrong(&j, 0, LUT_G, 0);
	tap_ok(!ret && !bad, "SDP with a LUT activation: every output is its entry (%s, %d wrong)",
	       ret ? nvdla_runtime_error(rt) : "ran", bad);
	check_counts(rt, &j);
	nvdla_network_unload(j.net);
}

/*
 * A waits for a copy of input 1 into the scratch buffer; B, next in the
 * SDP's order, runs LUT @lut_b on the scratch into the output's second
 * line. With another LUT, B may not load it while A, programmed, waits.
 */
static void test_two_luts(struct nvdla_runtime *rt, int lut_b)
{
	struct job j = { .num_ops = 3 };
	int ret, bad = -1;

	copy_op(&j.ops[0], 6, 8);
	j.ops[0].graph.consumers[DLA_OP_SDP] = (struct dla_consumer){
		.index = 1, .event = DLA_EVENT_OP_COMPLETED };
	sdp_lut_op(&j.ops[1], LUT_F, 5, 7);
	j.ops[1].graph.dependency_count = 1;
	j.ops[1].graph.consumers[DLA_OP_SDP].index = 2;
	sdp_lut_op(&j.ops[2], lut_b, 8, 7);
	j.ops[2].surf.sdp_surface.dst_data.offset = SIZE;
	ret = load(rt, &j);
	if (!ret)
		ret = nvdla_network_submit(j.net, 0);
	if (!ret)
		bad = wrong(&j, 0, LUT_F, 0) + wrong(&j, 1, lut_b, 1);
	tap_ok(!ret && !bad,
	       "SDP waiting with LUT F, then one with LUT %s: both outputs right (%s, %d wrong)",
	       lut_b == LUT_F ? "F" : "G",
	       ret ? nvdla_runtime_error(rt) : "ran", bad);
	nvdla_network_unload(j.net);
}

/* The same, but the copy waits for B's programming: it never comes. */
static void test_lut_deadlock(struct nvdla_runtime *rt)
{
	struct job j = { .num_ops = 3 };
	int ret;

	copy_op(&j.ops[0], 6, 8);
	j.ops[0].graph.consumers[DLA_OP_SDP] = (struct dla_consumer){
		.index = 1, .event = DLA_EVENT_OP_COMPLETED };
	j.ops[0].graph.dependency_count = 1;
	sdp_lut_op(&j.ops[1], LUT_F, 5, 7);
	j.ops[1].graph.dependency_count = 1;
	j.ops[1].graph.consumers[DLA_OP_SDP].index = 2;
	sdp_lut_op(&j.ops[2], LUT_G, 8, 7);
	j.ops[2].surf.sdp_surface.dst_data.offset = SIZE;
	j.ops[2].graph.consumers[DLA_OP_BDMA] = (struct dla_consumer){
		.index = 0, .event = DLA_EVENT_OP_PROGRAMMED };
	ret = load(rt, &j);
	tap_ok(ret == -EINVAL &&
	       strstr(nvdla_runtime_error(rt), "op 0 of region 0 can never complete"),
	       "a copy waiting for an SDP that waits for the LUT of one waiting for the copy: %s",
	       nvdla_runtime_error(rt));
	nvdla_network_unload(j.net);
}

static void test_refused(struct nvdla_runtime *rt)
{
	struct job j = { .num_ops = 1 };
	int ret;

	sdp_lut_op(&j.ops[0], LUT_F, 5, 7);
	j.ops[0].op.sdp_op.x1_op = j.ops[0].op.sdp_op.y_op;
	ret = load(rt, &j);
	tap_ok(ret == -EINVAL &&
	       strstr(nvdla_runtime_error(rt), "LUT activation exists on y only"),
	       "LUT activation on x1: %s", nvdla_runtime_error(rt));
	nvdla_network_unload(j.net);

	sdp_lut_op(&j.ops[0], 2, 5, 7);
	ret = load(rt, &j);
	tap_ok(ret == -EINVAL &&
	       strstr(nvdla_runtime_error(rt), "LUT 2 of 2 does not exist"),
	       "LUT index past the list: %s", nvdla_runtime_error(rt));
	nvdla_network_unload(j.net);
}

int main(void)
{
	struct nvdla_runtime *rt = NULL;
	char err[256];

	srand(11);
	if (nvdla_runtime_new("sim:nv_full", &rt, err, sizeof(err))) {
		tap_ok(0, "runtime on sim:nv_full: %s", err);
		return tap_done();
	}
	test_one(rt);
	test_two_luts(rt, LUT_G);
	test_two_luts(rt, LUT_F);
	test_lut_deadlock(rt);
	test_refused(rt);
	nvdla_runtime_del(rt);
	return tap_done();
}
