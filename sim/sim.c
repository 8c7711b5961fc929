// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Model instance: register address decoding and the work loop. Units the
 * model does not implement, or the configuration lacks, read as zero and
 * ignore writes.
 */
#include "perf.h"

size_t nvdla_sim_size(void)
{
	return sizeof(struct nvdla_sim);
}

int nvdla_sim_init(struct nvdla_sim *sim, enum nvdla_sim_config_id id,
		   const struct nvdla_sim_host *host)
{
	const struct sim_config *config = sim_config_get(id);

	if (!config || !host->bus_read || !host->bus_write ||
	    !host->bus_map || !host->kick || !host->irq)
		return -EINVAL;

	memset(sim, 0, sizeof(*sim));
	sim->config = config;
	sim->host = *host;
	sim_cdma_flush(sim);
	sim_perf_init(sim);
	return 0;
}

/*
 * Find the unit whose window holds @addr; -1 if none, or if the
 * configuration lacks it: the CSB master's dummy client then answers.
 */
static int sim_decode(const struct nvdla_sim *sim, u32 addr, u32 *reg)
{
	const u32 *base = sim->config->unit_base;
	int u;

	for (u = 0; u < NVDLA_UNIT_COUNT; u++) {
		if (base[u] != NVDLA_UNIT_ABSENT && addr >= base[u] &&
		    addr - base[u] < NVDLA_UNIT_SIZE &&
		    sim_config_has_unit(sim->config, u)) {
			*reg = addr - base[u];
			return u;
		}
	}
	return -1;
}

u32 nvdla_sim_reg_read(struct nvdla_sim *sim, u32 addr)
{
	u32 reg;
	int unit = sim_decode(sim, addr & ~3u, &reg);

	if (unit == NVDLA_UNIT_GLB)
		return sim_glb_read(sim, reg);
	if (unit == NVDLA_UNIT_BDMA)
		return sim_bdma_read(sim, reg);
	if (unit >= 0 && sim_unit_grouped(unit))
		return sim_regfile_read(sim, unit, reg);
	return 0;
}

void nvdla_sim_reg_write(struct nvdla_sim *sim, u32 addr, u32 val)
{
	u32 reg;
	int unit = sim_decode(sim, addr & ~3u, &reg);

	if (unit == NVDLA_UNIT_GLB)
		sim_glb_write(sim, reg, val);
	else if (unit == NVDLA_UNIT_BDMA)
		sim_bdma_write(sim, reg, val);
	else if (unit >= 0 && sim_unit_grouped(unit))
		sim_regfile_write(sim, unit, reg, val);
}

void nvdla_sim_skip_values(struct nvdla_sim *sim, bool off)
{
	sim->no_values = off;
}

bool nvdla_sim_run(struct nvdla_sim *sim)
{
	bool progress, more;

	if (sim->stopped)
		return false;
	if (!sim->hung) {
		sim_cdma_flush(sim);
		sim_bdma_run(sim);
	}
	/* An engine finishing may let the next queued group start. */
	while (!sim->hung && !sim->stopped) {
		progress = sim_sdp_run(sim) || sim_pdp_run(sim) ||
			   sim_cdp_run(sim) || sim_rubik_run(sim);
		if (!progress)
			break;
	}
	if (sim->stopped)
		return false;
	more = sim_glb_deliver(sim);
	if (more)
		sim->host.kick(sim->host.ctx);
	return more;
}

bool sim_slice(struct nvdla_sim *sim, u64 work)
{
	sim->slice_work += work;
	if (sim->slice_work >= SIM_SLICE_WORK && !sim->stopped &&
	    sim->host.yield) {
		sim->slice_work = 0;
		sim->stopped = sim->host.yield(sim->host.ctx);
	}
	return sim->stopped;
}

bool sim_work_ok(const struct nvdla_sim *sim, u64 work)
{
	u64 max = sim->host.max_work ? sim->host.max_work :
		  NVDLA_SIM_DEFAULT_MAX_WORK;

	return work <= max;
}

void *sim_map(struct nvdla_sim *sim, u64 addr, u64 len)
{
	return sim->host.bus_map(sim->host.ctx, addr, len);
}

bool nvdla_sim_irq_level(const struct nvdla_sim *sim)
{
	return sim->irq_level;
}

u32 nvdla_sim_fault_count(const struct nvdla_sim *sim)
{
	return sim->faults;
}

void *sim_map_ram(struct nvdla_sim *sim, u32 ram, u64 addr, u64 len)
{
	if (ram == SIM_RAM_MC)
		return sim_map(sim, addr, len);
	if (!sim->config->cvsram)
		return NULL;
	return sim->host.cv_map ? sim->host.cv_map(sim->host.ctx, addr, len) :
		sim_map(sim, addr, len);
}

void *sim_map_ram_out(struct nvdla_sim *sim, u32 ram, u64 addr, u64 len)
{
	void *p = sim_map_ram(sim, ram, addr, len);

	if (p && sim->host.map_write)
		sim->host.map_write(sim->host.ctx, addr, len);
	return p;
}

static int sim_bus_read(struct nvdla_sim *sim, u32 ram, u64 addr, u32 len)
{
	if (ram == SIM_RAM_MC || !sim->host.cv_read)
		return sim->host.bus_read(sim->host.ctx, addr, sim->bounce, len);
	return sim->host.cv_read(sim->host.ctx, addr, sim->bounce, len);
}

static int sim_bus_write(struct nvdla_sim *sim, u32 ram, u64 addr, u32 len)
{
	if (ram == SIM_RAM_MC || !sim->host.cv_write)
		return sim->host.bus_write(sim->host.ctx, addr, sim->bounce, len);
	return sim->host.cv_write(sim->host.ctx, addr, sim->bounce, len);
}

/* Only the BDMA copies, and every configuration with it has the CVSRAM. */
int sim_dma_copy(struct nvdla_sim *sim, u32 dst_ram, u64 dst, u32 src_ram,
		 u64 src, u64 len)
{
	while (len) {
		u32 chunk = len < SIM_BOUNCE_SIZE ? len : SIM_BOUNCE_SIZE;
		int ret;

		ret = sim_bus_read(sim, src_ram, src, chunk);
		if (!ret)
			ret = sim_bus_write(sim, dst_ram, dst, chunk);
		if (ret)
			return ret;
		src += chunk;
		dst += chunk;
		len -= chunk;
	}
	return 0;
}
