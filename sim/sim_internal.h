/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* State of one hardware model instance, shared by the unit models. */
#ifndef __NVDLA_SIM_INTERNAL_H__
#define __NVDLA_SIM_INTERNAL_H__

#include <nvdla/regs.h>
#include <nvdla/sim.h>

#define SIM_BDMA_FIFO_DEPTH 20
#define SIM_BOUNCE_SIZE 4096

/* What differs between hardware configurations. */
struct sim_config {
	const char *name;
	const u32 *unit_base;
	bool bdma;
	u32 addr_low_mask;	/* bits an *_ADDR_LOW / stride register keeps */
};

struct sim_bdma_transfer {
	u64 src, dst;
	u32 line_bytes, lines, surfaces;
	u32 src_line, dst_line, src_surf, dst_surf;
	u8 group;		/* launch group, valid once launched */
	bool launched;
};

struct sim_bdma {
	u32 cfg[NVDLA_BDMA_CFG_STATUS / 4 + 1];	/* latched CFG_* registers */
	struct sim_bdma_transfer fifo[SIM_BDMA_FIFO_DEPTH];
	u8 head, count;		/* ring of queued transfers */
	bool busy[2];		/* launch group has transfers in flight */
};

struct nvdla_sim {
	const struct sim_config *config;
	struct nvdla_sim_host host;
	u32 intr_mask, intr_status;
	bool irq_level;
	u32 faults;
	struct sim_bdma bdma;
	u8 bounce[SIM_BOUNCE_SIZE];
};

/* GLB: raise the done bits @bits and update the interrupt line. */
void sim_glb_done(struct nvdla_sim *sim, u32 bits);
u32 sim_glb_read(struct nvdla_sim *sim, u32 reg);
void sim_glb_write(struct nvdla_sim *sim, u32 reg, u32 val);

u32 sim_bdma_read(struct nvdla_sim *sim, u32 reg);
void sim_bdma_write(struct nvdla_sim *sim, u32 reg, u32 val);
bool sim_bdma_run(struct nvdla_sim *sim);

/* Copy @len bytes between device addresses through the host bus. */
int sim_dma_copy(struct nvdla_sim *sim, u64 dst, u64 src, u64 len);

#endif /* __NVDLA_SIM_INTERNAL_H__ */
