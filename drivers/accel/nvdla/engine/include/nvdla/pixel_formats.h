/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Codes of CDMA D_DATAIN_FORMAT.PIXEL_FORMAT, the layouts of image input
 * (the hardware manual's pixel format table; arnvdla.h of nvdla/hw), and
 * how each lies in memory: shared by the firmware's checks, the model's
 * fetch, the runtime's image conversion and the tools.
 */
#ifndef __NVDLA_PIXEL_FORMATS_H__
#define __NVDLA_PIXEL_FORMATS_H__

#include <linux/types.h>

enum nvdla_pixel_format {
	NVDLA_PIXEL_R8,
	NVDLA_PIXEL_R10,
	NVDLA_PIXEL_R12,
	NVDLA_PIXEL_R16,
	NVDLA_PIXEL_R16_I,
	NVDLA_PIXEL_R16_F,
	NVDLA_PIXEL_A16B16G16R16,
	NVDLA_PIXEL_X16B16G16R16,
	NVDLA_PIXEL_A16B16G16R16_F,
	NVDLA_PIXEL_A16Y16U16V16,
	NVDLA_PIXEL_V16U16Y16A16,
	NVDLA_PIXEL_A16Y16U16V16_F,
	NVDLA_PIXEL_A8B8G8R8,
	NVDLA_PIXEL_A8R8G8B8,
	NVDLA_PIXEL_B8G8R8A8,
	NVDLA_PIXEL_R8G8B8A8,
	NVDLA_PIXEL_X8B8G8R8,
	NVDLA_PIXEL_X8R8G8B8,
	NVDLA_PIXEL_B8G8R8X8,
	NVDLA_PIXEL_R8G8B8X8,
	NVDLA_PIXEL_A2B10G10R10,
	NVDLA_PIXEL_A2R10G10B10,
	NVDLA_PIXEL_B10G10R10A2,
	NVDLA_PIXEL_R10G10B10A2,
	NVDLA_PIXEL_A2Y10U10V10,
	NVDLA_PIXEL_V10U10Y10A2,
	NVDLA_PIXEL_A8Y8U8V8,
	NVDLA_PIXEL_V8U8Y8A8,
	NVDLA_PIXEL_Y8_U8V8_N444,
	NVDLA_PIXEL_Y8_V8U8_N444,
	NVDLA_PIXEL_Y10_U10V10_N444,
	NVDLA_PIXEL_Y10_V10U10_N444,
	NVDLA_PIXEL_Y12_U12V12_N444,
	NVDLA_PIXEL_Y12_V12U12_N444,
	NVDLA_PIXEL_Y16_U16V16_N444,
	NVDLA_PIXEL_Y16_V16U16_N444,
	NVDLA_PIXEL_FORMAT_COUNT,
};

/* dla_conv_op_desc.data_format of a feature cube rather than an image */
#define NVDLA_DATA_FORMAT_FEATURE 36

/**
 * struct nvdla_pixel_layout - how pixels of one format lie in memory
 * @planes: 1, or 2: luma, then interleaved chroma (semi-planar YUV 4:4:4)
 * @bpp: bytes per pixel in each plane
 * @comps: components per pixel, over both planes
 * @bits: bits per component as stored: 8 or 16 (10-bit packed: 16)
 * @packed: one 32-bit word holds three 10-bit colours and a 2-bit alpha
 * @fp16: the components are fp16 (input for fp16 processing only)
 * @src: per channel the CDMA hands on (R, G, B, A or Y, U, V, A), its
 *	component's index in the pixel (over both planes), or its bit
 *	position in a packed word
 */
struct nvdla_pixel_layout {
	u8 planes;
	u8 bpp[2];
	u8 comps;
	u8 bits;
	bool packed;
	bool fp16;
	u8 src[4];
};

#define NVDLA_PIXEL_PLANE(b, n, w, s0, s1, s2, s3) \
	{ .planes = 1, .bpp = { b }, .comps = n, .bits = w, \
	  .src = { s0, s1, s2, s3 } }
#define NVDLA_PIXEL_PACKED(s0, s1, s2, s3) \
	{ .planes = 1, .bpp = { 4 }, .comps = 4, .bits = 16, .packed = true, \
	  .src = { s0, s1, s2, s3 } }
#define NVDLA_PIXEL_SEMI_PLANAR(b0, b1, w, s1, s2) \
	{ .planes = 2, .bpp = { b0, b1 }, .comps = 3, .bits = w, \
	  .src = { 0, s1, s2 } }
#define NVDLA_PIXEL_FP16(b, n, s0, s1, s2, s3) \
	{ .planes = 1, .bpp = { b }, .comps = n, .bits = 16, .fp16 = true, \
	  .src = { s0, s1, s2, s3 } }

/* The layout of pixel format @fmt; NULL for a code that names none. */
static inline const struct nvdla_pixel_layout *nvdla_pixel_layout(u32 fmt)
{
	static const struct nvdla_pixel_layout layouts[] = {
		[NVDLA_PIXEL_R8] = NVDLA_PIXEL_PLANE(1, 1, 8, 0, 0, 0, 0),
		[NVDLA_PIXEL_R10] = NVDLA_PIXEL_PLANE(2, 1, 16, 0, 0, 0, 0),
		[NVDLA_PIXEL_R12] = NVDLA_PIXEL_PLANE(2, 1, 16, 0, 0, 0, 0),
		[NVDLA_PIXEL_R16] = NVDLA_PIXEL_PLANE(2, 1, 16, 0, 0, 0, 0),
		[NVDLA_PIXEL_R16_I] = NVDLA_PIXEL_PLANE(2, 1, 16, 0, 0, 0, 0),
		[NVDLA_PIXEL_R16_F] = NVDLA_PIXEL_FP16(2, 1, 0, 0, 0, 0),
		[NVDLA_PIXEL_A16B16G16R16] =
			NVDLA_PIXEL_PLANE(8, 4, 16, 0, 1, 2, 3),
		[NVDLA_PIXEL_X16B16G16R16] =
			NVDLA_PIXEL_PLANE(8, 4, 16, 0, 1, 2, 3),
		[NVDLA_PIXEL_A16B16G16R16_F] = NVDLA_PIXEL_FP16(8, 4, 0, 1, 2, 3),
		[NVDLA_PIXEL_A16Y16U16V16] =
			NVDLA_PIXEL_PLANE(8, 4, 16, 2, 1, 0, 3),
		[NVDLA_PIXEL_V16U16Y16A16] =
			NVDLA_PIXEL_PLANE(8, 4, 16, 1, 2, 3, 0),
		[NVDLA_PIXEL_A16Y16U16V16_F] = NVDLA_PIXEL_FP16(8, 4, 2, 1, 0, 3),
		[NVDLA_PIXEL_A8B8G8R8] = NVDLA_PIXEL_PLANE(4, 4, 8, 0, 1, 2, 3),
		[NVDLA_PIXEL_A8R8G8B8] = NVDLA_PIXEL_PLANE(4, 4, 8, 2, 1, 0, 3),
		[NVDLA_PIXEL_B8G8R8A8] = NVDLA_PIXEL_PLANE(4, 4, 8, 1, 2, 3, 0),
		[NVDLA_PIXEL_R8G8B8A8] = NVDLA_PIXEL_PLANE(4, 4, 8, 3, 2, 1, 0),
		[NVDLA_PIXEL_X8B8G8R8] = NVDLA_PIXEL_PLANE(4, 4, 8, 0, 1, 2, 3),
		[NVDLA_PIXEL_X8R8G8B8] = NVDLA_PIXEL_PLANE(4, 4, 8, 2, 1, 0, 3),
		[NVDLA_PIXEL_B8G8R8X8] = NVDLA_PIXEL_PLANE(4, 4, 8, 1, 2, 3, 0),
		[NVDLA_PIXEL_R8G8B8X8] = NVDLA_PIXEL_PLANE(4, 4, 8, 3, 2, 1, 0),
		[NVDLA_PIXEL_A2B10G10R10] = NVDLA_PIXEL_PACKED(0, 10, 20, 30),
		[NVDLA_PIXEL_A2R10G10B10] = NVDLA_PIXEL_PACKED(20, 10, 0, 30),
		[NVDLA_PIXEL_B10G10R10A2] = NVDLA_PIXEL_PACKED(2, 12, 22, 0),
		[NVDLA_PIXEL_R10G10B10A2] = NVDLA_PIXEL_PACKED(22, 12, 2, 0),
		[NVDLA_PIXEL_A2Y10U10V10] = NVDLA_PIXEL_PACKED(20, 10, 0, 30),
		[NVDLA_PIXEL_V10U10Y10A2] = NVDLA_PIXEL_PACKED(2, 12, 22, 0),
		[NVDLA_PIXEL_A8Y8U8V8] = NVDLA_PIXEL_PLANE(4, 4, 8, 2, 1, 0, 3),
		[NVDLA_PIXEL_V8U8Y8A8] = NVDLA_PIXEL_PLANE(4, 4, 8, 1, 2, 3, 0),
		[NVDLA_PIXEL_Y8_U8V8_N444] = NVDLA_PIXEL_SEMI_PLANAR(1, 2, 8, 2, 1),
		[NVDLA_PIXEL_Y8_V8U8_N444] = NVDLA_PIXEL_SEMI_PLANAR(1, 2, 8, 1, 2),
		[NVDLA_PIXEL_Y10_U10V10_N444] =
			NVDLA_PIXEL_SEMI_PLANAR(2, 4, 16, 2, 1),
		[NVDLA_PIXEL_Y10_V10U10_N444] =
			NVDLA_PIXEL_SEMI_PLANAR(2, 4, 16, 1, 2),
		[NVDLA_PIXEL_Y12_U12V12_N444] =
			NVDLA_PIXEL_SEMI_PLANAR(2, 4, 16, 2, 1),
		[NVDLA_PIXEL_Y12_V12U12_N444] =
			NVDLA_PIXEL_SEMI_PLANAR(2, 4, 16, 1, 2),
		[NVDLA_PIXEL_Y16_U16V16_N444] =
			NVDLA_PIXEL_SEMI_PLANAR(2, 4, 16, 2, 1),
		[NVDLA_PIXEL_Y16_V16U16_N444] =
			NVDLA_PIXEL_SEMI_PLANAR(2, 4, 16, 1, 2),
	};

	return fmt < NVDLA_PIXEL_FORMAT_COUNT ? &layouts[fmt] : NULL;
}

#endif /* __NVDLA_PIXEL_FORMATS_H__ */
