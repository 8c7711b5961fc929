// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Register file of the units with two register groups (ping-pong):
 * registers from D_OP_ENABLE up exist once per group, S_POINTER.PRODUCER
 * selects the group the CSB reaches, and the datapath runs the group
 * S_POINTER.CONSUMER names once its OP_EN is set. While a group's OP_EN is
 * set, writes to that group are dropped, as the RTL does.
 */
#include "sim_internal.h"

#define STATUS_RUNNING 1u
#define STATUS_PENDING 2u
#define STATUS_1_SHIFT 16
#define POINTER_CONSUMER_SHIFT 16

/* Offset of D_OP_ENABLE in each unit with register groups, else 0. */
static const u16 sim_op_enable[NVDLA_UNIT_COUNT] = {
	[NVDLA_UNIT_CDMA] = NVDLA_CDMA_D_OP_ENABLE,
	[NVDLA_UNIT_CSC] = NVDLA_CSC_D_OP_ENABLE,
	[NVDLA_UNIT_CMAC_A] = NVDLA_CMAC_A_D_OP_ENABLE,
	[NVDLA_UNIT_CMAC_B] = NVDLA_CMAC_B_D_OP_ENABLE,
	[NVDLA_UNIT_CACC] = NVDLA_CACC_D_OP_ENABLE,
	[NVDLA_UNIT_SDP_RDMA] = NVDLA_SDP_RDMA_D_OP_ENABLE,
	[NVDLA_UNIT_SDP] = NVDLA_SDP_D_OP_ENABLE,
	[NVDLA_UNIT_PDP_RDMA] = NVDLA_PDP_RDMA_D_OP_ENABLE,
	[NVDLA_UNIT_PDP] = NVDLA_PDP_D_OP_ENABLE,
	[NVDLA_UNIT_CDP_RDMA] = NVDLA_CDP_RDMA_D_OP_ENABLE,
	[NVDLA_UNIT_CDP] = NVDLA_CDP_D_OP_ENABLE,
	[NVDLA_UNIT_RBK] = NVDLA_RBK_D_OP_ENABLE,
};

/* The LUT of @unit if @reg is its access port. */
static struct sim_lut *sim_lut_port(struct nvdla_sim *sim, int unit, u32 reg,
				    bool *data)
{
	if (unit == NVDLA_UNIT_SDP) {
		*data = reg == NVDLA_SDP_S_LUT_ACCESS_DATA;
		if (*data || reg == NVDLA_SDP_S_LUT_ACCESS_CFG)
			return &sim->sdp_lut;
	}
	if (unit == NVDLA_UNIT_CDP) {
		*data = reg == NVDLA_CDP_S_LUT_ACCESS_DATA;
		if (*data || reg == NVDLA_CDP_S_LUT_ACCESS_CFG)
			return &sim->cdp_lut;
	}
	return NULL;
}

static void sim_lut_port_write(struct nvdla_sim *sim, int unit, u32 reg,
			       u32 val)
{
	bool data;
	struct sim_lut *lut = sim_lut_port(sim, unit, reg, &data);

	if (lut && data)
		sim_lut_write(lut, val);
	else if (lut)
		lut->access = val;
}

static u32 sim_lut_port_read(struct nvdla_sim *sim, int unit, u32 reg,
			     u32 stored)
{
	bool data;
	struct sim_lut *lut = sim_lut_port(sim, unit, reg, &data);

	if (lut && data)
		return sim_lut_read(lut);
	return lut ? lut->access : stored;
}

bool sim_unit_grouped(int unit)
{
	return sim_op_enable[unit] != 0;
}

/* The convolution buffer holds nothing to flush in the model: done. */
void sim_cdma_flush(struct nvdla_sim *sim)
{
	sim->units[NVDLA_UNIT_CDMA].single[NVDLA_CDMA_S_CBUF_FLUSH_STATUS / 4] =
		NVDLA_CDMA_S_CBUF_FLUSH_STATUS_FLUSH_DONE_MASK;
}

static u32 sim_status(const struct sim_unit *u, int g)
{
	if (!u->op_en[g])
		return 0;
	return u->consumer == g ? STATUS_RUNNING : STATUS_PENDING;
}

u32 sim_regfile_read(struct nvdla_sim *sim, int unit, u32 reg)
{
	const struct sim_unit *u = &sim->units[unit];
	u32 enable = sim_op_enable[unit];

	if (reg / 4 >= SIM_UNIT_REGS)
		return 0;
	if (reg == 0)		/* S_STATUS */
		return sim_status(u, 0) | sim_status(u, 1) << STATUS_1_SHIFT;
	if (reg == 4)		/* S_POINTER */
		return u->producer | (u32)u->consumer << POINTER_CONSUMER_SHIFT;
	if (reg < enable)
		return sim_lut_port_read(sim, unit, reg, u->single[reg / 4]);
	if (reg == enable)
		return u->op_en[u->producer];
	return u->group[u->producer][reg / 4];
}

void sim_regfile_write(struct nvdla_sim *sim, int unit, u32 reg, u32 val)
{
	struct sim_unit *u = &sim->units[unit];
	u32 enable = sim_op_enable[unit];

	if (reg / 4 >= SIM_UNIT_REGS || reg == 0)
		return;
	if (reg == 4) {
		u->producer = val & 1;
	} else if (unit == NVDLA_UNIT_CDMA &&
		   reg == NVDLA_CDMA_S_CBUF_FLUSH_STATUS) {
		/* Software clears it; the model's next run flushes. */
		u->single[reg / 4] = val;
		sim->host.kick(sim->host.ctx);
	} else if (reg < enable) {
		u->single[reg / 4] = val;
		sim_lut_port_write(sim, unit, reg, val);
	} else if (u->op_en[u->producer]) {
		return;		/* the group is running or queued */
	} else if (reg == enable) {
		if (val & 1) {
			u->op_en[u->producer] = true;
			if (unit == NVDLA_UNIT_CDMA)
				sim_cdma_nan_clear(sim, u->producer);
			sim_cbuf_enabled(sim, unit, u->producer);
			sim->host.kick(sim->host.ctx);
		}
	} else {
		u->group[u->producer][reg / 4] = val;
	}
}

bool sim_unit_ready(const struct nvdla_sim *sim, int unit)
{
	const struct sim_unit *u = &sim->units[unit];

	return u->op_en[u->consumer];
}

void sim_unit_finish(struct nvdla_sim *sim, int unit)
{
	struct sim_unit *u = &sim->units[unit];

	u->op_en[u->consumer] = false;
	u->consumer ^= 1;
}

u32 sim_reg(const struct nvdla_sim *sim, int unit, u32 reg)
{
	const struct sim_unit *u = &sim->units[unit];

	return u->group[u->consumer][reg / 4];
}

void sim_set_status(struct nvdla_sim *sim, int unit, u32 reg, u32 val)
{
	struct sim_unit *u = &sim->units[unit];

	u->group[u->consumer][reg / 4] = val;
}

u32 sim_single(const struct nvdla_sim *sim, int unit, u32 reg)
{
	return sim->units[unit].single[reg / 4];
}

u32 sim_field(const struct nvdla_sim *sim, int unit, u32 reg, u32 mask,
	      u32 shift)
{
	return (sim_reg(sim, unit, reg) & mask) >> shift;
}
