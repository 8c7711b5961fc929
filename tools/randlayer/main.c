// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_randlayer: a random single-layer loadable, to compare the model
 * with NVIDIA's C model on layers no network has (tools/cmodel-check.sh
 * --layers records each one and replays it on both). SEED picks the layer
 * among KINDS (comma-separated; default sdp,pdp,cdp,conv):
 *
 *   sdp       an SDP from memory (sdp.c)
 *   sdp-lut   an SDP whose Y stage applies a random LUT (sdp.c; not nv_small)
 *   pdp, cdp  pooling, LRN (pdp.c, cdp.c)
 *   conv      a direct convolution streaming into an SDP (conv.c)
 *   winograd  a Winograd convolution (conv.c; nv_full)
 *   batch     a direct convolution over 2 to 4 batches (conv.c; nv_full)
 *   image     a convolution over image input (image.c)
 *
 * over random cube sizes and random data, for CONFIG (nv_full, default;
 * nv_small or nv_large: int8 only). Prints a line describing the layer, then
 * "output W H C BYTES_PER_ELEMENT ATOM_BYTES" of its output cube.
 *
 *     nvdla_randlayer [--config CONFIG] [--kinds KINDS] SEED OUT.nvdla
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/deps.h>

#include "randlayer.h"

static const struct target targets[] = {
	{ .name = "nv_full", .atom = 32, .atomic_c = 64, .cbuf_banks = 16,
	  .bank_entries = 256, .bank_bytes = 32768, .max_batch = 4,
	  .sdp_y = true, .winograd = true },
	{ .name = "nv_small", .atom = 8, .atomic_c = 8, .cbuf_banks = 32,
	  .bank_entries = 512, .bank_bytes = 4096, .max_batch = 1,
	  .int8_only = true },
	{ .name = "nv_large", .atom = 32, .atomic_c = 64, .cbuf_banks = 16,
	  .bank_entries = 512, .bank_bytes = 32768, .max_batch = 1,
	  .int8_only = true, .sdp_y = true },
};

const struct target *target = &targets[0];

enum kind { SDP, SDP_LUT, PDP, CDP, CONV, WINOGRAD, BATCH, IMAGE, KINDS };

static const char *const kind_names[KINDS] = {
	"sdp", "sdp-lut", "pdp", "cdp", "conv", "winograd", "batch", "image",
};

/* Draw a layer of @k; false to draw again. */
static bool draw(struct layer *l, enum kind k)
{
	switch (k) {
	case SDP:
		sdp_layer(l);
		return true;
	case SDP_LUT:
		sdp_lut_layer(l);
		return true;
	case PDP:
		pdp_layer(l);
		return true;
	case CDP:
		cdp_layer(l);
		return true;
	case CONV:
		return conv_layer(l);
	case WINOGRAD:
		return winograd_layer(l);
	case BATCH:
		return batch_layer(l);
	default:
		return image_layer(l);
	}
}

/* Parse @list into @kinds; the number of kinds, 0 if one is unknown. */
static uint32_t parse_kinds(char *list, enum kind *kinds)
{
	uint32_t n = 0, k;
	char *name;

	for (name = strtok(list, ","); name; name = strtok(NULL, ",")) {
		for (k = 0; k < KINDS && strcmp(name, kind_names[k]); k++)
			;
		if (k == KINDS || n == KINDS ||
		    ((k == SDP_LUT && !target->sdp_y) ||
		     (k == WINOGRAD && !target->winograd) ||
		     (k == BATCH && target->max_batch < 2))) {
			fprintf(stderr, "nvdla_randlayer: no layer kind %s on %s\n",
				name, target->name);
			return 0;
		}
		kinds[n++] = k;
	}
	return n;
}

static int write_layer(struct layer *l, const char *path)
{
	static const char *const names[] = { "input", "data1", "data2" };
	struct nvdla_tensor_desc t = {
		.name = "out", .size = l->out.size * (l->batches ? l->batches : 1),
		.n = 1, .c = l->out.c,
		.h = l->out.h, .w = l->out.w, .data_format = 3, /* NCxHWx */
		.data_type = l->out_precision == DLA_PRECISION_FP16 ?
			     NVDLA_DATA_TYPE_HALF :
			     l->out_precision == DLA_PRECISION_INT16 ?
			     NVDLA_DATA_TYPE_INT16 : NVDLA_DATA_TYPE_INT8,
		.data_category = 2, /* feature */
		.pixel_format = target->atom == 8 ? NVDLA_TENSOR_FEATURE_X8 :
			       NVDLA_TENSOR_FEATURE,
		.stride = { l->out.bpe, l->out.line, l->out.surf },
	};
	struct nvdla_build_op *last = &l->ops[l->num_ops - 1];
	struct dla_data_cube *dst;
	struct nvdla_builder b;
	void *buf = NULL;
	size_t len;
	uint32_t i;
	FILE *f;
	int ret;

	dst = last->graph.op_type == DLA_OP_SDP ? &last->surf.sdp_surface.dst_data :
	      last->graph.op_type == DLA_OP_PDP ? &last->surf.pdp_surface.dst_data :
	      &last->surf.cdp_surface.dst_data;
	*dst = dla_cube(&l->out, data_index(l, l->num_data));
	nvdla_builder_init(&b);
	nvdla_builder_task(&b, l->ops, l->num_ops, l->has_lut ? &l->lut : NULL,
			   l->has_lut, l->num_data + 1);
	for (i = 0; i < l->num_data; i++)
		nvdla_builder_memory(&b, names[i], l->data[i], l->size[i]);
	nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL, t.size), &t,
			   NVDLA_LBL_MEM_OUTPUT);
	ret = nvdla_builder_finish(&b, &buf, &len);
	nvdla_builder_fini(&b);
	if (ret)
		return ret;
	f = fopen(path, "wb");
	ret = !f || fwrite(buf, 1, len, f) != len;
	if (f && fclose(f))
		ret = 1;
	free(buf);
	return ret;
}

static int usage(void)
{
	fprintf(stderr, "usage: nvdla_randlayer [--config nv_full|nv_small|nv_large] [--kinds KIND,...] SEED OUT.nvdla\n");
	return 2;
}

int main(int argc, char **argv)
{
	char default_kinds[] = "sdp,pdp,cdp,conv", *list = default_kinds;
	enum kind kinds[KINDS], kind;
	uint32_t num_kinds, i;
	struct layer l;
	int ret;

	for (; argc > 2 && !strncmp(argv[1], "--", 2); argc -= 2, argv += 2) {
		if (!strcmp(argv[1], "--kinds")) {
			list = argv[2];
		} else if (!strcmp(argv[1], "--config")) {
			for (i = 0; i < ARRAY_SIZE(targets) &&
				    strcmp(argv[2], targets[i].name); i++)
				;
			if (i == ARRAY_SIZE(targets))
				return usage();
			target = &targets[i];
		} else {
			return usage();
		}
	}
	if (argc != 3)
		return usage();
	num_kinds = parse_kinds(list, kinds);
	if (!num_kinds)
		return 2;
	rnd_seed(strtoull(argv[1], NULL, 0));
	kind = kinds[rnd(num_kinds)];
	do {
		memset(&l, 0, sizeof(l));
		l.num_ops = 1;
	} while (!draw(&l, kind));
	ret = write_layer(&l, argv[2]);
	if (ret)
		fprintf(stderr, "nvdla_randlayer: cannot write %s\n", argv[2]);
	else
		printf("%s\noutput %u %u %u %u %u\n", l.desc, l.out.w, l.out.h,
		       l.out.c, l.out.bpe, target->atom);
	for (i = 0; i < l.num_data; i++)
		free(l.data[i]);
	return ret ? 1 : 0;
}
