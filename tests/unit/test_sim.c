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
#define RBK 0x10000u
#define SDP_RDMA 0xa000u
#define SDP 0xb000u
#define PDP_RDMA 0xc000u
#define PDP 0xd000u

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

static void rbk_common(uint32_t mode, uint32_t w, uint32_t h, uint32_t c,
		       uint64_t in, uint64_t out)
{
	/* Program the group the datapath consumes next. */
	wr(RBK + NVDLA_RBK_S_POINTER, rd(RBK + NVDLA_RBK_S_POINTER) >> 16);
	wr(RBK + NVDLA_RBK_D_MISC_CFG, mode);	/* int8 */
	wr(RBK + NVDLA_RBK_D_DATAIN_SIZE_0, (h - 1) << 16 | (w - 1));
	wr(RBK + NVDLA_RBK_D_DATAIN_SIZE_1, c - 1);
	wr(RBK + NVDLA_RBK_D_DAIN_ADDR_LOW, (uint32_t)in);
	wr(RBK + NVDLA_RBK_D_DAIN_ADDR_HIGH, in >> 32);
	wr(RBK + NVDLA_RBK_D_DAOUT_ADDR_LOW, (uint32_t)out);
	wr(RBK + NVDLA_RBK_D_DAOUT_ADDR_HIGH, out >> 32);
}

static void rbk_run(void)
{
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, ~0u);
	wr(RBK + NVDLA_RBK_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
}

/* Contract 2x1: output pixels interleave the two input surface groups. */
static void test_rubik_contract(void)
{
	uint8_t *in = host.mem + 0x1000, *out = host.mem + 0x2000;
	int k;

	memset(host.mem, 0, MEM_SIZE);
	for (k = 0; k < 4 * 32; k++)
		in[k] = k;	/* surface 0: atoms 0, 1; surface 1: atoms 2, 3 */
	rbk_common(0, 2, 1, 64, MEM_BASE + 0x1000, MEM_BASE + 0x2000);
	wr(RBK + NVDLA_RBK_D_DATAOUT_SIZE_1, 31);
	wr(RBK + NVDLA_RBK_D_DECONV_STRIDE, 1);	/* sx 2, sy 1 */
	wr(RBK + NVDLA_RBK_D_DAIN_LINE_STRIDE, 64);
	wr(RBK + NVDLA_RBK_D_DAIN_SURF_STRIDE, 64);
	wr(RBK + NVDLA_RBK_D_DAOUT_LINE_STRIDE, 128);
	wr(RBK + NVDLA_RBK_D_DAOUT_SURF_STRIDE, 128);
	wr(RBK + NVDLA_RBK_D_CONTRACT_STRIDE_1, 128);
	rbk_run();
	/* Output line: input atoms 0, 2, 1, 3. */
	tap_ok(!memcmp(out, in, 32) && !memcmp(out + 32, in + 64, 32) &&
	       !memcmp(out + 64, in + 32, 32) && !memcmp(out + 96, in + 96, 32),
	       "rubik contract 2x1 interleaves input surfaces atom by atom");
	tap_ok(rd(GLB + NVDLA_GLB_S_INTR_STATUS) == 1u << 8 &&
	       rd(RBK + NVDLA_RBK_S_POINTER) == 1u << 16,
	       "rubik raises RUBIK_DONE_STATUS0 and consumes group 1 next");
}

/* Split a 3x2x40 cube into planes and merge them back. */
static void test_rubik_split_merge(void)
{
	uint8_t *cube = host.mem + 0x1000, *back = host.mem + 0x8000;
	const uint32_t w = 3, h = 2, c = 40;
	uint32_t x, y, ch, ok = 1;

	memset(host.mem, 0, MEM_SIZE);
	for (ch = 0; ch < 64; ch++)
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				cube[(ch / 32) * 0x200 + y * 0x100 + x * 32 + ch % 32] =
					ch < c ? (uint8_t)(ch * 7 + y * 3 + x + 1) : 0xee;
	rbk_common(1, w, h, c, MEM_BASE + 0x1000, MEM_BASE + 0x4000);
	wr(RBK + NVDLA_RBK_D_DAIN_LINE_STRIDE, 0x100);
	wr(RBK + NVDLA_RBK_D_DAIN_SURF_STRIDE, 0x200);
	wr(RBK + NVDLA_RBK_D_DAOUT_LINE_STRIDE, 64);
	wr(RBK + NVDLA_RBK_D_DAOUT_PLANAR_STRIDE, 128);
	rbk_run();
	for (ch = 0; ch < c; ch++)
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				ok &= host.mem[0x4000 + ch * 128 + y * 64 + x] ==
				      (uint8_t)(ch * 7 + y * 3 + x + 1);
	tap_ok(ok && host.mem[0x4000 + 3] == 0,
	       "rubik split: channel c, row y, element x at c*planar + y*line + x; tail zero");

	rbk_common(2, w, h, c, MEM_BASE + 0x4000, MEM_BASE + 0x8000);
	wr(RBK + NVDLA_RBK_D_DAIN_LINE_STRIDE, 64);
	wr(RBK + NVDLA_RBK_D_DAIN_PLANAR_STRIDE, 128);
	wr(RBK + NVDLA_RBK_D_DAOUT_LINE_STRIDE, 0x100);
	wr(RBK + NVDLA_RBK_D_DAOUT_SURF_STRIDE, 0x200);
	rbk_run();
	for (ch = 0; ch < 64; ch++)
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				ok &= back[(ch / 32) * 0x200 + y * 0x100 + x * 32 + ch % 32] ==
				      (ch < c ? cube[(ch / 32) * 0x200 + y * 0x100 +
						     x * 32 + ch % 32] : 0);
	tap_ok(ok, "rubik merge restores the cube, padding channels zero");
}

/* Select the next group of a unit, write a register of it. */
static void next_group(uint32_t unit)
{
	wr(unit + 4, rd(unit + 4) >> 16);
}

/* SDP on an 8x8x32 int8 cube: add 50 (BS ALU), ReLU; to memory or PDP. */
static void sdp_layer(bool to_pdp)
{
	next_group(SDP);
	next_group(SDP_RDMA);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE, 256);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE, 2048);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_BRDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_NRDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_ERDMA_CFG, 1);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_WIDTH, 7);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_HEIGHT, 7);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_CHANNEL, 31);
	wr(SDP + NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + 0x1000);
	wr(SDP + NVDLA_SDP_D_DST_LINE_STRIDE, 256);
	wr(SDP + NVDLA_SDP_D_DST_SURFACE_STRIDE, 2048);
	wr(SDP + NVDLA_SDP_D_DP_BS_CFG, 2 << 2 | 1 << 4);	/* SUM, no MUL */
	wr(SDP + NVDLA_SDP_D_DP_BS_ALU_SRC_VALUE, 50);
	wr(SDP + NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(SDP + NVDLA_SDP_D_DP_EW_CFG, 1);
	wr(SDP + NVDLA_SDP_D_CVT_SCALE, 1);
	wr(SDP + NVDLA_SDP_D_FEATURE_MODE_CFG, to_pdp ? 2 : 0);
}

/* PDP 2x2 max, stride 2, 8x8x32 to 4x4x32, from memory or the SDP. */
static void pdp_layer(bool flying, uint32_t out)
{
	next_group(PDP);
	next_group(PDP_RDMA);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE + 0x1000);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_SRC_LINE_STRIDE, 256);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_SRC_SURFACE_STRIDE, 2048);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_IN_WIDTH, 7);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_IN_HEIGHT, 7);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_IN_CHANNEL, 31);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_OUT_WIDTH, 3);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_OUT_HEIGHT, 3);
	wr(PDP + NVDLA_PDP_D_OPERATION_MODE_CFG, flying ? 1 : 0x11);
	wr(PDP + NVDLA_PDP_D_POOLING_KERNEL_CFG, 1 << 20 | 1 << 16 | 1 << 8 | 1);
	wr(PDP + NVDLA_PDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + out);
	wr(PDP + NVDLA_PDP_D_DST_LINE_STRIDE, 128);
	wr(PDP + NVDLA_PDP_D_DST_SURFACE_STRIDE, 512);
}

/* SDP streaming into PDP equals SDP to memory, then PDP from it. */
static void test_sdp_to_pdp(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);
	uint32_t first, second;
	int i;

	memset(host.mem, 0, MEM_SIZE);
	for (i = 0; i < 2048; i++)
		host.mem[i] = (uint8_t)(i * 37 + 11);
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, ~0u);

	sdp_layer(false);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	pdp_layer(false, 0x3000);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_OP_ENABLE, 1);
	wr(PDP + NVDLA_PDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, ~0u);

	pdp_layer(true, 0x4000);
	wr(PDP + NVDLA_PDP_D_OP_ENABLE, 1);
	sdp_layer(true);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	nvdla_sim_run(sim);
	first = rd(GLB + NVDLA_GLB_S_INTR_STATUS);
	nvdla_sim_run(sim);
	second = rd(GLB + NVDLA_GLB_S_INTR_STATUS);

	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       !memcmp(host.mem + 0x3000, host.mem + 0x4000, 2048),
	       "SDP streamed into PDP equals SDP to memory then PDP");
	tap_ok((first & 0x3) && !(first & 0x30) && (second & 0x30),
	       "the SDP's done pulse comes before the PDP's (0x%x, then 0x%x)",
	       first, second);
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
	tap_ok(nvdla_sim_config_by_name("nv_small_256", &id) == 0 &&
	       id == NVDLA_SIM_NV_SMALL_256, "nv_small_256 is a configuration");
	tap_ok(nvdla_sim_config_by_name("nv_full", &id) == 0,
	       "nv_full found again");
	tap_ok(nvdla_sim_config_by_name("nv_tiny", &id) == -EINVAL,
	       "unknown configuration name refused");
	test_glb();
	test_bdma_copy();
	test_bdma_fault();
	test_rubik_contract();
	test_rubik_split_merge();
	test_sdp_to_pdp();
	free(sim);
	return tap_done();
}
