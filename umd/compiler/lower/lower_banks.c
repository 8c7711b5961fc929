// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Data banks that differ from the convolution before. The firmware
 * enables a convolution's CDMA ahead of the rest, so that nv_small's
 * CDMA counts the weight releases of the convolution before, only when
 * the two convolutions' data banks differ: the CDMA then waits for its
 * CSC in the bank-change handshake; with the same banks it would fetch
 * an input not yet written (docs/model.md). So no two convolutions in a
 * row of a task get the same data banks, where a bank can be added.
 */
#include <nvdla/cbuf_limits.h>

#include "lower_internal.h"

/*
 * Banks one group of kernels of convolution @op takes: its weight banks
 * may not go below them (nvdla/cbuf_limits.h).
 */
static uint32_t group_banks(const struct nvc_lower *L,
			    const struct nvdla_build_op *op)
{
	const struct nvdla_cbuf *cb = L->t.cbuf;
	const struct nvdla_cbuf_layer l = {
		.kernels = op->surf.conv_surface.dst_data.channel,
		.kernel_bytes = op->op.conv_op.bytes_per_kernel,
		.bpe = L->bpe,
	};

	return nvdla_cbuf_div_up(nvdla_cbuf_group_entries(cb, &l), cb->depth);
}

/*
 * One data bank more for convolution @op: a free bank, or one of its
 * weight banks where none is free and one kernel group still fits the
 * rest. Where neither is, the banks stay: the firmware then enables the
 * CDMA with the rest of the layer.
 */
static void bank_more(const struct nvc_lower *L, struct nvdla_build_op *op)
{
	struct dla_conv_op_desc *p = &op->op.conv_op;

	if (p->data_bank + p->weight_bank < L->t.cbuf->banks) {
		p->data_bank++;
	} else if (!p->skip_weight_rls && p->weight_bank > group_banks(L, op)) {
		p->data_bank++;
		p->weight_bank--;
	}
}

void nvc_conv_banks_differ(struct nvc_lower *L)
{
	uint32_t before = 0;
	int i;

	for (i = 0; i < L->nops; i++) {
		struct nvdla_build_op *op = &L->ops[i];

		if (op->graph.op_type != DLA_OP_CONV)
			continue;
		if (op->op.conv_op.data_bank == before)
			bank_more(L, op);
		before = op->op.conv_op.data_bank;
	}
}
