// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A convolution's demands on the convolution buffer, checked at submission
 * (nvdla/cbuf_limits.h): the chip would hang on a layer that breaks a
 * limit, so the task is refused, unless the host runs a model that was
 * told to run such layers anyway.
 */
#include <nvdla/pixel_formats.h>

#include "engine.h"

/* Entries a line of the input takes, in direct mode from a feature cube. */
static u32 dla_cbuf_line_entries(const struct dla_engine *engine,
				 const struct dla_conv_op_desc *p,
				 const struct dla_data_cube *in)
{
	u32 bpe = p->in_precision == DLA_PRECISION_INT8 ? 1 : 2;

	if (p->conv_mode || p->data_format != NVDLA_DATA_FORMAT_FEATURE)
		return 0;
	return nvdla_cbuf_feature_entries(&engine->config->cbuf,
					  engine->config->atom_size, in->width,
					  in->channel * bpe);
}

/* What D_WEIGHT_SIZE_0 holds (18 bits): no product past 32 bits. */
static u32 dla_cbuf_kernel_bytes(const struct dla_conv_op_desc *p)
{
	u32 max = NVDLA_CDMA_D_WEIGHT_SIZE_0_BYTE_PER_KERNEL_MASK + 1;

	return p->bytes_per_kernel < max ? p->bytes_per_kernel : max;
}

static void dla_cbuf_layer(const struct dla_engine *engine,
			   const struct dla_conv_op_desc *p,
			   const struct dla_conv_surface_desc *s,
			   struct nvdla_cbuf_layer *l)
{
	*l = (struct nvdla_cbuf_layer){
		.data_banks = p->data_bank,
		.weight_banks = p->weight_bank,
		.entries = p->entry_per_slice,
		.line_entries = dla_cbuf_line_entries(engine, p, &s->src_data),
		/* Direct mode only (0): Winograd tiles are not checked. */
		.lines = !p->conv_mode ?
			 (u32)s->src_data.height * p->batch : 0,
		.kernels = s->dst_data.channel,
		.kernel_bytes = dla_cbuf_kernel_bytes(p),
		.bpe = p->out_precision == DLA_PRECISION_INT8 ? 1 : 2,
		.weight_bytes = s->weight_data.size,
		.keep_weights = p->skip_weight_rls,
		.compressed = p->weight_format,
	};
}

/* A broken limit: refused, or where the host allows it a warning. */
int dla_hw_hazard(struct dla_engine *engine,
		  const struct nvdla_cbuf_verdict *v)
{
	char text[NVDLA_CBUF_VERDICT_MAX];

	nvdla_cbuf_verdict_text(text, sizeof(text), v);
	if (engine->allow_hw_hazards && v->rule != NVDLA_CBUF_BANKS)
		return dla_log(engine, DLA_LOG_WARN, 0,
			       "the hardware would not run this: %s", text);
	return dla_reject(engine, "%s", text);
}

int dla_cbuf_validate(struct dla_engine *engine,
		      const struct dla_conv_op_desc *p,
		      const struct dla_conv_surface_desc *s)
{
	struct nvdla_cbuf_layer l;
	struct nvdla_cbuf_verdict v;

	dla_cbuf_layer(engine, p, s, &l);
	if (nvdla_cbuf_check(&engine->config->cbuf, &l, &v))
		return 0;
	return dla_hw_hazard(engine, &v);
}

/*
 * The CDMA's gated weight count over the task's convolutions, in the order
 * they run (cdma_early designs, nvdla/cbuf_limits.h). The host resets the
 * engine after each such task (dla_task_needs_reset()), so the count
 * starts at 0. A convolution's releases after its fetch are missed when
 * the next one's CDMA is not enabled early, which conv.c does where their
 * data banks differ.
 */
int dla_cbuf_validate_stale(struct dla_engine *engine)
{
	const struct dla_checked_task *task = engine->task;
	const struct nvdla_cbuf *cb = &engine->config->cbuf;
	struct nvdla_cbuf_layer l, before;
	struct nvdla_cbuf_verdict v;
	s16 op = task->network.op_head[DLA_OP_CONV];
	bool first = true;
	u64 stale = 0;
	u32 elem;
	u16 roi;
	int ret;

	if (!engine->config->cdma_early)
		return 0;
	for (; op != -1; op = task->graph[op].consumers[DLA_OP_CONV].index) {
		for (roi = 0; roi < task->network.num_rois; roi++) {
			elem = dla_op_elem(engine, roi, op);
			dla_cbuf_layer(engine, &task->ops[elem].conv_op,
				       &task->surfs[elem].conv_surface, &l);
			if (!first && l.data_banks == before.data_banks)
				stale = nvdla_cbuf_stale_after(cb, &before,
							       stale);
			first = false;
			before = l;
			if (nvdla_cbuf_stale_check(cb, &l, stale, &v))
				continue;
			engine->log_op = op;
			ret = dla_hw_hazard(engine, &v);
			engine->log_op = -1;
			if (ret)
				return ret;
		}
	}
	return 0;
}

void dla_allow_hw_hazards(struct dla_engine *engine, bool allow)
{
	engine->allow_hw_hazards = allow;
}
