// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_runtime_bench: what the runtime costs around the hardware's work,
 * on one device: loadable load time, the run of a minimal one-operation
 * task (submit to completion), and, where the backend can see them, the
 * time from submission to the first register write and from an
 * operation's interrupt to the next layer being started. The same program
 * runs in process (sim:...) and through the kernel driver (a device node),
 * so the two columns can be put side by side (the driver's figures come
 * from the counters it keeps per file, read from fdinfo in a separate
 * pass so that reading them costs the run column nothing; a backend
 * without them prints "-"). The exit status is 1 if
 * a built-in workload fails; a loadable given on the command line that
 * cannot run (yet) only gets its line saying why.
 *
 * Usage: nvdla_runtime_bench [--device DEV] [--runs N] [LOADABLE...]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvdla/runtime.h>

#include "builder.h"
#include "runtime_internal.h"

#define CHAIN 8			/* layers of the chained workload */
#define CUBE 32			/* bytes of its 1x1x8 cubes: any atom size */
#define MAX_RUNS 10000

struct sample {
	double load_us, run_us, first_write_us, irq_next_us;
	unsigned int runs;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n ? v[n / 2] : 0;
}

/*
 * @layers SDP ReLU operations on a 1x1x8 int8 cube, each reading the
 * previous one's output (ping-pong buffers) and waiting for it to
 * complete, as consecutive layers of a network do.
 */
static int build_chain(unsigned int layers, void **buf, size_t *len)
{
	struct nvdla_build_op ops[CHAIN];
	struct dla_data_cube cube = {
		.type = DLA_MEM_MC, .size = CUBE, .width = 1, .height = 1,
		.channel = 8, .line_stride = CUBE, .surf_stride = CUBE,
	};
	struct nvdla_tensor_desc out = {
		.name = "out", .size = CUBE, .n = 1, .c = 8, .h = 1, .w = 1,
		.data_type = NVDLA_DATA_TYPE_INT8,
		.pixel_format = NVDLA_TENSOR_FEATURE,
		.stride = { 1, CUBE, CUBE },
	};
	static const uint8_t data[CUBE] = { 1, 0xff, 2, 0xfe, 3, 0xfd, 4, 0xfc };
	struct nvdla_builder b;
	unsigned int i;
	int first, ret;

	for (i = 0; i < layers; i++) {
		struct dla_sdp_op_desc *p = &ops[i].op.sdp_op;

		nvdla_build_op_init(&ops[i], DLA_OP_SDP);
		p->lut_index = -1;
		p->x1_op = (struct dla_sdp_op){ .enable = 1, .act = 1 };
		ops[i].graph.dependency_count = i > 0;
		if (i + 1 < layers)
			ops[i].graph.consumers[DLA_OP_SDP] = (struct dla_consumer){
				.index = i + 1, .event = DLA_EVENT_OP_COMPLETED };
		ops[i].surf.sdp_surface.src_data = cube;
		ops[i].surf.sdp_surface.dst_data = cube;
		ops[i].surf.sdp_surface.src_data.address = 4 + i % 2;
		ops[i].surf.sdp_surface.dst_data.address = 4 + (i + 1) % 2;
	}
	nvdla_builder_init(&b);
	first = nvdla_builder_task(&b, ops, layers, NULL, 0, 2);
	nvdla_builder_memory(&b, "ping", data, CUBE);
	nvdla_builder_memory(&b, NULL, NULL, CUBE);
	/* The last layer writes buffer 4 + layers % 2: that is the output. */
	nvdla_builder_bind(&b, first + layers % 2, &out, NVDLA_LBL_MEM_OUTPUT);
	ret = nvdla_builder_finish(&b, buf, len);
	nvdla_builder_fini(&b);
	return ret;
}

static int read_file(const char *path, void **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long size;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(*buf = malloc(size ? size : 1)) ||
	    fread(*buf, 1, size, f) != (size_t)size) {
		fclose(f);
		return -1;
	}
	*len = size;
	fclose(f);
	return 0;
}

/* Load @data @runs times, then run it @runs times: medians into @s. */
static int measure(struct nvdla_runtime *rt, const void *data, size_t len,
		   unsigned int runs, struct sample *s)
{
	const struct nvdla_backend_timing *t = &rt->be->timing;
	static double load[MAX_RUNS], run[MAX_RUNS], first[MAX_RUNS],
		irq[MAX_RUNS];
	struct nvdla_network *net = NULL;
	unsigned int i, nirq = 0;
	int64_t start;
	int ret;

	for (i = 0; i < runs; i++) {
		start = now_ns();
		ret = nvdla_network_load(rt, data, len, &net);
		load[i] = (now_ns() - start) / 1e3;
		if (ret)
			return ret;
		if (i + 1 < runs)
			nvdla_network_unload(net);
	}
	for (i = 0; !ret && i < runs; i++) {
		start = now_ns();
		ret = nvdla_network_submit(net, 0);
		run[i] = (now_ns() - start) / 1e3;
	}
	rt->be->want_timing = true;
	for (i = 0; !ret && i < runs; i++) {
		ret = nvdla_network_submit(net, 0);
		first[i] = t->submit_to_first_write_ns / 1e3;
		if (t->irqs_to_next)
			irq[nirq++] = t->irq_to_next_ns / 1e3 / t->irqs_to_next;
	}
	rt->be->want_timing = false;
	nvdla_network_unload(net);
	if (ret)
		return ret;
	s->load_us = median(load, runs);
	s->run_us = median(run, runs);
	s->first_write_us = t->measured ? median(first, runs) : -1;
	s->irq_next_us = t->measured && nirq ? median(irq, nirq) : -1;
	s->runs = runs;
	return 0;
}

static void print_us(double us)
{
	if (us < 0)
		printf(" %12s", "-");
	else
		printf(" %12.1f", us);
}

static void report(const char *name, const struct sample *s)
{
	printf("%-30s", name);
	print_us(s->load_us);
	print_us(s->run_us);
	print_us(s->first_write_us);
	print_us(s->irq_next_us);
	printf("\n");
}

static int bench(struct nvdla_runtime *rt, const char *name, const void *data,
		 size_t len, unsigned int runs)
{
	struct sample s;
	int ret = measure(rt, data, len, runs, &s);

	if (ret) {
		printf("%-30s failed: %s\n", name, nvdla_runtime_error(rt));
		return ret;
	}
	report(name, &s);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "runs", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *device = NULL;
	unsigned int runs = 200, layers;
	struct nvdla_runtime *rt;
	char err[256], name[64];
	void *buf;
	size_t len;
	int c, ret = 0;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'd') {
			device = optarg;
		} else if (c == 'n') {
			runs = strtoul(optarg, NULL, 0);
		} else {
			fprintf(stderr, "usage: %s [--device DEV] [--runs N] [LOADABLE...]\n",
				argv[0]);
			return 2;
		}
	}
	if (!runs || runs > MAX_RUNS) {
		fprintf(stderr, "%s: --runs takes 1 to %d\n", argv[0], MAX_RUNS);
		return 2;
	}
	if (nvdla_runtime_new(device, &rt, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		return 1;
	}
	printf("runtime on %s, medians of %u loads and %u runs, microseconds\n",
	       nvdla_runtime_device(rt), runs, runs);
	printf("%-30s %12s %12s %12s %12s\n", "loadable", "load", "run",
	       "submit->reg", "irq->next");
	for (layers = 1; layers <= CHAIN; layers += CHAIN - 1) {
		snprintf(name, sizeof(name), "%u x SDP 1x1x8 (built in)", layers);
		ret |= build_chain(layers, &buf, &len) ||
		       bench(rt, name, buf, len, runs);
		free(buf);
	}
	for (; optind < argc; optind++) {
		const char *base = strrchr(argv[optind], '/');

		if (read_file(argv[optind], &buf, &len)) {
			printf("%-30s cannot read\n", argv[optind]);
			continue;
		}
		bench(rt, base ? base + 1 : argv[optind], buf, len,
		      runs < 20 ? runs : 20);
		free(buf);
	}
	nvdla_runtime_del(rt);
	return ret ? 1 : 0;
}
