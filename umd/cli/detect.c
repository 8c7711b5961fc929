// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_runtime --detect: every output's values handed to
 * nvdla_detect_decode(), its boxes printed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "detect.h"

int cli_yolo_read(const char *path, struct nvdla_yolo **yolo)
{
	char err[4400];
	int ret = nvdla_yolo_read(path, yolo, err, sizeof(err));

	if (ret)
		fprintf(stderr, "nvdla_runtime: --detect: %s\n", err);
	return ret;
}

/* Output @i's description and values into @o (its values malloc'd). */
static int read_output(struct nvdla_network *net, unsigned int i,
		       struct nvdla_detect_output *o)
{
	struct nvdla_tensor_desc d;
	size_t n;
	float *v;
	int ret = nvdla_network_output_desc(net, i, &d);

	if (ret)
		return ret;
	n = (size_t)d.c * d.h * d.w;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	*o = (struct nvdla_detect_output){ v, d.c, d.h, d.w };
	return nvdla_network_output_values(net, i, v, n);
}

static void print_boxes(const struct nvdla_yolo *yolo,
			const struct nvdla_detect_box *b, int count)
{
	const char *name;
	int i;

	for (i = 0; i < count; i++) {
		name = nvdla_yolo_class_name(yolo, b[i].cls);
		printf("box %.2f %.2f %.2f %.2f %u %.4f%s%s\n", b[i].x0,
		       b[i].y0, b[i].x1, b[i].y1, b[i].cls, b[i].score,
		       name ? " " : "", name ? name : "");
	}
}

/* The boxes of @out for @in, printed; a message on stderr otherwise. */
static int decode(const struct nvdla_yolo *yolo,
		  const struct nvdla_detect_output *out, unsigned int n,
		  const struct nvdla_tensor_desc *in, double threshold,
		  double nms)
{
	struct nvdla_detect_box *b = NULL;
	char err[512];
	int count;

	count = nvdla_detect_decode(yolo, out, n, in->w, in->h,
				    (float)threshold, (float)nms, NULL, 0,
				    err, sizeof(err));
	if (count > 0) {
		b = malloc(count * sizeof(*b));
		count = !b ? -ENOMEM :
			nvdla_detect_decode(yolo, out, n, in->w, in->h,
					    (float)threshold, (float)nms, b,
					    count, err, sizeof(err));
	}
	if (count < 0)
		fprintf(stderr, "nvdla_runtime: --detect: %s\n",
			count == -ENOMEM ? "no memory" : err);
	else
		print_boxes(yolo, b, count);
	free(b);
	return count < 0 ? count : 0;
}

int cli_detect(struct nvdla_network *net, const struct nvdla_yolo *yolo,
	       double threshold, double nms)
{
	unsigned int n = nvdla_network_num_outputs(net), i;
	struct nvdla_detect_output *out = calloc(n ? n : 1, sizeof(*out));
	struct nvdla_tensor_desc in;
	int ret = out ? nvdla_network_input_desc(net, 0, &in) : -ENOMEM;

	for (i = 0; !ret && i < n; i++)
		ret = read_output(net, i, &out[i]);
	if (!ret)
		ret = decode(yolo, out, n, &in, threshold, nms);
	for (i = 0; out && i < n; i++)
		free((void *)out[i].values);
	free(out);
	return ret;
}
