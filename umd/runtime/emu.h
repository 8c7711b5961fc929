/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The official CPU ("EMU1") task descriptors a compiler puts into a
 * loadable, as byte offsets: the compiler packs them, and two layouts
 * exist. The original one (format 2 = fp16, no scale factors, no buffer
 * offset) and the one with int8 support (2019): both call themselves
 * emulator 0.0.1, so the runtime tells them apart by the size of the
 * operation list (16 or 24 bytes per operation).
 */
#ifndef __NVDLA_UMD_EMU_H__
#define __NVDLA_UMD_EMU_H__

/* Network descriptor, address-list index 0. */
#define EMU_NET_OP_INDEX	0	/* s16: address index of the op list */
#define EMU_NET_BUF_INDEX	2	/* s16: address index of the buffers */
#define EMU_NET_NUM_OPS		4	/* u16 */
#define EMU_NET_SIZE		6

#define EMU_OP_POWER		0
#define EMU_OP_SOFTMAX		1
/*
 * This stack's operations from here on: their int8 results are rounded
 * to nearest, ties away from zero, as the hardware requantises; NVIDIA's
 * two truncate, as its emulator does.
 */
#define EMU_OP_OWN_FIRST	2
/*
 * This stack's own (nvdla_compile --cpu-fallback; NVIDIA's emulator has
 * no such operation): y = erf(x) over the cube, layout with int8 support.
 */
#define EMU_OP_ERF		2
/*
 * Also this stack's, in the layout with int8 support, computed in C float
 * (sums in double): the cube with channels and height exchanged (a
 * [1, T, D] tensor between its ONNX order and the layout where D are the
 * channels); layer normalisation over the channels at each position,
 * (x - mean) / sqrt(var + eps) (eps, f32 > 0, at EMU_V2_PARAM); bilinear
 * resizing of each channel's plane (coordinate mapping, u8 enum
 * emu_coord, at EMU_V2_PARAM; the step, input pixels per output pixel,
 * of height then width, f32 > 0, at EMU_V2_RESIZE_STEP: ONNX's 1 / scale,
 * which is n / m only when the scale gives a whole output size).
 */
#define EMU_OP_SWAP_CH		3
#define EMU_OP_LAYERNORM	4
#define EMU_OP_RESIZE		5
/*
 * This stack's element-wise functions for a DLA without the SDP's Y
 * stage (its LUT), layout with int8 support: y = 1 / (1 + exp(-x)),
 * tanh(x), x / (1 + exp(-x)) (SiLU).
 */
#define EMU_OP_SIGMOID		6
#define EMU_OP_TANH		7
#define EMU_OP_SILU		8

/*
 * Output pixel o of a bilinear resize from n to m pixels by step s
 * samples at:
 */
enum emu_coord {
	EMU_COORD_HALF_PIXEL,		/* (o + 0.5) s - 0.5 */
	EMU_COORD_PYTORCH_HALF_PIXEL,	/* the same, 0 when m is 1 */
	EMU_COORD_ALIGN_CORNERS,	/* o (n - 1) / (m - 1), 0 when m is 1 */
	EMU_COORD_ASYMMETRIC,		/* o s */
	EMU_COORD_COUNT
};

/* Operation container: op_type u8 first in both layouts. */
#define EMU_OP_TYPE		0
#define EMU_OP_SIZE_V1		16	/* op_type, power/axis packed at 1 */
#define EMU_OP_SIZE_V2		24	/* op_type, 2 f32 scales at 4 and 8 */
#define EMU_V1_POWER		1	/* f32 power, scale, shift */
#define EMU_V1_AXIS		1
#define EMU_V2_IN_SCALE		4
#define EMU_V2_OUT_SCALE	8
#define EMU_V2_POWER		12
#define EMU_V2_AXIS		12
#define EMU_V2_PARAM		12	/* this stack's operations' parameter */
#define EMU_V2_RESIZE_STEP	16	/* f32 height, width */

/* Buffer descriptors: 256 bytes each, source then destination. */
#define EMU_BUF_SIZE		256
#define EMU_BUF_PAIR_SIZE	(2 * EMU_BUF_SIZE)
#define EMU_BUF_INDEX		0	/* s16 */
#define EMU_V1_BUF_FORMAT	6	/* after u32 size at 2 */
#define EMU_V1_BUF_WIDTH	8
#define EMU_V2_BUF_OFFSET	2	/* u32 addressIndexOffset */
#define EMU_V2_BUF_FORMAT	10	/* after u32 size at 6 */
#define EMU_V2_BUF_WIDTH	12
/* From the width: u16 width, height, channel, u32 line, surface stride. */
#define EMU_BUF_HEIGHT		2
#define EMU_BUF_CHANNEL		4
#define EMU_BUF_LINE_STRIDE	6
#define EMU_BUF_SURF_STRIDE	10

/* Buffer formats. */
#define EMU_V1_FORMAT_FP16	2
#define EMU_V2_FORMAT_INT8	0
#define EMU_V2_FORMAT_INT8_8	1	/* 8-byte atoms */
#define EMU_V2_FORMAT_FP16	3

#endif /* __NVDLA_UMD_EMU_H__ */
