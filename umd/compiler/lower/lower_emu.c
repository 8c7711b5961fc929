// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Softmax, and with --cpu-fallback the functions of NVC_CPU (erf, the
 * channel-height swap, layer normalisation, bilinear resize; sigmoid,
 * tanh and SiLU on a target without the SDP's LUT), as CPU
 * tasks (the runtime's emulator, umd/runtime/emu.c), in the descriptor
 * layout with scale factors: one operation, its source and destination
 * buffers at address-list indices after the task's own.
 */
#include <errno.h>
#include <string.h>

#include "emu.h"
#include "le_bytes.h"
#include "lower_internal.h"

static void wrf32(uint8_t *p, float f)
{
	uint32_t v;

	memcpy(&v, &f, sizeof(v));
	wr32(p, v);
}

bool nvc_softmax_fp16(const struct nvc_lower *L, int tensor)
{
	const struct nvc_graph *g = L->g;
	int p = g->tensors[tensor].producer, i, j;
	bool output = false;

	if (p < 0 || g->nodes[p].op != NVC_SOFTMAX ||
	    L->ir.ts[nvc_resolve(L, g->nodes[p].inputs[0])].prec !=
	    DLA_PRECISION_INT8)
		return false;
	for (i = 0; i < g->num_outputs; i++)
		output |= nvc_resolve(L, g->outputs[i]) == tensor;
	for (i = 0; i < g->num_nodes; i++)
		for (j = 0; j < g->nodes[i].num_inputs; j++)
			if (g->nodes[i].op != NVC_RESHAPE &&
			    nvc_resolve(L, g->nodes[i].inputs[j]) == tensor)
				return false;
	return output;
}

static void emu_buffer(const struct nvc_lower *L, uint8_t *d, int tensor)
{
	const struct nvc_lir_tensor *lt = &L->ir.ts[nvc_resolve(L, tensor)];
	const struct nvc_place *p = &lt->place;
	uint8_t *dims = d + EMU_V2_BUF_WIDTH;
	uint16_t format = lt->prec == DLA_PRECISION_FP16 ? EMU_V2_FORMAT_FP16 :
			  lt->atom == 8 ? EMU_V2_FORMAT_INT8_8 :
			  EMU_V2_FORMAT_INT8;

	wr16(d + EMU_BUF_INDEX, (uint16_t)(NVDLA_BUILD_EMU_DATA + p->slot));
	wr32(d + EMU_V2_BUF_OFFSET, p->offset);
	wr32(d + EMU_V2_BUF_OFFSET + 4, p->size);
	wr16(d + EMU_V2_BUF_FORMAT, format);
	wr16(dims, (uint16_t)lt->w);
	wr16(dims + EMU_BUF_HEIGHT, (uint16_t)lt->h);
	wr16(dims + EMU_BUF_CHANNEL, (uint16_t)lt->c);
	wr32(dims + EMU_BUF_LINE_STRIDE, p->line);
	wr32(dims + EMU_BUF_SURF_STRIDE, p->surf);
}

/* The emulator's operation for node @n and its parameter. */
static void emu_op(const struct nvc_node *n, uint8_t *op)
{
	static const uint8_t type[] = {
		[NVC_CPU_ERF] = EMU_OP_ERF,
		[NVC_CPU_SWAP_CH] = EMU_OP_SWAP_CH,
		[NVC_CPU_LAYERNORM] = EMU_OP_LAYERNORM,
		[NVC_CPU_RESIZE] = EMU_OP_RESIZE,
		[NVC_CPU_SIGMOID] = EMU_OP_SIGMOID,
		[NVC_CPU_TANH] = EMU_OP_TANH,
		[NVC_CPU_SILU] = EMU_OP_SILU,
	};

	if (n->op == NVC_SOFTMAX) {
		op[EMU_OP_TYPE] = EMU_OP_SOFTMAX;
		return;
	}
	op[EMU_OP_TYPE] = type[n->cpu];
	if (n->cpu == NVC_CPU_LAYERNORM)
		wrf32(op + EMU_V2_PARAM, n->cpu_eps);
	if (n->cpu == NVC_CPU_RESIZE) {
		op[EMU_V2_PARAM] = (uint8_t)n->cpu_coord;
		wrf32(op + EMU_V2_RESIZE_STEP, n->cpu_step[0]);
		wrf32(op + EMU_V2_RESIZE_STEP + 4, n->cpu_step[1]);
	}
}

int nvc_lower_cpu(struct nvc_lower *L, int node)
{
	const struct nvc_node *n = &L->g->nodes[node];
	int in = nvc_read(L, n->inputs[0]), out = n->outputs[0], ret;
	const struct nvc_lir_tensor *ti = &L->ir.ts[in];
	struct nvc_task t = { .emu = true };
	bool softmax = n->op == NVC_SOFTMAX;

	if (!softmax && !L->o->cpu_fallback)
		return nvc_fail(L, n, -EOPNOTSUPP,
				"the DLA does not compute it; it runs as a CPU task with --cpu-fallback");
	if (softmax && (ti->h != 1 || ti->w != 1))
		return nvc_fail(L, n, -EOPNOTSUPP,
				"softmax over the channels of a %dx%d cube: the CPU task takes 1x1xC",
				ti->w, ti->h);
	ret = nvc_task_close(L);
	if (ret)
		return ret;
	wr16(t.emu_net + EMU_NET_OP_INDEX, 1);
	wr16(t.emu_net + EMU_NET_BUF_INDEX, 2);
	wr16(t.emu_net + EMU_NET_NUM_OPS, 1);
	emu_op(n, t.emu_ops);
	wrf32(t.emu_ops + EMU_V2_IN_SCALE, L->ir.ts[in].scale);
	wrf32(t.emu_ops + EMU_V2_OUT_SCALE, L->ir.ts[out].scale);
	emu_buffer(L, t.emu_bufs, in);
	emu_buffer(L, t.emu_bufs + EMU_BUF_SIZE, out);
	return nvc_task_push(L, &t);
}

/* Move the task's two buffers to the memories holding them (emission). */
void nvc_emu_fix(const struct nvc_lower *L, struct nvc_task *t)
{
	int i;

	for (i = 0; i < 2; i++) {
		uint8_t *d = t->emu_bufs + i * EMU_BUF_SIZE;
		uint32_t off = rd32(d + EMU_V2_BUF_OFFSET);
		int slot = (d[EMU_BUF_INDEX] | d[EMU_BUF_INDEX + 1] << 8) -
			   NVDLA_BUILD_EMU_DATA;

		slot = nvc_chunk_slot(L, slot, &off);
		wr16(d + EMU_BUF_INDEX, (uint16_t)(NVDLA_BUILD_EMU_DATA + slot));
		wr32(d + EMU_V2_BUF_OFFSET, off);
	}
}
