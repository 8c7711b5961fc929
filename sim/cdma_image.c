// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Image input of the convolution pipeline (CDMA DATAIN_FORMAT = PIXEL) from
 * integer pixels, processed in int8, int16 or fp16, or from fp16 pixels
 * (R16_F, A16B16G16R16_F, A16Y16U16V16_F), processed in fp16. The CDMA
 * reads each line of pitch-linear pixels, skips PIXEL_X_OFFSET pixels,
 * reorders every pixel's components to R, G, B, A (or Y, U, V, A), runs
 * them through the input converter (which passes fp16 through, mean and
 * scale unused, a NaN flushed to +0 with D_NAN_FLUSH_TO_ZERO) and adds
 * PAD_LEFT/PAD_RIGHT pixels of the raw CDMA pad value. The CSC then treats
 * each padded line as one channel axis: output x takes the elements from
 * x * STRIDE_X * DATAIN_CHANNEL on, for as many channels as the
 * (pre-extended) kernel has, with kernel width 1; rows outside the image
 * take the CSC pad value.
 *
 * Post-extension (CSC D_POST_Y_EXTENSION: 2 or 4 rows) makes the CSC feed
 * the MAC cells 2 or 4 consecutive kernel rows at once, each row in its
 * own 1/2 or 1/4 of the cells, so a kernel of R rows takes ceil(R / ext)
 * passes. Rows past the kernel's last in the final pass get zero data and
 * zero weights, rows outside the image the pad value as without it: the
 * sum is the plain one in the integer precisions. Only the weights' order
 * changes (see image_post_index()), and a row's channels must fit its
 * share of cells. In fp16 a pass is one CMAC block, with one exponent.
 */
#include <nvdla/pixel_formats.h>

#include "conv_fp16.h"
#include "fp.h"
#include "sim_internal.h"
#include "sim_math.h"

#define IMAGE_PACKED_BITS 10
#define IMAGE_ALPHA_BITS 2
#define IMAGE_CVT_BITS 17	/* the converter's saturation before output */
#define IMAGE_POST_EXT_MAX 2	/* D_POST_Y_EXTENSION: 1, 2 or 4 rows */

static u32 image_load(const u8 *p, u32 bytes)
{
	u32 v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

/* Raw component @ch of pixel @px (counted from the line start) of row @y. */
static u32 image_component(const struct sim_image *im, u32 px, u32 y, u32 ch)
{
	const struct nvdla_pixel_layout *l = im->layout;
	u32 src = l->src[ch], esize = l->bits / 8, word;
	int plane = l->planes == 2 && src > 0;

	if (l->packed) {
		word = image_load(im->plane[0] + y * im->line[0] + px * 4, 4);
		if (ch == 3)
			return (word >> src & (BIT(IMAGE_ALPHA_BITS) - 1)) <<
			       (16 - IMAGE_ALPHA_BITS);
		return (word >> src & (BIT(IMAGE_PACKED_BITS) - 1)) <<
		       (16 - IMAGE_PACKED_BITS);
	}
	if (plane) {
		src--;
		px -= im->plane1_skip;
	}
	return image_load(im->plane[plane] + y * im->line[plane] +
			  px * l->bpp[plane] + src * esize, esize);
}

/*
 * The input converter: (x - mean) * scale, shifted right by the truncate
 * with rounding half away from zero, saturated to 17 bits.
 */
s32 sim_image_cvt17(u32 raw, u32 in_bits, bool sign, s32 mean, s32 scale,
		    u32 truncate)
{
	s64 x = sign ? sim_sext(raw, in_bits) : (s64)(raw & (BIT(in_bits) - 1));

	return sim_sat(sim_rha_shift((x - mean) * scale, truncate),
		       IMAGE_CVT_BITS);
}

/* The converter's result saturated to the integer processing precision. */
s32 sim_image_convert(u32 raw, u32 in_bits, bool sign, s32 mean, s32 scale,
		      u32 truncate, u32 out_bits)
{
	return sim_sat(sim_image_cvt17(raw, in_bits, sign, mean, scale,
				       truncate), out_bits);
}

/*
 * Element @e of the padded, converted line @y as the CSC reads it; in fp16
 * its bit pattern (the converter rounds its 17-bit result to fp16).
 */
static s32 image_element(const struct sim_image *im, u32 y, u32 e)
{
	u32 elems = im->layout->comps, px = e / elems, ch = e % elems;
	u32 raw;

	if (px < im->pad_left || (px >= im->pad_left + im->width &&
				  px < im->pad_left + im->width + im->pad_right))
		return im->cdma_pad;
	if (px >= im->pad_left + im->width)
		return 0;	/* the zero fill after the line */
	raw = image_component(im, px - im->pad_left + im->x_offset, y, ch);
	if (im->layout->fp16)	/* the converter passes fp16 through */
		return sim_cdma_fp16(im->flush, raw);
	if (!im->cvt)
		return sim_sext(raw, im->out_bits);
	if (im->fp16)
		return sim_int_to_fp16(sim_image_cvt17(raw, im->layout->bits,
						       im->sign, im->mean[ch],
						       im->scale, im->truncate));
	return sim_image_convert(raw, im->layout->bits, im->sign,
				 im->mean[ch], im->scale, im->truncate,
				 im->out_bits);
}

/*
 * Offset of weight (k, c, r) with post-extension @ext: per kernel group,
 * one block per pass of ext rows (the last pass R % ext rows if that is
 * not 0), in it each kernel's rows of the pass one after the other, every
 * row C channels. The CSC reads each kernel's rows of one pass as one
 * super-atom of C * rows weights.
 */
static u64 image_post_index(const struct sim_conv *cv, u32 ext, u32 k, u32 c,
			    u32 r)
{
	u32 kg = cv->kernels_per_group, group = k / kg, in_group = kg;
	u32 pass = r / ext, rows = ext;

	if (cv->k - group * kg < kg)
		in_group = cv->k - group * kg;
	if (pass == (cv->r - 1) / ext && cv->r % ext)
		rows = cv->r % ext;
	return (u64)group * kg * cv->r * cv->c +
	       (u64)pass * ext * cv->c * in_group +
	       ((u64)(k % kg) * rows + r % ext) * cv->c + c;
}

s32 sim_image_weight(const struct sim_conv *cv, u32 k, u32 c, u32 r)
{
	u32 ext = cv->image.post_ext;

	if (ext == 1)
		return sim_conv_weight(cv, k, c, r, 0);
	return sim_conv_weight_at(cv, image_post_index(cv, ext, k, c, r));
}

s32 sim_image_input(const struct sim_conv *cv, u32 e, s32 iy)
{
	if (iy < 0 || iy >= (s32)cv->h)
		return cv->pad_value;
	return image_element(&cv->image, iy, e);
}

s64 sim_image_value(const struct sim_conv *cv, u32 k, u32 x, u32 y)
{
	u32 first = x * cv->stride_x * cv->image.channels, r, c;
	s64 acc = 0;

	for (r = 0; r < cv->r; r++) {
		s32 iy = (s32)(y * cv->stride_y + r) - (s32)cv->pad_top;

		for (c = 0; c < cv->c; c++)
			acc += (s64)sim_image_input(cv, first + c, iy) *
			       sim_image_weight(cv, k, c, r);
	}
	return sim_cacc_out(cv, acc);
}

/*
 * The fp16 CACC output (an fp32 bit pattern): the CSC feeds the CMAC
 * blocks of up to atomic-C elements of the pre-extended line, kernel row
 * by kernel row within each; with post-extension the rows of one pass go
 * into one block (each in its share of the cells, whose empty lanes are
 * zero and masked), so one block exponent covers them all.
 */
u32 sim_image_fp16_value(const struct sim_conv *cv, u32 k, u32 x, u32 y)
{
	const struct sim_image *im = &cv->image;
	u16 d[SIM_CMAC_FP16_LANES], w[SIM_CMAC_FP16_LANES];
	struct sim_fp_acc acc = { 0, 0 };
	u32 first = x * cv->stride_x * im->channels, c0, r0, r, i, n, lane;
	u16 wv;

	for (c0 = 0; c0 < cv->c; c0 += cv->atomic_c) {
		n = cv->c - c0 < cv->atomic_c ? cv->c - c0 : cv->atomic_c;
		for (r0 = 0; r0 < cv->r; r0 += im->post_ext) {
			lane = 0;
			for (r = r0; r < cv->r && r < r0 + im->post_ext; r++) {
				s32 iy = (s32)(y * cv->stride_y + r) -
					 (s32)cv->pad_top;
				bool pad = iy < 0 || iy >= (s32)cv->h;

				for (i = 0; i < n; i++, lane++) {
					wv = (u16)sim_image_weight(cv, k, c0 + i, r);
					w[lane] = sim_cdma_fp16(cv->flush_weights,
								wv);
					d[lane] = pad ? (u16)cv->pad_value :
						  (u16)image_element(im, iy,
								     first + c0 + i);
				}
			}
			sim_cacc_fp16_add(&acc, sim_cmac_fp16(d, w, lane));
		}
	}
	return sim_cacc_fp16_to_fp32(&acc);
}

struct sim_fp16_count sim_image_nan_count(const struct sim_conv *cv)
{
	const struct sim_image *im = &cv->image;
	struct sim_fp16_count n = { 0, 0 };
	u32 y, px, ch;
	u16 v;

	for (y = 0; y < cv->h; y++)
		for (px = 0; px < im->width; px++)
			for (ch = 0; ch < im->layout->comps; ch++) {
				v = image_component(im, px + im->x_offset, y,
						    ch);
				sim_fp16_count_value(&n, v, 1);
			}
	return n;
}

/* Mean of each output channel: per channel, or the converter offset. */
static void image_means(struct nvdla_sim *sim, struct sim_image *im)
{
	u32 g0 = SIM_REG(sim, CDMA, D_MEAN_GLOBAL_0);
	u32 g1 = SIM_REG(sim, CDMA, D_MEAN_GLOBAL_1);
	s32 offset = sim_sext(SIM_REG(sim, CDMA, D_CVT_OFFSET), 16);
	int i;

	im->mean[0] = sim_sext(g0, 16);
	im->mean[1] = sim_sext(g0 >> 16, 16);
	im->mean[2] = sim_sext(g1, 16);
	im->mean[3] = sim_sext(g1 >> 16, 16);
	if (!SIM_FIELD(sim, CDMA, D_MEAN_FORMAT, MEAN_FORMAT))
		for (i = 0; i < 4; i++)
			im->mean[i] = offset;
}

/* The pixel planes as the host maps them; false if it does not. */
static bool image_map(struct nvdla_sim *sim, struct sim_image *im, u32 h)
{
	const struct nvdla_pixel_layout *l = im->layout;
	u32 last = im->x_offset + im->width;

	im->line[0] = SIM_STRIDE(sim, CDMA, D_LINE_STRIDE);
	im->plane[0] = SIM_MAP(sim, CDMA, D_DAIN_RAM_TYPE, DATAIN_RAM_TYPE,
			       SIM_ADDR(sim, CDMA, D_DAIN_ADDR_LOW_0,
					D_DAIN_ADDR_HIGH_0),
			       (u64)(h - 1) * im->line[0] + (u64)last * l->bpp[0]);
	if (l->planes == 1)
		return im->plane[0];
	/* The chroma fetch starts one atom in when the offset spans one. */
	im->plane1_skip = im->x_offset * l->bpp[1] >= 32 ? 32 / l->bpp[1] : 0;
	im->line[1] = SIM_STRIDE(sim, CDMA, D_LINE_UV_STRIDE);
	im->plane[1] = SIM_MAP(sim, CDMA, D_DAIN_RAM_TYPE, DATAIN_RAM_TYPE,
			       SIM_ADDR(sim, CDMA, D_DAIN_ADDR_LOW_1,
					D_DAIN_ADDR_HIGH_1),
			       (u64)(h - 1) * im->line[1] +
			       (u64)(last - im->plane1_skip) * l->bpp[1]);
	return im->plane[0] && im->plane[1];
}

/*
 * Rows per pass of post-extension (1, 2 or 4); 0 for the reserved value or
 * a kernel row wider than its share of the MAC cells.
 */
static u32 image_post_ext(struct nvdla_sim *sim, const struct sim_conv *cv)
{
	u32 field = SIM_FIELD(sim, CSC, D_POST_Y_EXTENSION, Y_EXTENSION);
	u32 ext = BIT(field);

	if (field > IMAGE_POST_EXT_MAX ||
	    (ext > 1 && cv->c > cv->atomic_c / ext))
		return 0;
	return ext;
}

/*
 * The pixel format fits the input precision @in: fp16 pixels are fp16
 * input for fp16 processing; integer ones int8 or int16 input of their
 * width, for any processing precision if the converter is on, else for
 * their own width.
 */
static bool image_precision_ok(const struct sim_conv *cv,
			       const struct sim_image *im, u32 in)
{
	if (im->layout->fp16)
		return in == SIM_PREC_FP16 && cv->fp16;
	return in <= SIM_PREC_INT16 && im->layout->bits == (in + 1) * 8 &&
	       (im->cvt || in == cv->bpe - 1);
}

/*
 * Fill the image part of @cv, whose precisions, weights and CSC geometry
 * conv.c has read; false for a combination the hardware cannot run
 * (formats of the other precision, kernel width other than 1, kernel rows
 * too wide for post-extension).
 */
bool sim_image_params(struct nvdla_sim *sim, struct sim_conv *cv)
{
	struct sim_image *im = &cv->image;
	u32 fmt = SIM_FIELD(sim, CDMA, D_DATAIN_FORMAT, PIXEL_FORMAT);
	u32 in = SIM_FIELD(sim, CDMA, D_MISC_CFG, IN_PRECISION);

	if (fmt >= NVDLA_PIXEL_FORMAT_COUNT || !sim_precision_ok(sim, in))
		return false;
	im->layout = nvdla_pixel_layout(fmt);
	im->cvt = SIM_FIELD(sim, CDMA, D_CVT_CFG, CVT_EN);
	if (!image_precision_ok(cv, im, in) || cv->s != 1 ||
	    SIM_FIELD(sim, CDMA, D_DATAIN_FORMAT, PIXEL_MAPPING))
		return false;
	im->post_ext = image_post_ext(sim, cv);
	if (!im->post_ext)
		return false;
	im->width = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_WIDTH) + 1;
	im->channels = SIM_FIELD(sim, CSC, D_DATAIN_SIZE_EXT_1,
				 DATAIN_CHANNEL_EXT) + 1;
	im->x_offset = SIM_FIELD(sim, CDMA, D_PIXEL_OFFSET, PIXEL_X_OFFSET);
	im->pad_left = SIM_FIELD(sim, CDMA, D_ZERO_PADDING, PAD_LEFT);
	im->pad_right = SIM_FIELD(sim, CDMA, D_ZERO_PADDING, PAD_RIGHT);
	im->out_bits = cv->bpe * 8;
	im->fp16 = cv->fp16;
	im->flush = cv->flush_data;
	im->cdma_pad = sim_sext(SIM_FIELD(sim, CDMA, D_ZERO_PADDING_VALUE,
					  PAD_VALUE), im->out_bits);
	im->sign = SIM_FIELD(sim, CDMA, D_DATAIN_FORMAT, PIXEL_SIGN_OVERRIDE);
	im->scale = sim_sext(SIM_REG(sim, CDMA, D_CVT_SCALE), 16);
	im->truncate = SIM_FIELD(sim, CDMA, D_CVT_CFG, CVT_TRUNCATE);
	image_means(sim, im);
	return image_map(sim, im, cv->h);
}
