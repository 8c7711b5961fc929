// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The convolution buffer's limits when a layer starts (nvdla/cbuf_limits.h),
 * and the order its units were enabled in: a layer the hardware
 * cannot run faults, or, where the host allows it, runs and is counted,
 * so that nothing passes here that would hang a chip.
 */
#include "sim_internal.h"

/* A D_BANK field: as wide as the bank count needs, 5 bits on nv_small. */
static u32 cbuf_field(u32 reg, u32 shift, u32 banks)
{
	return (reg >> shift & (banks - 1)) + 1;
}

u32 sim_cbuf_weight_banks(const struct nvdla_sim *sim)
{
	return cbuf_field(SIM_REG(sim, CDMA, D_BANK),
			  NVDLA_CDMA_D_BANK_WEIGHT_BANK_SHIFT,
			  sim->config->cbuf.banks);
}

/* Entries a line of the layer's feature cube takes; 0 for pixels. */
static u32 cbuf_line_entries(const struct nvdla_sim *sim,
			     const struct nvdla_cbuf *cb)
{
	u32 in = SIM_FIELD(sim, CDMA, D_MISC_CFG, IN_PRECISION);

	if (SIM_FIELD(sim, CDMA, D_DATAIN_FORMAT, DATAIN_FORMAT) !=
	    DATAIN_FEATURE)
		return 0;
	return nvdla_cbuf_feature_entries(cb, sim->config->atom,
		SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_WIDTH) + 1,
		(SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_1, DATAIN_CHANNEL) + 1) *
		(in == SIM_PREC_INT8 ? 1 : 2));
}

/* What the layer in the CDMA's consumer group asks of the buffer. */
static void cbuf_layer(const struct nvdla_sim *sim, const struct nvdla_cbuf *cb,
		       struct nvdla_cbuf_layer *l)
{
	u32 banks = cb->banks, bank = SIM_REG(sim, CDMA, D_BANK);
	u32 prec = SIM_FIELD(sim, CDMA, D_MISC_CFG, PROC_PRECISION);
	bool winograd = SIM_FIELD(sim, CDMA, D_MISC_CFG, CONV_MODE) !=
			CONV_MODE_DIRECT;

	l->data_banks = cbuf_field(bank, NVDLA_CDMA_D_BANK_DATA_BANK_SHIFT, banks);
	l->weight_banks = cbuf_field(bank, NVDLA_CDMA_D_BANK_WEIGHT_BANK_SHIFT,
				     banks);
	/* As wide as the buffer's entries need: 14 bits on nv_small. */
	l->entries = (SIM_REG(sim, CDMA, D_ENTRY_PER_SLICE) &
		      (cb->banks * cb->depth - 1)) + 1;
	l->line_entries = winograd ? 0 : cbuf_line_entries(sim, cb);
	l->lines = winograd ? 0 :
		(SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_HEIGHT) + 1) *
		(SIM_FIELD(sim, CDMA, D_BATCH_NUMBER, BATCHES) + 1);
	l->kernels = SIM_FIELD(sim, CDMA, D_WEIGHT_SIZE_1, WEIGHT_KERNEL) + 1;
	l->kernel_bytes = SIM_FIELD(sim, CDMA, D_WEIGHT_SIZE_0,
				    BYTE_PER_KERNEL) + 1;
	l->bpe = prec == SIM_PREC_INT8 ? 1 : 2;
	l->weight_bytes = SIM_REG(sim, CDMA, D_WEIGHT_BYTES);
	l->keep_weights = SIM_FIELD(sim, CDMA, D_MISC_CFG, SKIP_WEIGHT_RLS);
	l->compressed = SIM_FIELD(sim, CDMA, D_WEIGHT_FORMAT, WEIGHT_FORMAT);
}

void sim_cbuf_enabled(struct nvdla_sim *sim, int unit, int group)
{
	const struct sim_unit *u = sim->units;

	if (unit == NVDLA_UNIT_CDMA) {
		sim->cdma_ahead[group] = !u[NVDLA_UNIT_CSC].op_en[group];
		sim->ahead_ready[group] = u[unit].consumer == group ?
			NVDLA_CBUF_CONV_UNITS : sim_conv_enabled(sim, group ^ 1);
		if (!sim_glb_pending(sim, sim->wt_missed_done))
			sim->wt_stale += sim->wt_missed;
		sim->wt_missed = 0;
	}
	if ((unit == NVDLA_UNIT_CDMA && u[NVDLA_UNIT_CSC].op_en[group]) ||
	    (unit == NVDLA_UNIT_CSC && u[NVDLA_UNIT_CDMA].op_en[group]))
		sim->macs_ready[group] = u[NVDLA_UNIT_CMAC_A].op_en[group] +
					 u[NVDLA_UNIT_CMAC_B].op_en[group] +
					 u[NVDLA_UNIT_CACC].op_en[group];
}

/* D_BANK's data and weight banks, as the buffer decodes them. */
static u32 cbuf_banks(const struct nvdla_sim *sim, u32 bank)
{
	u32 banks = sim->config->cbuf.banks;

	return cbuf_field(bank, NVDLA_CDMA_D_BANK_DATA_BANK_SHIFT, banks) |
	       cbuf_field(bank, NVDLA_CDMA_D_BANK_WEIGHT_BANK_SHIFT, banks) << 16;
}

/*
 * The CSC feeds the CMACs, and they the CACC, once both it and the CDMA
 * run; a CMAC not yet enabled then is a failure of NVIDIA's C models (it
 * stops: nv_full's spins, nv_small's aborts), a CACC not yet enabled
 * never ends the layer.
 *
 * Where the CDMA does not wait for its CSC (cdma_early 0: nv_full), it
 * fetches once enabled and announces each kernel it stored to the CSC; a
 * CSC that starts a layer in other banks than its last, or its first,
 * counts the kernels in the buffer from 0 again. So a CDMA enabled ahead
 * of its CSC there has its kernels forgotten, and the CSC waits for them
 * forever (NVIDIA's nvdlav1 C model: no CACC done, nothing written).
 * So, too, a CDMA enabled while the convolution ahead of it, in the other
 * group, could not yet run: once that one runs, the CDMA, done with its
 * fetch, fetches this one (its weights once the CSC released that one's)
 * while the CSC still works through that one's data; the CSC forgets the
 * kernels announced when it starts this one. The C model runs a layer as
 * soon as its units are enabled, so one whose CDMA, CSC, CMACs and CACC
 * all were ends before a later write can enable another; its SDP does
 * not matter.
 */
static bool cbuf_order_ok(const struct nvdla_sim *sim,
			  const struct nvdla_cbuf *cb,
			  const struct nvdla_cbuf_layer *l,
			  struct nvdla_cbuf_verdict *v)
{
	const struct sim_cdma_last *last = &sim->cdma_last;
	u8 g = sim->units[NVDLA_UNIT_CDMA].consumer;

	bool moved = !last->engine ||
		     cbuf_banks(sim, last->banks) !=
		     cbuf_banks(sim, SIM_REG(sim, CDMA, D_BANK));

	if (nvdla_cbuf_broken(v, NVDLA_CBUF_MAC_LATE, sim->macs_ready[g], 3))
		return false;
	if (!sim->config->cdma_early && moved &&
	    ((sim->cdma_ahead[g] &&
	      nvdla_cbuf_broken(v, NVDLA_CBUF_CDMA_AHEAD, 0,
				nvdla_cbuf_group_kernels(cb, l))) ||
	     nvdla_cbuf_broken(v, NVDLA_CBUF_OVERTAKES, sim->ahead_ready[g],
			       NVDLA_CBUF_CONV_UNITS)))
		return false;
	*v = (struct nvdla_cbuf_verdict){ NVDLA_CBUF_OK, 0, 0, 0 };
	return true;
}

bool sim_cbuf_ok(struct nvdla_sim *sim)
{
	const struct nvdla_cbuf *cb = &sim->config->cbuf;
	struct nvdla_cbuf_layer l;
	struct nvdla_cbuf_verdict v;

	cbuf_layer(sim, cb, &l);
	if (nvdla_cbuf_check(cb, &l, &v) && cbuf_order_ok(sim, cb, &l, &v) &&
	    (!sim->config->cdma_early ||
	     nvdla_cbuf_stale_check(cb, &l, sim->wt_stale, &v)))
		return true;
	return sim_hazard(sim, &v, true);
}

bool sim_hazard(struct nvdla_sim *sim, const struct nvdla_cbuf_verdict *v,
		bool hangs)
{
	sim->hazards++;
	sim->last_hazard = *v;
	/* Data and weight banks beyond the buffer leave nothing to model. */
	if (sim->allow_hazards && v->rule != NVDLA_CBUF_BANKS)
		return true;
	sim->hung = hangs && sim->hang_on_hazards;
	return false;
}

/*
 * The layer in the CDMA's consumer group ends (cdma_early designs). Their
 * CDMA's gated weight count misses the CSC's releases after the fetch
 * unless a CDMA group is enabled while they come: the next layer's,
 * enabled early. The model runs a layer at once, so that is decided when
 * the next CDMA is enabled: before the host has taken this layer's CACC
 * done (sim_cbuf_enabled()), the chip would have seen the releases.
 */
void sim_cbuf_finish(struct nvdla_sim *sim)
{
	const struct sim_unit *cdma = &sim->units[NVDLA_UNIT_CDMA];
	struct nvdla_cbuf_layer l;

	if (!sim->config->cdma_early || cdma->op_en[cdma->consumer ^ 1])
		return;
	cbuf_layer(sim, &sim->config->cbuf, &l);
	sim->wt_missed = nvdla_cbuf_stale_after(&sim->config->cbuf, &l,
						sim->wt_stale) - sim->wt_stale;
	sim->wt_missed_done = cdma->consumer ?
		NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS1_MASK :
		NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS0_MASK;
}

void nvdla_sim_allow_hazards(struct nvdla_sim *sim, bool allow)
{
	sim->allow_hazards = allow;
}

void nvdla_sim_hang_on_hazards(struct nvdla_sim *sim, bool on)
{
	sim->hang_on_hazards = on;
}

u32 nvdla_sim_hazards(const struct nvdla_sim *sim,
		      struct nvdla_cbuf_verdict *last)
{
	if (last)
		*last = sim->last_hazard;
	return sim->hazards;
}
