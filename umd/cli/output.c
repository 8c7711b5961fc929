// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * --rawdump text output, the top classes of a classifier and the
 * --stats table.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* The output's values; NULL with a message on failure. */
static float *values_of(struct nvdla_network *net, unsigned int index,
			size_t *n)
{
	struct nvdla_tensor_desc d;
	float *v;

	if (nvdla_network_output_desc(net, index, &d) || d.c <= 0 || d.h <= 0 ||
	    d.w <= 0 || __builtin_mul_overflow((size_t)d.c, (size_t)d.h, n) ||
	    __builtin_mul_overflow(*n, (size_t)d.w, n) ||
	    *n > SIZE_MAX / sizeof(*v))
		return NULL;
	v = malloc(*n * sizeof(*v));
	if (v && nvdla_network_output_values(net, index, v, *n)) {
		free(v);
		v = NULL;
	}
	return v;
}

int cli_write_rawdump(struct nvdla_network *net, unsigned int index,
		      const char *path)
{
	size_t n, i;
	float *v = values_of(net, index, &n);
	FILE *f;
	int ret = 0;

	if (!v)
		return -EINVAL;
	f = fopen(path, "w");
	if (!f) {
		ret = -errno;
		fprintf(stderr, "nvdla_runtime: %s: %s\n", path, strerror(errno));
	} else {
		for (i = 0; i < n; i++)
			fprintf(f, "%g%c", v[i], i + 1 < n ? ' ' : '\n');
		if (fclose(f))
			ret = -EIO;
	}
	free(v);
	return ret;
}

void cli_output_path(const char *path, unsigned int index, char *buf,
		     size_t size)
{
	const char *base = strrchr(path, '/'), *dot;

	dot = strrchr(base ? base + 1 : path, '.');
	if (!index)
		snprintf(buf, size, "%s", path);
	else if (!dot || dot == (base ? base + 1 : path))
		snprintf(buf, size, "%s.%u", path, index);
	else
		snprintf(buf, size, "%.*s.%u%s", (int)(dot - path), path, index,
			 dot);
}

int cli_write_outputs(struct nvdla_network *net, const char *path,
		      bool rawdump, const char *what)
{
	unsigned int n = nvdla_network_num_outputs(net), i;
	char name[4096];
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		cli_output_path(path, i, name, sizeof(name));
		ret = rawdump ? cli_write_rawdump(net, i, name) :
				nvdla_network_write_dimg(net, i, name);
		if (!ret)
			printf("%s%s", i ? ", " : what, name);
	}
	if (n && !ret)
		printf("\n");
	return ret;
}

void cli_print_top(struct nvdla_network *net, unsigned int index,
		   unsigned int top)
{
	struct nvdla_tensor_desc d;
	size_t n, i, k, best;
	float *v;

	if (nvdla_network_output_desc(net, index, &d) || d.h != 1 || d.w != 1 ||
	    d.c < 2)
		return;
	v = values_of(net, index, &n);
	if (!v)
		return;
	for (k = 0; k < top && k < n; k++) {
		best = n;
		for (i = 0; i < n; i++)
			if (!isnan(v[i]) && (best == n || v[i] > v[best]))
				best = i;
		if (best == n)
			break;
		printf("top %zu: class %zu, %g\n", k + 1, best, v[best]);
		v[best] = NAN;	/* printed: out of the next rounds */
	}
	free(v);
}

int cli_print_stats(struct nvdla_network *net)
{
	unsigned int n = nvdla_network_num_op_stats(net), i, k;
	struct nvdla_op_stat st;
	int ret;

	printf("task  op roi type   time_us  counters (non-zero)\n");
	for (i = 0; i < n; i++) {
		ret = nvdla_network_op_stat(net, i, &st);
		if (ret)
			return ret;
		printf("%4u %3u %3u %-5s %9u ", st.task, st.op, st.roi,
		       st.type, st.runtime_us);
		for (k = 0; k < st.num_counters; k++)
			if (st.counters[k].value)
				printf(" %s=%u", st.counters[k].name,
				       st.counters[k].value);
		printf("\n");
	}
	return 0;
}

int cli_print_estimate(struct nvdla_network *net)
{
	struct nvdla_run_estimate est;
	struct nvdla_op_estimate op;
	unsigned int i;
	int ret = nvdla_network_estimate(net, &est);

	if (ret)
		return ret;
	printf("estimate: %g MHz, %g GB/s, %g ns memory latency\n",
	       est.params.clock_mhz, est.params.dram_gbps,
	       est.params.latency_ns);
	printf("  op engines       grp      start     cycles     time_us bound    mac_cyc   post_cyc    mem_cyc         MACs     read_B    write_B\n");
	for (i = 0; i < est.num_ops; i++) {
		ret = nvdla_network_op_estimate(net, i, &op);
		if (ret)
			return ret;
		printf("%4u %-13s %3u %10llu %10llu %11.3f %-6s %10llu %10llu %10llu %12llu %10llu %10llu\n",
		       i, op.engines, op.group,
		       (unsigned long long)op.start_cycle,
		       (unsigned long long)op.cycles, op.time_us, op.bound,
		       (unsigned long long)op.mac_cycles,
		       (unsigned long long)op.post_cycles,
		       (unsigned long long)op.mem_cycles,
		       (unsigned long long)op.macs,
		       (unsigned long long)op.read_bytes,
		       (unsigned long long)op.write_bytes);
	}
	printf("total: %llu cycles, %.3f us, %.1f frames/s, MAC efficiency %.1f%%, %llu bytes of memory traffic\n",
	       (unsigned long long)est.cycles, est.time_us, est.fps,
	       100 * est.mac_efficiency, (unsigned long long)est.bytes);
	return 0;
}
