// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Convolution modes beyond a plain feature cube, against results worked
 * by hand. Image input on nv_small: the input converter (mean, scale,
 * rounded truncation, saturation, sign override), the pixel reorder of
 * several formats, the CDMA's left padding, the CSC's rows above the
 * image, channel pre-extension, post-extension (on nv_full too).
 * Batches, compressed weights, the second memory interface (CVSRAM) and
 * fp16 image input on nv_full. Programs the hardware cannot run end as
 * faults and write nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/pixel_formats.h>
#include <nvdla/regs.h>
#include <nvdla/sim.h>

#include "../../../sim/sim_internal.h"
#include "../lib/tap.h"

#define MEM_BASE 0x80000000ull
#define MEM_SIZE 4096
#define IMG 0x000u		/* offsets in the test memory */
#define WT 0x400u
#define OUT 0x800u
#define WMB 0xc00u
#define WINO_WT 0xa00u
#define MCIF 1u			/* RAM_TYPE: primary memory; 0: CVSRAM */

static const uint32_t bases_small[NVDLA_UNIT_COUNT] = NVDLA_UNIT_BASES_NV_SMALL;
static const uint32_t bases_full[NVDLA_UNIT_COUNT] = NVDLA_UNIT_BASES_NV_FULL;
static const uint32_t *base;
static uint32_t atom = 32;	/* bytes of an atom of the configuration */
static uint8_t mem[MEM_SIZE];
static uint8_t cvsram[MEM_SIZE];	/* the second interface, same addresses */
static uint32_t image_ram = MCIF;	/* where image_layer's pixels are */
static struct nvdla_sim *sim;

static void *bus_map(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	if (addr < MEM_BASE || addr - MEM_BASE > MEM_SIZE ||
	    len > MEM_SIZE - (addr - MEM_BASE))
		return NULL;
	return mem + (addr - MEM_BASE);
}

static void *cv_map(void *ctx, uint64_t addr, uint64_t len)
{
	uint8_t *p = bus_map(ctx, addr, len);

	return p ? cvsram + (p - mem) : NULL;
}

/* Copy @len bytes between a mapping @p (NULL: outside memory) and @q. */
static int copy_from(const void *p, void *q, uint32_t len)
{
	if (!p)
		return -EFAULT;
	memcpy(q, p, len);
	return 0;
}

static int copy_to(void *p, const void *q, uint32_t len)
{
	if (!p)
		return -EFAULT;
	memcpy(p, q, len);
	return 0;
}

static int cv_read(void *ctx, uint64_t addr, void *dst, uint32_t len)
{
	return copy_from(cv_map(ctx, addr, len), dst, len);
}

static int cv_write(void *ctx, uint64_t addr, const void *src, uint32_t len)
{
	return copy_to(cv_map(ctx, addr, len), src, len);
}

static int bus_read(void *ctx, uint64_t addr, void *dst, uint32_t len)
{
	return copy_from(bus_map(ctx, addr, len), dst, len);
}

static int bus_write(void *ctx, uint64_t addr, const void *src, uint32_t len)
{
	return copy_to(bus_map(ctx, addr, len), src, len);
}

static void kick(void *ctx)
{
	(void)ctx;
}

static void irq(void *ctx, bool level)
{
	(void)ctx;
	(void)level;
}

static void wr(int unit, uint32_t reg, uint32_t val)
{
	nvdla_sim_reg_write(sim, base[unit] + reg, val);
}

static void put16(uint32_t off, uint16_t v)
{
	mem[off] = (uint8_t)v;
	mem[off + 1] = (uint8_t)(v >> 8);
}

static uint16_t get16(uint32_t off)
{
	return (uint16_t)(mem[off] | mem[off + 1] << 8);
}

static uint32_t cdma_reg(uint32_t reg)
{
	return nvdla_sim_reg_read(sim, base[NVDLA_UNIT_CDMA] + reg);
}

/*
 * The units of a convolution layer and their D_OP_ENABLE, in the order
 * they are enabled: consumers first, the CDMA last (on nv_full a CDMA
 * enabled before its CSC may never end: NVDLA_CBUF_CDMA_AHEAD).
 */
static const struct {
	int unit;
	uint32_t op_enable;
} conv_units[] = {
	{ NVDLA_UNIT_SDP, NVDLA_SDP_D_OP_ENABLE },
	{ NVDLA_UNIT_CACC, NVDLA_CACC_D_OP_ENABLE },
	{ NVDLA_UNIT_CMAC_A, NVDLA_CMAC_A_D_OP_ENABLE },
	{ NVDLA_UNIT_CMAC_B, NVDLA_CMAC_B_D_OP_ENABLE },
	{ NVDLA_UNIT_CSC, NVDLA_CSC_D_OP_ENABLE },
	{ NVDLA_UNIT_CDMA, NVDLA_CDMA_D_OP_ENABLE },
};

/* Program the group each unit runs next. */
static void next_groups(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(conv_units); i++)
		wr(conv_units[i].unit, 4,
		   nvdla_sim_reg_read(sim, base[conv_units[i].unit] + 4) >> 16);
}

/* Enable the layer in the producer groups on every unit. */
static void enable_layer(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(conv_units); i++)
		wr(conv_units[i].unit, conv_units[i].op_enable, 1);
}

/* Point every unit of a convolution at register group @g. */
static void point(uint32_t g)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(conv_units); i++)
		wr(conv_units[i].unit, 4, g);
}

/* Enable the layer on every unit and let the model run it. */
static void run_layer(void)
{
	enable_layer();
	while (nvdla_sim_run(sim))
		;
}

/*
 * Program one image layer: a 2x1 image of @fmt, 4 channels, PAD_LEFT 1
 * (value 5), one row of CSC padding above (value -3), a 2-row kernel of 8
 * channels (two pixels pre-extended), one kernel, output 2x1 stride 1,
 * CACC truncation 1, SDP passing the result through to int8.
 */
static void image_program(uint32_t fmt, uint32_t in_prec, uint32_t cvt,
			  uint32_t weight_width)
{
	next_groups();
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MISC_CFG, in_prec << 8);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_FORMAT, 1 | fmt << 8);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_RAM_TYPE, image_ram);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_RAM_TYPE, MCIF);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_DMA_CFG, MCIF);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_0, 1);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_1, 3);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_ADDR_LOW_0, (uint32_t)MEM_BASE + IMG);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_LINE_STRIDE, 64);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_ADDR_LOW, (uint32_t)MEM_BASE + WT);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BANK, 0x10001);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MEAN_FORMAT, 1);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MEAN_GLOBAL_0, 0xfffb000a);	/* G -5, R 10 */
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MEAN_GLOBAL_1, 0x00640000);	/* A 100, B 0 */
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_CVT_CFG, cvt | 1 << 4);	/* truncate 1 */
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_CVT_SCALE, 3);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_ZERO_PADDING, 1);		/* left 1 */
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_ZERO_PADDING_VALUE, 5);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_FORMAT, 1);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_POST_Y_EXTENSION, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_0, 0);		/* 1x1 */
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_1, 3);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_0,
	   1 << 16 | weight_width);					/* 1 x 2 */
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_1, 7);	/* 8 ch, 1 kernel */
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_ZERO_PADDING, 1 << 16);	/* top 1 */
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_ZERO_PADDING_VALUE, 0xfffd);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_CLIP_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_WIDTH, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_HEIGHT, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_CHANNEL, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + OUT);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_LINE_STRIDE, 16);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_SURFACE_STRIDE, 16);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_EW_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_CVT_SCALE, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_FEATURE_MODE_CFG, 1);	/* flying */
}

static void image_layer(uint32_t fmt, uint32_t in_prec, uint32_t cvt,
			uint32_t weight_width)
{
	image_program(fmt, in_prec, cvt, weight_width);
	run_layer();
}

/* Weights: row 0 all 1, row 1 as below (the DC layout of 8 channels). */
static void load_weights(void)
{
	static const int8_t row1[8] = { 1, 2, -1, 1, 0, 1, 1, -2 };
	int c;

	for (c = 0; c < 8; c++) {
		mem[WT + c] = 1;
		mem[WT + 8 + c] = (uint8_t)row1[c];
	}
}

/*
 * Two pixels whose components are, in R, G, B, A order, 30 20 10 40 and
 * 70 60 50 80, written in @fmt's byte order @order (memory byte of R, G,
 * B, A).
 */
static void load_pixels(const int order[4])
{
	static const uint8_t rgba[2][4] = { { 30, 20, 10, 40 }, { 70, 60, 50, 80 } };
	int p, i;

	for (p = 0; p < 2; p++)
		for (i = 0; i < 4; i++)
			mem[IMG + p * 4 + order[i]] = rgba[p][i];
}

/*
 * Converted: (x - mean) * 3 / 2, rounded half away from zero:
 *   pixel 0: R 30, G 38 (37.5), B 15, A -90; pixel 1: R 90, G 98, B 75, A -30.
 * Output x = 0 reads the pad pixel (5 5 5 5) and pixel 0; x = 1 pixels 0, 1.
 * Row 1 weights 1 2 -1 1 0 1 1 -2:
 *   x = 0: 5 + 10 - 5 + 5 + 0 + 38 + 15 + 180 = 248
 *   x = 1: 30 + 76 - 15 - 90 + 0 + 98 + 75 + 60 = 234
 * Row 0 lies above the image: -3 times the sum of its weights (8) = -24.
 * CACC truncation 1: (248 - 24) / 2 = 112 and (234 - 24) / 2 = 105.
 */
static void test_formats(void)
{
	static const struct {
		uint32_t fmt;
		int order[4];	/* memory byte of R, G, B, A */
		const char *name;
	} cases[] = {
		{ NVDLA_PIXEL_A8B8G8R8, { 0, 1, 2, 3 }, "A8B8G8R8" },
		{ NVDLA_PIXEL_A8R8G8B8, { 2, 1, 0, 3 }, "A8R8G8B8" },
		{ NVDLA_PIXEL_B8G8R8A8, { 1, 2, 3, 0 }, "B8G8R8A8" },
		{ NVDLA_PIXEL_R8G8B8A8, { 3, 2, 1, 0 }, "R8G8B8A8" },
		{ NVDLA_PIXEL_X8R8G8B8, { 2, 1, 0, 3 }, "X8R8G8B8" },
		{ NVDLA_PIXEL_V8U8Y8A8, { 1, 2, 3, 0 }, "V8U8Y8A8" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint32_t faults = nvdla_sim_fault_count(sim);

		memset(mem, 0, sizeof(mem));
		load_weights();
		load_pixels(cases[i].order);
		image_layer(cases[i].fmt, 0, 1, 0);
		tap_ok(nvdla_sim_fault_count(sim) == faults &&
		       (int8_t)mem[OUT] == 112 && (int8_t)mem[OUT + 8] == 105,
		       "%s image layer gives 112, 105 (got %d, %d)",
		       cases[i].name, (int8_t)mem[OUT], (int8_t)mem[OUT + 8]);
	}
}

/*
 * A CDMA enabled before the rest of its layer waits, as the RTL's does in
 * the bank-change handshake until its CSC starts (docs/model.md): no
 * done and no output until every unit is enabled, and then the layer
 * computes from the input as it is by then (written after the CDMA's
 * enable), 112 and 105 as test_formats.
 */
static void test_cdma_first(void)
{
	static const int order[4] = { 0, 1, 2, 3 };
	uint32_t glb = base[NVDLA_UNIT_GLB] + NVDLA_GLB_S_INTR_STATUS;
	uint32_t status;
	size_t i;

	memset(mem, 0, sizeof(mem));
	load_weights();
	image_program(NVDLA_PIXEL_A8B8G8R8, 0, 1, 0);
	nvdla_sim_reg_write(sim, glb, nvdla_sim_reg_read(sim, glb));
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_OP_ENABLE, 1);
	while (nvdla_sim_run(sim))
		;
	status = nvdla_sim_reg_read(sim, glb) | mem[OUT] | mem[OUT + 8];
	load_pixels(order);
	for (i = 0; i + 1 < ARRAY_SIZE(conv_units); i++)
		wr(conv_units[i].unit, conv_units[i].op_enable, 1);
	while (nvdla_sim_run(sim))
		;
	tap_ok(!status && nvdla_sim_reg_read(sim, glb) &
	       (NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS0_MASK |
		NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS1_MASK) &&
	       (int8_t)mem[OUT] == 112 && (int8_t)mem[OUT + 8] == 105,
	       "a CDMA enabled alone waits (status and output 0x%x); with the rest, the layer reads the input written since: %d, %d",
	       status, (int8_t)mem[OUT], (int8_t)mem[OUT + 8]);
}

/* Converter off: the raw bytes as int8 (A8B8G8R8, bytes in R G B A). */
static void test_raw(void)
{
	static const int order[4] = { 0, 1, 2, 3 };
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem, 0, sizeof(mem));
	load_weights();
	load_pixels(order);
	image_layer(NVDLA_PIXEL_A8B8G8R8, 0, 0, 0);
	/*
	 * x = 0: 5 + 10 - 5 + 5 + 0 + 20 + 10 - 80 = -35;
	 * x = 1: 30 + 40 - 10 + 40 + 0 + 60 + 50 - 160 = 50;
	 * minus 24, halved: -29.5 -> -30 and 13.
	 */
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       (int8_t)mem[OUT] == -30 && (int8_t)mem[OUT + 8] == 13,
	       "converter off passes the pixels through (got %d, %d)",
	       (int8_t)mem[OUT], (int8_t)mem[OUT + 8]);
}

static void test_convert(void)
{
	tap_ok(sim_image_convert(30, 8, false, 10, 3, 1, 8) == 30 &&
	       sim_image_convert(20, 8, false, -5, 3, 1, 8) == 38 &&
	       sim_image_convert(40, 8, false, 100, 3, 1, 8) == -90,
	       "converter: (x - mean) * scale >> truncate, half away from zero");
	tap_ok(sim_image_convert(200, 8, false, 0, 1, 0, 8) == 127 &&
	       sim_image_convert(0, 8, false, 200, 1, 0, 8) == -128,
	       "converter saturates to int8");
	tap_ok(sim_image_convert(200, 8, true, 0, 1, 0, 8) == -56 &&
	       sim_image_convert(251, 8, true, 0, 3, 1, 16) == -8,
	       "sign override reads components as signed (-5 * 3 / 2 = -8)");
	tap_ok(sim_image_convert(0xffff, 16, false, -32768, 32767, 0, 16) ==
	       32767 && sim_image_convert(0xffff, 16, false, 0, 1, 6, 16) ==
	       1024, "16-bit components: saturation, 65535 >> 6 = 1024");
}

static void expect_fault(uint32_t fmt, uint32_t in_prec, uint32_t cvt,
			 uint32_t weight_width, const char *what)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem, 0x55, sizeof(mem));
	image_layer(fmt, in_prec, cvt, weight_width);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "%s: a fault, nothing written", what);
}

/* A direct int8 layer on a 1x1 input with a 1x1 kernel. */
struct dc_case {
	uint32_t batches, csc_batches;	/* told the CDMA; the CSC and CACC */
	uint32_t channels, kernels;
	uint32_t compressed, wmb_bytes, weight_bytes;
	uint32_t in_ram, out_ram;	/* RAM_TYPE of the input and output */
	uint32_t y_extension;		/* CSC D_POST_Y_EXTENSION */
	uint32_t prec;			/* 0 int8, 1 int16 */
	uint32_t entries, kernel_bytes;	/* D_ENTRY_PER_SLICE, _WEIGHT_SIZE_0 */
	uint32_t bank;			/* D_BANK; 0 for 0x10001 */
	int cdma_first;			/* the CDMA enabled before the rest */
};

/* Program a layer in the producer groups: inputs and outputs 64 bytes
 * apart per batch; the mask at WMB. */
static void dc_program(const struct dc_case *dc)
{
	uint32_t misc = dc->prec << NVDLA_CDMA_D_MISC_CFG_IN_PRECISION_SHIFT |
			dc->prec << NVDLA_CDMA_D_MISC_CFG_PROC_PRECISION_SHIFT;

	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MISC_CFG, misc);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_MISC_CFG, misc);
	wr(NVDLA_UNIT_CMAC_A, NVDLA_CMAC_A_D_MISC_CFG, misc);
	wr(NVDLA_UNIT_CMAC_B, NVDLA_CMAC_B_D_MISC_CFG, misc);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_MISC_CFG, misc);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_FORMAT,
	   dc->prec << NVDLA_SDP_D_DATA_FORMAT_PROC_PRECISION_SHIFT |
	   dc->prec << NVDLA_SDP_D_DATA_FORMAT_OUT_PRECISION_SHIFT);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_FORMAT, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_ADDR_LOW_0, (uint32_t)MEM_BASE + IMG);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_RAM_TYPE, dc->in_ram);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_RAM_TYPE, MCIF);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_DMA_CFG, dc->out_ram);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_LINE_STRIDE, 32);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_SURF_STRIDE, 32);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BATCH_NUMBER, dc->batches - 1);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BATCH_STRIDE, 64);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_ADDR_LOW, (uint32_t)MEM_BASE + WT);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_FORMAT, dc->compressed);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_BYTES, dc->weight_bytes);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WMB_ADDR_LOW, (uint32_t)MEM_BASE + WMB);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WMB_BYTES, dc->wmb_bytes);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BANK, dc->bank ? dc->bank : 0x10001);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_ENTRY_PER_SLICE, dc->entries);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_SIZE_0, dc->kernel_bytes);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_FORMAT, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_FORMAT, dc->compressed);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_POST_Y_EXTENSION, dc->y_extension);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_0, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_1, dc->channels - 1);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_0, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_1,
	   (dc->kernels - 1) << 16 | (dc->channels - 1));
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_ZERO_PADDING, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_BATCH_NUMBER, dc->csc_batches - 1);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_BATCH_NUMBER, dc->csc_batches - 1);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_CLIP_CFG, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_WIDTH, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_HEIGHT, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_CHANNEL, dc->kernels - 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + OUT);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_LINE_STRIDE, 32);
	/* a 1x1 cube's surfaces an atom apart (nvdla/sdp_layout.h) */
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_SURFACE_STRIDE, atom);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_BATCH_STRIDE, 64);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_EW_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_CVT_SCALE, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_FEATURE_MODE_CFG,
	   1 | (dc->batches - 1) << 8);
}

static void dc_layer(const struct dc_case *dc)
{
	next_groups();
	dc_program(dc);
	if (dc->cdma_first)
		wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_OP_ENABLE, 1);
	run_layer();
}

static void batch_layer(uint32_t batches, uint32_t csc_batches)
{
	const struct dc_case dc = {
		.batches = batches, .csc_batches = csc_batches,
		.channels = 2, .kernels = 1, .in_ram = MCIF, .out_ram = MCIF,
	};

	dc_layer(&dc);
}

/*
 * Inputs 3 -4 and 10 7, weights 2 5: batch 0 gives 6 - 20 = -14, batch 1
 * 20 + 35 = 55, each in its own output cube.
 */
static void test_batches(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem, 0, sizeof(mem));
	mem[IMG] = 3;
	mem[IMG + 1] = (uint8_t)-4;
	mem[IMG + 64] = 10;
	mem[IMG + 65] = 7;
	mem[WT] = 2;
	mem[WT + 1] = 5;
	batch_layer(2, 2);
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       (int8_t)mem[OUT] == -14 && (int8_t)mem[OUT + 64] == 55,
	       "two batches: -14 and 55 in their own cubes (got %d, %d)",
	       (int8_t)mem[OUT], (int8_t)mem[OUT + 64]);
	memset(mem + OUT, 0x55, 128);
	batch_layer(2, 1);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "CDMA and CSC batch counts differ: a fault, nothing written");
}

/* nvdla_cbuf_verdict_text() of @v is @text, all of it. */
static void expect_verdict(const struct nvdla_cbuf_verdict *v,
			   const char *text, const char *what)
{
	char got[NVDLA_CBUF_VERDICT_MAX];

	nvdla_cbuf_verdict_text(got, sizeof(got), v);
	tap_ok(!strcmp(got, text), "%s text: \"%s\"", what, got);
}

/*
 * A verdict as every message gives it (nvdla_cbuf_verdict_text()), for
 * each rule with the largest numbers and a stale count: the rule's name
 * and its numbers, whole in NVDLA_CBUF_VERDICT_MAX; the stale count for
 * NVDLA_CBUF_STALE_WEIGHTS and for no other rule.
 */
static void test_verdict_text(void)
{
	char text[2 * NVDLA_CBUF_VERDICT_MAX], name[NVDLA_CBUF_VERDICT_MAX];
	struct nvdla_cbuf_verdict v = { .have = UINT64_MAX - 1,
					.need = UINT64_MAX, .stale = 7 };
	bool stale;

	for (v.rule = NVDLA_CBUF_OK; v.rule < NVDLA_CBUF_RULES; v.rule++) {
		nvdla_cbuf_verdict_text(text, sizeof(text), &v);
		snprintf(name, sizeof(name), "%s: %llu %s, needs %llu",
			 nvdla_cbuf_rule_name(v.rule),
			 (unsigned long long)v.have,
			 nvdla_cbuf_rule_unit(v.rule),
			 (unsigned long long)v.need);
		stale = v.rule == NVDLA_CBUF_STALE_WEIGHTS;
		tap_ok(!strncmp(text, name, strlen(name)) &&
		       !strcmp(text + strlen(name),
			       stale ? " (stale count 7)" : "") &&
		       strlen(text) < NVDLA_CBUF_VERDICT_MAX,
		       "rule %d: its name and numbers%s, %zu bytes of %d: \"%s\"",
		       v.rule, stale ? ", the stale count" : ", no stale count",
		       strlen(text) + 1, NVDLA_CBUF_VERDICT_MAX, text);
	}
	v.stale = UINT64_MAX;
	v.rule = NVDLA_CBUF_STALE_WEIGHTS;
	nvdla_cbuf_verdict_text(text, sizeof(text), &v);
	tap_ok(strlen(text) < NVDLA_CBUF_VERDICT_MAX,
	       "the stale rule with a 20-digit stale count: %zu bytes of %d",
	       strlen(text) + 1, NVDLA_CBUF_VERDICT_MAX);
}

/*
 * The convolution buffer's limits (nvdla/cbuf_limits.h) on nv_full, 2 data
 * and 2 weight banks of 256 entries: a 1x1 int8 input of 2 channels takes
 * 1 entry (a quarter of one: four pixels share it), and D_ENTRY_PER_SLICE
 * must say so; a kernel of 513 entries is refused; allowed, they run.
 */
static void test_cbuf_limits(void)
{
	struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 2, .kernels = 1,
		.in_ram = MCIF, .out_ram = MCIF,
	};
	uint32_t faults = nvdla_sim_fault_count(sim);
	uint32_t hazards = nvdla_sim_hazards(sim, NULL), n;
	struct nvdla_cbuf_verdict v;

	memset(mem, 0, sizeof(mem));
	mem[IMG] = 3;
	mem[WT] = 2;
	dc_layer(&dc);
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       nvdla_sim_hazards(sim, NULL) == hazards && mem[OUT] == 6,
	       "a line of 1 entry runs (got %d)", mem[OUT]);
	memset(mem + OUT, 0x55, 32);
	dc.entries = 2;
	dc_layer(&dc);
	n = nvdla_sim_hazards(sim, &v);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && n == hazards + 1 &&
	       v.rule == NVDLA_CBUF_ENTRIES && v.have == 3 && v.need == 1 &&
	       mem[OUT] == 0x55,
	       "D_ENTRY_PER_SLICE 2 (3 entries) for 1: a fault, nothing written, the rule and 3/1 counted (rule %d, %llu/%llu)",
	       v.rule, (unsigned long long)v.have,
	       (unsigned long long)v.need);
	dc.entries = 0;
	dc.kernel_bytes = 2 * 256 * 128;
	dc_layer(&dc);
	n = nvdla_sim_hazards(sim, &v);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 2 && n == hazards + 2 &&
	       v.rule == NVDLA_CBUF_KERNEL_GROUP && v.need == 513,
	       "a kernel of 513 entries in 2 weight banks of 256: refused (rule %d, needs %llu)",
	       v.rule, (unsigned long long)v.need);
	expect_verdict(&v, "one kernel group does not fit the weight banks (the CDMA waits forever): 512 entries, needs 513",
		       "the kernel group's");
	nvdla_sim_allow_hazards(sim, true);
	dc.entries = 2;
	dc.kernel_bytes = 0;
	dc_layer(&dc);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 2 &&
	       nvdla_sim_hazards(sim, NULL) == hazards + 3 && mem[OUT] == 6,
	       "allowed, the layer with 3 entries a line runs and is counted (got %d)",
	       mem[OUT]);
	nvdla_sim_allow_hazards(sim, false);
}

/*
 * nv_full's CDMA fetches without waiting for its CSC, and a CSC starting a
 * layer in other banks than its last, or its first layer, forgets the
 * kernels announced before it started (NVDLA_CBUF_CDMA_AHEAD): a CDMA
 * enabled before its CSC there is refused, 0 kernels for the first kernel
 * group's 1; with the CSC first, or in the banks of the layer before, the
 * 1x1 layer of test_cbuf_limits runs (3 x 2 = 6). On a fresh model.
 */
static void test_cdma_ahead(void)
{
	static const struct {
		uint32_t bank;
		int cdma_first, refused;
		const char *what;
	} cases[] = {
		{ 0, 1, 1, "the first layer, its CDMA first" },
		{ 0, 0, 0, "the first layer again, its CSC first" },
		{ 0, 1, 0, "the CDMA first in the banks of the layer before" },
		{ 0x10002, 1, 1, "the CDMA first in another data bank" },
		{ 0x20001, 1, 1, "the CDMA first in another weight bank" },
		{ 0x20001, 0, 0, "another weight bank, the CSC first" },
	};
	struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 2, .kernels = 1,
		.in_ram = MCIF, .out_ram = MCIF,
	};
	struct nvdla_cbuf_verdict v;
	uint32_t faults, hazards = 0, n;
	size_t i;

	memset(mem, 0, sizeof(mem));
	mem[IMG] = 3;
	mem[WT] = 2;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		faults = nvdla_sim_fault_count(sim);
		hazards = nvdla_sim_hazards(sim, NULL);
		mem[OUT] = 0x55;
		dc.bank = cases[i].bank;
		dc.cdma_first = cases[i].cdma_first;
		dc_layer(&dc);
		n = nvdla_sim_hazards(sim, &v);
		if (cases[i].refused)
			tap_ok(nvdla_sim_fault_count(sim) == faults + 1 &&
			       n == hazards + 1 &&
			       v.rule == NVDLA_CBUF_CDMA_AHEAD && v.have == 0 &&
			       v.need == 1 && mem[OUT] == 0x55,
			       "%s: a fault, nothing written, the rule and 0/1 kernels counted (rule %d, %llu/%llu)",
			       cases[i].what, v.rule,
			       (unsigned long long)v.have,
			       (unsigned long long)v.need);
		else
			tap_ok(nvdla_sim_fault_count(sim) == faults &&
			       n == hazards && mem[OUT] == 6,
			       "%s: runs (got %d)",
			       cases[i].what, mem[OUT]);
	}
	nvdla_sim_allow_hazards(sim, true);
	dc.bank = 0x10001;
	dc.cdma_first = 1;
	mem[OUT] = 0x55;
	dc_layer(&dc);
	tap_ok(nvdla_sim_hazards(sim, NULL) == hazards + 1 && mem[OUT] == 6,
	       "allowed, the CDMA first in other banks runs and is counted (got %d)",
	       mem[OUT]);
	nvdla_sim_allow_hazards(sim, false);
}

/*
 * nv_full's CDMA fetches a layer once enabled and the one ahead is
 * fetched, while the CSC may still run that one (NVDLA_CBUF_OVERTAKES):
 * a second 1x1 layer (test_cdma_ahead's) enabled on every unit before the
 * first, which the CDMA's consumer group holds, is refused in other data
 * or weight banks, 0 of the first's 5 units enabled, and runs in its
 * banks; the first runs (3 x 2 = 6) either way. Then, allowed, it runs
 * and is counted.
 */
static void test_overtakes(void)
{
	static const struct {
		uint32_t bank;
		int refused;
		const char *what;
	} cases[] = {
		{ 0x10002, 1, "in another data bank" },
		{ 0x20001, 1, "in another weight bank" },
		{ 0x10001, 0, "in the first's banks" },
		{ 0x10002, 1, "allowed, in another data bank" },
	};
	struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 2, .kernels = 1,
		.in_ram = MCIF, .out_ram = MCIF,
	};
	struct nvdla_cbuf_verdict v;
	uint32_t faults, hazards, group;
	bool allowed;
	size_t i;

	memset(mem, 0, sizeof(mem));
	mem[IMG] = 3;
	mem[WT] = 2;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		allowed = i + 1 == ARRAY_SIZE(cases);
		nvdla_sim_allow_hazards(sim, allowed);
		faults = nvdla_sim_fault_count(sim);
		hazards = nvdla_sim_hazards(sim, NULL);
		mem[OUT] = 0x55;
		next_groups();
		group = cdma_reg(4) & 1;
		dc.bank = 0;
		dc_program(&dc);
		point(group ^ 1);
		dc.bank = cases[i].bank;
		dc_program(&dc);
		enable_layer();
		point(group);
		run_layer();
		nvdla_sim_hazards(sim, &v);
		if (!cases[i].refused || allowed)
			tap_ok(nvdla_sim_fault_count(sim) == faults &&
			       nvdla_sim_hazards(sim, NULL) ==
			       hazards + cases[i].refused && mem[OUT] == 6,
			       "the second %s: both run%s (got %d)",
			       cases[i].what, allowed ? ", counted" : "",
			       mem[OUT]);
		else
			tap_ok(nvdla_sim_fault_count(sim) == faults + 1 &&
			       nvdla_sim_hazards(sim, NULL) == hazards + 1 &&
			       v.rule == NVDLA_CBUF_OVERTAKES && v.have == 0 &&
			       v.need == NVDLA_CBUF_CONV_UNITS && mem[OUT] == 6,
			       "the second %s: a fault, the first's output, the rule and 0/5 units counted (rule %d, %llu/%llu)",
			       cases[i].what, v.rule,
			       (unsigned long long)v.have,
			       (unsigned long long)v.need);
	}
	nvdla_sim_allow_hazards(sim, false);
}

/*
 * Kernels 1 0 -2 0 and 0 3 0 4 (layout order k0 c0..c3, k1 c0..c3): mask
 * bits 1 0 1 0 0 1 0 1 = 0xa5, packed 1 -2 3 4. Inputs 5 6 7 8 give
 * 5 - 14 = -9 and 18 + 32 = 50.
 */
static void test_compressed(void)
{
	struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 4, .kernels = 2,
		.compressed = 1, .wmb_bytes = 128, .weight_bytes = 128,
		.in_ram = MCIF, .out_ram = MCIF,
	};
	static const int8_t packed[4] = { 1, -2, 3, 4 };
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem, 0, sizeof(mem));
	memcpy(mem + WT, packed, sizeof(packed));
	mem[WMB] = 0xa5;
	mem[IMG] = 5;
	mem[IMG + 1] = 6;
	mem[IMG + 2] = 7;
	mem[IMG + 3] = 8;
	dc_layer(&dc);
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       (int8_t)mem[OUT] == -9 && (int8_t)mem[OUT + 1] == 50,
	       "compressed weights expand through the mask (got %d, %d)",
	       (int8_t)mem[OUT], (int8_t)mem[OUT + 1]);

	memset(mem + OUT, 0x55, 64);
	dc.wmb_bytes = 0;
	dc_layer(&dc);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "a mask shorter than the weights: a fault, nothing written");
	dc.wmb_bytes = 128;
	mem[WMB] = 0xff;	/* eight weights set, four bytes packed... */
	dc.weight_bytes = 0;	/* ...and no packed surface at all */
	dc_layer(&dc);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 2 && mem[OUT] == 0x55,
	       "more set bits than packed weights: a fault, nothing written");
}

/*
 * nv_small has no BDMA and no RUBIK: their addresses reach the CSB
 * master's dummy client, which reads zero and takes writes without effect.
 */
static void test_absent_units(void)
{
	static const int absent[] = { NVDLA_UNIT_BDMA, NVDLA_UNIT_RBK };
	uint32_t faults = nvdla_sim_fault_count(sim);
	bool quiet = true;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(absent); i++) {
		int unit = absent[i];

		nvdla_sim_reg_write(sim, base[unit] + 0x10, ~0u);
		nvdla_sim_reg_write(sim, base[unit] + 0x4, 1);
		quiet &= !nvdla_sim_reg_read(sim, base[unit] + 0x10) &&
			 !nvdla_sim_reg_read(sim, base[unit] + 0x4) &&
			 !nvdla_sim_run(sim);
	}
	tap_ok(quiet && nvdla_sim_fault_count(sim) == faults,
	       "nv_small: BDMA and RUBIK addresses read zero, writes do nothing");
}

/* nv_small has neither batching nor compressed weights. */
static void expect_small_faults(void)
{
	const struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 4, .kernels = 2,
		.compressed = 1, .wmb_bytes = 128, .weight_bytes = 128,
		.in_ram = MCIF, .out_ram = MCIF,
	};
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem + OUT, 0x55, 128);
	batch_layer(2, 2);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "nv_small has no batching: two batches fault");
	dc_layer(&dc);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 2 && mem[OUT] == 0x55,
	       "nv_small has no weight compression: a fault");
}

/*
 * The second memory interface on nv_full: the input read from the CVSRAM
 * (3 -4 there, other bytes in DRAM), the output written to it; DRAM's
 * copy of the output stays untouched. 3 * 2 - 4 * 5 = -14.
 */
static void test_cvsram(void)
{
	const struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 2, .kernels = 1,
		.in_ram = 0, .out_ram = 0,
	};
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem, 0x55, sizeof(mem));
	memset(cvsram, 0, sizeof(cvsram));
	mem[WT] = 2;
	mem[WT + 1] = 5;
	cvsram[IMG] = 3;
	cvsram[IMG + 1] = (uint8_t)-4;
	dc_layer(&dc);
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       (int8_t)cvsram[OUT] == -14 && mem[OUT] == 0x55,
	       "CVSRAM in and out: -14 in the SRAM, DRAM untouched (got %d)",
	       (int8_t)cvsram[OUT]);
}

static uint32_t wino_stride;	/* CDMA D_CONV_STRIDE of wino_layer */
static uint32_t wino_csc_direct;	/* the CSC told direct mode instead */
static uint32_t wino_y_ext;	/* CSC D_POST_Y_EXTENSION, which Winograd ignores */
static uint32_t wino_flush;	/* CDMA D_NAN_FLUSH_TO_ZERO */
#define PREC_FP16 2u		/* D_MISC_CFG and D_DATA_FORMAT precision */

/*
 * A Winograd layer on nv_full in precision @prec (int8 or fp16): a 6x6
 * one-channel input padded by 1 to 8x8 (the extended cube has one atom of
 * channels: 32 in int8, 16 in fp16), one kernel whose pre-transformed
 * weights the caller wrote (4x4, channel 0; the other channels' are zero),
 * 4x4 outputs, PRA truncation @pra, CACC truncation @clip.
 */
static void wino_program(uint32_t prec, uint32_t pra, uint32_t clip,
			 uint32_t pad_value)
{
	uint32_t lanes = prec == PREC_FP16 ? 16 : 32;
	uint32_t misc = prec << 8 | prec << 12;

	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MISC_CFG, 1 | misc);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_FORMAT, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_0, 5 | 5 << 16);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_1, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_ADDR_LOW_0, (uint32_t)MEM_BASE + IMG);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_RAM_TYPE, MCIF);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_LINE_STRIDE, 6 * 32);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_SURF_STRIDE, 36 * 32);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BATCH_NUMBER, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_FORMAT, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_ADDR_LOW,
	   (uint32_t)MEM_BASE + WINO_WT);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_RAM_TYPE, MCIF);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_BYTES, 512);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_NAN_FLUSH_TO_ZERO, wino_flush);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BANK, 0x10001);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_CONV_STRIDE, wino_stride);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_ZERO_PADDING,
	   1 | 1 << 8 | 1 << 16 | 1 << 24);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_ZERO_PADDING_VALUE, pad_value);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_MISC_CFG, (!wino_csc_direct) | misc);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_POST_Y_EXTENSION, wino_y_ext);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_FORMAT, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_FORMAT, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_0, 7 | 7 << 16);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_1, lanes - 1);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_0, 3 | 3 << 16);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_1, lanes - 1);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAOUT_SIZE_0, 3 | 3 << 16);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_BATCH_NUMBER, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_PRA_CFG, pra);
	wr(NVDLA_UNIT_CMAC_A, NVDLA_CMAC_A_D_MISC_CFG, 1 | prec << 12);
	wr(NVDLA_UNIT_CMAC_B, NVDLA_CMAC_B_D_MISC_CFG, 1 | prec << 12);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_MISC_CFG, 1 | prec << 12);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_BATCH_NUMBER, 0);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_CLIP_CFG, clip);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_WIDTH, 3);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_HEIGHT, 3);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_CHANNEL, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_FORMAT, prec | prec << 2);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + OUT);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_DMA_CFG, MCIF);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_LINE_STRIDE, 4 * 32);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_SURFACE_STRIDE, 16 * 32);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_EW_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_CVT_SCALE, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_FEATURE_MODE_CFG, 1 | 1 << 2);
	run_layer();
}

static void wino_layer(const int8_t wt[16], uint32_t pra, uint32_t clip,
		       uint32_t pad_value)
{
	int pos;

	next_groups();
	for (pos = 0; pos < 16; pos++)
		mem[WINO_WT + pos * 4] = (uint8_t)wt[pos];
	wino_program(0, pra, clip, pad_value);
}

/* The same in fp16: weight @pos of channel 0 at element pos * 4. */
static void wino_layer_fp16(const uint16_t wt[16], uint32_t pad_value)
{
	int pos;

	next_groups();
	for (pos = 0; pos < 16; pos++) {
		mem[WINO_WT + pos * 8] = (uint8_t)wt[pos];
		mem[WINO_WT + pos * 8 + 1] = (uint8_t)(wt[pos] >> 8);
	}
	wino_program(PREC_FP16, 0, 0, pad_value);
}

static int wino_in(int x, int y)
{
	return (y * 6 + x) % 7 - 3;
}

/*
 * The 3x3 kernel 4 at the centre, 0 elsewhere, transformed by G w G^T
 * (G = [[1,0,0],[.5,.5,.5],[.5,-.5,.5],[0,0,1]]), is 1 -1 / -1 1 in the
 * middle 2x2 of the 4x4: the layer is then 4 times the input (padding 1
 * centres the window), halved twice by the CACC back to the input itself.
 * A constant tile of 3 (input and pad value 3) transforms to 12 at (1, 1)
 * and 0 elsewhere; PRA truncation 1 halves it to 6, times a weight of 5
 * at (1, 1) is 30, and A^T M A spreads it unchanged to all four outputs.
 */
static void test_winograd(void)
{
	static const int8_t centre[16] = { 0, 0, 0, 0, 0, 1, -1, 0,
					   0, -1, 1, 0, 0, 0, 0, 0 };
	static const int8_t fives[16] = { 5, 5, 5, 5, 5, 5, 5, 5,
					  5, 5, 5, 5, 5, 5, 5, 5 };
	uint32_t faults = nvdla_sim_fault_count(sim);
	bool ok = true;
	int x, y;

	memset(mem, 0, sizeof(mem));
	for (y = 0; y < 6; y++)
		for (x = 0; x < 6; x++)
			mem[IMG + y * 6 * 32 + x * 32] = (uint8_t)wino_in(x, y);
	wino_layer(centre, 0, 2, 0);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 4; x++)
			ok &= (int8_t)mem[OUT + y * 128 + x * 32] == wino_in(x, y);
	tap_ok(ok && nvdla_sim_fault_count(sim) == faults,
	       "Winograd with a centre kernel gives the input back");
	memset(mem + OUT, 0x55, 4 * 128);
	wino_y_ext = 2;
	wino_layer(centre, 0, 2, 0);
	wino_y_ext = 0;
	ok = true;
	for (y = 0; y < 4; y++)
		for (x = 0; x < 4; x++)
			ok &= (int8_t)mem[OUT + y * 128 + x * 32] == wino_in(x, y);
	tap_ok(ok && nvdla_sim_fault_count(sim) == faults,
	       "Winograd ignores post-extension (the C model's Winograd path)");

	memset(mem, 0, sizeof(mem));
	for (y = 0; y < 6; y++)
		for (x = 0; x < 6; x++)
			mem[IMG + y * 6 * 32 + x * 32] = 3;
	wino_layer(fives, 1, 0, 3);
	ok = true;
	for (y = 0; y < 2; y++)
		for (x = 0; x < 2; x++)
			ok &= (int8_t)mem[OUT + y * 128 + x * 32] == 30;
	tap_ok(ok && nvdla_sim_fault_count(sim) == faults,
	       "Winograd PRA truncation: a tile of 3s gives 30 (got %d)",
	       (int8_t)mem[OUT]);

	memset(mem + OUT, 0x55, 64);
	wino_stride = 1;	/* 8 + 0 pad is no multiple of 4 * stride 2 */
	wino_layer(fives, 1, 0, 3);
	wino_stride = 0;
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "Winograd padding not a multiple of 4 strides: a fault");
	wino_csc_direct = 1;
	wino_layer(fives, 1, 0, 3);
	wino_csc_direct = 0;
	tap_ok(nvdla_sim_fault_count(sim) == faults + 2 && mem[OUT] == 0x55,
	       "CDMA in Winograd mode, CSC in direct mode: a fault");
}

/* fp16 input element (@x, @y) of the 6x6 channel-0 input. */
static void wino_put_fp16(int x, int y, uint16_t v)
{
	mem[IMG + y * 6 * 32 + x * 32] = (uint8_t)v;
	mem[IMG + y * 6 * 32 + x * 32 + 1] = (uint8_t)(v >> 8);
}

static uint16_t wino_out_fp16(int x, int y)
{
	const uint8_t *p = mem + OUT + y * 128 + x * 32;

	return (uint16_t)(p[0] | p[1] << 8);
}

/*
 * fp16 Winograd. The centre kernel of 1, transformed, is 0.25 -0.25 /
 * -0.25 0.25 in the middle 2x2: every sum is exact and the layer gives
 * the input back (integers -3 to 3). Rounding in the CSC's fp17 adder:
 * with in(0, 0) = in(2, 0) = 2048 and in(0, 1) = 3 (zero elsewhere,
 * padding 1), the first tile d has d[1][1] = d[1][3] = 2048, d[2][1] = 3;
 * its row 1 after B^T is 2048 + 3 = 2051, rounded to 10 fraction bits
 * (a tie) to the even 2052, and 2048; so (B^T d B)[1][3] = 2052 - 2048
 * = 4 where exact arithmetic gives 3. A weight of 1.0 there alone makes
 * outputs x = 1 of the tile -4 (A^T's second column has -1 at 3) and
 * x = 0 zero. A NaN input (payload 0x201) in a tile makes all four of
 * its outputs that NaN.
 */
static void test_winograd_fp16(void)
{
	static const uint16_t half[7] = {
		0xc200, 0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000, 0x4200,
	};	/* -3 to 3 */
	static const uint16_t centre[16] = {
		0, 0, 0, 0, 0, 0x3400, 0xb400, 0,
		0, 0xb400, 0x3400, 0, 0, 0, 0, 0,
	};
	static const uint16_t at13[16] = { [7] = 0x3c00 };
	uint32_t faults = nvdla_sim_fault_count(sim);
	bool ok = true;
	int x, y;

	memset(mem, 0, sizeof(mem));
	for (y = 0; y < 6; y++)
		for (x = 0; x < 6; x++)
			wino_put_fp16(x, y, half[wino_in(x, y) + 3]);
	wino_layer_fp16(centre, 0);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 4; x++)
			ok &= wino_out_fp16(x, y) == half[wino_in(x, y) + 3];
	tap_ok(ok && nvdla_sim_fault_count(sim) == faults,
	       "fp16 Winograd with a centre kernel gives the input back");

	memset(mem, 0, sizeof(mem));
	wino_put_fp16(0, 0, 0x6800);	/* 2048 */
	wino_put_fp16(2, 0, 0x6800);
	wino_put_fp16(0, 1, 0x4200);	/* 3 */
	wino_layer_fp16(at13, 0);
	tap_ok(wino_out_fp16(1, 0) == 0xc400 && wino_out_fp16(1, 1) == 0xc400 &&
	       wino_out_fp16(0, 0) == 0 && wino_out_fp16(0, 1) == 0 &&
	       nvdla_sim_fault_count(sim) == faults,
	       "fp16 Winograd PRA rounds in fp17: 2048 + 3 - 2048 gives -4 (got %04x)",
	       wino_out_fp16(1, 0));

	memset(mem, 0, sizeof(mem));
	for (y = 0; y < 6; y++)
		for (x = 0; x < 6; x++)
			wino_put_fp16(x, y, half[wino_in(x, y) + 3]);
	wino_put_fp16(0, 0, 0x7e01);
	wino_layer_fp16(centre, 0);
	tap_ok(wino_out_fp16(0, 0) == 0x7e01 && wino_out_fp16(1, 0) == 0x7e01 &&
	       wino_out_fp16(0, 1) == 0x7e01 && wino_out_fp16(1, 1) == 0x7e01 &&
	       wino_out_fp16(2, 0) == half[wino_in(2, 0) + 3] &&
	       nvdla_sim_fault_count(sim) == faults,
	       "fp16 Winograd: a NaN input makes its whole 2x2 output tile NaN");
	tap_ok(cdma_reg(NVDLA_CDMA_D_NAN_INPUT_DATA_NUM) == 1 &&
	       !cdma_reg(NVDLA_CDMA_D_INF_INPUT_DATA_NUM) &&
	       !cdma_reg(NVDLA_CDMA_D_NAN_INPUT_WEIGHT_NUM) &&
	       !cdma_reg(NVDLA_CDMA_D_INF_INPUT_WEIGHT_NUM),
	       "fp16 Winograd: the CDMA counts the NaN input");

	put16(IMG + (3 * 6 + 3) * 32 + 2 * 5, 0x7c00);	/* lane 5, weight 0 */
	wino_flush = 1;
	wino_layer_fp16(centre, 0x7e00);
	wino_flush = 0;
	ok = wino_out_fp16(0, 0) == 0;
	for (y = 0; y < 4; y++)
		for (x = !y; x < 4; x++)
			ok &= wino_out_fp16(x, y) == half[wino_in(x, y) + 3];
	tap_ok(ok && nvdla_sim_fault_count(sim) == faults,
	       "fp16 Winograd with D_NAN_FLUSH_TO_ZERO: the NaN input and the NaN padding are +0");
	tap_ok(cdma_reg(NVDLA_CDMA_D_NAN_INPUT_DATA_NUM) == 1 + 28 * 16 &&
	       cdma_reg(NVDLA_CDMA_D_INF_INPUT_DATA_NUM) == 1,
	       "fp16 Winograd: the CDMA counts its padding (28 positions of 16 lanes) and every fetched lane");
}

/*
 * The BDMA between the interfaces (CFG_CMD bit 0: source in DRAM, bit 1:
 * destination in DRAM): 64 bytes DRAM to SRAM, then SRAM to DRAM.
 */
static void test_bdma_cvsram(void)
{
	static const struct {
		uint32_t cmd, src, dst;
	} copies[] = { { 1, IMG, OUT }, { 2, OUT, WMB } };
	size_t i;
	int b;

	memset(mem, 0, sizeof(mem));
	memset(cvsram, 0, sizeof(cvsram));
	for (b = 0; b < 64; b++)
		mem[IMG + b] = (uint8_t)(b * 5 + 1);
	for (i = 0; i < ARRAY_SIZE(copies); i++) {
		wr(NVDLA_UNIT_BDMA, NVDLA_BDMA_CFG_SRC_ADDR_LOW,
		   (uint32_t)MEM_BASE + copies[i].src);
		wr(NVDLA_UNIT_BDMA, NVDLA_BDMA_CFG_DST_ADDR_LOW,
		   (uint32_t)MEM_BASE + copies[i].dst);
		wr(NVDLA_UNIT_BDMA, NVDLA_BDMA_CFG_LINE, 1);	/* 2 x 32 bytes */
		wr(NVDLA_UNIT_BDMA, NVDLA_BDMA_CFG_CMD, copies[i].cmd);
		wr(NVDLA_UNIT_BDMA, NVDLA_BDMA_CFG_LINE_REPEAT, 0);
		wr(NVDLA_UNIT_BDMA, NVDLA_BDMA_CFG_SURF_REPEAT, 0);
		wr(NVDLA_UNIT_BDMA, NVDLA_BDMA_CFG_OP, 1);
		wr(NVDLA_UNIT_BDMA, NVDLA_BDMA_CFG_LAUNCH0, 1);
		while (nvdla_sim_run(sim))
			;
	}
	tap_ok(!memcmp(cvsram + OUT, mem + IMG, 64) &&
	       !memcmp(mem + WMB, mem + IMG, 64) && mem[OUT] == 0,
	       "BDMA copies DRAM to CVSRAM and back through the host's callbacks");
}

/* nv_small has no second interface: pixels there stall it, a fault. */
static void test_no_cvsram(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem, 0x55, sizeof(mem));
	load_weights();
	image_ram = 0;
	image_layer(NVDLA_PIXEL_A8B8G8R8, 0, 1, 0);
	image_ram = MCIF;
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "nv_small: input on the missing CVSRAM interface is a fault");
}

#define FP16_KERNELS 5
#define FP16_ONE 0x3c00

/* The convolution units in fp16 (direct mode), the CDMA told @in_prec. */
static void fp16_units(uint32_t in_prec)
{
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MISC_CFG,
	   in_prec << NVDLA_CDMA_D_MISC_CFG_IN_PRECISION_SHIFT |
	   2u << NVDLA_CDMA_D_MISC_CFG_PROC_PRECISION_SHIFT);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_MISC_CFG,
	   2u << NVDLA_CSC_D_MISC_CFG_PROC_PRECISION_SHIFT);
	wr(NVDLA_UNIT_CMAC_A, NVDLA_CMAC_A_D_MISC_CFG,
	   2u << NVDLA_CMAC_A_D_MISC_CFG_PROC_PRECISION_SHIFT);
	wr(NVDLA_UNIT_CMAC_B, NVDLA_CMAC_B_D_MISC_CFG,
	   2u << NVDLA_CMAC_B_D_MISC_CFG_PROC_PRECISION_SHIFT);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_MISC_CFG,
	   2u << NVDLA_CACC_D_MISC_CFG_PROC_PRECISION_SHIFT);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_FORMAT,
	   2u << NVDLA_SDP_D_DATA_FORMAT_PROC_PRECISION_SHIFT |
	   2u << NVDLA_SDP_D_DATA_FORMAT_OUT_PRECISION_SHIFT);
}

/*
 * Program the image layer of image_program in fp16 on nv_full: pixels of
 * @fmt with input precision @in_prec, CDMA pad pixel 3.0, CSC pad row
 * -2.0, five kernels (weights from fp16_weights), SDP writing fp16.
 */
static void fp16_program(uint32_t fmt, uint32_t in_prec, uint32_t cvt)
{
	image_program(fmt, in_prec, cvt, 0);
	/* direct mode, fp16, whatever the Winograd tests left */
	fp16_units(in_prec);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_POST_Y_EXTENSION, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_CONV_STRIDE, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAOUT_SIZE_0, 1);		/* 2x1 */
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_ZERO_PADDING_VALUE, 0x4200);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_ZERO_PADDING_VALUE, 0xc000);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_1,
	   (FP16_KERNELS - 1) << 16 | 7);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_CHANNEL, FP16_KERNELS - 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_LINE_STRIDE, 64);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_SURFACE_STRIDE, 64);
}

/*
 * Kernels 0 to 3 pick element 4 + k of row 1 (component k of the pixel at
 * x); kernel 4 has row 0 all 1.0 and row 1 = 1, 0, 0, 0, 0.5, 0, 0, -1.
 * Weight (k, c, r) of one group of 5 kernels lies at ((r * 5) + k) * 8 + c.
 */
static void fp16_weights(void)
{
	static const uint16_t mixed[8] = {
		FP16_ONE, 0, 0, 0, 0x3800, 0, 0, 0xbc00
	};
	uint32_t k, c;

	for (k = 0; k < 4; k++)
		put16(WT + 2 * ((FP16_KERNELS + k) * 8 + 4 + k), FP16_ONE);
	for (c = 0; c < 8; c++) {
		put16(WT + 2 * ((0 * FP16_KERNELS + 4) * 8 + c), FP16_ONE);
		put16(WT + 2 * ((1 * FP16_KERNELS + 4) * 8 + c), mixed[c]);
	}
}

/* Output channel @k at x = @x of fp16_image_layer, as fp16 bits. */
static uint16_t fp16_out(uint32_t k, uint32_t x)
{
	return get16(OUT + x * 32 + k * 2);
}

/*
 * 8-bit pixels (R G B A: 30 20 10 40 and 70 60 50 80) converted to fp16:
 * scale 5, truncate 1, means R -791, G -805, B -32768, A 81.
 *   R: 821 * 5 / 2 = 2052.5 -> 2053 (half away from zero), to fp16 a tie
 *      -> 2052 (even); 861 * 5 / 2 = 2152.5 -> 2153 -> 2152.
 *   G: 825 * 5 / 2 = 2062.5 -> 2063, a tie -> 2064 (even);
 *      865 * 5 / 2 = 2162.5 -> 2163 -> 2164.
 *   B: 32778 * 5 / 2 = 81945 -> 65535 (17 bits) -> 65504 (fp16's largest);
 *      32818 * 5 / 2 -> the same.
 *   A: -41 * 5 / 2 = -102.5 -> -103; -1 * 5 / 2 = -2.5 -> -3.
 * Kernels 0-3 (one-hot) give these exactly. Kernel 4:
 *   x = 0: row 0 above the image: 8 * -2.0 = -16; row 1: the pad pixel's
 *          3.0, 0.5 * 2052, -1 * -103: -16 + 3 + 1026 + 103 = 1116;
 *   x = 1: -16 + 2052 + 0.5 * 2152 - 1 * -3 = 3115, to fp16 a tie: 3116.
 */
static void test_fp16_convert(void)
{
	static const int order[4] = { 0, 1, 2, 3 };
	static const uint16_t want[2][FP16_KERNELS] = {
		{ 0x6802, 0x6808, 0x7bff, 0xd670, 0x645c },	/* 1116 */
		{ 0x6834, 0x683a, 0x7bff, 0xc200, 0x6a16 },	/* 3116 */
	};
	uint32_t faults = nvdla_sim_fault_count(sim), x, k;
	bool ok = true;

	memset(mem, 0, sizeof(mem));
	fp16_weights();
	load_pixels(order);
	fp16_program(NVDLA_PIXEL_A8B8G8R8, 0, 1);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MEAN_GLOBAL_0, 0xfcdbfce9);	/* G -805, R -791 */
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MEAN_GLOBAL_1, 0x00518000);	/* A 81, B -32768 */
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_CVT_SCALE, 5);
	run_layer();
	for (x = 0; x < 2; x++)
		for (k = 0; k < FP16_KERNELS; k++)
			if (fp16_out(k, x) != want[x][k]) {
				ok = false;
				printf("# x %u kernel %u: %04x, want %04x\n", x,
				       k, fp16_out(k, x), want[x][k]);
			}
	tap_ok(nvdla_sim_fault_count(sim) == faults && ok,
	       "fp16 image: converter rounds half away, then to nearest even fp16, saturates at 65504; pads and rows summed");
}

/*
 * Converter off, 16-bit pixels (A16B16G16R16): the raw bits go on as
 * fp16, as the hardware's C model passes them. Pixel 0 is 1.0, -5.0, 100,
 * 0.5 and pixel 1 is 2.0, 0.25, -1.5, 65504 (R, G, B, A).
 */
static void test_fp16_raw(void)
{
	static const uint16_t px[2][4] = {
		{ 0x3c00, 0xc500, 0x5640, 0x3800 },
		{ 0x4000, 0x3400, 0xbe00, 0x7bff },
	};
	uint32_t faults = nvdla_sim_fault_count(sim), x, k;
	bool ok = true;

	memset(mem, 0, sizeof(mem));
	fp16_weights();
	for (x = 0; x < 2; x++)
		for (k = 0; k < 4; k++)
			put16(IMG + x * 8 + k * 2, px[x][k]);
	fp16_program(NVDLA_PIXEL_A16B16G16R16, 1, 0);
	run_layer();
	for (x = 0; x < 2; x++)
		for (k = 0; k < 4; k++)
			ok = ok && fp16_out(k, x) == px[x][k];
	tap_ok(nvdla_sim_fault_count(sim) == faults && ok,
	       "fp16 image, converter off: 16-bit pixels pass as fp16 bits");
}

/*
 * fp16 post-extension test weights: kernel 0 has 0.0625 at row 0 channel
 * 0 and 32768, -32768 at row 1 channels 4 and 5; kernel 1 1.0 at row 1
 * channel 4; kernel 2 a NaN (payload 3) at row 1 channel 0. Stored in the
 * direct layout, or with post-extension per kernel its two rows of 8.
 */
static void fp16_post_weights(uint32_t y_ext)
{
	static const struct {
		uint8_t k, c, r;
		uint16_t v;
	} wts[] = {
		{ 0, 0, 0, 0x2c00 }, { 0, 4, 1, 0x7800 }, { 0, 5, 1, 0xf800 },
		{ 1, 4, 1, FP16_ONE }, { 2, 0, 1, 0x7c03 },
	};
	size_t i;

	memset(mem + WT, 0, OUT - WT);
	for (i = 0; i < ARRAY_SIZE(wts); i++)
		put16(WT + 2 * ((y_ext ? wts[i].k * 2 + wts[i].r :
				 wts[i].r * FP16_KERNELS + wts[i].k) * 8 +
				wts[i].c), wts[i].v);
}

/* Run the post-extension layer; true if kernels 0 to 2 give @want. */
static bool fp16_post_run(uint32_t y_ext, uint16_t csc_pad,
			  const uint16_t want[3])
{
	uint32_t faults = nvdla_sim_fault_count(sim), x, k;
	bool ok = true;

	fp16_post_weights(y_ext);
	fp16_program(NVDLA_PIXEL_A16B16G16R16, 1, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_POST_Y_EXTENSION, y_ext);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_ZERO_PADDING_VALUE, csc_pad);
	run_layer();
	for (x = 0; x < 2; x++)
		for (k = 0; k < 3; k++)
			if (fp16_out(k, x) != want[k]) {
				ok = false;
				printf("# ext %u k %u x %u: %04x, want %04x\n",
				       y_ext, k, x, fp16_out(k, x), want[k]);
			}
	return ok && nvdla_sim_fault_count(sim) == faults;
}

/*
 * Both pixels are R = G = 32768 (raw fp16), B = A = 0; the kernel's row 0
 * lies on the CSC's pad row (-2.0), row 1 on the image; the pad pixel is
 * 3.0. Kernel 0: row by row, the blocks give -2 * 0.0625 = -0.125 and
 * 32768^2 - 32768^2 = 0. With post-extension both rows are one block
 * whose exponent is that of 32768 * 32768 (groups 7 + 7); the -2 * 0.0625
 * lane (groups 4 + 2) lies 8 groups, 32 bits, below it, past the 32-bit
 * product: it drops out and the sum is +0. Kernel 1 reads 32768, kernel
 * 2 gives its NaN weight. With a NaN pad row, row by row the pad's NaN
 * comes first for every kernel (the CACC keeps the first NaN); in one
 * block weights are searched first, so kernel 2 still gives its own. Extension 4 with two rows is one pass of two rows too.
 */
static void test_fp16_post(void)
{
	static const uint16_t rows[3] = { 0xb000, 0x7800, 0x7c03 };
	static const uint16_t pass[3] = { 0, 0x7800, 0x7c03 };
	static const uint16_t rows_nan[3] = { 0x7e05, 0x7e05, 0x7e05 };
	static const uint16_t pass_nan[3] = { 0x7e05, 0x7e05, 0x7c03 };
	uint32_t x;

	memset(mem, 0, sizeof(mem));
	for (x = 0; x < 2; x++) {
		put16(IMG + x * 8, 0x7800);
		put16(IMG + x * 8 + 2, 0x7800);
	}
	tap_ok(fp16_post_run(0, 0xc000, rows),
	       "fp16 image, row by row: -0.125 from the pad row, 32768 picked");
	tap_ok(fp16_post_run(1, 0xc000, pass),
	       "fp16 post-extension 2: one block, the pad row's product drops below its exponent");
	tap_ok(fp16_post_run(2, 0xc000, pass),
	       "fp16 post-extension 4 with a 2-row kernel: the same");
	tap_ok(fp16_post_run(0, 0x7e05, rows_nan),
	       "fp16 image, row by row: the NaN pad row comes first");
	tap_ok(fp16_post_run(1, 0x7e05, pass_nan),
	       "fp16 post-extension: one block, its NaN weight before the pad row's NaN data");
}

static void expect_fp16_fault(uint32_t fmt, uint32_t in_prec, uint32_t cvt,
			      uint32_t y_ext, const char *what)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem, 0x55, sizeof(mem));
	fp16_program(fmt, in_prec, cvt);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_POST_Y_EXTENSION, y_ext);
	run_layer();
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "fp16 image, %s: a fault, nothing written", what);
}

/*
 * An fp16 feature cube 2x1x20 (two surfaces; lanes 20 to 31 of the second
 * are fetched but not used), 1x1 kernels, two of them, PAD_LEFT 1 with a
 * NaN CSC pad value, output 3x1; D_WEIGHT_BYTES 128 of which the kernels
 * use 80; the CDMA flushing NaNs if @flush.
 */
static void nan_program(uint32_t flush)
{
	next_groups();
	fp16_units(2);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_FORMAT, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_0, 1);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_1, 19);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_ADDR_LOW_0, (uint32_t)MEM_BASE + IMG);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_RAM_TYPE, MCIF);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_LINE_STRIDE, 64);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_SURF_STRIDE, 64);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BATCH_NUMBER, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_FORMAT, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_ADDR_LOW, (uint32_t)MEM_BASE + WT);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_RAM_TYPE, MCIF);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_BYTES, 128);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BANK, 0x10001);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_ZERO_PADDING, 1);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_NAN_FLUSH_TO_ZERO, flush);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_FORMAT, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_FORMAT, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_POST_Y_EXTENSION, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_BATCH_NUMBER, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_0, 1);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_1, 19);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_0, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_1, 1 << 16 | 19);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_CONV_STRIDE_EXT, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DILATION_EXT, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_ZERO_PADDING, 1);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_ZERO_PADDING_VALUE, 0x7e05);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_BATCH_NUMBER, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_WIDTH, 2);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_HEIGHT, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_CHANNEL, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + OUT);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_DMA_CFG, MCIF);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_LINE_STRIDE, 96);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_SURFACE_STRIDE, 96);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_EW_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_CVT_SCALE, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_FEATURE_MODE_CFG, 1);
}

/*
 * Data (channel: value; surface 1 at +64, x = 1 at +32): x = 0: 0: 1.0,
 * 1: NaN, 2: +inf, 16: 0.5, lane 20 (no channel): NaN, lane 31: +inf;
 * x = 1: 0: 2.0, 3: -inf, 19: NaN. Kernel 0: 1.0 on channels 0, 1, 16,
 * 19; kernel 1: 2.0 on channel 0, NaN on 16. Past the kernels, in the
 * weight bytes: -inf at 100, NaN at 126. Data: three NaNs, three
 * infinities; weights: two NaNs, one infinity.
 */
static void nan_load(void)
{
	memset(mem, 0, 0xc00);
	put16(IMG + 0, 0x3c00);
	put16(IMG + 2, 0x7e00);
	put16(IMG + 4, 0x7c00);
	put16(IMG + 64 + 0, 0x3800);
	put16(IMG + 64 + 8, 0xfe00);
	put16(IMG + 64 + 30, 0x7c00);
	put16(IMG + 32 + 0, 0x4000);
	put16(IMG + 32 + 6, 0xfc00);
	put16(IMG + 96 + 6, 0x7d00);
	put16(WT + 2 * 0, FP16_ONE);
	put16(WT + 2 * 1, FP16_ONE);
	put16(WT + 2 * 16, FP16_ONE);
	put16(WT + 2 * 19, FP16_ONE);
	put16(WT + 2 * (20 + 0), 0x4000);
	put16(WT + 2 * (20 + 16), 0x7c01);
	put16(WT + 100, 0xfc00);
	put16(WT + 126, 0x7fff);
}

/* The counters of the group the bus reaches hold nan_load's counts. */
static bool nan_counts(void)
{
	return cdma_reg(NVDLA_CDMA_D_NAN_INPUT_DATA_NUM) == 3 &&
	       cdma_reg(NVDLA_CDMA_D_INF_INPUT_DATA_NUM) == 3 &&
	       cdma_reg(NVDLA_CDMA_D_NAN_INPUT_WEIGHT_NUM) == 2 &&
	       cdma_reg(NVDLA_CDMA_D_INF_INPUT_WEIGHT_NUM) == 1;
}

static bool nan_out(const uint16_t want[2][3])
{
	bool ok = true;
	int k, x;

	for (k = 0; k < 2; k++)
		for (x = 0; x < 3; x++)
			if (get16(OUT + 32 * x + 2 * k) != want[k][x]) {
				ok = false;
				printf("# k %d x %d: %04x, want %04x\n", k, x,
				       get16(OUT + 32 * x + 2 * k), want[k][x]);
			}
	return ok;
}

/* nan_load's outputs without the flush. */
static const uint16_t nan_raw[2][3] = {
	{ 0x7e05, 0x7e00, 0x7d00 }, { 0x7c01, 0x7c01, 0x7c01 },
};

/* nan_program with D_MISC_CFG's reuse and keep bits @misc, banks @bank. */
static void nan_reuse_layer(uint32_t misc, uint32_t bank)
{
	nan_program(0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MISC_CFG,
	   2u << NVDLA_CDMA_D_MISC_CFG_IN_PRECISION_SHIFT |
	   2u << NVDLA_CDMA_D_MISC_CFG_PROC_PRECISION_SHIFT | misc);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BANK, bank);
	run_layer();
}

/*
 * A layer that reuses what the one before kept in the buffer fetches
 * nothing and counts nothing there: data after SKIP_DATA_RLS with
 * DATA_REUSE in the same data banks, weights after SKIP_WEIGHT_RLS with
 * WEIGHT_REUSE in the same banks. Other banks, or no keep bit, fetch.
 */
static void test_cdma_reuse(void)
{
	const uint32_t keep_data = NVDLA_CDMA_D_MISC_CFG_SKIP_DATA_RLS_MASK;
	const uint32_t keep_wt = NVDLA_CDMA_D_MISC_CFG_SKIP_WEIGHT_RLS_MASK;
	const uint32_t reuse = NVDLA_CDMA_D_MISC_CFG_DATA_REUSE_MASK |
			       NVDLA_CDMA_D_MISC_CFG_WEIGHT_REUSE_MASK;

	nan_reuse_layer(keep_data | keep_wt, 0x10001);
	tap_ok(nan_counts(), "a layer keeping its data and weights counts them");
	nan_reuse_layer(reuse | keep_wt, 0x10001);
	tap_ok(!cdma_reg(NVDLA_CDMA_D_NAN_INPUT_DATA_NUM) &&
	       !cdma_reg(NVDLA_CDMA_D_INF_INPUT_DATA_NUM) &&
	       !cdma_reg(NVDLA_CDMA_D_NAN_INPUT_WEIGHT_NUM) &&
	       !cdma_reg(NVDLA_CDMA_D_INF_INPUT_WEIGHT_NUM) && nan_out(nan_raw),
	       "reusing kept data and weights: nothing fetched, nothing counted");
	nan_reuse_layer(reuse, 0x10001);
	tap_ok(cdma_reg(NVDLA_CDMA_D_NAN_INPUT_DATA_NUM) == 3 &&
	       cdma_reg(NVDLA_CDMA_D_INF_INPUT_DATA_NUM) == 3 &&
	       !cdma_reg(NVDLA_CDMA_D_NAN_INPUT_WEIGHT_NUM) &&
	       !cdma_reg(NVDLA_CDMA_D_INF_INPUT_WEIGHT_NUM),
	       "data the layer before did not keep are fetched and counted, its kept weights not");
	nan_reuse_layer(keep_data | keep_wt, 0x10001);
	nan_reuse_layer(reuse, 0x10002);
	tap_ok(nan_counts(), "other data banks: data and weights fetched and counted");
}

/*
 * Without the flush, a NaN weight or data lane makes the sum NaN (weights
 * first), infinities times a zero weight are masked lanes, and the CSC's
 * NaN padding gives NaN. With it, the fetched NaNs are +0: kernel 0 sums
 * 1 + 0.5 = 1.5 and 2, kernel 1 gives 2 and 4; the CSC padding stays NaN.
 * The counts are the same: every element fetched, nothing the CSC pads.
 */
static void test_cdma_nan(void)
{
	static const uint16_t flushed[2][3] = {
		{ 0x7e05, 0x3e00, 0x4000 }, { 0x7e05, 0x4000, 0x4400 },
	};
	uint32_t faults = nvdla_sim_fault_count(sim);

	nan_load();
	nan_program(0);
	run_layer();
	tap_ok(nvdla_sim_fault_count(sim) == faults && nan_out(nan_raw),
	       "fp16 NaN inputs: weights first, then data; infinities times 0 masked");
	tap_ok(nan_counts(),
	       "CDMA counts 3 NaN and 3 infinite data, 2 NaN and 1 infinite weights: whole atoms and D_WEIGHT_BYTES, no CSC padding");
	nan_program(1);
	run_layer();
	tap_ok(nvdla_sim_fault_count(sim) == faults && nan_out(flushed),
	       "D_NAN_FLUSH_TO_ZERO: fetched NaN data and weights are +0, the CSC's NaN padding is not");
	tap_ok(nan_counts(), "CDMA counts the same with the flush");
	nan_program(0);
	tap_ok(nan_counts(), "CDMA counters hold until the group is enabled");
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_OP_ENABLE, 1);
	tap_ok(!cdma_reg(NVDLA_CDMA_D_NAN_INPUT_DATA_NUM) &&
	       !cdma_reg(NVDLA_CDMA_D_INF_INPUT_DATA_NUM) &&
	       !cdma_reg(NVDLA_CDMA_D_NAN_INPUT_WEIGHT_NUM) &&
	       !cdma_reg(NVDLA_CDMA_D_INF_INPUT_WEIGHT_NUM),
	       "CDMA counters read 0 once OP_EN is set");
	run_layer();
	tap_ok(nan_out(nan_raw), "the enabled layer then runs");
	test_cdma_reuse();
}

/*
 * Four-component fp16 pixels, R G B A after the reorder: 1.0 -5.0 +inf
 * 0.5 and 2.0 NaN -1.5 65504, the converter on with means and a scale it
 * does not apply to fp16. Kernels 0 to 3 pick component k of pixel x
 * (element 4 + k of the 8 the CSC feeds, the pixel x - 1 or the pad pixel
 * before it): the values themselves, +inf as 2^16 saturated to 65504 by
 * the SDP's fp16 output (at x = 1 its lane has weight 0: masked). The NaN
 * makes the whole block of x = 1 NaN, whatever the weights; with
 * D_NAN_FLUSH_TO_ZERO it is +0. Memory holds the pixel's
 * components in @order (A16Y16U16V16_F: V U Y A). A NaN and an infinity
 * in the pixel PIXEL_X_OFFSET skips, and past the image, are not counted.
 */
static void fp16_pixels(uint32_t fmt, const int order[4], uint32_t flush)
{
	static const uint16_t px[3][4] = {
		{ 0x3c00, 0xc500, 0x7c00, 0x3800 },
		{ 0x4000, 0x7e07, 0xbe00, 0x7bff },
		{ 0x7e00, 0xfc00, 0, 0 },	/* past the image */
	};
	static const uint16_t want[2][2][4] = {
		{ { 0x3c00, 0xc500, 0x7bff, 0x3800 },
		  { 0x7e07, 0x7e07, 0x7e07, 0x7e07 } },
		{ { 0x3c00, 0xc500, 0x7bff, 0x3800 },
		  { 0x4000, 0, 0xbe00, 0x7bff } },
	};
	uint32_t faults = nvdla_sim_fault_count(sim), x, k;
	bool ok = true;

	memset(mem, 0, sizeof(mem));
	fp16_weights();
	put16(IMG + order[1] * 2, 0x7e00);	/* skipped by the offset */
	put16(IMG + order[2] * 2, 0x7c00);
	for (x = 0; x < 3; x++)
		for (k = 0; k < 4; k++)
			put16(IMG + (x + 1) * 8 + order[k] * 2, px[x][k]);
	fp16_program(fmt, 2, 1);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PIXEL_OFFSET, 1);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MEAN_GLOBAL_0, 0x01000100);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_CVT_SCALE, 7);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_NAN_FLUSH_TO_ZERO, flush);
	run_layer();
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PIXEL_OFFSET, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_NAN_FLUSH_TO_ZERO, 0);
	for (x = 0; x < 2; x++)
		for (k = 0; k < 4; k++)
			if (fp16_out(k, x) != want[flush][x][k]) {
				ok = false;
				printf("# x %u kernel %u: %04x, want %04x\n", x,
				       k, fp16_out(k, x), want[flush][x][k]);
			}
	tap_ok(nvdla_sim_fault_count(sim) == faults && ok,
	       "fp16 pixels (format %u, flush %u): passed through in R G B A order, no mean or scale",
	       fmt, flush);
	tap_ok(cdma_reg(NVDLA_CDMA_D_NAN_INPUT_DATA_NUM) == 1 &&
	       cdma_reg(NVDLA_CDMA_D_INF_INPUT_DATA_NUM) == 1,
	       "fp16 pixels: the CDMA counts the image's NaN and infinity only");
}

/*
 * R16_F: one component per pixel, so output x = 1 takes pixels 0 to 7 of
 * the line: 16.0, NaN, then zeros. Kernel 4 sums row 0 (the CSC's pad
 * row, -2.0 times 1.0 eight times: -16) and row 1 (1.0 times element 0,
 * 0.5 times element 4, -1.0 times element 7): 16 - 16 = 0 at x = 1, 3.0
 * (the pad pixel) - 16 = -13 at x = 0. Element 1, the NaN, has weight 0:
 * still the block is NaN; with the flush it is +0.
 */
static void test_fp16_r16(void)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem, 0, sizeof(mem));
	fp16_weights();
	put16(IMG, 0x4c00);
	put16(IMG + 2, 0x7e03);
	fp16_program(NVDLA_PIXEL_R16_F, 2, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_1, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_1, 0);
	run_layer();
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       fp16_out(4, 0) == 0x7e03 && fp16_out(4, 1) == 0x7e03,
	       "R16_F: a NaN pixel under a zero weight makes the sum NaN (%04x %04x)",
	       fp16_out(4, 0), fp16_out(4, 1));
	fp16_program(NVDLA_PIXEL_R16_F, 2, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_1, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_1, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_NAN_FLUSH_TO_ZERO, 1);
	run_layer();
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_NAN_FLUSH_TO_ZERO, 0);
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       fp16_out(4, 0) == 0xca80 && fp16_out(4, 1) == 0,
	       "R16_F, NaN flushed: -13 and 16 - 16 = 0 (%04x %04x)",
	       fp16_out(4, 0), fp16_out(4, 1));
}

static void test_fp16_pixels(void)
{
	static const int rgba[4] = { 0, 1, 2, 3 }, vuya[4] = { 2, 1, 0, 3 };
	uint32_t faults = nvdla_sim_fault_count(sim);

	fp16_pixels(NVDLA_PIXEL_A16B16G16R16_F, rgba, 0);
	fp16_pixels(NVDLA_PIXEL_A16B16G16R16_F, rgba, 1);
	fp16_pixels(NVDLA_PIXEL_A16Y16U16V16_F, vuya, 0);
	test_fp16_r16();
	memset(mem, 0x55, sizeof(mem));
	fp16_program(NVDLA_PIXEL_A16B16G16R16_F, 2, 1);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MISC_CFG,
	   2u << NVDLA_CDMA_D_MISC_CFG_IN_PRECISION_SHIFT |
	   1u << NVDLA_CDMA_D_MISC_CFG_PROC_PRECISION_SHIFT);
	run_layer();
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "fp16 pixels for int16 processing: a fault, nothing written");
}

static void test_fp16_image(void)
{
	test_fp16_convert();
	test_fp16_raw();
	expect_fp16_fault(NVDLA_PIXEL_A8B8G8R8, 0, 0, 0,
			  "8-bit pixels with the converter off");
	expect_fp16_fault(NVDLA_PIXEL_R16_F, 1, 1, 0,
			  "fp16 pixels told int16 input");
	test_fp16_pixels();
	test_fp16_post();
}

/* A post-extension layer: one-pixel-wide A8B8G8R8 image, raw int8. */
struct post_case {
	uint32_t ext;		/* D_POST_Y_EXTENSION field: 0, 1 (2 rows), 2 (4) */
	uint32_t rows, kernels;	/* image rows; kernels of 4 channels */
	uint32_t r, pad_top, out_h;
	uint32_t compressed;	/* WEIGHT_FORMAT; the mask at WMB */
};

#define POST_LINE 64u		/* image line stride */
#define POST_OUT_LINE 32u	/* output line and surface strides */
#define POST_OUT_SURF 128u

static void post_layer(const struct post_case *p)
{
	next_groups();
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_MISC_CFG, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_FORMAT,
	   1 | NVDLA_PIXEL_A8B8G8R8 << 8);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_RAM_TYPE, MCIF);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_RAM_TYPE, MCIF);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_FORMAT, p->compressed);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_BYTES, 128);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WMB_ADDR_LOW, (uint32_t)MEM_BASE + WMB);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WMB_BYTES, 128);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_DMA_CFG, MCIF);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_0, (p->rows - 1) << 16);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DATAIN_SIZE_1, 3);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_ADDR_LOW_0, (uint32_t)MEM_BASE + IMG);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_LINE_STRIDE, POST_LINE);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_ADDR_LOW, (uint32_t)MEM_BASE + WT);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BANK, 0x10001);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_CVT_CFG, 0);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_ZERO_PADDING, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_FORMAT, 1);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_FORMAT, p->compressed);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_POST_Y_EXTENSION, p->ext);
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_BATCH_NUMBER, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_BATCH_NUMBER, 0);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_BATCH_NUMBER, 0);
	/* Direct mode, stride 1, whatever the group ran before. */
	wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_CONV_STRIDE, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_MISC_CFG, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_CONV_STRIDE_EXT, 0);
	wr(NVDLA_UNIT_CMAC_A, NVDLA_CMAC_A_D_MISC_CFG, 0);
	wr(NVDLA_UNIT_CMAC_B, NVDLA_CMAC_B_D_MISC_CFG, 0);
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_MISC_CFG, 0);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_0, (p->rows - 1) << 16);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_DATAIN_SIZE_EXT_1, 3);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_0, (p->r - 1) << 16);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_WEIGHT_SIZE_EXT_1,
	   (p->kernels - 1) << 16 | 3);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_ZERO_PADDING, p->pad_top << 16);
	wr(NVDLA_UNIT_CSC, NVDLA_CSC_D_ZERO_PADDING_VALUE, 0xffff);	/* -1 */
	wr(NVDLA_UNIT_CACC, NVDLA_CACC_D_CLIP_CFG, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_WIDTH, 0);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_HEIGHT, p->out_h - 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DATA_CUBE_CHANNEL, p->kernels - 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_BASE_ADDR_LOW, (uint32_t)MEM_BASE + OUT);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_LINE_STRIDE, POST_OUT_LINE);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DST_SURFACE_STRIDE, POST_OUT_SURF);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BN_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_EW_CFG, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_CVT_SCALE, 1);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_FEATURE_MODE_CFG, 1);	/* flying */
	run_layer();
}

/* Output of kernel @k at row @y; @lanes output channels per surface. */
static int8_t post_out(uint32_t k, uint32_t y, uint32_t lanes)
{
	return (int8_t)mem[OUT + k / lanes * POST_OUT_SURF + y * POST_OUT_LINE +
			   k % lanes];
}

/*
 * Three image rows (R, G, B, A): 1 2 3 4, 2 0 1 3, 4 1 0 2; a 3-row
 * kernel pair, pad row -1 above:
 *   k0 rows 1 1 1 1 | 1 0 -1 2 | 0 3 1 -2
 *   k1 rows 2 0 0 0 | 0 0 0 1 | -1 -1 1 1
 * Output row 0 (pad, row 0, row 1):
 *   k0 -4 + (1 - 3 + 8) + (1 - 6) = -3;  k1 -2 + 4 + (-2 + 1 + 3) = 4
 * Output row 1 (rows 0, 1, 2):
 *   k0 10 + (2 - 1 + 6) + (3 - 4) = 16;  k1 2 + 3 + (-4 - 1 + 2) = 2
 * In memory, the kernels' rows follow each other per pass of ext rows:
 *   no extension (rows one by one): k0r0 k1r0 k0r1 k1r1 k0r2 k1r2
 *   2 rows (passes r0-r1, r2):      k0r0 k0r1 k1r0 k1r1 k0r2 k1r2
 *   4 rows (one pass r0-r2):        k0r0 k0r1 k0r2 k1r0 k1r1 k1r2
 */
static const int8_t post_kernel[2][3][4] = {
	{ { 1, 1, 1, 1 }, { 1, 0, -1, 2 }, { 0, 3, 1, -2 } },
	{ { 2, 0, 0, 0 }, { 0, 0, 0, 1 }, { -1, -1, 1, 1 } },
};

static const uint8_t post_order[3][6][2] = {	/* (kernel, row) in memory */
	{ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 0, 2 }, { 1, 2 } },
	{ { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0, 2 }, { 1, 2 } },
	{ { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 }, { 1, 1 }, { 1, 2 } },
};

static void post_small_load(uint32_t ext)
{
	static const uint8_t img[3][4] = { { 1, 2, 3, 4 }, { 2, 0, 1, 3 },
					   { 4, 1, 0, 2 } };
	int i, y;

	memset(mem, 0, sizeof(mem));
	for (y = 0; y < 3; y++)
		memcpy(mem + IMG + y * POST_LINE, img[y], 4);
	for (i = 0; i < 6; i++)
		memcpy(mem + WT + i * 4,
		       post_kernel[post_order[ext][i][0]][post_order[ext][i][1]],
		       4);
}

/* The hand-worked case with each extension @lanes output channels apart. */
static void test_post_small(uint32_t max_ext, uint32_t lanes)
{
	const struct post_case p = {
		.rows = 3, .kernels = 2, .r = 3, .pad_top = 1, .out_h = 2,
	};
	uint32_t ext;

	for (ext = 0; ext <= max_ext; ext++) {
		struct post_case q = p;
		uint32_t faults = nvdla_sim_fault_count(sim);

		q.ext = ext;
		post_small_load(ext);
		post_layer(&q);
		tap_ok(nvdla_sim_fault_count(sim) == faults &&
		       post_out(0, 0, lanes) == -3 && post_out(1, 0, lanes) == 4 &&
		       post_out(0, 1, lanes) == 16 && post_out(1, 1, lanes) == 2,
		       "post-extension %u rows: -3 4 16 2 (got %d %d %d %d)",
		       1u << ext, post_out(0, 0, lanes), post_out(1, 0, lanes),
		       post_out(0, 1, lanes), post_out(1, 1, lanes));
	}
}

/*
 * nv_full: the hand-worked pair extended by 2 with compressed weights: the
 * mask has a bit per weight in the post-extended order, the packed
 * surface the non-zero ones in that order.
 */
static void test_post_compressed(void)
{
	const struct post_case p = {
		.ext = 1, .rows = 3, .kernels = 2, .r = 3, .pad_top = 1,
		.out_h = 2, .compressed = 1,
	};
	uint8_t plain[24];
	uint32_t faults = nvdla_sim_fault_count(sim), i, n = 0;

	post_small_load(p.ext);
	memcpy(plain, mem + WT, sizeof(plain));
	memset(mem + WT, 0, sizeof(plain));
	for (i = 0; i < sizeof(plain); i++) {
		if (!plain[i])
			continue;
		mem[WMB + i / 8] |= 1 << (i % 8);
		mem[WT + n++] = plain[i];
	}
	post_layer(&p);
	tap_ok(nvdla_sim_fault_count(sim) == faults && n < sizeof(plain) &&
	       post_out(0, 0, 32) == -3 && post_out(1, 0, 32) == 4 &&
	       post_out(0, 1, 32) == 16 && post_out(1, 1, 32) == 2,
	       "post-extension 2 rows, compressed weights: -3 4 16 2 (got %d %d %d %d)",
	       post_out(0, 0, 32), post_out(1, 0, 32), post_out(0, 1, 32),
	       post_out(1, 1, 32));
}

/* Weight (k, c, r) of the larger comparison, in [-2, 2]. */
static int8_t post_w(uint32_t k, uint32_t c, uint32_t r)
{
	return (int8_t)((k * 7 + c * 3 + r * 5) % 5) - 2;
}

/*
 * Lay the R x 4 kernels out for passes of @ext rows, written from the
 * CSC's reading order: kernel groups of @kg, in each one block per pass,
 * in it every kernel's rows of the pass.
 */
static void post_load_weights(uint32_t kernels, uint32_t r, uint32_t ext,
			      uint32_t kg)
{
	uint32_t g, pass, k, row, c, i = 0;

	for (g = 0; g < kernels; g += kg)
		for (pass = 0; pass < r; pass += ext)
			for (k = g; k < g + kg && k < kernels; k++)
				for (row = pass; row < pass + ext && row < r; row++)
					for (c = 0; c < 4; c++)
						mem[WT + i++] = (uint8_t)post_w(k, c, row);
}

/*
 * Ten kernels (two groups on nv_small, the second of 2), 5 rows (passes
 * of 2 leave one row last), 6 image rows with 2 pad rows above: the
 * post-extended layer gives what the same kernels give unextended.
 */
static void test_post_compare(void)
{
	struct post_case p = {
		.rows = 6, .kernels = 10, .r = 5, .pad_top = 2, .out_h = 4,
	};
	uint8_t plain[POST_OUT_SURF * 2];
	uint32_t faults = nvdla_sim_fault_count(sim), y, c;

	memset(mem, 0, sizeof(mem));
	for (y = 0; y < p.rows; y++)
		for (c = 0; c < 4; c++)
			mem[IMG + y * POST_LINE + c] = (uint8_t)((y * 3 + c * 2) % 4);
	post_load_weights(p.kernels, p.r, 1, 8);
	post_layer(&p);
	memcpy(plain, mem + OUT, sizeof(plain));
	memset(mem + OUT, 0, sizeof(plain));
	post_load_weights(p.kernels, p.r, 2, 8);
	p.ext = 1;
	post_layer(&p);
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       memcmp(plain, mem + OUT, sizeof(plain)) == 0 &&
	       (int8_t)plain[0] != 0,
	       "10 kernels of 5 rows: post-extended by 2 as without (k0 y0 %d)",
	       (int8_t)plain[0]);
}

static void post_fault(const struct post_case *p, const char *what)
{
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem + OUT, 0x55, 64);
	post_layer(p);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "%s: a fault, nothing written", what);
}

/* nv_small: 8 MAC channels take 4 per row in pairs, 2 in fours. */
static void test_post_faults(void)
{
	struct post_case p = {
		.ext = 2, .rows = 3, .kernels = 2, .r = 3, .pad_top = 1,
		.out_h = 2,
	};

	post_fault(&p, "post-extension 4 with 4 channels on 8 MAC channels");
	p.ext = 3;
	post_fault(&p, "post-extension field 3 (reserved)");
}

/* nv_full: post-extension of a feature cube's (1x1) kernels. */
static void test_post_feature(void)
{
	const struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 4, .kernels = 2,
		.in_ram = MCIF, .out_ram = MCIF, .y_extension = 1,
	};
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem, 0x55, sizeof(mem));
	dc_layer(&dc);
	tap_ok(nvdla_sim_fault_count(sim) == faults + 1 && mem[OUT] == 0x55,
	       "post-extension of a feature cube: a fault, nothing written");
}

static void start(enum nvdla_sim_config_id id, const uint32_t *bases);

/* The host takes every done pulse (clears the interrupt status). */
static void take_dones(void)
{
	nvdla_sim_reg_write(sim, base[NVDLA_UNIT_GLB] + NVDLA_GLB_S_INTR_STATUS,
			    0xffffffff);
}

/*
 * Two convolutions with the same banks (2 data, 2 weight): the first's
 * D_WEIGHT_BYTES 8,192 (1,024 entries on nv_small, all its banks hold),
 * the second's 8; the second computes 3 x 2 = 6. With @early the
 * second's CDMA is enabled before the first runs, as the firmware does
 * where data banks differ; else after it, once the host has taken its
 * done pulses if @taken. Returns the hazards counted by the second.
 */
static uint32_t stale_pair(bool early, bool taken,
			   struct nvdla_cbuf_verdict *v)
{
	struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 2, .kernels = 1,
		.weight_bytes = 8192, .in_ram = MCIF, .out_ram = MCIF,
	};
	uint32_t g, before;
	size_t i;

	memset(mem, 0, sizeof(mem));
	mem[IMG] = 3;
	mem[WT] = 2;
	next_groups();
	g = nvdla_sim_reg_read(sim, base[NVDLA_UNIT_CDMA] + 4) & 1;
	dc_program(&dc);
	dc.weight_bytes = 8;
	if (early) {	/* the second in the other groups, its CDMA enabled */
		point(g ^ 1);
		dc_program(&dc);
		wr(NVDLA_UNIT_CDMA, NVDLA_CDMA_D_OP_ENABLE, 1);
		point(g);
	}
	run_layer();
	memset(mem + OUT, 0x55, 32);
	before = nvdla_sim_hazards(sim, NULL);
	if (!early) {
		if (taken)
			take_dones();
		dc_layer(&dc);
		return nvdla_sim_hazards(sim, v) - before;
	}
	point(g ^ 1);
	/* All but the CDMA, enabled already (last in conv_units). */
	for (i = 0; i + 1 < ARRAY_SIZE(conv_units); i++)
		wr(conv_units[i].unit, conv_units[i].op_enable, 1);
	while (nvdla_sim_run(sim))
		;
	return nvdla_sim_hazards(sim, v) - before;
}

/*
 * nv_small's CDMA counts weight entries on a gated clock and misses the
 * releases that follow a layer's fetch while no CDMA is enabled
 * (nvdla/cbuf_limits.h, docs/model.md): after the first of stale_pair()'s
 * layers all 1,024 entries stay counted, and the second, with the same
 * data banks and its CDMA enabled with the rest, has no room for its one
 * entry: refused, nothing written; allowed, it runs. With its CDMA
 * enabled early it runs. nv_full's CDMA has no such count.
 */
static void test_stale_weights(void)
{
	struct nvdla_cbuf_verdict v;
	uint32_t n;

	n = stale_pair(false, true, &v);
	tap_ok(n == 1 && v.rule == NVDLA_CBUF_STALE_WEIGHTS && v.stale == 1024 &&
	       v.have == 0 && v.need == 1 && mem[OUT] == 0x55,
	       "nv_small, the same data banks, the CDMA enabled late: refused, nothing written, stale 1024, room 0, needs 1 (%u: rule %d, %llu, %llu, %llu)",
	       n, v.rule, (unsigned long long)v.stale,
	       (unsigned long long)v.have, (unsigned long long)v.need);
	expect_verdict(&v, "the CDMA's gated weight count leaves too little room for the weights fetched with the input (the CDMA waits forever): 0 entries, needs 1 (stale count 1024)",
		       "the stale weights'");
	nvdla_sim_allow_hazards(sim, true);
	dc_layer(&(struct dc_case){
		.batches = 1, .csc_batches = 1, .channels = 2, .kernels = 1,
		.weight_bytes = 8, .in_ram = MCIF, .out_ram = MCIF,
	});
	tap_ok(mem[OUT] == 6, "allowed, it runs (got %d)", mem[OUT]);
	nvdla_sim_allow_hazards(sim, false);
	start(NVDLA_SIM_NV_SMALL, bases_small);
	n = stale_pair(true, false, &v);
	tap_ok(n == 0 && mem[OUT] == 6,
	       "nv_small, the second's CDMA enabled early: it runs (%u hazards, got %d)",
	       n, mem[OUT]);
	start(NVDLA_SIM_NV_SMALL, bases_small);
	n = stale_pair(false, false, &v);
	tap_ok(n == 0 && mem[OUT] == 6,
	       "nv_small, enabled after the first ran, before the host took its done: it runs (%u hazards, got %d)",
	       n, mem[OUT]);
	start(NVDLA_SIM_NV_FULL, bases_full);
	n = stale_pair(false, true, &v);
	tap_ok(n == 0 && mem[OUT] == 6,
	       "nv_full, enabled late: it runs, no such count (%u hazards, got %d)",
	       n, mem[OUT]);
}

/*
 * One convolution of 4,608 bytes of weights (576 entries of nv_small's
 * 8 bytes; 2 weight banks hold 1,024) run again and again, the host
 * taking its done each time, as jobs do: the count keeps 576 after the
 * first run and all 1,024 after the second, so the third is refused.
 * nvdla_compile's 3x3 convolution of 8x8x32 to 16 channels (the same
 * weights and banks), recorded and played three times in a row on
 * NVIDIA's nv_small RTL with clocks gated, stops in its third run the
 * same way (docs/model.md). After a reset it runs again.
 */
static void test_stale_reruns(void)
{
	const struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 2, .kernels = 1,
		.weight_bytes = 4608, .in_ram = MCIF, .out_ram = MCIF,
	};
	struct nvdla_cbuf_verdict v;
	uint32_t before = nvdla_sim_hazards(sim, NULL), n[3];
	int i;

	memset(mem, 0, sizeof(mem));
	mem[IMG] = 3;
	mem[WT] = 2;
	for (i = 0; i < 3; i++) {
		dc_layer(&dc);
		take_dones();
		n[i] = nvdla_sim_hazards(sim, &v) - before;
	}
	tap_ok(n[0] == 0 && n[1] == 0 && n[2] == 1 &&
	       v.rule == NVDLA_CBUF_STALE_WEIGHTS && v.stale == 1024 &&
	       v.have == 0,
	       "nv_small, one convolution run three times: the third refused, stale 1024, room 0 (hazards %u %u %u, stale %llu)",
	       n[0], n[1], n[2], (unsigned long long)v.stale);
	start(NVDLA_SIM_NV_SMALL, bases_small);
	memset(mem, 0, sizeof(mem));
	mem[IMG] = 3;
	mem[WT] = 2;
	dc_layer(&dc);
	tap_ok(nvdla_sim_hazards(sim, NULL) == 0 && mem[OUT] == 6,
	       "after a reset it runs (got %d)", mem[OUT]);
}

static void start(enum nvdla_sim_config_id id, const uint32_t *bases)
{
	const struct nvdla_sim_host h = {
		.bus_read = bus_read, .bus_write = bus_write,
		.bus_map = bus_map, .kick = kick, .irq = irq,
		.cv_map = cv_map, .cv_read = cv_read, .cv_write = cv_write,
	};

	base = bases;
	atom = id == NVDLA_SIM_NV_SMALL ? 8 : 32;
	tap_ok(nvdla_sim_init(sim, id, &h) == 0, "model starts (config %d)", id);
}

/*
 * A host that stands for the chip (the virtual devices) has the model hang
 * on a layer that breaks a limit: the layer of 3 entries a line for 1
 * raises no done pulse and writes nothing, nothing runs after it (a good
 * layer enabled next), until the model is started again.
 */
static void test_cbuf_hang(void)
{
	struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 2, .kernels = 1,
		.in_ram = MCIF, .out_ram = MCIF, .entries = 2,
	};
	uint32_t glb = base[NVDLA_UNIT_GLB] + NVDLA_GLB_S_INTR_STATUS;
	uint32_t hazards = nvdla_sim_hazards(sim, NULL), status;

	memset(mem, 0, sizeof(mem));
	mem[IMG] = 3;
	mem[WT] = 2;
	memset(mem + OUT, 0x55, 32);
	nvdla_sim_reg_write(sim, glb, nvdla_sim_reg_read(sim, glb));
	nvdla_sim_hang_on_hazards(sim, true);
	dc_layer(&dc);
	status = nvdla_sim_reg_read(sim, glb);
	dc.entries = 0;
	dc_layer(&dc);
	tap_ok(!status && !nvdla_sim_reg_read(sim, glb) &&
	       nvdla_sim_hazards(sim, NULL) == hazards + 1 &&
	       mem[OUT] == 0x55 && !nvdla_sim_run(sim),
	       "hanging on hazards: the refused layer raises no done pulse (status 0x%x), nor does the good one after it; nothing written (0x%x)",
	       status, mem[OUT]);
	start(NVDLA_SIM_NV_FULL, bases_full);
	dc_layer(&dc);
	tap_ok(mem[OUT] == 6 && nvdla_sim_reg_read(sim, glb) &
	       NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS0_MASK,
	       "started again, the model runs the good layer (got %d)",
	       mem[OUT]);
}

/*
 * CACC saturation, int16: 4 channels of -32768 times weights -32768 sum
 * to 2^32, past the int32 output (one count); times weights 1 to
 * -131072, which fits. With weights 2^14 the first is -2^31: it fits.
 */
static void test_cacc_saturation(void)
{
	const struct dc_case dc = {
		.batches = 1, .csc_batches = 1, .channels = 4, .kernels = 2,
		.weight_bytes = 16, .in_ram = MCIF, .out_ram = MCIF, .prec = 1,
	};
	uint32_t faults = nvdla_sim_fault_count(sim);
	uint32_t sat = NVDLA_CACC_D_OUT_SATURATION;
	int i;

	memset(mem, 0, sizeof(mem));
	for (i = 0; i < 4; i++) {
		put16(IMG + 2 * i, 0x8000);
		put16(WT + 2 * i, 0x8000);
		put16(WT + 8 + 2 * i, 1);
	}
	dc_layer(&dc);
	tap_ok(nvdla_sim_fault_count(sim) == faults &&
	       nvdla_sim_reg_read(sim, base[NVDLA_UNIT_CACC] + sat) == 1 &&
	       get16(OUT) == 0x7fff && get16(OUT + 2) == 0x8000,
	       "CACC int16: 2^32 saturates (counted once), -131072 does not (%u)",
	       nvdla_sim_reg_read(sim, base[NVDLA_UNIT_CACC] + sat));
	for (i = 0; i < 4; i++)
		put16(WT + 2 * i, 0x4000);
	dc_layer(&dc);
	tap_ok(nvdla_sim_reg_read(sim, base[NVDLA_UNIT_CACC] + sat) == 0,
	       "CACC int16: -2^31 fits, the count is 0 again");
}

int main(void)
{
	sim = calloc(1, nvdla_sim_size());
	if (!sim)
		return 1;
	start(NVDLA_SIM_NV_SMALL, bases_small);
	test_convert();
	test_formats();
	test_cdma_first();
	test_raw();
	expect_fault(NVDLA_PIXEL_R16_F, 1, 1, 0, "fp16 pixels");
	expect_fault(NVDLA_PIXEL_R16, 0, 1, 0, "16-bit pixels as int8 input");
	expect_fault(NVDLA_PIXEL_A8B8G8R8, 0, 1, 1,
		     "kernel width 2 (image kernels are pre-extended)");
	expect_fault(NVDLA_PIXEL_FORMAT_COUNT, 0, 1, 0, "unknown pixel format");
	expect_small_faults();
	test_absent_units();
	test_no_cvsram();
	test_post_small(1, 8);
	test_post_compare();
	test_post_faults();
	start(NVDLA_SIM_NV_FULL, bases_full);
	test_batches();
	test_verdict_text();
	test_cbuf_limits();
	test_cbuf_hang();
	test_cacc_saturation();
	test_compressed();
	test_cvsram();
	test_bdma_cvsram();
	test_winograd();
	test_winograd_fp16();
	/* Fresh models: each group leaves registers the next does not set. */
	start(NVDLA_SIM_NV_FULL, bases_full);
	test_post_small(2, 32);
	test_post_compressed();
	test_post_feature();
	start(NVDLA_SIM_NV_FULL, bases_full);
	test_fp16_image();
	test_cdma_nan();
	start(NVDLA_SIM_NV_FULL, bases_full);
	test_cdma_ahead();
	test_overtakes();
	start(NVDLA_SIM_NV_SMALL, bases_small);
	test_stale_weights();
	start(NVDLA_SIM_NV_SMALL, bases_small);
	test_stale_reruns();
	free(sim);
	return tap_done();
}
