// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * libFuzzer target: any bytes as a loadable, through the whole runtime on
 * the in-process model: decoding, cross-reference checks, memory set-up,
 * the firmware's validation of every descriptor, and the run, with
 * statistics for every other input. Whatever the input, nothing may
 * crash, leak, read or write out of bounds, or hang.
 */
#include <stdint.h>
#include <stdlib.h>

#include <nvdla/runtime.h>

#define RUN_TIMEOUT_NS 2000000000ll

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nvdla_runtime *rt;
	struct nvdla_network *net;
	struct nvdla_op_stat st;
	unsigned int i;

	if (!rt && nvdla_runtime_new("sim:nv_full", &rt, NULL, 0))
		abort();
	if (nvdla_network_load(rt, data, size, &net))
		return 0;
	if (size & 1)
		nvdla_network_enable_stats(net);
	nvdla_network_submit(net, RUN_TIMEOUT_NS);
	for (i = 0; i <= nvdla_network_num_op_stats(net); i++)
		nvdla_network_op_stat(net, i, &st);
	nvdla_network_unload(net);
	return 0;
}
