// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * BDMA: CFG_OP.EN pushes the latched CFG_* registers into a 20-entry FIFO;
 * CFG_LAUNCH0/1 closes the queued transfers into interrupt group 0/1. The
 * copies run in nvdla_sim_run(); when a group's last transfer is done its
 * GLB done bit is raised. A transfer the bus refuses is counted as a fault
 * and still completes its group, so that the host sees an error rather
 * than a hang.
 */
#include "perf.h"

#define BDMA_ATOM 32u

static u32 bdma_cfg(const struct nvdla_sim *sim, u32 reg)
{
	return sim->bdma.cfg[reg / 4];
}

static u64 bdma_addr(const struct nvdla_sim *sim, u32 low, u32 high)
{
	return (u64)bdma_cfg(sim, high) << 32 |
	       (bdma_cfg(sim, low) & sim->config->addr_low_mask);
}

static u32 bdma_stride(const struct nvdla_sim *sim, u32 reg)
{
	return bdma_cfg(sim, reg) & sim->config->addr_low_mask;
}

static void bdma_push(struct nvdla_sim *sim)
{
	struct sim_bdma *b = &sim->bdma;
	struct sim_bdma_transfer *x;

	if (b->count == SIM_BDMA_FIFO_DEPTH) {
		sim->faults++;	/* software ignored FREE_SLOT */
		return;
	}
	x = &b->fifo[(b->head + b->count) % SIM_BDMA_FIFO_DEPTH];
	b->count++;
	x->src = bdma_addr(sim, NVDLA_BDMA_CFG_SRC_ADDR_LOW,
			   NVDLA_BDMA_CFG_SRC_ADDR_HIGH);
	x->src_ram = bdma_cfg(sim, NVDLA_BDMA_CFG_CMD) &
		     NVDLA_BDMA_CFG_CMD_SRC_RAM_TYPE_MASK;
	x->dst_ram = (bdma_cfg(sim, NVDLA_BDMA_CFG_CMD) &
		      NVDLA_BDMA_CFG_CMD_DST_RAM_TYPE_MASK) >>
		     NVDLA_BDMA_CFG_CMD_DST_RAM_TYPE_SHIFT;
	x->dst = bdma_addr(sim, NVDLA_BDMA_CFG_DST_ADDR_LOW,
			   NVDLA_BDMA_CFG_DST_ADDR_HIGH);
	x->line_bytes = ((bdma_cfg(sim, NVDLA_BDMA_CFG_LINE) &
			  NVDLA_BDMA_CFG_LINE_SIZE_MASK) + 1) * BDMA_ATOM;
	x->lines = (bdma_cfg(sim, NVDLA_BDMA_CFG_LINE_REPEAT) &
		    NVDLA_BDMA_CFG_LINE_REPEAT_NUMBER_MASK) + 1;
	x->surfaces = (bdma_cfg(sim, NVDLA_BDMA_CFG_SURF_REPEAT) &
		       NVDLA_BDMA_CFG_SURF_REPEAT_NUMBER_MASK) + 1;
	x->src_line = bdma_stride(sim, NVDLA_BDMA_CFG_SRC_LINE);
	x->dst_line = bdma_stride(sim, NVDLA_BDMA_CFG_DST_LINE);
	x->src_surf = bdma_stride(sim, NVDLA_BDMA_CFG_SRC_SURF);
	x->dst_surf = bdma_stride(sim, NVDLA_BDMA_CFG_DST_SURF);
	x->launched = false;
}

static void bdma_launch(struct nvdla_sim *sim, u8 group)
{
	struct sim_bdma *b = &sim->bdma;
	bool any = false;
	int i;

	for (i = 0; i < b->count; i++) {
		struct sim_bdma_transfer *x =
			&b->fifo[(b->head + i) % SIM_BDMA_FIFO_DEPTH];

		if (!x->launched) {
			x->launched = true;
			x->group = group;
			any = true;
		}
	}
	if (any) {
		b->busy[group] = true;
		b->stall[group][0] = 0;
		b->stall[group][1] = 0;
		sim->host.kick(sim->host.ctx);
	}
}

u32 sim_bdma_read(struct nvdla_sim *sim, u32 reg)
{
	const struct sim_bdma *b = &sim->bdma;

	if (reg == NVDLA_BDMA_STATUS)
		return (SIM_BDMA_FIFO_DEPTH - b->count)
			<< NVDLA_BDMA_STATUS_FREE_SLOT_SHIFT |
		       (u32)(!b->count) << NVDLA_BDMA_STATUS_IDLE_SHIFT |
		       (u32)b->busy[0] << NVDLA_BDMA_STATUS_GRP0_BUSY_SHIFT |
		       (u32)b->busy[1] << NVDLA_BDMA_STATUS_GRP1_BUSY_SHIFT;
	if (reg <= NVDLA_BDMA_CFG_STATUS)
		return b->cfg[reg / 4];
	if (reg >= NVDLA_BDMA_STATUS_GRP0_READ_STALL &&
	    reg <= NVDLA_BDMA_STATUS_GRP1_WRITE_STALL)
		return b->stall[(reg - NVDLA_BDMA_STATUS_GRP0_READ_STALL) / 8]
			       [(reg - NVDLA_BDMA_STATUS_GRP0_READ_STALL) / 4 % 2];
	return 0;
}

void sim_bdma_write(struct nvdla_sim *sim, u32 reg, u32 val)
{
	switch (reg) {
	case NVDLA_BDMA_CFG_OP:
		sim->bdma.cfg[reg / 4] = val & NVDLA_BDMA_CFG_OP_EN_MASK;
		if (val & NVDLA_BDMA_CFG_OP_EN_MASK)
			bdma_push(sim);
		break;
	case NVDLA_BDMA_CFG_LAUNCH0:
	case NVDLA_BDMA_CFG_LAUNCH1:
		/* Reads back 1 until the group is done. */
		if (val & 1) {
			sim->bdma.cfg[reg / 4] = 1;
			bdma_launch(sim, reg == NVDLA_BDMA_CFG_LAUNCH1);
		}
		break;
	default:
		if (reg < NVDLA_BDMA_CFG_OP)
			sim->bdma.cfg[reg / 4] = val;
		break;
	}
}

static int bdma_copy(struct nvdla_sim *sim, const struct sim_bdma_transfer *x)
{
	u32 s, l;
	int ret;

	for (s = 0; s < x->surfaces; s++) {
		for (l = 0; l < x->lines; l++) {
			ret = sim_dma_copy(sim, x->dst_ram,
					   x->dst + (u64)s * x->dst_surf +
					   (u64)l * x->dst_line, x->src_ram,
					   x->src + (u64)s * x->src_surf +
					   (u64)l * x->src_line,
					   x->line_bytes);
			if (ret)
				return ret;
			if (sim_slice(sim, x->line_bytes / BDMA_ATOM))
				return 0;
		}
	}
	return 0;
}

static bool bdma_group_queued(const struct sim_bdma *b, u8 group)
{
	int i;

	for (i = 0; i < b->count; i++) {
		const struct sim_bdma_transfer *x =
			&b->fifo[(b->head + i) % SIM_BDMA_FIFO_DEPTH];

		if (x->launched && x->group == group)
			return true;
	}
	return false;
}

bool sim_bdma_run(struct nvdla_sim *sim)
{
	struct sim_bdma *b = &sim->bdma;

	while (b->count && b->fifo[b->head].launched) {
		struct sim_bdma_transfer *x = &b->fifo[b->head];
		u8 group = x->group;

		/* Transfers of the other group end this one's estimate. */
		if (sim->perf.open && sim->perf.cur.group != group)
			sim_perf_end(sim);
		sim_perf_bdma(sim, x);
		if (!sim_work_ok(sim, (u64)x->lines * x->surfaces *
				 (x->line_bytes / BDMA_ATOM)) || bdma_copy(sim, x))
			sim->faults++;
		b->head = (b->head + 1) % SIM_BDMA_FIFO_DEPTH;
		b->count--;
		if (!bdma_group_queued(b, group)) {
			sim_perf_end(sim);
			b->busy[group] = false;
			b->cfg[(group ? NVDLA_BDMA_CFG_LAUNCH1 :
				NVDLA_BDMA_CFG_LAUNCH0) / 4] = 0;
			sim_glb_done(sim, group ?
				     NVDLA_GLB_S_INTR_STATUS_BDMA_DONE_STATUS1_MASK :
				     NVDLA_GLB_S_INTR_STATUS_BDMA_DONE_STATUS0_MASK);
		}
	}
	return false;
}
