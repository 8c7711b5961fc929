// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * libFuzzer target: any bytes as a .yolo file through nvdla_yolo_read();
 * a file it accepts then decodes outputs of the shapes it describes (a
 * 3x2 grid per head, for the input size of the first head's stride),
 * their values the input's bytes again, at threshold 0, so every box goes
 * through the suppression. Nothing may crash, leak
 * or touch memory it was not given.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <nvdla/runtime.h>

#include "detect.h"

#define GRID_W 3
#define GRID_H 2

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Outputs of the shapes @y describes, filled from @data, decoded. */
static void decode(const struct nvdla_yolo *y, const uint8_t *data,
		   size_t size)
{
	struct nvdla_detect_output out[256] = { { 0 } };
	unsigned int i, n = 0, stride = y->head[0].stride;
	size_t k, count;
	float *v;

	for (i = 0; i < y->heads; i++) {
		const struct detect_head *h = &y->head[i];

		count = (size_t)h->anchors * (5 + y->classes) * GRID_W * GRID_H;
		v = malloc(count * sizeof(*v));
		if (!v)
			abort();
		for (k = 0; k < count; k++)
			v[k] = size ? ((int)data[k % size] - 128) / 16.0f : 0;
		out[h->output] = (struct nvdla_detect_output){
			v, (int32_t)(h->anchors * (5 + y->classes)), GRID_H,
			GRID_W };
		if (h->output >= n)
			n = h->output + 1;
	}
	nvdla_detect_decode(y, out, n, GRID_W * stride, GRID_H * stride, 0,
			    0.5f, NULL, 0, NULL, 0);
	for (i = 0; i < n; i++)
		free((void *)out[i].values);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct nvdla_yolo *y;
	char path[64], err[256];

	if (fd < 0) {
		fd = memfd_create("nvdla-fuzz-yolo", 0);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) ||
	    (size && write(fd, data, size) < 0))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!nvdla_yolo_read(path, &y, err, sizeof(err))) {
		decode(y, data, size);
		nvdla_yolo_free(y);
	}
	return 0;
}
