// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Classify an image with a compiled classifier through libnvdla_runtime:
 * the best class and its value (a probability for networks that end in
 * softmax). Built outside the tree with
 *
 *	cc classify.c $(pkg-config --cflags --libs nvdla-runtime)
 *
 * Usage: classify LOADABLE IMAGE [NORMALIZE]
 * (the digit demo: classify digits.nvdla input.pgm 255 prints class 5)
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvdla/runtime.h>

/* Index of the largest of @n values. */
static size_t best(const float *v, size_t n)
{
	size_t i, b = 0;

	for (i = 1; i < n; i++)
		if (v[i] > v[b])
			b = i;
	return b;
}

/* Load, fill input 0 from the image, run once and print the best class. */
static int classify(struct nvdla_runtime *rt, const char *loadable,
		    const char *image, float normalize)
{
	struct nvdla_image_options opt = { .normalize = normalize };
	struct nvdla_network *net;
	struct nvdla_tensor_desc d;
	struct nvdla_run *run;
	float *values = NULL;
	size_t n, b;
	int ret;

	ret = nvdla_network_load_file(rt, loadable, &net);
	if (ret)
		return ret;
	ret = nvdla_network_set_image(net, 0, image, &opt);
	if (!ret)
		ret = nvdla_run_submit(net, 0, &run);
	if (!ret) {
		ret = nvdla_run_wait(run, -1);
		if (ret)
			fprintf(stderr, "run: %s\n", nvdla_run_error(run));
		nvdla_run_free(run);
	}
	if (!ret)
		ret = nvdla_network_output_desc(net, 0, &d);
	if (!ret) {
		n = (size_t)d.c * d.h * d.w;
		values = malloc(n * sizeof(*values));
		ret = values ? nvdla_network_output_values(net, 0, values, n) : -1;
	}
	if (!ret) {
		b = best(values, n);
		printf("class %zu, %f\n", b, values[b]);
	}
	free(values);
	nvdla_network_unload(net);
	return ret;
}

int main(int argc, char **argv)
{
	struct nvdla_runtime *rt;
	char err[256];
	int ret;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: %s LOADABLE IMAGE [NORMALIZE]\n", argv[0]);
		return 2;
	}
	/* The first NVDLA device, else the in-process model. */
	ret = nvdla_runtime_new(NULL, &rt, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	ret = classify(rt, argv[1], argv[2], argc > 3 ? strtof(argv[3], NULL) : 1);
	if (ret)
		fprintf(stderr, "%s\n", nvdla_runtime_error(rt));
	nvdla_runtime_del(rt);
	return ret ? 1 : 0;
}
