// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Hardware model, driven through its registers as a driver would: GLB
 * interrupt semantics, BDMA copies checked against a plain loop, and a
 * copy the bus refuses ending as a reported fault, not a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/regs.h>
#include <nvdla/sim.h>

#include "tap.h"

#define MEM_BASE 0x80000000ull
#define MEM_SIZE (64 * 1024)
#define GLB 0x0000u	/* nv_full unit bases */
#define BDMA 0x4000u

struct host {
	uint8_t mem[MEM_SIZE];
	int kicks;
	int irq_edges;
	bool level;
};

static int bus_read(void *ctx, uint64_t addr, void *dst, uint32_t len)
{
	struct host *h = ctx;

	if (addr < MEM_BASE || addr - MEM_BASE > MEM_SIZE ||
	    len > MEM_SIZE - (addr - MEM_BASE))
		return -EFAULT;
	memcpy(dst, h->mem + (addr - MEM_BASE), len);
	return 0;
}

static int bus_write(void *ctx, uint64_t addr, const void *src, uint32_t len)
{
	struct host *h = ctx;

	if (addr < MEM_BASE || addr - MEM_BASE > MEM_SIZE ||
	    len > MEM_SIZE - (addr - MEM_BASE))
		return -EFAULT;
	memcpy(h->mem + (addr - MEM_BASE), src, len);
	return 0;
}

static void *bus_map(void *ctx, uint64_t addr, uint64_t len)
{
	struct host *h = ctx;

	if (addr < MEM_BASE || addr - MEM_BASE > MEM_SIZE ||
	    len > MEM_SIZE - (addr - MEM_BASE))
		return NULL;
	return h->mem + (addr - MEM_BASE);
}

static void kick(void *ctx)
{
	((struct host *)ctx)->kicks++;
}

static void irq(void *ctx, bool level)
{
	struct host *h = ctx;

	h->irq_edges++;
	h->level = level;
}

static struct nvdla_sim *sim;
static struct host host;

static void wr(uint32_t addr, uint32_t val)
{
	nvdla_sim_reg_write(sim, addr, val);
}

static uint32_t rd(uint32_t addr)
{
	return nvdla_sim_reg_read(sim, addr);
}

static void test_glb(void)
{
	tap_ok(rd(GLB + NVDLA_GLB_S_NVDLA_HW_VERSION) == 0x00303031,
	       "GLB version reads 0x00303031");
	tap_ok(rd(GLB + NVDLA_GLB_S_INTR_MASK) == 0 &&
	       rd(GLB + NVDLA_GLB_S_INTR_STATUS) == 0 && !host.level,
	       "reset: nothing masked, nothing pending, line low");

	wr(GLB + NVDLA_GLB_S_INTR_MASK, 0xffffffff);
	tap_ok(rd(GLB + NVDLA_GLB_S_INTR_MASK) == 0x003f03ff,
	       "mask keeps only the 16 interrupt bits");
	wr(GLB + NVDLA_GLB_S_INTR_SET, 1u << 6);
	tap_ok(rd(GLB + NVDLA_GLB_S_INTR_STATUS) == 1u << 6 && !host.level,
	       "INTR_SET sets status; a masked bit keeps the line low");
	wr(GLB + NVDLA_GLB_S_INTR_MASK, ~(1u << 6));
	tap_ok(host.level && nvdla_sim_irq_level(sim),
	       "unmasking a pending bit raises the line");
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, 1u << 7);
	tap_ok(host.level, "writing 1 to another bit clears nothing pending");
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, 1u << 6);
	tap_ok(!host.level && rd(GLB + NVDLA_GLB_S_INTR_STATUS) == 0,
	       "write-1-to-clear drops the line");
}

static void bdma_transfer(uint64_t src, uint64_t dst, uint32_t line,
			  uint32_t lines, uint32_t surfs, uint32_t sstride,
			  uint32_t dstride)
{
	wr(BDMA + NVDLA_BDMA_CFG_SRC_ADDR_LOW, (uint32_t)src);
	wr(BDMA + NVDLA_BDMA_CFG_SRC_ADDR_HIGH, (uint32_t)(src >> 32));
	wr(BDMA + NVDLA_BDMA_CFG_DST_ADDR_LOW, (uint32_t)dst);
	wr(BDMA + NVDLA_BDMA_CFG_DST_ADDR_HIGH, (uint32_t)(dst >> 32));
	wr(BDMA + NVDLA_BDMA_CFG_LINE, line / 32 - 1);
	wr(BDMA + NVDLA_BDMA_CFG_CMD, 3);
	wr(BDMA + NVDLA_BDMA_CFG_LINE_REPEAT, lines - 1);
	wr(BDMA + NVDLA_BDMA_CFG_SRC_LINE, sstride);
	wr(BDMA + NVDLA_BDMA_CFG_DST_LINE, dstride);
	wr(BDMA + NVDLA_BDMA_CFG_SURF_REPEAT, surfs - 1);
	wr(BDMA + NVDLA_BDMA_CFG_SRC_SURF, sstride * lines);
	wr(BDMA + NVDLA_BDMA_CFG_DST_SURF, dstride * lines);
	wr(BDMA + NVDLA_BDMA_CFG_OP, 1);
}

static void test_bdma_copy(void)
{
	const uint32_t line = 96, lines = 5, surfs = 3, ss = 128, ds = 160;
	uint8_t expect[MEM_SIZE];
	uint32_t s, l, i;
	bool same;

	for (i = 0; i < MEM_SIZE; i++)
		host.mem[i] = (uint8_t)(i * 7 + (i >> 8));
	memcpy(expect, host.mem, MEM_SIZE);
	/* The plain loop the model must agree with. */
	for (s = 0; s < surfs; s++)
		for (l = 0; l < lines; l++)
			memcpy(expect + 0x8000 + (s * lines + l) * ds,
			       expect + 0x100 + (s * lines + l) * ss, line);

	tap_ok((rd(BDMA + NVDLA_BDMA_STATUS) & 0x1ff) == 0x114,
	       "BDMA status at reset: 20 free slots, idle");
	wr(GLB + NVDLA_GLB_S_INTR_MASK, 0);
	bdma_transfer(MEM_BASE + 0x100, MEM_BASE + 0x8000, line, lines, surfs,
		      ss, ds);
	tap_ok((rd(BDMA + NVDLA_BDMA_STATUS) & 0xff) == 19,
	       "CFG_OP.EN queues one transfer");
	tap_ok(host.kicks == 0, "nothing runs before the launch");
	wr(BDMA + NVDLA_BDMA_CFG_LAUNCH1, 1);
	tap_ok(host.kicks == 1 && (rd(BDMA + NVDLA_BDMA_STATUS) >> 10 & 1),
	       "launch of group 1 kicks the host and marks the group busy");
	nvdla_sim_run(sim);
	same = !memcmp(host.mem, expect, MEM_SIZE);
	tap_ok(same, "copy equals the reference loop, nothing else touched");
	tap_ok(rd(GLB + NVDLA_GLB_S_INTR_STATUS) == 1u << 7 && host.level,
	       "group 1 done raises BDMA_DONE_STATUS1 and the line");
	tap_ok((rd(BDMA + NVDLA_BDMA_STATUS) & 0x7ff) == 0x114,
	       "BDMA idle again with 20 free slots");
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, 1u << 7);
}

static void test_bdma_fault(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	bdma_transfer(MEM_BASE + MEM_SIZE - 64, MEM_BASE, 128, 1, 1, 128, 128);
	wr(BDMA + NVDLA_BDMA_CFG_LAUNCH0, 1);
	nvdla_sim_run(sim);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1,
	       "a read past the host's memory is counted as a fault");
	tap_ok(rd(GLB + NVDLA_GLB_S_INTR_STATUS) == 1u << 6,
	       "the faulting group still completes (no hang)");
}

int main(void)
{
	const struct nvdla_sim_host h = {
		.ctx = &host, .bus_read = bus_read, .bus_write = bus_write,
		.bus_map = bus_map, .kick = kick, .irq = irq,
	};
	enum nvdla_sim_config_id id;

	sim = calloc(1, nvdla_sim_size());
	tap_ok(nvdla_sim_config_by_name("nv_full", &id) == 0 &&
	       nvdla_sim_init(sim, id, &h) == 0, "model starts as nv_full");
	tap_ok(nvdla_sim_config_by_name("nv_tiny", &id) == -EINVAL,
	       "unknown configuration name refused");
	test_glb();
	test_bdma_copy();
	test_bdma_fault();
	free(sim);
	return tap_done();
}
