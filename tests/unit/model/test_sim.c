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

#include "../lib/tap.h"

#define MEM_BASE 0x80000000ull
#define MEM_SIZE (64 * 1024)
#define GLB 0x0000u	/* nv_full unit bases */
#define BDMA 0x4000u
#define RBK 0x10000u
#define SDP_RDMA 0xa000u
#define SDP 0xb000u
#define PDP_RDMA 0xc000u
#define PDP 0xd000u
#define CDP_RDMA 0xe000u
#define CDP 0xf000u

struct host {
	int kicks;
	int irq_edges;
	bool level;
	int yields;
	int stop_at;	/* the yield that stops the model; 0: none */
	uint8_t mem[MEM_SIZE];	/* last: a read past it is a sanitizer finding */
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

static bool yield(void *ctx)
{
	struct host *h = ctx;

	return ++h->yields == h->stop_at;
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
static void pdp_layer(bool flying, uint32_t src, uint32_t out)
{
	next_group(PDP);
	next_group(PDP_RDMA);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE + src);
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
	pdp_layer(false, 0x1000, 0x3000);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_OP_ENABLE, 1);
	wr(PDP + NVDLA_PDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, ~0u);

	pdp_layer(true, 0x1000, 0x4000);
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

/*
 * Estimates alone (nvdla_sim_skip_values): an SDP layer streamed into the
 * PDP ends as before, both done pulses and no fault, but writes nothing;
 * with values on again the same layer writes its output.
 */
static bool sdp_pdp_writes(bool skip, bool *done)
{
	bool written = false;
	uint32_t status;
	int i;

	memset(host.mem + 0x4000, 0xee, 2048);
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, ~0u);
	nvdla_sim_skip_values(sim, skip);
	pdp_layer(true, 0x1000, 0x4000);
	wr(PDP + NVDLA_PDP_D_OP_ENABLE, 1);
	sdp_layer(true);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	nvdla_sim_skip_values(sim, false);
	status = rd(GLB + NVDLA_GLB_S_INTR_STATUS);
	for (i = 0; i < 2048; i++)
		written |= host.mem[0x4000 + i] != 0xee;
	*done = (status & 0x3) && (status & 0x30);
	return written;
}

static void test_skip_values(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);
	bool skipped, computed, done_skipped, done;
	int i;

	memset(host.mem, 0, MEM_SIZE);
	for (i = 0; i < 2048; i++)
		host.mem[i] = (uint8_t)(i * 37 + 11);
	skipped = sdp_pdp_writes(true, &done_skipped);
	computed = sdp_pdp_writes(false, &done);
	tap_ok(!skipped && done_skipped && computed && done &&
	       nvdla_sim_fault_count(sim) == faults,
	       "values skipped: SDP into PDP ends, writes nothing; on again, writes");
}

/*
 * An int8 input cube that ends at the last byte of memory pools like the
 * same cube elsewhere: the PDP reads one byte per int8 element, not two.
 */
static void test_pdp_int8_at_end(void)
{
	const uint32_t end = MEM_SIZE - 2048;	/* 8 lines of 256 bytes */
	uint32_t faults = nvdla_sim_fault_count(sim);
	int i;

	memset(host.mem, 0, MEM_SIZE);
	for (i = 0; i < 2048; i++)
		host.mem[0x1000 + i] = host.mem[end + i] = (uint8_t)(i * 29 + 5);
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, ~0u);
	pdp_layer(false, 0x1000, 0x3000);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_OP_ENABLE, 1);
	wr(PDP + NVDLA_PDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	pdp_layer(false, end, 0x4000);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_OP_ENABLE, 1);
	wr(PDP + NVDLA_PDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, ~0u);
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       !memcmp(host.mem + 0x3000, host.mem + 0x4000, 512),
	       "an int8 PDP input ending at the end of memory pools in bounds");
}

static void put16(uint32_t at, uint16_t v)
{
	host.mem[at] = v;
	host.mem[at + 1] = v >> 8;
}

static uint16_t get16(uint32_t at)
{
	return host.mem[at] | host.mem[at + 1] << 8;
}

/* The window and padding of a PDP fp16 layer (registers as written). */
struct pdp_window_cfg {
	uint32_t kernel, padding, out_height;
	uint32_t pad[2];	/* D_POOLING_PADDING_VALUE_1/2_CFG (fp17) */
};

/* 2x2 windows of stride 2, no padding: one output. */
static const struct pdp_window_cfg pdp_2x2 = {
	.kernel = 1 << 20 | 1 << 16 | 1 << 8 | 1,
};

/*
 * PDP fp16 pooling of a 2x2x16 cube at 0 (width, height and lanes), the
 * result at 0x100 (output rows 32 bytes apart), reciprocals 0.5 and 0.5.
 */
static void pdp_fp16_run(uint32_t method, bool nan_to_zero,
			 const struct pdp_window_cfg *w)
{
	next_group(PDP);
	next_group(PDP_RDMA);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_SRC_LINE_STRIDE, 64);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_SRC_SURFACE_STRIDE, 128);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_IN_WIDTH, 1);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_IN_HEIGHT, 1);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_IN_CHANNEL, 15);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_OUT_WIDTH, 0);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_OUT_HEIGHT, w->out_height);
	wr(PDP + NVDLA_PDP_D_OPERATION_MODE_CFG, 0x10 | method);
	wr(PDP + NVDLA_PDP_D_POOLING_KERNEL_CFG, w->kernel);
	wr(PDP + NVDLA_PDP_D_NAN_FLUSH_TO_ZERO, nan_to_zero);
	wr(PDP + NVDLA_PDP_D_RECIP_KERNEL_WIDTH, 0x7800);	/* fp17 0.5 */
	wr(PDP + NVDLA_PDP_D_RECIP_KERNEL_HEIGHT, 0x7800);
	wr(PDP + NVDLA_PDP_D_POOLING_PADDING_CFG, w->padding);
	wr(PDP + NVDLA_PDP_D_POOLING_PADDING_VALUE_1_CFG, w->pad[0]);
	wr(PDP + NVDLA_PDP_D_POOLING_PADDING_VALUE_2_CFG, w->pad[1]);
	wr(PDP + NVDLA_PDP_D_DATA_FORMAT, 2);
	wr(PDP + NVDLA_PDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + 0x100);
	wr(PDP + NVDLA_PDP_D_DST_LINE_STRIDE, 32);
	wr(PDP + NVDLA_PDP_D_DST_SURFACE_STRIDE, 64);
	wr(PDP_RDMA + NVDLA_PDP_RDMA_D_OP_ENABLE, 1);
	wr(PDP + NVDLA_PDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
}

static void pdp_fp16(uint32_t method, bool nan_to_zero)
{
	pdp_fp16_run(method, nan_to_zero, &pdp_2x2);
}

/* Max and min in fp16 with zeros of both signs, NaNs and infinities. */
static void test_pdp_fp16(void)
{
	static const uint16_t in[4][4] = {	/* lane, then x + 2y */
		{ 0x3c00, 0x4000, 0xbc00, 0x3800 },	/* 1, 2, -1, 0.5 */
		{ 0x8000, 0x0000, 0x8000, 0x8000 },	/* -0, +0, -0, -0 */
		{ 0x3c00, 0x7e01, 0x7e02, 0x3c00 },	/* NaNs */
		{ 0x7c00, 0x7bff, 0xfc00, 0x3c00 },	/* infinities */
	};
	uint32_t faults = nvdla_sim_fault_count(sim);
	int lane, i;

	memset(host.mem, 0, MEM_SIZE);
	for (lane = 0; lane < 4; lane++)
		for (i = 0; i < 4; i++)
			put16(i * 32 + lane * 2, in[lane][i]);
	pdp_fp16(1, false);
	tap_ok(get16(0x100) == 0x4000 && get16(0x102) == 0x0000 &&
	       get16(0x104) == 0x7e01 && get16(0x106) == 0x7c00,
	       "PDP fp16 max: 2, +0 over -0, the first NaN, +inf");
	tap_ok(rd(PDP + NVDLA_PDP_D_NAN_INPUT_NUM) == 2 &&
	       rd(PDP + NVDLA_PDP_D_INF_INPUT_NUM) == 2 &&
	       rd(PDP + NVDLA_PDP_D_NAN_OUTPUT_NUM) == 1,
	       "PDP fp16 counts 2 NaN and 2 infinite inputs, 1 NaN output");
	pdp_fp16(2, true);
	tap_ok(get16(0x100) == 0xbc00 && get16(0x102) == 0x8000 &&
	       get16(0x104) == 0x0000 && get16(0x106) == 0xfc00 &&
	       rd(PDP + NVDLA_PDP_D_NAN_OUTPUT_NUM) == 0 &&
	       rd(PDP + NVDLA_PDP_D_NAN_INPUT_NUM) == 2,
	       "PDP fp16 min with NaN_TO_ZERO: -1, -0, NaNs as +0, -inf");
	pdp_fp16(0, false);
	tap_ok(get16(0x100) == 0x3900 && get16(0x102) == 0x8000 &&
	       get16(0x104) == 0x7e02 && get16(0x106) == 0x8000,
	       "PDP fp16 average: 0.625; -0; the last row's NaN; inf - inf = -0");
	tap_ok(nvdla_sim_fault_count(sim) == faults, "no fault");
}

/*
 * fp16 average with padding values (fp17 registers: 0.5 = 0x7800, 1.0 =
 * 0x7c00), the inputs of test_pdp_fp16 (infinities widen to fp17's
 * largest finite value, which absorbs 0.5 and 1.0; its sum with its
 * negative is -0, as there). A left pad column of 0.5: each row is its
 * element plus 0.5, the rows then summed: (-1 + 0.5) + (1 + 0.5) = 1 and
 * 0.5 + 0.5, both 0.25 after the reciprocals; the NaN row stays NaN. A
 * top row too: (x + 0.5) + 0.5 * 2 (the kernel width), so 1 gives 0.625,
 * -0 gives 0.375, +inf 65504. A 4x1 window over the 2-wide rows with one
 * pad column each side: the row's two elements, then the 2x value (1.0)
 * once for both columns, at the row's last element; the 1x value, a NaN,
 * is not used: (2048 + 1) rounds to the even 2048, + 1 again to 2048,
 * 512 after the reciprocals (pads added first would give 2050); (-3 + 1)
 * + 1 = -1 gives -0.25.
 */
static void test_pdp_fp16_pad(void)
{
	static const struct pdp_window_cfg left = {
		1 << 20 | 1 << 16 | 1 << 8 | 1, 1, 0, { 0x7800 },
	};
	static const struct pdp_window_cfg corner = {
		1 << 20 | 1 << 16 | 1 << 8 | 1, 1 << 4 | 1, 0, { 0x7800 },
	};
	static const struct pdp_window_cfg wide = {
		3, 1 << 8 | 1, 1, { 0xfc01, 0x7c00 },
	};
	uint32_t faults = nvdla_sim_fault_count(sim);

	pdp_fp16_run(0, false, &left);
	tap_ok(get16(0x100) == 0x3400 && get16(0x102) == 0x3400 &&
	       get16(0x104) == 0x7e02 && get16(0x106) == 0x8000,
	       "PDP fp16 average, a 0.5 left pad column: 0.25, 0.25, NaN, -0");
	pdp_fp16_run(0, false, &corner);
	tap_ok(get16(0x100) == 0x3900 && get16(0x102) == 0x3600 &&
	       get16(0x104) == 0x3900 && get16(0x106) == 0x7bff,
	       "PDP fp16 average, top-left corner: 0.5 per column, 0.5 x 2 per row");
	memset(host.mem, 0, MEM_SIZE);
	put16(0, 0x6800);		/* 2048, 1 / -3, 1 */
	put16(32, 0x3c00);
	put16(64, 0xc200);
	put16(96, 0x3c00);
	pdp_fp16_run(0, false, &wide);
	tap_ok(get16(0x100) == 0x6000 && get16(0x120) == 0xb400,
	       "PDP fp16 average, padding both sides: the 2x value after the row (%04x %04x)",
	       get16(0x100), get16(0x120));
	tap_ok(nvdla_sim_fault_count(sim) == faults, "no fault");
}

/*
 * SDP fp16 from memory: + 1.0 (BS ALU), ReLU, NaN/infinity counters; the
 * output in fp16 or int16.
 */
static void test_sdp_fp16(bool int16)
{
	static const uint16_t in[5] = { 0x3c00, 0x7c00, 0x7e01, 0xfc00, 0x0001 };
	static const uint16_t want[2][5] = {
		{ 0x4000, 0x7bff, 0x7e01, 0x0000, 0x3c00 },
		{ 2, 32767, 0x8000, 0, 1 },
	};
	uint32_t faults = nvdla_sim_fault_count(sim);
	bool same = true;
	int i;

	memset(host.mem, 0, MEM_SIZE);
	for (i = 0; i < 5; i++)
		put16(i * 2, in[i]);
	next_group(SDP);
	next_group(SDP_RDMA);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE, 32);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE, 32);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_BRDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_NRDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_ERDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG, 2 << 2 | 2 << 4);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_PERF_ENABLE, 2);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_WIDTH, 0);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_HEIGHT, 0);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_CHANNEL, 15);
	wr(SDP + NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + 0x100);
	wr(SDP + NVDLA_SDP_D_DST_LINE_STRIDE, 32);
	wr(SDP + NVDLA_SDP_D_DST_SURFACE_STRIDE, 32);
	wr(SDP + NVDLA_SDP_D_DP_BS_CFG, 2 << 2 | 1 << 4);	/* SUM, ReLU */
	wr(SDP + NVDLA_SDP_D_DP_BS_ALU_SRC_VALUE, 0x3c00);
	wr(SDP + NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(SDP + NVDLA_SDP_D_DP_EW_CFG, 1);
	wr(SDP + NVDLA_SDP_D_FEATURE_MODE_CFG, 0);
	wr(SDP + NVDLA_SDP_D_DATA_FORMAT, 2 | (int16 ? 1 : 2) << 2);
	wr(SDP + NVDLA_SDP_D_PERF_ENABLE,
	   NVDLA_SDP_D_PERF_ENABLE_PERF_NAN_INF_COUNT_EN_MASK |
	   NVDLA_SDP_D_PERF_ENABLE_PERF_SAT_EN_MASK);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	for (i = 0; i < 5; i++)
		same &= get16(0x100 + i * 2) == want[int16][i];
	if (int16) {
		tap_ok(same && nvdla_sim_fault_count(sim) == faults &&
		       rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION) == 0,
		       "SDP fp16 x + 1, ReLU, int16 out: 2, 32767, NaN -32768, 0, 1; no saturation counted (as the C model)");
		return;
	}
	tap_ok(same && nvdla_sim_fault_count(sim) == faults,
	       "SDP fp16 x + 1, ReLU: 2, inf saturated, NaN kept, -inf to 0, 2^-24 absorbed");
	tap_ok(rd(SDP_RDMA + NVDLA_SDP_RDMA_D_STATUS_NAN_INPUT_NUM) == 1 &&
	       rd(SDP_RDMA + NVDLA_SDP_RDMA_D_STATUS_INF_INPUT_NUM) == 2 &&
	       rd(SDP + NVDLA_SDP_D_STATUS_NAN_OUTPUT_NUM) == 1,
	       "SDP fp16 counts 1 NaN and 2 infinite inputs, 1 NaN output");
	tap_ok(rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION) == 1,
	       "SDP fp16 output: the one result at 65504 counts as saturated");
}

/*
 * CDP fp16 LUT(x) alone (both bypasses) on 1.5, NaN and infinity, LE
 * entries i, linear from 0 with SELECT 0.
 */
static void test_cdp_fp16(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);
	int i;

	memset(host.mem, 0, MEM_SIZE);
	put16(0, 0x3e00);
	put16(2, 0x7e01);
	put16(4, 0x7c00);
	wr(CDP + NVDLA_CDP_S_LUT_ACCESS_CFG, 1 << 17);	/* write LE from 0 */
	for (i = 0; i <= 64; i++)
		wr(CDP + NVDLA_CDP_S_LUT_ACCESS_DATA,
		   i ? (14 + 32 - __builtin_clz(i)) << 10 |
		       ((i << (10 - (31 - __builtin_clz(i)))) & 0x3ff) : 0);
	wr(CDP + NVDLA_CDP_S_LUT_CFG, 1);		/* LE linear */
	wr(CDP + NVDLA_CDP_S_LUT_INFO, 0);
	wr(CDP + NVDLA_CDP_S_LUT_LE_START_LOW, 0);
	wr(CDP + NVDLA_CDP_S_LUT_LE_END_LOW, 0x42800000);	/* 64.0 */
	wr(CDP + NVDLA_CDP_S_LUT_LO_START_LOW, 0x7f000000);
	wr(CDP + NVDLA_CDP_S_LUT_LE_SLOPE_SCALE, 0x3c003c00);
	next_group(CDP);
	next_group(CDP_RDMA);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_SRC_LINE_STRIDE, 32);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_SRC_SURFACE_STRIDE, 32);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_DATA_CUBE_WIDTH, 0);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_DATA_CUBE_HEIGHT, 0);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_DATA_CUBE_CHANNEL, 15);
	wr(CDP + NVDLA_CDP_D_DATA_FORMAT, 2);
	wr(CDP + NVDLA_CDP_D_FUNC_BYPASS, 3);
	wr(CDP + NVDLA_CDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + 0x100);
	wr(CDP + NVDLA_CDP_D_DST_LINE_STRIDE, 32);
	wr(CDP + NVDLA_CDP_D_DST_SURFACE_STRIDE, 32);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_OP_ENABLE, 1);
	wr(CDP + NVDLA_CDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	tap_ok(nvdla_sim_fault_count(sim) == faults && get16(0x100) == 0x3e00 &&
	       get16(0x102) == 0x7e01 && get16(0x104) == 0x7bff,
	       "CDP fp16 LUT alone: 1.5 -> 1.5, NaN passes, infinity saturates (%04x %04x %04x)",
	       get16(0x100), get16(0x102), get16(0x104));
	tap_ok(rd(CDP + NVDLA_CDP_D_NAN_INPUT_NUM) == 1 &&
	       rd(CDP + NVDLA_CDP_D_INF_INPUT_NUM) == 1 &&
	       rd(CDP + NVDLA_CDP_D_NAN_OUTPUT_NUM) == 1,
	       "CDP fp16 counts 1 NaN and 1 infinite input, 1 NaN output");
	/*
	 * LO starts far above every input: it underflows throughout. LE hits
	 * 1.5 alone, overflows on the infinity (the largest finite value),
	 * underflows on the NaN and the 13 zeros (d <= 0).
	 */
	tap_ok(rd(CDP + NVDLA_CDP_D_PERF_LUT_UFLOW) == 14 &&
	       rd(CDP + NVDLA_CDP_D_PERF_LUT_LE_HIT) == 1 &&
	       rd(CDP + NVDLA_CDP_D_PERF_LUT_HYBRID) == 1 &&
	       rd(CDP + NVDLA_CDP_D_PERF_LUT_OFLOW) == 0 &&
	       rd(CDP + NVDLA_CDP_D_PERF_LUT_LO_HIT) == 0 &&
	       rd(CDP + NVDLA_CDP_D_OUT_SATURATION) == 0,
	       "CDP fp16 LUT counters: 14 under both, 1 LE only, 1 hybrid (LE over, LO under); no saturation");
}

/*
 * The LUT counters, by hand. Inputs -5, 0, 10, 32, 40, 63, 64, 127 (each
 * in 4 of the 32 lanes of one int8 atom); LE linear from 0, SELECT 0
 * (hits 1 .. 63); LO linear from 32, SELECT -2 (index 4 (x - 32): hits
 * 33 .. 95); every priority LE. Per value (LE, LO): -5 and 0 (uflow,
 * uflow), 10 and 32 (hit, uflow: 32 equals START), 40 and 63 (hit, hit),
 * 64 (oflow, hit), 127 (oflow, oflow).
 */
static const int8_t lut_inputs[8] = { -5, 0, 10, 32, 40, 63, 64, 127 };

static void lut_cube(void)
{
	int i;

	memset(host.mem, 0, MEM_SIZE);
	for (i = 0; i < 32; i++)
		host.mem[i] = (uint8_t)lut_inputs[i % 8];
}

/* S_LUT_CFG and S_LUT_INFO of lut_load(): LE linear, LO select -2. */
static uint32_t lut_cfg = NVDLA_SDP_S_LUT_CFG_LUT_LE_FUNCTION_MASK;
static uint32_t lut_info = 0xfeu << 16;

/* LE entry i = i, LO entries 1000; the index registers as above. */
static void lut_load(uint32_t unit)
{
	int i;

	wr(unit + NVDLA_SDP_S_LUT_ACCESS_CFG,
	   NVDLA_SDP_S_LUT_ACCESS_CFG_LUT_ACCESS_TYPE_MASK);
	for (i = 0; i < 65; i++)
		wr(unit + NVDLA_SDP_S_LUT_ACCESS_DATA, i);
	wr(unit + NVDLA_SDP_S_LUT_ACCESS_CFG,
	   NVDLA_SDP_S_LUT_ACCESS_CFG_LUT_ACCESS_TYPE_MASK |
	   NVDLA_SDP_S_LUT_ACCESS_CFG_LUT_TABLE_ID_MASK);
	for (i = 0; i < 257; i++)
		wr(unit + NVDLA_SDP_S_LUT_ACCESS_DATA, 1000);
	wr(unit + NVDLA_SDP_S_LUT_CFG, lut_cfg);
	wr(unit + NVDLA_SDP_S_LUT_INFO, lut_info);
}

/* SDP int8, one atom from memory: Y runs the LUT alone (@lut) or not. */
static void sdp_count_layer(bool lut, uint32_t scale, uint32_t perf)
{
	lut_load(SDP);
	wr(SDP + NVDLA_SDP_S_LUT_LE_START, 0);
	wr(SDP + NVDLA_SDP_S_LUT_LO_START, 32);
	next_group(SDP);
	next_group(SDP_RDMA);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE, 32);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE, 32);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_BRDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_NRDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_ERDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG, 0);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_WIDTH, 0);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_HEIGHT, 0);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_CHANNEL, 31);
	wr(SDP + NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + 0x100);
	wr(SDP + NVDLA_SDP_D_DST_LINE_STRIDE, 32);
	wr(SDP + NVDLA_SDP_D_DST_SURFACE_STRIDE, 32);
	wr(SDP + NVDLA_SDP_D_DP_BS_CFG, 1);
	wr(SDP + NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(SDP + NVDLA_SDP_D_DP_EW_CFG, lut ?
	   NVDLA_SDP_D_DP_EW_CFG_EW_ALU_BYPASS_MASK |
	   NVDLA_SDP_D_DP_EW_CFG_EW_MUL_BYPASS_MASK :
	   NVDLA_SDP_D_DP_EW_CFG_EW_BYPASS_MASK);
	wr(SDP + NVDLA_SDP_D_FEATURE_MODE_CFG, 0);
	wr(SDP + NVDLA_SDP_D_DATA_FORMAT, 0);
	wr(SDP + NVDLA_SDP_D_CVT_OFFSET, 0);
	wr(SDP + NVDLA_SDP_D_CVT_SCALE, scale);
	wr(SDP + NVDLA_SDP_D_CVT_SHIFT, 0);
	wr(SDP + NVDLA_SDP_D_PERF_ENABLE, perf);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
}

static bool sdp_lut_counts(uint32_t uflow, uint32_t oflow, uint32_t hybrid,
			   uint32_t le, uint32_t lo)
{
	return rd(SDP + NVDLA_SDP_D_PERF_LUT_UFLOW) == uflow &&
	       rd(SDP + NVDLA_SDP_D_PERF_LUT_OFLOW) == oflow &&
	       rd(SDP + NVDLA_SDP_D_PERF_LUT_HYBRID) == hybrid &&
	       rd(SDP + NVDLA_SDP_D_PERF_LUT_LE_HIT) == le &&
	       rd(SDP + NVDLA_SDP_D_PERF_LUT_LO_HIT) == lo;
}

/*
 * SDP: UFLOW and OFLOW count the table that answers, HYBRID an answer
 * from an entry, LE_HIT and LO_HIT each table's own hits: per 8 inputs
 * 2, 1, 5 (10, 32, 40, 63, 64), 4 (10 .. 63) and 3 (40, 63, 64).
 * Saturation: x * 2048 leaves the 17-bit range for 40, 63, 64 and 127;
 * 32 gives 65536, one past it, which the hardware does not flag.
 */
static void test_sdp_counters(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	lut_cube();
	sdp_count_layer(true, 1, NVDLA_SDP_D_PERF_ENABLE_PERF_LUT_EN_MASK);
	tap_ok(sdp_lut_counts(8, 4, 20, 16, 12) &&
	       rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION) == 0 &&
	       host.mem[0x100 + 2] == 10 && host.mem[0x100 + 6] == 127,
	       "SDP int8 LUT counters: uflow 8, oflow 4, hybrid 20, LE hits 16, LO hits 12");
	sdp_count_layer(true, 1, 0);
	tap_ok(sdp_lut_counts(0, 0, 0, 0, 0),
	       "SDP LUT counters off: all 0");
	sdp_count_layer(false, 2048, NVDLA_SDP_D_PERF_ENABLE_PERF_SAT_EN_MASK |
			NVDLA_SDP_D_PERF_ENABLE_PERF_LUT_EN_MASK);
	tap_ok(rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION) == 16 &&
	       sdp_lut_counts(0, 0, 0, 0, 0),
	       "SDP output converter: 16 saturated of 32 (65536 not flagged); no LUT in the path counts nothing (%u)",
	       rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION));
	sdp_count_layer(false, 2048, 0);
	tap_ok(rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION) == 0 &&
	       rd(SDP + NVDLA_SDP_D_PERF_WDMA_WRITE_STALL) == 0 &&
	       nvdla_sim_fault_count(sim) == faults,
	       "SDP saturation counter off: 0; no stall");
}

/* The SDP of sdp_layer() saturating (x + 50) * 2048, counted. */
static void sdp_saturating_layer(bool to_pdp)
{
	sdp_layer(to_pdp);
	wr(SDP + NVDLA_SDP_D_CVT_SCALE, 2048);
	wr(SDP + NVDLA_SDP_D_PERF_ENABLE, NVDLA_SDP_D_PERF_ENABLE_PERF_SAT_EN_MASK);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
}

/*
 * Each element counts once, also when the SDP streams into a PDP whose
 * 3x3 windows at stride 1 read most elements several times: ReLU(x + 50)
 * times 2048 is flagged from 33 on (32 gives 65536, one past the range).
 */
static void test_sdp_stream_counts(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);
	uint32_t want = 0, to_mem;
	int i, v;

	memset(host.mem, 0, MEM_SIZE);
	for (i = 0; i < 2048; i++) {
		host.mem[i] = (uint8_t)(i * 37 + 11);
		v = (int8_t)host.mem[i] + 50;
		want += v >= 33;
	}
	sdp_saturating_layer(false);
	to_mem = rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION);
	pdp_layer(true, 0x1000, 0x4000);
	wr(PDP + NVDLA_PDP_D_POOLING_KERNEL_CFG,
	   2 << NVDLA_PDP_D_POOLING_KERNEL_CFG_KERNEL_WIDTH_SHIFT |
	   2 << NVDLA_PDP_D_POOLING_KERNEL_CFG_KERNEL_HEIGHT_SHIFT);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_OUT_WIDTH, 5);
	wr(PDP + NVDLA_PDP_D_DATA_CUBE_OUT_HEIGHT, 5);
	wr(PDP + NVDLA_PDP_D_OP_ENABLE, 1);
	sdp_saturating_layer(true);
	tap_ok(to_mem == want &&
	       rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION) == want &&
	       nvdla_sim_fault_count(sim) == faults,
	       "SDP saturation counted once per element to memory (%u) and into a 3x3/1 PDP (%u), by hand %u",
	       to_mem, rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION), want);
}

/*
 * CDP int8, SQSUM and MUL bypassed, so the LUT sees x itself: one counter
 * per input, both under (-5, 0), LE only (10, 32), both hitting (40, 63:
 * HYBRID), LO only (64), both over (127). The LO entries 1000 clip in
 * the int8 output converter: the 4 inputs 64.
 */
static void test_cdp_counters(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	lut_cube();
	lut_load(CDP);
	wr(CDP + NVDLA_CDP_S_LUT_LE_START_LOW, 0);
	wr(CDP + NVDLA_CDP_S_LUT_LE_START_HIGH, 0);
	wr(CDP + NVDLA_CDP_S_LUT_LO_START_LOW, 32);
	wr(CDP + NVDLA_CDP_S_LUT_LO_START_HIGH, 0);
	wr(CDP + NVDLA_CDP_S_LUT_LE_SLOPE_SCALE, 0);
	wr(CDP + NVDLA_CDP_S_LUT_LO_SLOPE_SCALE, 0);
	next_group(CDP);
	next_group(CDP_RDMA);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_SRC_LINE_STRIDE, 32);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_SRC_SURFACE_STRIDE, 32);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_DATA_CUBE_WIDTH, 0);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_DATA_CUBE_HEIGHT, 0);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_DATA_CUBE_CHANNEL, 31);
	wr(CDP + NVDLA_CDP_D_DATA_FORMAT, 0);
	wr(CDP + NVDLA_CDP_D_FUNC_BYPASS,
	   NVDLA_CDP_D_FUNC_BYPASS_SQSUM_BYPASS_MASK |
	   NVDLA_CDP_D_FUNC_BYPASS_MUL_BYPASS_MASK);
	wr(CDP + NVDLA_CDP_D_DATIN_SCALE, 1);
	wr(CDP + NVDLA_CDP_D_DATOUT_SCALE, 1);
	wr(CDP + NVDLA_CDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + 0x100);
	wr(CDP + NVDLA_CDP_D_DST_LINE_STRIDE, 32);
	wr(CDP + NVDLA_CDP_D_DST_SURFACE_STRIDE, 32);
	wr(CDP_RDMA + NVDLA_CDP_RDMA_D_OP_ENABLE, 1);
	wr(CDP + NVDLA_CDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	tap_ok(rd(CDP + NVDLA_CDP_D_PERF_LUT_UFLOW) == 8 &&
	       rd(CDP + NVDLA_CDP_D_PERF_LUT_OFLOW) == 4 &&
	       rd(CDP + NVDLA_CDP_D_PERF_LUT_LE_HIT) == 8 &&
	       rd(CDP + NVDLA_CDP_D_PERF_LUT_LO_HIT) == 4 &&
	       rd(CDP + NVDLA_CDP_D_PERF_LUT_HYBRID) == 8,
	       "CDP int8 LUT counters, one per input: uflow 8, oflow 4, LE only 8, LO only 4, hybrid 8");
	tap_ok(rd(CDP + NVDLA_CDP_D_OUT_SATURATION) == 4 &&
	       (int8_t)host.mem[0x100 + 6] == 127 && host.mem[0x100 + 4] == 40 &&
	       host.mem[0x100 + 7] == 64 &&
	       nvdla_sim_fault_count(sim) == faults,
	       "CDP output converter: the 4 LO answers (1000) saturate to 127");
}

/*
 * Register programs that hit undefined behaviour in the model once (found
 * by random programs under UBSan; tests/fuzz/fuzz_sim.c); each checks the
 * hardware's answer as well.
 */

/* Leave non-boolean garbage where the model's frames will be. */
static void __attribute__((noinline)) stack_dirty(void)
{
	volatile uint8_t junk[16384];
	size_t i;

	for (i = 0; i < sizeof(junk); i++)
		junk[i] = 0xa5;
}

/*
 * An SDP streaming into the PDP whose input the bus refuses: the SDP and
 * the PDP it feeds each fault, and the SDP's counters are neither
 * attached nor read.
 */
static void test_ub_sdp_stream_fault(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	pdp_layer(true, 0x1000, 0x4000);
	wr(PDP + NVDLA_PDP_D_OP_ENABLE, 1);
	sdp_layer(true);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW, 0x1000);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	stack_dirty();
	while (nvdla_sim_run(sim))
		;
	tap_ok(nvdla_sim_fault_count(sim) - faults == 2,
	       "SDP streaming to PDP from an unmapped input: SDP and PDP fault (%u)",
	       nvdla_sim_fault_count(sim) - faults);
}

/*
 * fp16 average over a 10-wide window of a 1-wide row, one pad column on
 * the left: 9 padding elements, more than the 7 padding-value registers
 * cover, add 0 as in the integer path, whatever the registers hold.
 */
static void test_ub_pdp_fp16_wide_pad(void)
{
	static const struct pdp_window_cfg zero = { 9, 1, 0, { 0, 0 } };
	static const struct pdp_window_cfg ones = {
		9, 1, 0, { 0x7c00, 0x7c00 },
	};
	uint32_t faults = nvdla_sim_fault_count(sim);
	uint16_t with_zero;

	memset(host.mem, 0, MEM_SIZE);
	put16(0, 0x4000);	/* 2.0 */
	pdp_fp16_run(0, false, &zero);
	with_zero = get16(0x100);
	memset(host.mem + 0x100, 0, 2);
	pdp_fp16_run(0, false, &ones);
	tap_ok(with_zero == 0x3800 && get16(0x100) == with_zero &&
	       nvdla_sim_fault_count(sim) == faults,
	       "PDP fp16 average, 9 padding elements add 0: 2 x 0.5 x 0.5 = 0.5 (%04x %04x)",
	       with_zero, get16(0x100));
}

/*
 * The BS ALU shifts its operand by the 6-bit field, saturating: 50 << 63
 * clamps to 2^31 - 1, and x + that to the int8 output's 127.
 */
static void test_ub_sdp_alu_shift(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);
	int i, ok = 1;

	memset(host.mem, 0, MEM_SIZE);
	for (i = 0; i < 2048; i++)
		host.mem[i] = (uint8_t)(i * 37 + 11);
	sdp_layer(false);
	wr(SDP + NVDLA_SDP_D_DP_BS_ALU_CFG,
	   63 << NVDLA_SDP_D_DP_BS_ALU_CFG_BS_ALU_SHIFT_VALUE_SHIFT);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	for (i = 0; i < 2048; i++)
		ok &= host.mem[0x1000 + i] == 127;
	tap_ok(ok && nvdla_sim_fault_count(sim) == faults,
	       "SDP BS ALU operand shifted by 63 saturates: every output 127");
	wr(SDP + NVDLA_SDP_D_DP_BS_ALU_CFG, 0);
}

/*
 * LE linear with index select 100: every input past the start hits entry
 * 0 with a fraction of 0 (d >> 65 has no bits left), so 10 and 32, which
 * the LO table (start 32) underflows, answer LE[0] = 0.
 */
static void test_ub_lut_select(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	lut_cube();
	host.mem[0x100 + 2] = host.mem[0x100 + 3] = 0x55;
	lut_info = 0xfeu << 16 | 100u << 8;
	sdp_count_layer(true, 1, 0);
	lut_info = 0xfeu << 16;
	tap_ok(host.mem[0x100 + 2] == 0 && host.mem[0x100 + 3] == 0 &&
	       nvdla_sim_fault_count(sim) == faults,
	       "SDP LUT index select 100: LE entry 0, fraction 0 (%d %d)",
	       (int8_t)host.mem[0x100 + 2], (int8_t)host.mem[0x100 + 3]);
}

/*
 * LE in exponent mode with index offset 62 underflows every input; the
 * underflow slope then starts at LE_START + 2^62, and 10 - 2^62 times
 * scale 2 saturates to the int8 output's -128.
 */
static void test_ub_lut_exponent_bias(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	lut_cube();
	host.mem[0x100 + 2] = 0;
	wr(SDP + NVDLA_SDP_S_LUT_LE_SLOPE_SCALE, 2);
	lut_cfg = 0;
	lut_info = 0xfeu << 16 | 62;
	sdp_count_layer(true, 1, 0);
	lut_cfg = NVDLA_SDP_S_LUT_CFG_LUT_LE_FUNCTION_MASK;
	lut_info = 0xfeu << 16;
	tap_ok((int8_t)host.mem[0x100 + 2] == -128 &&
	       nvdla_sim_fault_count(sim) == faults,
	       "SDP LUT exponent offset 62: the underflow slope saturates (%d)",
	       (int8_t)host.mem[0x100 + 2]);
	wr(SDP + NVDLA_SDP_S_LUT_LE_SLOPE_SCALE, 0);
}

/*
 * A BDMA transfer of 1 KiB lines, 2048 lines, 4 surfaces, strides 0 (the
 * shape of a long job): 32 atoms a line, 2^18 steps, so 4 slices; the
 * model yields after each, and stops inside the third when told to.
 */
static void test_yield(void)
{
	const struct nvdla_sim_host h = {
		.ctx = &host, .bus_read = bus_read, .bus_write = bus_write,
		.bus_map = bus_map, .kick = kick, .irq = irq, .yield = yield,
	};
	uint32_t faults;

	nvdla_sim_init(sim, NVDLA_SIM_NV_FULL, &h);
	memset(host.mem, 0x5a, 1024);
	memset(host.mem + 0x8000, 0, 1024);
	host.yields = 0;
	host.stop_at = 0;
	bdma_transfer(MEM_BASE, MEM_BASE + 0x8000, 1024, 2048, 4, 0, 0);
	wr(BDMA + NVDLA_BDMA_CFG_LAUNCH0, 1);
	while (nvdla_sim_run(sim))
		;
	tap_ok(host.yields == 4 && host.mem[0x8000 + 1023] == 0x5a &&
	       rd(GLB + NVDLA_GLB_S_INTR_STATUS) & 1u << 6,
	       "a 2^18-step transfer yields to the host 4 times, then is done (%d)",
	       host.yields);
	wr(GLB + NVDLA_GLB_S_INTR_STATUS, ~0u);

	faults = nvdla_sim_fault_count(sim);
	host.yields = 0;
	host.stop_at = 3;
	bdma_transfer(MEM_BASE, MEM_BASE + 0x8000, 1024, 2048, 4, 0, 0);
	wr(BDMA + NVDLA_BDMA_CFG_LAUNCH0, 1);
	tap_ok(!nvdla_sim_run(sim) && host.yields == 3,
	       "the host stops the model at its third yield");
	bdma_transfer(MEM_BASE, MEM_BASE + 0x8000, 1024, 1, 1, 0, 0);
	wr(BDMA + NVDLA_BDMA_CFG_LAUNCH1, 1);
	tap_ok(!nvdla_sim_run(sim) && host.yields == 3 &&
	       !(rd(GLB + NVDLA_GLB_S_INTR_STATUS) & 3u << 6) &&
	       nvdla_sim_fault_count(sim) == faults,
	       "stopped, it does no more work and raises nothing until reset");
	nvdla_sim_init(sim, NVDLA_SIM_NV_FULL, &h);
	tap_ok(rd(GLB + NVDLA_GLB_S_INTR_STATUS) == 0 &&
	       (rd(BDMA + NVDLA_BDMA_STATUS) & 0x1ff) == 0x114,
	       "reset, it is idle with an empty queue");
}

/*
 * Precision conversions (nvdla/sdp_precision.h), against the documented
 * arithmetic worked here: the output converter sat17(rha((x - offset) *
 * scale / 2^shift)), then sat8, sat16 or fp16 to nearest even; int8
 * processing reads and writes int16 cubes as two 16-channel surfaces per
 * 32-channel group.
 */
#define CVT_IN 0x0		/* input cube */
#define CVT_OUT 0x2000		/* output cube */
#define CVT_LINE 0x100		/* line stride of both (8 atoms) */
#define CVT_SURF 0x400		/* surface stride of both */

static int64_t ref_rha(int64_t v, uint32_t shift)
{
	int64_t mag = v < 0 ? -v : v;

	if (shift)
		mag = (mag + ((int64_t)1 << (shift - 1))) >> shift;
	return v < 0 ? -mag : mag;
}

static int64_t ref_clip(int64_t v, uint32_t bits)
{
	int64_t max = ((int64_t)1 << (bits - 1)) - 1;

	return v > max ? max : v < -max - 1 ? -max - 1 : v;
}

/* An integer of magnitude below 2^17 as fp16: nearest, ties to even. */
static uint16_t ref_fp16(int32_t t)
{
	uint32_t mag = t < 0 ? -t : t, e = 0, m, rest;
	uint16_t sign = t < 0 ? 0x8000 : 0;

	if (!mag)
		return 0;
	while (mag >> e >= 2048)	/* 11 significant bits */
		e++;
	m = mag >> e;
	rest = mag - (m << e);
	if (e && (rest > 1u << (e - 1) ||
		  (rest == 1u << (e - 1) && (m & 1))))
		m++;
	if (m == 2048) {
		m = 1024;
		e++;
	}
	while (m < 1024) {		/* small values: shift up */
		m <<= 1;
		e--;
	}
	if ((int)e + 10 > 15)		/* beyond 65504 */
		return sign | 0x7bff;
	return sign | (uint16_t)((e + 10 + 15) << 10 | (m & 0x3ff));
}

struct cvt_layer {
	uint32_t in, proc, out;	/* precisions: 0 int8, 1 int16, 2 fp16 */
	uint32_t w, c;
	int32_t alu, offset;	/* X1 ALU register operand; CVT */
	int16_t scale;
	uint32_t shift;
	uint32_t rdma_proc;	/* SDP_RDMA's PROC_PRECISION */
	uint32_t nrdma;		/* D_NRDMA_CFG */
	uint64_t in_base;
};

static void cvt_run(const struct cvt_layer *l)
{
	/* The surfaces of a 1x1 cube an atom apart, as the SDP moves them. */
	uint32_t surf = l->w == 1 ? 32 : CVT_SURF;

	next_group(SDP);
	next_group(SDP_RDMA);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)l->in_base);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE, CVT_LINE);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE, surf);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_BRDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_NRDMA_CFG, l->nrdma);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_ERDMA_CFG, 1);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_FEATURE_MODE_CFG,
	   l->in << 2 | l->rdma_proc << 4 | l->out << 6);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_WIDTH, l->w - 1);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_HEIGHT, 0);
	wr(SDP + NVDLA_SDP_D_DATA_CUBE_CHANNEL, l->c - 1);
	wr(SDP + NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + CVT_OUT);
	wr(SDP + NVDLA_SDP_D_DST_LINE_STRIDE, CVT_LINE);
	wr(SDP + NVDLA_SDP_D_DST_SURFACE_STRIDE, surf);
	wr(SDP + NVDLA_SDP_D_DP_BS_CFG, 2 << 2 | 1 << 4 | 1 << 6); /* SUM */
	wr(SDP + NVDLA_SDP_D_DP_BS_ALU_CFG, 0);
	wr(SDP + NVDLA_SDP_D_DP_BS_ALU_SRC_VALUE, (uint16_t)l->alu);
	wr(SDP + NVDLA_SDP_D_DP_BS_MUL_CFG, 0);
	wr(SDP + NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(SDP + NVDLA_SDP_D_DP_EW_CFG, 1);
	wr(SDP + NVDLA_SDP_D_FEATURE_MODE_CFG, 0);
	wr(SDP + NVDLA_SDP_D_DATA_FORMAT, l->proc | l->out << 2);
	wr(SDP + NVDLA_SDP_D_CVT_OFFSET, l->offset);
	wr(SDP + NVDLA_SDP_D_CVT_SCALE, (uint16_t)l->scale);
	wr(SDP + NVDLA_SDP_D_CVT_SHIFT, l->shift);
	wr(SDP + NVDLA_SDP_D_PERF_ENABLE,
	   NVDLA_SDP_D_PERF_ENABLE_PERF_SAT_EN_MASK);
	wr(SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
}

/* Byte offset of channel @c at column @x in a cube of @bpe-byte elements. */
static uint32_t cvt_at(uint32_t c, uint32_t x, uint32_t bpe)
{
	uint32_t lanes = 32 / bpe;

	return (c / lanes) * CVT_SURF + x * 32 + (c % lanes) * bpe;
}

static int32_t cvt_load(uint32_t at, uint32_t bpe)
{
	return bpe == 1 ? (int8_t)host.mem[at] : (int16_t)get16(at);
}

/*
 * Run @l on random inputs over the whole groups it reads (padding lanes
 * too) and compare every lane it writes with the worked arithmetic;
 * @sats: the converter's clips (integer output) or +-65504 results.
 */
static bool cvt_check(const struct cvt_layer *l, uint32_t *sats)
{
	uint32_t ib = l->in ? 2 : 1, ob = l->out ? 2 : 1;
	uint32_t lanes = l->proc ? 16 : 32;
	uint32_t groups = (l->c + lanes - 1) / lanes, c, x, n = 0;
	int64_t v, t, floor;
	int32_t want;
	bool ok = true;

	memset(host.mem, 0, MEM_SIZE);
	srand(l->c * 131 + l->in * 7 + l->out);
	for (c = 0; c < groups * lanes; c++)
		for (x = 0; x < l->w; x++) {
			host.mem[cvt_at(c, x, ib)] = rand();
			if (ib == 2)
				host.mem[cvt_at(c, x, ib) + 1] = rand();
		}
	cvt_run(l);
	for (c = 0; c < groups * lanes; c++)
		for (x = 0; x < l->w; x++) {
			v = ((int64_t)cvt_load(cvt_at(c, x, ib), ib) + l->alu -
			     l->offset) * l->scale;
			t = ref_clip(ref_rha(v, l->shift), 17);
			want = l->out == 2 ? ref_fp16(t) :
			       (int32_t)ref_clip(t, ob * 8);
			/* flagged: the floor of v / 2^shift off t by over 1 */
			floor = v < 0 ? -((-v + ((int64_t)1 << l->shift) - 1) >>
					  l->shift) : v >> l->shift;
			n += l->out == 2 ? (want & 0x7fff) == 0x7bff :
			     floor - t > 1 || t - floor > 1;
			ok &= (ob == 1 ? (int32_t)host.mem[CVT_OUT + cvt_at(c, x, ob)] ==
					 (uint8_t)want :
					 get16(CVT_OUT + cvt_at(c, x, ob)) == (uint16_t)want);
		}
	*sats = n;
	return ok;
}

static void test_sdp_convert(void)
{
	struct cvt_layer l8 = { 0, 0, 1, 3, 40, 100, -7, 3000, 2, 0, 1,
				MEM_BASE + CVT_IN };
	struct cvt_layer l16 = { 1, 0, 0, 5, 20, -3, 11, 3, 4, 0, 1,
				 MEM_BASE + CVT_IN };
	struct cvt_layer lf = { 1, 1, 2, 4, 24, 0, 0, 5, 1, 1, 1,
				MEM_BASE + CVT_IN };
	uint32_t faults = nvdla_sim_fault_count(sim), sats;

	tap_ok(cvt_check(&l8, &sats) && nvdla_sim_fault_count(sim) == faults,
	       "SDP int8 to int16 (int8 processing): each 32-channel group in two int16 surfaces, 64 lanes x 3");
	tap_ok(rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION) == sats && sats,
	       "SDP int8 to int16: %u 17-bit clips counted (%u)", sats,
	       rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION));
	tap_ok(cvt_check(&l16, &sats) && nvdla_sim_fault_count(sim) == faults,
	       "SDP int16 to int8 (int8 processing): pairs of int16 surfaces into one int8 surface, full int16 inputs");
	tap_ok(cvt_check(&lf, &sats) && nvdla_sim_fault_count(sim) == faults,
	       "SDP int16 to fp16 (int16 processing): the 17-bit result to nearest even fp16, +-65504 beyond");
	tap_ok(rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION) == sats && sats,
	       "SDP int16 to fp16: the %u results at +-65504 counted as saturated (%u)",
	       sats, rd(SDP + NVDLA_SDP_D_PERF_OUT_SATURATION));
}

/* @l ends as a fault that writes nothing. */
static bool cvt_refused(const struct cvt_layer *l)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(host.mem, 0x5a, MEM_SIZE);
	cvt_run(l);
	return nvdla_sim_fault_count(sim) == faults + 1 &&
	       host.mem[CVT_OUT] == 0x5a && host.mem[CVT_OUT + 1] == 0x5a;
}

static void test_sdp_convert_refused(void)
{
	static const struct {
		uint32_t in, proc, out, rdma_proc, nrdma;
		const char *what;
	} bad[] = {
		{ 0, 0, 2, 0, 1, "int8 to fp16" },
		{ 2, 2, 0, 2, 1, "fp16 to int8" },
		{ 1, 1, 0, 1, 1, "int16 processing to int8" },
		{ 0, 1, 1, 1, 1, "int8 input to int16 processing" },
		{ 1, 2, 2, 2, 1, "int16 input to fp16 processing" },
		{ 1, 0, 0, 1, 1, "SDP_RDMA processing int16, SDP int8" },
		{ 1, 0, 1, 0, 1, "int16 to int16 through int8 processing" },
		{ 1, 1, 1, 1, 0, "offline int16 with one-byte BN operands" },
		{ 3, 3, 3, 3, 1, "precision 3" },
	};
	struct cvt_layer l = { .w = 2, .c = 10, .scale = 1,
			       .in_base = MEM_BASE + CVT_IN };
	uint32_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		l.in = bad[i].in;
		l.proc = bad[i].proc;
		l.out = bad[i].out;
		l.rdma_proc = bad[i].rdma_proc;
		l.nrdma = bad[i].nrdma;
		tap_ok(cvt_refused(&l), "SDP refuses %s", bad[i].what);
	}
	/* 10 int16 channels in the last surface of memory */
	l = (struct cvt_layer){ .in = 1, .w = 1, .c = 10, .alu = 1,
				.scale = 1, .nrdma = 1,
				.in_base = MEM_BASE + MEM_SIZE - 32 };
	tap_ok(cvt_refused(&l),
	       "SDP int16 to int8 refuses an input whose pair's second surface is past memory");
	l.proc = l.rdma_proc = l.out = 1;
	i = nvdla_sim_fault_count(sim);
	memset(host.mem, 0x5a, MEM_SIZE);
	cvt_run(&l);
	tap_ok(nvdla_sim_fault_count(sim) == i &&
	       get16(CVT_OUT) == 0x5a5b && get16(CVT_OUT + 30) == 0x5a5b,
	       "the same input to int16 processing reads its one surface");
}

#define V2_SDP_RDMA 0x8000u	/* nv_small and nv_large unit bases */
#define V2_SDP 0x9000u

/*
 * An int8 SDP layer of @config over one atom of channels at MEM_BASE
 * into MEM_BASE + 0x100, every stage but Y bypassed: Y multiplies by 3
 * (a register operand), or with @erdma adds an operand ERDMA reads per
 * element from an address the bus refuses. Returns the model's faults.
 */
static uint32_t sdp_y_layer(const char *config, const struct nvdla_sim_host *h,
			    uint32_t atom, bool erdma)
{
	enum nvdla_sim_config_id id;

	if (nvdla_sim_config_by_name(config, &id) || nvdla_sim_init(sim, id, h))
		return UINT32_MAX;
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_DMA_CFG, 1);	/* MCIF */
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE, atom);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE, atom);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_BRDMA_CFG, 1);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_NRDMA_CFG, 1);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_ERDMA_CFG, erdma ?
	   NVDLA_SDP_RDMA_D_ERDMA_CFG_ERDMA_DATA_MODE_MASK |
	   NVDLA_SDP_RDMA_D_ERDMA_CFG_ERDMA_RAM_TYPE_MASK : 1);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_EW_BASE_ADDR_LOW, 0x1000);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_EW_LINE_STRIDE, atom);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_EW_SURFACE_STRIDE, atom);
	wr(V2_SDP + NVDLA_SDP_D_DATA_CUBE_CHANNEL, atom - 1);
	wr(V2_SDP + NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + 0x100);
	wr(V2_SDP + NVDLA_SDP_D_DST_DMA_CFG, 1);
	wr(V2_SDP + NVDLA_SDP_D_DST_LINE_STRIDE, atom);
	wr(V2_SDP + NVDLA_SDP_D_DST_SURFACE_STRIDE, atom);
	wr(V2_SDP + NVDLA_SDP_D_DP_BS_CFG, 1);
	wr(V2_SDP + NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(V2_SDP + NVDLA_SDP_D_DP_EW_CFG, erdma ?
	   NVDLA_SDP_D_DP_EW_CFG_EW_MUL_BYPASS_MASK |
	   NVDLA_SDP_D_DP_EW_CFG_EW_LUT_BYPASS_MASK :
	   NVDLA_SDP_D_DP_EW_CFG_EW_ALU_BYPASS_MASK |
	   NVDLA_SDP_D_DP_EW_CFG_EW_LUT_BYPASS_MASK);
	wr(V2_SDP + NVDLA_SDP_D_DP_EW_ALU_CFG,
	   NVDLA_SDP_D_DP_EW_ALU_CFG_EW_ALU_SRC_MASK |
	   NVDLA_SDP_D_DP_EW_ALU_CFG_EW_ALU_CVT_BYPASS_MASK);
	wr(V2_SDP + NVDLA_SDP_D_DP_EW_MUL_CFG,
	   NVDLA_SDP_D_DP_EW_MUL_CFG_EW_MUL_CVT_BYPASS_MASK);
	wr(V2_SDP + NVDLA_SDP_D_DP_EW_MUL_SRC_VALUE, 3);
	wr(V2_SDP + NVDLA_SDP_D_CVT_SCALE, 1);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(V2_SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	return nvdla_sim_fault_count(sim);
}

/* Whether the layer's output is its input times @m, for @n channels. */
static bool sdp_y_out(uint32_t n, int m)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if ((int8_t)host.mem[0x100 + i] != m * (int8_t)host.mem[i])
			return false;
	return true;
}

/*
 * nv_small is built without the SDP's Y stage (SDP_EW_DISABLE,
 * SDP_LUT_DISABLE): its RTL passes the data through whatever
 * D_DP_EW_CFG says and never reads ERDMA's operands; nv_large has it.
 */
static void test_sdp_y_absent(const struct nvdla_sim_host *h)
{
	uint32_t i, faults;

	for (i = 0; i < 32; i++)
		host.mem[i] = (uint8_t)((int)i * 2 - 32);
	faults = sdp_y_layer("nv_small", h, 8, false);
	tap_ok(!faults && sdp_y_out(8, 1),
	       "nv_small: Y's MUL by 3 enabled, the data passes unchanged");
	faults = sdp_y_layer("nv_small", h, 8, true);
	tap_ok(!faults && sdp_y_out(8, 1),
	       "nv_small: Y's ALU reading memory enabled, no read (the bus would refuse it), the data unchanged");
	memset(host.mem + 0x100, 0, 32);
	faults = sdp_y_layer("nv_large", h, 32, false);
	tap_ok(!faults && sdp_y_out(32, 3),
	       "nv_large: Y multiplies by 3");
	faults = sdp_y_layer("nv_large", h, 32, true);
	tap_ok(faults == 1, "nv_large: ERDMA reads the operand the bus refuses (%u faults)",
	       faults);
}

/* Surface strides of the streams of a 1x1 SDP layer, in bytes. */
struct packed_layer {
	uint32_t in, bs, out;
	bool per_channel;	/* BS operands per channel, else per element */
};

#define PK_OUT 0x100	/* the output, 0x5a before */
#define PK_BS 0x1000	/* the operands */

/*
 * A 1x1 int8 SDP layer of nv_small over 16 channels (two 8-channel
 * surfaces) at MEM_BASE into MEM_BASE + PK_OUT: X1 adds an operand BRDMA
 * reads from PK_BS, surfaces of each stream @l apart. Returns the faults
 * it added; the hazards it added in *@hazards, the last one in *@v.
 */
static uint32_t packed_run(const struct nvdla_sim_host *h,
			   const struct packed_layer *l, uint32_t *hazards,
			   struct nvdla_cbuf_verdict *v, bool allow)
{
	enum nvdla_sim_config_id id;
	uint32_t i;

	if (nvdla_sim_config_by_name("nv_small", &id) ||
	    nvdla_sim_init(sim, id, h))
		return UINT32_MAX;
	nvdla_sim_allow_hazards(sim, allow);
	memset(host.mem, 0x5a, 0x2000);
	for (i = 0; i < 128; i++) {
		host.mem[i] = (uint8_t)i;	/* input, every placing */
		host.mem[PK_BS + i] = (uint8_t)(i + 1);
	}
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW, (uint32_t)MEM_BASE);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_DMA_CFG, 1);	/* MCIF */
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_LINE_STRIDE, 8);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_SRC_SURFACE_STRIDE, l->in);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_BRDMA_CFG,
	   1 << NVDLA_SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_USE_SHIFT |
	   (l->per_channel ? 0 : NVDLA_SDP_RDMA_D_BRDMA_CFG_BRDMA_DATA_MODE_MASK) |
	   NVDLA_SDP_RDMA_D_BRDMA_CFG_BRDMA_RAM_TYPE_MASK);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_BS_BASE_ADDR_LOW,
	   (uint32_t)MEM_BASE + PK_BS);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_BS_LINE_STRIDE, 8);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_BS_SURFACE_STRIDE, l->bs);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_NRDMA_CFG, 1);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_ERDMA_CFG, 1);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_DATA_CUBE_CHANNEL, 15);
	wr(V2_SDP + NVDLA_SDP_D_DATA_CUBE_CHANNEL, 15);
	wr(V2_SDP + NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + PK_OUT);
	wr(V2_SDP + NVDLA_SDP_D_DST_DMA_CFG, 1);
	wr(V2_SDP + NVDLA_SDP_D_DST_LINE_STRIDE, 8);
	wr(V2_SDP + NVDLA_SDP_D_DST_SURFACE_STRIDE, l->out);
	wr(V2_SDP + NVDLA_SDP_D_DP_BS_CFG, 2 << 2 | 1 << 4 | 1 << 6); /* SUM */
	wr(V2_SDP + NVDLA_SDP_D_DP_BS_ALU_CFG,
	   NVDLA_SDP_D_DP_BS_ALU_CFG_BS_ALU_SRC_MASK);
	wr(V2_SDP + NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(V2_SDP + NVDLA_SDP_D_DP_EW_CFG, 1);
	wr(V2_SDP + NVDLA_SDP_D_CVT_SCALE, 1);
	*hazards = nvdla_sim_hazards(sim, NULL);
	i = nvdla_sim_fault_count(sim);
	wr(V2_SDP_RDMA + NVDLA_SDP_RDMA_D_OP_ENABLE, 1);
	wr(V2_SDP + NVDLA_SDP_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	*hazards = nvdla_sim_hazards(sim, v) - *hazards;
	return nvdla_sim_fault_count(sim) - i;
}

/*
 * The output holds input channel c plus its operand, both read packed
 * (channel c at byte c), written packed, and nothing past it.
 */
static bool packed_out(void)
{
	uint32_t c;

	for (c = 0; c < 16; c++)
		if (host.mem[PK_OUT + c] != (uint8_t)(2 * c + 1))
			return false;
	return host.mem[PK_OUT + 16] == 0x5a && host.mem[PK_OUT + 64] == 0x5a;
}

/*
 * The SDP's engines move a 1x1 cube packed whatever its surface stride
 * (nvdla/sdp_layout.h); NVIDIA's C models stop unless it says so. The
 * model refuses such a layer with the stream's rule and both strides,
 * and with hazards allowed reads and writes packed, as the RTL.
 */
static void test_sdp_packed(const struct nvdla_sim_host *h)
{
	static const struct {
		struct packed_layer l;
		enum nvdla_cbuf_rule rule;
		uint32_t have;
		const char *what;
	} bad[] = {
		{ { 64, 8, 8, false }, NVDLA_CBUF_SDP_PACKED_IN, 64, "the input's" },
		{ { 8, 0, 8, false }, NVDLA_CBUF_SDP_PACKED_BS, 0,
		  "per-element BS operands'" },
		{ { 8, 32, 8, true }, NVDLA_CBUF_SDP_PACKED_BS, 32,
		  "per-channel BS operands'" },
		{ { 8, 8, 16, false }, NVDLA_CBUF_SDP_PACKED_OUT, 16, "the output's" },
	};
	const struct packed_layer good = { 8, 8, 8, false };
	const struct packed_layer loose = { 64, 64, 64, false };
	char text[NVDLA_CBUF_VERDICT_MAX], want[NVDLA_CBUF_VERDICT_MAX];
	struct nvdla_cbuf_verdict v;
	uint32_t faults, hazards, i;

	faults = packed_run(h, &good, &hazards, &v, false);
	tap_ok(!faults && !hazards && packed_out(),
	       "nv_small 1x1 SDP with its surfaces an atom apart runs (%u faults, %u hazards)",
	       faults, hazards);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		faults = packed_run(h, &bad[i].l, &hazards, &v, false);
		snprintf(want, sizeof(want), "%s: %u bytes, needs 8",
			 nvdla_cbuf_rule_name(bad[i].rule), bad[i].have);
		nvdla_cbuf_verdict_text(text, sizeof(text), &v);
		tap_ok(faults == 1 && hazards == 1 && v.rule == bad[i].rule &&
		       !strcmp(text, want) && host.mem[PK_OUT] == 0x5a,
		       "1x1 SDP, %s surface stride %u refused, nothing written: %s",
		       bad[i].what, bad[i].have, text);
	}
	faults = packed_run(h, &loose, &hazards, &v, true);
	tap_ok(!faults && hazards == 1 && packed_out(),
	       "hazards allowed: strides of 64 ignored, input and operands read and output written packed, as the RTL");
	faults = packed_run(h, &(struct packed_layer){ 8, 0, 8, true },
			    &hazards, &v, true);
	tap_ok(!faults && hazards == 1 && packed_out(),
	       "per-channel operands read packed whatever their stride");
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
	test_skip_values();
	test_pdp_int8_at_end();
	test_pdp_fp16();
	test_pdp_fp16_pad();
	test_sdp_fp16(false);
	test_sdp_fp16(true);
	test_sdp_convert();
	test_sdp_convert_refused();
	test_cdp_fp16();
	test_sdp_counters();
	test_sdp_stream_counts();
	test_cdp_counters();
	test_ub_sdp_stream_fault();
	test_ub_pdp_fp16_wide_pad();
	test_ub_sdp_alu_shift();
	test_ub_lut_select();
	test_ub_lut_exponent_bias();
	test_yield();
	test_sdp_y_absent(&h);
	test_sdp_packed(&h);
	free(sim);
	return tap_done();
}
