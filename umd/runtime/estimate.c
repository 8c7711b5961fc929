// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Performance estimates: the model's estimate of each operation of a run
 * (sim/perf*.c), kept per network, and the run's totals.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"

/* Each parameter in its range; 0 (negative latency) for the default. */
static const char *estimate_range(const struct nvdla_estimate_params *p)
{
	if (!(p->clock_mhz == 0 || (p->clock_mhz >= 1 && p->clock_mhz <= 100000)))
		return "the clock must be 1 to 100000 MHz";
	if (!(p->dram_gbps == 0 ||
	      (p->dram_gbps >= 0.001 && p->dram_gbps <= 10000)))
		return "the memory bandwidth must be 0.001 to 10000 GB/s";
	if (!(p->latency_ns <= 1000000))
		return "the memory latency must be at most 1000000 ns";
	return NULL;
}

NVDLA_EXPORT int nvdla_runtime_estimate(struct nvdla_runtime *rt,
					const struct nvdla_estimate_params *params)
{
	struct nvdla_estimate_params p = { 0, 0, -1 };
	const char *bad;
	int ret;

	if (params)
		p = *params;
	bad = estimate_range(&p);
	if (bad)
		return nvdla_rt_error(rt, -EINVAL, "estimate: %s", bad);
	if (!rt->be->ops->estimate)
		return nvdla_rt_error(rt, -EOPNOTSUPP,
				      "%s has no performance estimate: only the built-in model (sim:<configuration>) has one",
				      rt->be->name);
	pthread_mutex_lock(&rt->be_lock);
	ret = rt->be->ops->estimate(rt->be, &p);
	pthread_mutex_unlock(&rt->be_lock);
	if (ret)
		return nvdla_rt_error(rt, ret, "%s", rt->be->error);
	return 0;
}

NVDLA_EXPORT int nvdla_runtime_estimate_only(struct nvdla_runtime *rt, int on)
{
	if (!rt->be->ops->estimate)
		return nvdla_rt_error(rt, -EOPNOTSUPP,
				      "%s computes every run: only the built-in model (sim:<configuration>) estimates alone",
				      rt->be->name);
	rt->be->no_values = on;
	return 0;
}

void nvdla_net_estimate_begin(struct nvdla_network *net)
{
	net->rt->be->est_num = 0;
	net->rt->be->est_failed = false;
}

void nvdla_net_estimate_end(struct nvdla_network *net, int status)
{
	struct nvdla_backend *be = net->rt->be;
	size_t size = (size_t)be->est_num * sizeof(*be->est_ops);
	struct nvdla_op_estimate *ops;

	net->est_valid = false;
	if (status || !be->estimating || be->est_failed)
		return;
	ops = realloc(net->est_ops, size ? size : 1);
	if (!ops)
		return;
	memcpy(ops, be->est_ops, size);
	net->est_ops = ops;
	net->est_num = be->est_num;
	net->est_params = be->est_params;
	net->est_valid = true;
}

/* The memory cycles of the run's traffic, each operation's summed. */
static uint64_t estimate_mem_cycles(const struct nvdla_network *net)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < net->est_num; i++)
		sum += net->est_ops[i].mem_cycles;
	return sum;
}

NVDLA_EXPORT int nvdla_network_estimate(const struct nvdla_network *net,
					struct nvdla_run_estimate *est)
{
	uint64_t first = UINT64_MAX, last = 0, mem, end;
	uint32_t peak = 0;
	unsigned int i;

	if (!net->est_valid)
		return -ENODATA;
	memset(est, 0, sizeof(*est));
	est->params = net->est_params;
	est->num_ops = net->est_num;
	for (i = 0; i < net->est_num; i++) {
		const struct nvdla_op_estimate *op = &net->est_ops[i];

		end = op->start_cycle + op->cycles;
		first = op->start_cycle < first ? op->start_cycle : first;
		last = end > last ? end : last;
		peak = op->peak_macs > peak ? op->peak_macs : peak;
		est->macs += op->macs;
		est->bytes += op->read_bytes + op->write_bytes;
	}
	mem = estimate_mem_cycles(net);
	est->cycles = net->est_num ? last - first : 0;
	est->cycles = mem > est->cycles ? mem : est->cycles;
	est->time_us = est->cycles / est->params.clock_mhz;
	est->fps = est->cycles ? 1e6 / est->time_us : 0;
	est->mac_efficiency = peak && est->cycles ?
			      (double)est->macs / ((double)peak * est->cycles) : 0;
	return 0;
}

NVDLA_EXPORT int nvdla_network_op_estimate(const struct nvdla_network *net,
					   unsigned int index,
					   struct nvdla_op_estimate *op)
{
	uint64_t first = UINT64_MAX;
	unsigned int i;

	if (!net->est_valid)
		return -ENODATA;
	if (index >= net->est_num)
		return -EINVAL;
	for (i = 0; i < net->est_num; i++)
		if (net->est_ops[i].start_cycle < first)
			first = net->est_ops[i].start_cycle;
	*op = net->est_ops[index];
	op->start_cycle -= first;
	return 0;
}
