// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_mkconv: build a loadable of one direct int8 convolution on nv_full
 * (3x3 kernels, stride 1, padding 1, into a flying SDP that passes the sum
 * through its output converter), W x H x C in, K kernels, input and
 * weights a fixed pattern. Its work grows as W * H * K * 9 * C: the guest
 * tests run one too long for a job timeout on the virtual device, whose
 * layers must then stay preemptible and stop when the job is given up.
 *
 * The convolution buffer is split as the hardware can run it
 * (nvdla/cbuf_limits.h): the input whole in the data banks, all weights in
 * the rest where they fit, else at least one group of kernels; a layer
 * that does not fit so is refused. --banks D,W takes that split instead,
 * and --allow-hw-hazards writes it even where the hardware cannot run it
 * (to test that it is refused).
 *
 * Usage: nvdla_mkconv [--banks D,W [--allow-hw-hazards]] W H C K OUT.nvdla
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/dla_interface.h>
#include <nvdla/firmware.h>
#include <nvdla/pixel_formats.h>

#include "builder.h"

#define ATOM 32			/* nv_full: bytes per atom, int8 channels */
#define R 3
#define S 3
#define DATA_FORMAT_NCXHWX 3
#define DATA_CATEGORY_FEATURE 2

struct cube {
	uint32_t w, h, c, line, surf, size;
};

/* The buffer's split and what a line of the input takes in it. */
struct split {
	uint32_t eps, data_banks, weight_banks;
};

static struct cube cube_of(uint32_t w, uint32_t h, uint32_t c)
{
	struct cube q = { w, h, c, w * ATOM, h * w * ATOM, 0 };

	q.size = (c + ATOM - 1) / ATOM * q.surf;
	return q;
}

static struct dla_data_cube dla_cube(const struct cube *q, int16_t address)
{
	return (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = address, .size = q->size,
		.width = q->w, .height = q->h, .channel = q->c,
		.line_stride = q->line, .surf_stride = q->surf,
	};
}

static uint8_t *pattern(uint32_t size, uint32_t mul)
{
	uint8_t *p = malloc(size);
	uint32_t i;

	for (i = 0; p && i < size; i++)
		p[i] = (uint8_t)(i * mul % 7) - 3;
	return p;
}

/* The convolution (address entries 4, 5: input, weights) and its SDP (6). */
static void conv_ops(struct nvdla_build_op *ops, const struct cube *in,
		     const struct cube *out, uint32_t wt_size,
		     const struct split *sp)
{
	struct nvdla_build_op *conv = &ops[0], *sdp = &ops[1];
	struct dla_conv_surface_desc *cs = &conv->surf.conv_surface;

	nvdla_build_op_init(conv, DLA_OP_CONV);
	conv->op.conv_op = (struct dla_conv_op_desc){
		.entry_per_slice = sp->eps,
		.data_format = NVDLA_DATA_FORMAT_FEATURE, .fetch_grain = 1, .batch = 1,
		.data_bank = sp->data_banks, .weight_bank = sp->weight_banks,
		.release = in->h,
		.input_width_csc = in->w, .input_height_csc = in->h,
		.input_channel_csc = in->c, .kernel_width_csc = S,
		.kernel_height_csc = R, .kernel_channel_csc = in->c,
		.input_width_cmac = out->w, .input_height_cmac = out->h,
		.bytes_per_kernel = R * S * in->c, .conv_stride_x = 1,
		.conv_stride_y = 1, .pad_x_left = 1, .pad_x_right = 1,
		.pad_y_top = 1, .pad_y_bottom = 1, .dilation_x = 1,
		.dilation_y = 1, .out_cvt = { .scale = 1, .enable = 1 },
	};
	cs->src_data = dla_cube(in, 4);
	cs->weight_data = (struct dla_data_cube){ .type = DLA_MEM_MC,
		.address = 5, .size = wt_size, .width = S, .height = R,
		.channel = in->c };
	cs->dst_data = dla_cube(out, -1);
	cs->dst_data.type = DLA_MEM_HW;

	nvdla_build_op_init(sdp, DLA_OP_SDP);
	nvdla_build_fuse(conv, 0, sdp, 1);
	sdp->op.sdp_op.lut_index = -1;
	sdp->op.sdp_op.out_cvt = (struct dla_cvt_param){ .scale = 1,
		.truncate = 8, .enable = 1 };
	sdp->surf.sdp_surface.src_data = cs->dst_data;
	sdp->surf.sdp_surface.dst_data = dla_cube(out, 6);
}

static uint32_t div_up(uint64_t n, uint64_t d)
{
	return (uint32_t)((n + d - 1) / d);
}

/*
 * The hardware's split of @cb for the input @in and @k kernels of
 * @wt_size bytes: the input whole, then all weights if they fit beside
 * it, else the rest of the buffer for them (at least one kernel group,
 * which nvdla_cbuf_check() then requires). Keeps *@sp's banks if set.
 */
static void plan(const struct nvdla_cbuf *cb, const struct cube *in,
		 uint32_t wt_size, struct split *sp)
{
	uint32_t bank_bytes = cb->depth * cb->width, wbanks;

	sp->eps = nvdla_cbuf_feature_entries(cb, ATOM, in->w, in->c);
	if (sp->data_banks)
		return;
	sp->data_banks = div_up((uint64_t)sp->eps * in->h, cb->depth);
	wbanks = div_up(wt_size, bank_bytes);
	sp->weight_banks = sp->data_banks < cb->banks &&
			   wbanks > cb->banks - sp->data_banks ?
			   cb->banks - sp->data_banks : wbanks;
}

/* The layer's demands, as the CDMA's registers will state them. */
static struct nvdla_cbuf_layer layer_of(const struct cube *in, uint32_t k,
					uint32_t wt_size,
					const struct split *sp)
{
	return (struct nvdla_cbuf_layer){
		.data_banks = sp->data_banks, .weight_banks = sp->weight_banks,
		.entries = sp->eps, .line_entries = sp->eps, .lines = in->h,
		.kernels = k, .kernel_bytes = R * S * in->c, .bpe = 1,
		.weight_bytes = wt_size,
	};
}

static int build(const struct cube *in, uint32_t k, const struct split *sp,
		 void **buf, size_t *len)
{
	struct cube out = cube_of(in->w, in->h, k);
	uint32_t wt_size = (k * R * S * in->c + 127) / 128 * 128;
	struct nvdla_tensor_desc t = {
		.name = "out", .size = out.size, .n = 1, .c = k, .h = out.h,
		.w = out.w, .data_format = DATA_FORMAT_NCXHWX,
		.data_type = NVDLA_DATA_TYPE_INT8,
		.data_category = DATA_CATEGORY_FEATURE,
		.pixel_format = NVDLA_TENSOR_FEATURE,
		.stride = { 1, out.line, out.surf },
	};
	uint8_t *data = pattern(in->size, 13), *wt = pattern(wt_size, 5);
	struct nvdla_build_op ops[2];
	struct nvdla_builder b;
	int ret = -1;

	if (data && wt) {
		conv_ops(ops, in, &out, wt_size, sp);
		nvdla_builder_init(&b);
		nvdla_builder_task(&b, ops, 2, NULL, false, 3);
		nvdla_builder_memory(&b, "input", data, in->size);
		nvdla_builder_memory(&b, "weights", wt, wt_size);
		nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL,
							    out.size),
				   &t, NVDLA_LBL_MEM_OUTPUT);
		ret = nvdla_builder_finish(&b, buf, len);
		nvdla_builder_fini(&b);
	}
	free(data);
	free(wt);
	return ret;
}

/* "D,W" banks into @sp; -1 if not two counts from 1 to 255. */
static int parse_banks(const char *arg, struct split *sp)
{
	unsigned int d, w;
	char end;

	if (sscanf(arg, "%u,%u%c", &d, &w, &end) != 2 || !d || !w ||
	    d > 255 || w > 255)
		return -1;
	sp->data_banks = d;
	sp->weight_banks = w;
	return 0;
}

/* The split runs on the hardware, or is written anyway when @allow. */
static int check_split(const struct nvdla_cbuf *cb,
		       const struct nvdla_cbuf_layer *l, bool allow,
		       const char *prog)
{
	struct nvdla_cbuf_verdict v;
	char text[NVDLA_CBUF_VERDICT_MAX];

	if (nvdla_cbuf_check(cb, l, &v))
		return 0;
	fprintf(stderr, "%s: %s: %s\n", prog,
		allow ? "warning: the hardware cannot run this layer" :
			"the hardware cannot run this layer",
		nvdla_cbuf_verdict_text(text, sizeof(text), &v));
	return allow ? 0 : -1;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [--banks D,W [--allow-hw-hazards]] W H C K OUT.nvdla\n",
		prog);
}

int main(int argc, char **argv)
{
	const struct dla_hw_config *hw = dla_hw_config_get("nv_full");
	struct split sp = { 0 };
	struct nvdla_cbuf_layer l;
	bool allow = false;
	uint32_t v[4];
	struct cube in;
	void *buf = NULL;
	size_t len = 0;
	int i, a = 1, ok;
	FILE *f;

	for (; a < argc && !strncmp(argv[a], "--", 2); a++) {
		if (!strcmp(argv[a], "--allow-hw-hazards")) {
			allow = true;
		} else if (!strcmp(argv[a], "--banks") && a + 1 < argc &&
			   !parse_banks(argv[a + 1], &sp)) {
			a++;
		} else {
			usage(argv[0]);
			return 2;
		}
	}
	if (argc - a != 5 || (allow && !sp.data_banks)) {
		usage(argv[0]);
		return 2;
	}
	for (i = 0; i < 4; i++) {
		char *end;

		v[i] = strtoul(argv[a + i], &end, 0);
		if (*end || !v[i] || v[i] > 8192) {
			fprintf(stderr, "%s: bad size %s\n", argv[0], argv[a + i]);
			return 2;
		}
	}
	in = cube_of(v[0], v[1], v[2]);
	plan(&hw->cbuf, &in, (v[3] * R * S * v[2] + 127) / 128 * 128, &sp);
	l = layer_of(&in, v[3], (v[3] * R * S * v[2] + 127) / 128 * 128, &sp);
	if (check_split(&hw->cbuf, &l, allow, argv[0]))
		return 1;
	if (build(&in, v[3], &sp, &buf, &len)) {
		fprintf(stderr, "%s: cannot build the loadable\n", argv[0]);
		return 1;
	}
	f = fopen(argv[a + 4], "wb");
	ok = f && fwrite(buf, 1, len, f) == len;
	ok = f && !fclose(f) && ok;
	free(buf);
	if (!ok)
		perror(argv[a + 4]);
	return ok ? 0 : 1;
}
