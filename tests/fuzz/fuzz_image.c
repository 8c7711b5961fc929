// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * libFuzzer target: any bytes as an image file (PGM/PPM, JPEG, PNG) for a
 * 28x28 int8 input, through the readers and the conversion. The first
 * byte picks a signature to put in front, so that every reader is reached
 * from the first runs. Nothing may crash, leak or touch memory it was not
 * given.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <nvdla/runtime.h>

#include "builder.h"

#define SIDE 28
#define LINE (SIDE * 32)
#define SIZE (SIDE * LINE)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct nvdla_network *echo_network(struct nvdla_runtime *rt)
{
	struct nvdla_tensor_desc t = {
		.name = "image", .size = SIZE, .n = 1, .c = 3, .h = SIDE,
		.w = SIDE, .data_type = NVDLA_DATA_TYPE_INT8,
		.pixel_format = NVDLA_TENSOR_FEATURE, .stride = { 1, LINE, SIZE },
	};
	struct nvdla_network *net = NULL;
	void *buf;
	size_t len;

	if (nvdla_build_echo(&t, &buf, &len) ||
	    nvdla_network_load(rt, buf, len, &net))
		abort();
	free(buf);
	return net;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	static const uint8_t jpeg[] = { 0xff, 0xd8, 0xff };
	static const struct nvdla_image_options opt = { .normalize = 1 };
	static struct nvdla_runtime *rt;
	static struct nvdla_network *net;
	static int fd = -1;
	char path[64];

	if (!rt) {
		if (nvdla_runtime_new("sim:nv_full", &rt, NULL, 0))
			abort();
		net = echo_network(rt);
		fd = memfd_create("nvdla-fuzz-image", 0);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET))
		abort();
	if (size && data[0] % 3 == 1 && write(fd, png, sizeof(png)) < 0)
		abort();
	if (size && data[0] % 3 == 2 && write(fd, jpeg, sizeof(jpeg)) < 0)
		abort();
	if (size > 1 && write(fd, data + 1, size - 1) < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nvdla_network_set_image(net, 0, path, &opt);
	return 0;
}
