// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * GLB: hardware version and the interrupt block. Done pulses set status
 * bits whatever the mask; writing 1 to S_INTR_SET sets them too, writing 1
 * to S_INTR_STATUS clears them. The line is level: any status bit whose
 * mask bit is 0.
 */
#include "perf.h"

#define GLB_HW_VERSION 0x00303031u
#define GLB_INTR_BITS 0x003f03ffu	/* bits 0-9 and 16-21 exist */

static void sim_glb_update_irq(struct nvdla_sim *sim)
{
	bool level = sim->intr_status & ~sim->intr_mask & GLB_INTR_BITS;

	if (level != sim->irq_level) {
		sim->irq_level = level;
		sim->host.irq(sim->host.ctx, level);
	}
}

static void sim_glb_raise(struct nvdla_sim *sim, u32 bits)
{
	sim->intr_status |= bits & GLB_INTR_BITS;
	sim_glb_update_irq(sim);
}

void sim_glb_done(struct nvdla_sim *sim, u32 bits)
{
	sim_perf_done(sim, bits);
	if (sim->done_count == SIM_DONE_QUEUE) {
		sim_glb_raise(sim, bits);
		return;
	}
	sim->done_queue[(sim->done_head + sim->done_count++) % SIM_DONE_QUEUE] =
		bits;
	sim->host.kick(sim->host.ctx);
}

bool sim_glb_deliver(struct nvdla_sim *sim)
{
	if (!sim->done_count)
		return false;
	sim_glb_raise(sim, sim->done_queue[sim->done_head]);
	sim->done_head = (sim->done_head + 1) % SIM_DONE_QUEUE;
	sim->done_count--;
	return sim->done_count != 0;
}

bool sim_glb_pending(const struct nvdla_sim *sim, u32 bits)
{
	u32 queued = 0;
	u8 i;

	for (i = 0; i < sim->done_count; i++)
		queued |= sim->done_queue[(sim->done_head + i) % SIM_DONE_QUEUE];
	return (sim->intr_status | queued) & bits;
}

u32 sim_glb_read(struct nvdla_sim *sim, u32 reg)
{
	switch (reg) {
	case NVDLA_GLB_S_NVDLA_HW_VERSION:
		return GLB_HW_VERSION;
	case NVDLA_GLB_S_INTR_MASK:
		return sim->intr_mask;
	case NVDLA_GLB_S_INTR_STATUS:
		return sim->intr_status;
	default:
		return 0;	/* S_INTR_SET reads as zero */
	}
}

void sim_glb_write(struct nvdla_sim *sim, u32 reg, u32 val)
{
	switch (reg) {
	case NVDLA_GLB_S_INTR_MASK:
		sim->intr_mask = val & GLB_INTR_BITS;
		break;
	case NVDLA_GLB_S_INTR_SET:
		sim->intr_status |= val & GLB_INTR_BITS;
		break;
	case NVDLA_GLB_S_INTR_STATUS:
		sim_perf_handled(sim, val & sim->intr_status);
		sim->intr_status &= ~val;
		break;
	default:
		return;
	}
	sim_glb_update_irq(sim);
}
