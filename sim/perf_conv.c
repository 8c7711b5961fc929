// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The convolution's part of an operation: the MAC array's cycles and the
 * CDMA's fetches, as NVIDIA's nv_small RTL shows them
 * (docs/performance.md).
 *
 * The CSC (vmod/nvdla/csc, sequence generator) issues one atomic
 * operation a cycle: atomic-C input channels (a block of the pre-extended
 * line for images, post-extension rows sharing one) times the kernels of
 * one group, at one kernel tap, for one output. It walks the outputs in
 * stripes and a stripe takes at least atomic-K cycles, so few or narrow
 * outputs cost more than one cycle each. Winograd takes a 4x4 input tile
 * of atomic-C/16 channels for a 2x2 output tile, all nine taps at once.
 *
 * The CDMA reads the input once (the convolution buffer holds it whole
 * for the layer) and each weight once. The CSC waits for the input and
 * the first kernel group's weights; the next groups' weights arrive
 * while it computes, so a layer whose weights come slower than it
 * computes ends one group's compute after its last weight. The CDMA's
 * input and weight reads take turns on the memory interface, so the
 * input is in only once as many weights are (those the weight banks
 * hold at most). The results
 * leave for the SDP through the accumulator's delivery buffer, whose
 * room holds the CSC back where they leave slower than they come.
 */
#include <nvdla/pixel_formats.h>

#include "perf.h"

/*
 * The CACC's delivery buffer (NV_NVDLA_CACC_delivery_buffer.v) between
 * the MAC array and the SDP: @credits entries of atomic-K results (twice
 * atomic-K of them, four times where atomic-C is four times atomic-K),
 * each sent to the SDP at its throughput, with a cycle to read the next
 * (@entry cycles in all). The CSC issues a stripe's last package, the
 * one whose results leave the accumulator, only when the buffer has room
 * for the stripe's outputs; an entry's room comes back to it
 * PERF_CREDIT_LOOP cycles after the entry's last result left, the loop
 * through the CSC, MAC array and accumulator and back (measured on the
 * nv_small RTL, docs/performance.md). So a stripe of 16 outputs on
 * nv_small takes at least 16 x 9 + 37 cycles, however few its packages.
 */
#define PERF_CREDIT_LOOP 37
#define PERF_CREDITS_MAX 128
/* Beyond this many kernel groups' room, the weight fetch never waits. */
#define PERF_SLOTS_MAX 64

struct conv_walk {
	u64 csc;		/* the CSC may issue its next package */
	u64 out;		/* the buffer has sent its last entry */
	u64 mac;		/* the CSC's packages alone */
	u64 group;		/* the CSC started the last kernel group */
	u64 n;			/* entries issued */
	u32 credits, entry;
	u64 back[PERF_CREDITS_MAX];	/* entry i's room back: [i % credits] */
	/* Kernel groups' weights: fetched one after another, each taking
	 * @wcycles, into @slots groups' room, the first @pre before the CSC
	 * starts; group g's room is freed when the CSC has done it. */
	u64 wcycles, slots, pre, wend, wwait;
	u64 freed[PERF_SLOTS_MAX];	/* group g's room freed: [g % slots] */
};

static void conv_walk_init(const struct nvdla_sim *sim, struct conv_walk *w)
{
	const struct nvdla_cbuf *cb = &sim->config->cbuf;

	memset(w, 0, sizeof(*w));
	w->credits = (cb->atomic_c / cb->atomic_k > 2 ? 4 : 2) * cb->atomic_k;
	if (w->credits > PERF_CREDITS_MAX)
		w->credits = PERF_CREDITS_MAX;
	w->entry = sim_perf_div_up(cb->atomic_k,
				   sim->config->perf.sdp_tput) + 1;
}

static u64 walk_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * A stripe of @outs outputs (buffer entries) in @npkg packages of @pkg
 * cycles each, the last one waiting for the buffer's room.
 */
static void conv_walk_stripe(struct conv_walk *w, u64 outs, u64 pkg,
			     u64 npkg)
{
	u64 t = w->csc + (npkg - 1) * pkg, i;

	if (outs > w->credits)		/* a stripe never exceeds the buffer */
		outs = w->credits;
	if (w->n + outs > w->credits)
		t = walk_max(t, w->back[(w->n + outs - w->credits - 1) %
					w->credits]);
	w->csc = t + pkg;
	w->mac += npkg * pkg;
	for (i = 0; i < outs; i++) {
		w->out = walk_max(w->out, t + i) + w->entry;
		w->back[w->n++ % w->credits] = w->out + PERF_CREDIT_LOOP;
	}
}

/*
 * Kernel group @g's weights, before the CSC starts on it: fetched after
 * the group before, once the room of the group @slots before is freed.
 */
static void conv_walk_weights(struct conv_walk *w, u64 g)
{
	u64 start = w->wend;

	if (g < w->pre)
		return;
	if (g >= w->slots && w->slots <= PERF_SLOTS_MAX)
		start = walk_max(start, w->freed[g % w->slots]);
	w->wend = start + w->wcycles;
	if (w->wend > w->csc) {
		w->wwait += w->wend - w->csc;
		w->csc = w->wend;
	}
}

/*
 * One pass of the CSC over @outs outputs: it cuts them into stripes of
 * @upper outputs while two more fit, then of @lower, the last one what is
 * left; a stripe's package takes its length rounded up to @round, at
 * least @min cycles (one atomic operation an output, but the MAC array
 * loads a stripe's weights, one kernel a cycle, and waits for @min).
 */
static void conv_walk_pass(struct conv_walk *w, u64 outs, u32 lower,
			   u32 upper, u32 round, u32 min, u64 npkg)
{
	u64 done = 0, len, pkg;

	while (done < outs) {
		if (done + 2 * upper <= outs)
			len = upper;
		else if (done + upper >= outs)
			len = outs - done;
		else
			len = lower;
		done += len;
		pkg = sim_perf_div_up(len, round) * round;
		conv_walk_stripe(w, len, pkg > min ? pkg : min, npkg);
	}
}

/*
 * The CSC's walk over the layer. Direct: each kernel group takes a pass
 * over the outputs in stripes of atomic-K to twice atomic-K outputs (one
 * output of every batch where batching), a package for each channel
 * block and kernel tap. Image input: a pass for each output line, in
 * stripes of the image's length (rounded to the post-extension's rows),
 * a package for each block of the pre-extended line and each pass of
 * post-extended rows.
 */
static void conv_walk_layer(const struct nvdla_sim *sim,
			    const struct sim_conv *cv, u32 ow, u32 oh,
			    struct conv_walk *w)
{
	u32 k = sim->config->cbuf.atomic_k;
	u32 img = cv->atomic_c / k > 2 ? 4 * k : 2 * k;
	u64 groups = sim_perf_div_up(cv->k, cv->kernels_per_group);
	u64 npkg = sim_perf_div_up(cv->c, cv->atomic_c) * cv->r * cv->s, g, i;
	u32 ext = cv->is_image ? cv->image.post_ext : 1;

	if (cv->is_image)
		npkg = sim_perf_div_up((u64)cv->c * ext, cv->atomic_c) *
		       sim_perf_div_up(cv->r, ext);
	for (g = 0; g < groups; g++) {
		conv_walk_weights(w, g);
		w->group = w->csc;
		if (cv->is_image)
			for (i = 0; i < oh; i++)
				conv_walk_pass(w, ow, img, img, ext, k, npkg);
		else if (cv->batches > 1)
			for (i = 0; i < (u64)ow * oh; i++)
				conv_walk_stripe(w, cv->batches,
						 walk_max(cv->batches, k),
						 npkg);
		else
			conv_walk_pass(w, (u64)ow * oh, k, 2 * k, 1, k, npkg);
		if (w->slots <= PERF_SLOTS_MAX)
			w->freed[g % w->slots] = w->csc;
	}
}

/*
 * Winograd: a 4x4 input tile of atomic-C/16 channels for a 2x2 output
 * tile, all nine taps at once; its delivery is not modelled.
 */
static u64 conv_winograd_cycles(const struct sim_conv *cv, u32 ow, u32 oh)
{
	return (u64)cv->batches * sim_perf_div_up(ow, SIM_WINO_OUT) *
	       sim_perf_div_up(oh, SIM_WINO_OUT) *
	       sim_perf_div_up(cv->k, cv->kernels_per_group) *
	       sim_perf_div_up(cv->c, cv->atomic_c /
			       (SIM_WINO_TILE * SIM_WINO_TILE));
}

/*
 * Bytes the CDMA reads before the CSC starts: the input and, its reads
 * alternating with the input's, as many weights (at least the first
 * kernel group's; at most those the weight banks hold). Sets how the
 * other groups' weights follow: one group's at a time, into the room
 * the CSC frees as it finishes a group.
 */
static u64 conv_walk_fetch(const struct nvdla_sim *sim, struct conv_walk *w,
			   u64 data, u64 weights, u64 groups)
{
	const struct nvdla_cbuf *cb = &sim->config->cbuf;
	u64 along = weights < data ? weights : data;
	u64 room = (u64)sim_cbuf_weight_banks(sim) * cb->depth * cb->width;
	u64 first = sim_perf_div_up(weights, groups);

	if (along > room)
		along = room;
	if (along < first)
		along = first;
	w->wcycles = sim_perf_mem(sim, first, 0);
	w->slots = first ? walk_max(room / first, 1) : PERF_SLOTS_MAX + 1;
	w->pre = first ? along / first : groups;
	return data + along;
}

/*
 * Bytes of a line of image plane @p the CDMA reads: its pixels up to the
 * last one used, in whole memory atoms, not the line stride.
 */
static u64 conv_image_line(const struct nvdla_sim *sim,
			   const struct sim_conv *cv, int p)
{
	const struct sim_image *im = &cv->image;
	u32 atom = sim->config->atom;
	u64 bytes = (u64)(im->x_offset + im->width -
			  (p ? im->plane1_skip : 0)) * im->layout->bpp[p];

	return sim_perf_div_up(bytes, atom) * atom;
}

/* Bytes of one batch's input the CDMA reads. */
static u64 conv_input_bytes(const struct nvdla_sim *sim,
			    const struct sim_conv *cv)
{
	u32 atom = sim->config->atom;
	u32 w = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_WIDTH) + 1;
	u32 h = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_HEIGHT) + 1;
	u32 c = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_1, DATAIN_CHANNEL) + 1;

	if (cv->is_image)
		return (u64)h * (conv_image_line(sim, cv, 0) +
				 (cv->image.layout->planes > 1 ?
				  conv_image_line(sim, cv, 1) : 0));
	return (u64)w * h * sim_perf_div_up((u64)c * cv->bpe, atom) * atom;
}

void sim_perf_conv(struct nvdla_sim *sim, const struct sim_conv *cv)
{
	struct nvdla_sim_perf_op *op =
		sim_perf_add(sim, NVDLA_SIM_ENGINE_CONV,
			     sim->units[NVDLA_UNIT_CDMA].consumer);
	u32 ow = SIM_FIELD(sim, CSC, D_DATAOUT_SIZE_0, DATAOUT_WIDTH) + 1;
	u32 oh = SIM_FIELD(sim, CSC, D_DATAOUT_SIZE_0, DATAOUT_HEIGHT) + 1;
	u64 groups = sim_perf_div_up(cv->k, cv->kernels_per_group);
	u64 data = 0, weights = 0;
	struct conv_walk w;

	if (!SIM_FIELD(sim, CDMA, D_MISC_CFG, DATA_REUSE))
		data = conv_input_bytes(sim, cv) * cv->batches;
	if (!SIM_FIELD(sim, CDMA, D_MISC_CFG, WEIGHT_REUSE))
		weights = SIM_REG(sim, CDMA, D_WEIGHT_BYTES) +
			  (cv->compressed ? SIM_REG(sim, CDMA, D_WMB_BYTES) : 0);
	conv_walk_init(sim, &w);
	sim->perf.startup += sim_perf_mem(sim, conv_walk_fetch(sim, &w, data,
							       weights, groups),
					  0);
	if (cv->winograd) {
		w.mac = conv_winograd_cycles(cv, ow, oh);
		w.csc = w.mac;
		w.group = w.mac - w.mac / groups;
	} else {
		conv_walk_layer(sim, cv, ow, oh, &w);
	}
	op->mac_cycles += w.mac;
	/* The CSC waited for the delivery buffer: the SDP's side bounds it. */
	if (w.csc - w.wwait > w.mac && w.csc - w.wwait > op->post_cycles)
		op->post_cycles = w.csc - w.wwait;
	sim->perf.conv = w.csc;
	sim->perf.wait = w.wwait;
	sim->perf.tail = w.csc - w.group;
	sim->perf.drain = w.out > w.csc ? w.out - w.csc : 0;
	op->macs += (u64)cv->batches * ow * oh * cv->k * cv->c * cv->r *
		    (cv->is_image ? 1 : cv->s);
	op->peak_macs = cv->atomic_c * cv->kernels_per_group;
	op->read_bytes += data + weights;
	if (!SIM_FIELD(sim, CDMA, D_PERF_ENABLE, DMA_EN))
		return;
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PERF_DAT_READ_STALL,
		       sim_perf_stall(sim, data, op->mac_cycles));
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PERF_WT_READ_STALL,
		       sim_perf_stall(sim, weights, op->mac_cycles));
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PERF_DAT_READ_LATENCY,
		       data ? (u32)sim_perf_latency(sim) : 0);
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PERF_WT_READ_LATENCY,
		       weights ? (u32)sim_perf_latency(sim) : 0);
}
