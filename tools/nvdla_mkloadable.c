// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_mkloadable: build the loadable the project ships for its main job,
 * a BDMA copy of an 8x8x64 int8 feature cube on nv_full, and the DIMG file
 * its run must produce. The expected output is computed here from the
 * source data with a plain loop, not with the hardware model.
 *
 * With --echo, build instead the same copy from input 0 (a network that
 * echoes its input) and write the shipped loadable's source data as the
 * raw input file that reproduces its output.
 *
 * Usage: nvdla_mkloadable OUT.nvdla EXPECTED.dimg
 *        nvdla_mkloadable --echo OUT.nvdla INPUT.raw
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"

#define W 8
#define H 8
#define C 64
#define ATOM 32			/* int8 channels per atom on nv_full */
#define LINE_STRIDE (W * ATOM)
#define SURF_STRIDE (H * LINE_STRIDE)
#define SIZE (C / ATOM * SURF_STRIDE)
#define DATA_FORMAT_NCXHWX 3
#define DATA_CATEGORY_FEATURE 2
#define DIMG_F8_CXHWX_X32_I 40

static uint8_t element(int c, int y, int x)
{
	return (uint8_t)(c * 3 + y * 17 + x * 29);
}

static void fill_source(uint8_t *src)
{
	int c, y, x;

	for (c = 0; c < C; c++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				src[c / ATOM * SURF_STRIDE + y * LINE_STRIDE +
				    x * ATOM + c % ATOM] = element(c, y, x);
}

static int write_file(const char *path, const void *a, size_t alen,
		      const void *b, size_t blen)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f) {
		perror(path);
		return -1;
	}
	ok = fwrite(a, 1, alen, f) == alen && fwrite(b, 1, blen, f) == blen;
	ok = !fclose(f) && ok;
	if (!ok)
		fprintf(stderr, "%s: write failed\n", path);
	return ok ? 0 : -1;
}

static void le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* The DIMG a correct copy produces: header, then elements in C, H, W order. */
static int write_expected(const char *path)
{
	static uint8_t payload[C * H * W];
	const uint32_t fields[] = { 0, DIMG_F8_CXHWX_X32_I, W, H, C,
				    LINE_STRIDE, SURF_STRIDE, SIZE };
	uint8_t header[36];
	size_t i;
	int c, y, x;

	memcpy(header, "DIMG", 4);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		le32(header + 4 + 4 * i, fields[i]);
	for (c = 0, i = 0; c < C; c++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				payload[i++] = element(c, y, x);
	return write_file(path, header, sizeof(header), payload, sizeof(payload));
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s OUT.nvdla EXPECTED.dimg\n"
		"       %s --echo OUT.nvdla INPUT.raw\n", prog, prog);
}

int main(int argc, char **argv)
{
	static uint8_t src[SIZE];
	bool echo = argc == 4 && !strcmp(argv[1], "--echo");
	struct nvdla_bdma_copy copy = {
		.transfer = {
			.line_size = LINE_STRIDE, .line_repeat = H,
			.source_line = LINE_STRIDE,
			.destination_line = LINE_STRIDE,
			.surface_repeat = C / ATOM,
			.source_surface = SURF_STRIDE,
			.destination_surface = SURF_STRIDE,
		},
		.src = src,
		.src_size = SIZE,
		.dst_size = SIZE,
		.out = {
			.name = "copy", .size = SIZE, .n = 1, .c = C, .h = H,
			.w = W, .data_format = DATA_FORMAT_NCXHWX,
			.data_type = NVDLA_DATA_TYPE_INT8,
			.data_category = DATA_CATEGORY_FEATURE,
			.pixel_format = NVDLA_TENSOR_FEATURE,
			.stride = { 1, LINE_STRIDE, SURF_STRIDE },
		},
	};
	void *buf;
	size_t len;
	int ret;

	if (argc != 3 && !echo) {
		usage(argv[0]);
		return 2;
	}
	fill_source(src);
	if (echo) {
		copy.src = NULL;
		copy.in = copy.out;
		snprintf(copy.in.name, sizeof(copy.in.name), "input");
	}
	ret = nvdla_build_bdma_copy(&copy, &buf, &len);
	if (ret) {
		fprintf(stderr, "%s: cannot build the loadable (%s)\n", argv[0],
			strerror(-ret));
		return 1;
	}
	if (echo)
		ret = write_file(argv[2], buf, len, NULL, 0) ||
		      write_file(argv[3], src, SIZE, NULL, 0);
	else
		ret = write_file(argv[1], buf, len, NULL, 0) ||
		      write_expected(argv[2]);
	free(buf);
	return ret ? 1 : 0;
}
