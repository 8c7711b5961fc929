// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Convolutions (and fully connected layers, 1x1 or over a whole flattened
 * cube) in direct mode, each streaming into an SDP that adds the bias,
 * rescales, applies a following element-wise operation (where fuse.c
 * decided so) and activation; a BatchNormalization-like affine after it
 * is in its weights and bias already (passes.c). Grouped convolutions run in blocks of whole groups
 * that start on an atom of input and of output channels: each block a
 * convolution over its own surfaces of the input, its weights dense
 * within the block (zero across its groups), so that a depthwise layer's
 * weights grow by the atom's channels, not by its own. A layer with no
 * block smaller than itself runs as one dense convolution. A layer whose
 * kernels do not fit the convolution buffer over all its input channels
 * runs in chunks of them, each adding the partial sums before (int8:
 * lower_psum.c).
 *
 * int8: weights at the scale of their kernel (lower_quant.c); the SDP
 * multiplies each channel's accumulator by s_in * s_w[k] / s_c.
 * A transposed convolution's own operations are in lower_deconv.c; its
 * 1x1 convolution into the RUBIK's input is one of these.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/pixel_formats.h>

#include "lower_internal.h"
#include "quality.h"

/* Offset in elements of weight (k, c, r, s) in the direct layout. */
static uint64_t weight_index(const struct nvc_conv_shape *cs, uint32_t kpg,
			     uint32_t ac, int k, int c, int r, int s)
{
	uint32_t group = k / kpg, in_group = kpg, block = c / ac;
	uint32_t block_c = cs->c - block * ac;

	if (cs->k - group * kpg < kpg)
		in_group = cs->k - group * kpg;
	if (block_c > ac)
		block_c = ac;
	return (uint64_t)group * kpg * cs->r * cs->s * cs->c +
	       (uint64_t)block * ac * in_group * cs->r * cs->s +
	       (((uint64_t)r * cs->s + s) * in_group + k % kpg) * block_c +
	       c % ac;
}

/* Dense weights and bias of @n. */
static int conv_dense(struct nvc_lower *L, const struct nvc_node *n,
		      struct nvc_conv_shape *cs)
{
	const struct nvc_graph *g = L->g;
	const struct nvc_conv_attr *a = &n->conv;
	const struct nvc_tensor *wt = &g->tensors[a->weights];
	int kall = nvc_t(L, n->outputs[0])->c;
	int cin = cs->slice ? nvc_t(L, cs->in)->c : cs->c;
	int cg = cin / a->group, kg = kall / a->group, k, c, i;
	size_t per = (size_t)cs->r * cs->s;

	cs->w = calloc((size_t)cs->k * cs->c * per, sizeof(float));
	cs->bias = calloc(cs->k, sizeof(float));
	if (!cs->w || !cs->bias)
		return -ENOMEM;
	if ((size_t)wt->n * wt->c * wt->h * wt->w != (size_t)kall * cg * per)
		return nvc_fail(L, n, -EINVAL, "weights hold %d x %d x %d x %d values, not %d x %d x %d x %d",
				wt->n, wt->c, wt->h, wt->w, kall, cg, cs->r,
				cs->s);
	/* Kernels k0 on, over input channels c0 to c0 + c. */
	for (k = 0; k < cs->k; k++) {
		int gk = cs->k0 + k, lc = (gk / kg) * cg - cs->c0;

		for (c = lc < 0 ? -lc : 0; c < cg && lc + c < cs->c; c++)
			for (i = 0; i < (int)per; i++)
				cs->w[((size_t)k * cs->c + lc + c) * per + i] =
					wt->data[((size_t)gk * cg + c) * per + i];
		cs->bias[k] = a->bias >= 0 ? g->tensors[a->bias].data[gk] : 0;
	}
	return 0;
}

/* The kernel's shape after the pre-extension for pixel input (below). */
static void conv_image_shape(struct nvc_conv_shape *cs)
{
	cs->c = cs->s * NVC_IMAGE_COMPS;
	cs->s = 1;
}

/*
 * Channel pre-extension for pixel input: the CSC reads each line of
 * pixels as one channel axis, so kernel column s of channel c becomes
 * channel s * 4 + c of a kernel one column wide (component 3, and those
 * beyond the network's channels, get zero weights).
 */
static int conv_image_extend(struct nvc_conv_shape *cs)
{
	int ce = cs->s * NVC_IMAGE_COMPS, k, c, r, s;
	float *w = calloc((size_t)cs->k * ce * cs->r, sizeof(float));

	if (!w)
		return -ENOMEM;
	for (k = 0; k < cs->k; k++)
		for (c = 0; c < cs->c; c++)
			for (r = 0; r < cs->r; r++)
				for (s = 0; s < cs->s; s++)
					w[((size_t)k * ce + s * NVC_IMAGE_COMPS + c) *
					  cs->r + r] =
						cs->w[(((size_t)k * cs->c + c) * cs->r +
						       r) * cs->s + s];
	free(cs->w);
	cs->w = w;
	conv_image_shape(cs);
	return 0;
}

/*
 * The kernel over the input as it is in memory: a fully connected layer
 * on a flattened cube is a convolution with the cube's width and height.
 */
static int conv_shape(struct nvc_lower *L, const struct nvc_node *n,
		      struct nvc_conv_shape *cs)
{
	const struct nvc_tensor *ti = nvc_t(L, n->inputs[0]);
	const struct nvc_tensor *tr;

	cs->in = nvc_resolve(L, n->inputs[0]);
	cs->image = L->image && nvc_is_input(L, cs->in);
	tr = nvc_t(L, cs->in);
	cs->k = nvc_t(L, n->outputs[0])->c;
	cs->c = ti->c;
	cs->r = n->conv.kh;
	cs->s = n->conv.kw;
	if (n->op == NVC_CONV_TRANSPOSE) {
		/* A 1x1 convolution into every output phase's surfaces. */
		cs->k = n->conv.stride[0] * n->conv.stride[1] *
			(int)(nvc_surfaces(L, cs->k) * L->epa);
		cs->r = 1;
		cs->s = 1;
	}
	if (tr->c == ti->c && tr->h == ti->h && tr->w == ti->w)
		return 0;
	if (cs->r == 1 && cs->s == 1 && ti->h == 1 && ti->w == 1 &&
	    ti->c == tr->c * tr->h * tr->w && n->conv.group == 1 &&
	    n->conv.stride[0] == 1 && n->conv.stride[1] == 1 &&
	    !n->conv.pad[0] && !n->conv.pad[1] && !n->conv.pad[2] &&
	    !n->conv.pad[3]) {
		cs->c = tr->c;
		cs->r = tr->h;
		cs->s = tr->w;
		return 0;
	}
	return nvc_fail(L, n, -EOPNOTSUPP,
			"input '%s' is a reshape of a %dx%dx%d cube that the feature layout cannot alias",
			ti->name, tr->c, tr->h, tr->w);
}

/*
 * Bytes of @cs's weights: whole convolution-buffer entries, as NVIDIA's
 * compiler rounds them: the CDMA plans entries for this many bytes and
 * the CSC releases the entries its kernels fill; more padding is never
 * released, and the next layer that changes the weight banks waits
 * forever (NVIDIA's C model, nv_small, a recorded digits network).
 */
uint32_t nvc_conv_wsize(const struct nvc_lower *L,
			const struct nvc_conv_shape *cs)
{
	size_t n = (size_t)cs->k * cs->c * cs->r * cs->s;

	return (uint32_t)((n * L->bpe + L->t.cbuf->width - 1) /
			  L->t.cbuf->width * L->t.cbuf->width);
}

/* The weights in the direct layout at the processing precision. */
int nvc_conv_weights(struct nvc_lower *L, const struct nvc_conv_shape *cs,
		     const float *ws, uint32_t *off, uint32_t *size)
{
	uint32_t kpg = L->t.cbuf->atomic_k / L->bpe, ac = L->t.cbuf->atomic_c;
	size_t n = (size_t)cs->k * cs->c * cs->r * cs->s;
	uint8_t *buf = calloc(n, L->bpe);
	int k, c, r, s;

	if (!buf)
		return -ENOMEM;
	for (k = 0; k < cs->k; k++)
		for (c = 0; c < cs->c; c++)
			for (r = 0; r < cs->r; r++)
				for (s = 0; s < cs->s; s++) {
					float v = cs->w[(((size_t)k * cs->c + c) *
							 cs->r + r) * cs->s + s];
					uint64_t i = weight_index(cs, kpg, ac,
								  k, c, r, s);

					if (L->bpe == 1) {
						buf[i] = (uint8_t)nvc_weight_code(v, ws[k]);
					} else {
						uint16_t h = nvc_half(v);

						buf[2 * i] = h & 0xff;
						buf[2 * i + 1] = h >> 8;
					}
				}
	*size = nvc_conv_wsize(L, cs);
	*off = nvc_const_add(L, buf, n * L->bpe, 0);
	free(buf);
	return *off == UINT32_MAX ? -ENOMEM : 0;
}

/* X1 of the convolution's SDP: bias, and (int8) into scale @s_c. */
int nvc_conv_x1(struct nvc_lower *L, int sdp,
		const struct nvc_conv_shape *cs, const float *ws, float s_c)
{
	float s_in = L->ir.ts[nvc_read(L, cs->in)].scale;
	int16_t *alu = calloc(cs->k, sizeof(*alu)), *mul = calloc(cs->k, sizeof(*mul));
	double maxm = 0, maxb = 0;
	bool any_bias = false;
	int k, t, a, ret = -ENOMEM;

	if (!alu || !mul)
		goto out;
	for (k = 0; k < cs->k; k++)
		any_bias |= cs->bias[k] != 0;
	if (L->prec == DLA_PRECISION_FP16) {
		for (k = 0; k < cs->k; k++)
			alu[k] = (int16_t)nvc_half(cs->bias[k]);
		ret = nvc_sdp_x1(L, &L->ops[sdp], any_bias ? alu : NULL, NULL,
				 cs->k, 0, 0);
		goto out;
	}
	for (k = 0; k < cs->k; k++) {
		maxm = fmax(maxm, (double)s_in * ws[k] / s_c);
		maxb = fmax(maxb, fabs(cs->bias[k] / ((double)s_in * ws[k])));
	}
	t = 14 - (int)floor(log2(maxm));
	t = t < 0 ? 0 : t > 63 ? 63 : t;
	a = nvc_shift_for(maxb, 16);
	a = a > 31 ? 31 : a;
	for (k = 0; k < cs->k; k++) {
		double m = (double)s_in * ws[k] / s_c * ldexp(1, t);
		double b = cs->bias[k] / ((double)s_in * ws[k]) / ldexp(1, a);

		mul[k] = (int16_t)lrint(fmin(m, 32767));
		alu[k] = (int16_t)lrint(fmax(fmin(b, 32767), -32767));
	}
	ret = nvc_sdp_x1(L, &L->ops[sdp], any_bias ? alu : NULL, mul, cs->k,
			 (uint8_t)a, (uint8_t)t);
out:
	free(alu);
	free(mul);
	return ret;
}

uint32_t nvc_banks(const struct nvc_lower *L, uint64_t bytes)
{
	uint64_t b = L->t.bank_bytes;

	return (uint32_t)((bytes + b - 1) / b);
}

/*
 * Entries of the convolution buffer a line @w pixels wide of @channels
 * channels of a feature cube takes, as the CDMA requires them
 * (nvdla/cbuf_limits.h).
 */
uint32_t nvc_feature_eps(const struct nvc_lower *L, int channels,
			 uint32_t w)
{
	return nvdla_cbuf_feature_entries(&L->t.hw->cbuf, L->t.atom, w,
					  nvc_surfaces(L, channels) * L->t.atom);
}

/* Channels of the input the convolution reads. */
static int conv_in_channels(const struct nvc_lower *L,
			    const struct nvc_conv_shape *cs)
{
	return cs->slice ? cs->c : nvc_t(L, cs->in)->c;
}

/*
 * Entries of the convolution buffer one input line takes: atoms of
 * channels, or pixels with the left and right padding.
 */
static uint32_t conv_eps(const struct nvc_lower *L, const struct nvc_node *n,
			 const struct nvc_conv_shape *cs)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);
	uint32_t entry = L->t.cbuf->atomic_c * L->bpe;

	if (cs->image)
		return ((ti->w + n->conv.pad[1] + n->conv.pad[3]) *
			NVC_IMAGE_COMPS * L->bpe + entry - 1) / entry;
	return nvc_feature_eps(L, conv_in_channels(L, cs), ti->w);
}

/*
 * The kernel runs with stride 1 and no padding: a fully connected layer
 * over a flattened cube, or the 1x1 half of a transposed convolution.
 */
static bool conv_plain(const struct nvc_lower *L, const struct nvc_node *n,
		       const struct nvc_conv_shape *cs)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);

	return (cs->r == ti->h && cs->s == ti->w && cs->r != n->conv.kh) ||
	       n->op == NVC_CONV_TRANSPOSE;
}

/* Rows of the input and output one operation covers, and its padding. */
struct conv_band {
	int iy0, ih, oy0, oh, pt, pb;
};

/* Banks for @bytes of weights after @dbank data banks, over the floor. */
static uint32_t wbank_for(const struct nvc_lower *L, uint32_t dbank,
			  uint64_t bytes)
{
	uint32_t want = nvc_banks(L, bytes), room = L->t.cbuf->banks - dbank;
	uint32_t wfloor = nvc_wbank_floor(L);

	want = want > wfloor ? want : wfloor;
	return want < room ? want : room;
}

/*
 * Weight banks for a convolution after @dbank data banks: what all its
 * @wsize bytes need, or (the node's split NVC_WBANK_LEAST) what one
 * group of kernels, @group bytes, needs, the rest streaming through them;
 * never fewer than the last convolution's. nv_small's RTL stops fetching
 * weights for good when a layer has fewer weight banks than the one
 * before (nvdla/hw verif/verilator, recorded LeNets; NVIDIA's C model
 * runs them), so the split only moves toward the data.
 */
uint32_t nvc_conv_wbank(struct nvc_lower *L, uint32_t dbank, uint32_t wsize,
			uint64_t group)
{
	uint32_t all = wbank_for(L, dbank, wsize);
	uint32_t least = wbank_for(L, dbank, group < wsize ? group : wsize);
	const enum nvc_wbank_split *split = L->o->wbank_split;

	if (least < all && L->o->origins)
		L->o->origins->split[L->node] = true;
	return split && split[L->node] == NVC_WBANK_LEAST ? least : all;
}

/*
 * One group of kernels and the input rows of one band fit the buffer
 * beside each other (with @floor, the weight banks no fewer than the
 * last layer's).
 */
static bool conv_fits(const struct nvc_lower *L, const struct nvc_node *n,
		      const struct nvc_conv_shape *cs, bool floor)
{
	uint32_t kpg = L->t.cbuf->atomic_k / L->bpe;
	uint64_t line = (uint64_t)conv_eps(L, n, cs) * L->t.cbuf->width;
	uint32_t wmin = nvc_banks(L, (uint64_t)(cs->k < (int)kpg ? cs->k : (int)kpg) *
				 cs->r * cs->s * cs->c * L->bpe);
	bool one = conv_plain(L, n, cs);
	int ekh = (cs->r - 1) * (one ? 1 : n->conv.dilation[0]) + 1;
	uint32_t dmin = nvc_banks(L, line * (one ? nvc_t(L, cs->in)->h : ekh));

	if (floor && nvc_wbank_floor(L) > wmin)
		wmin = nvc_wbank_floor(L);
	return wmin + dmin <= L->t.cbuf->banks;
}

/*
 * Input channels per chunk of a convolution that does not fit the buffer
 * over all of them: as few equal chunks, in whole atoms, as fit beside
 * the weight-bank floor; all the channels when the layer fits on its own
 * (conv_plan names the floor if that is what fails) or chunks cannot
 * help.
 */
static int conv_chunk_channels(const struct nvc_lower *L,
			       const struct nvc_node *n,
			       const struct nvc_conv_shape *cs)
{
	struct nvc_conv_shape t = *cs;
	int epa = (int)L->epa, parts;

	if (cs->image || n->op != NVC_CONV || conv_fits(L, n, cs, false))
		return cs->c;
	t.slice = true;
	for (parts = 2; t.c > epa; parts++) {
		t.c = ((cs->c + parts - 1) / parts + epa - 1) / epa * epa;
		if (conv_fits(L, n, &t, true))
			return t.c;
	}
	return cs->c;
}

/*
 * The input must sit in the convolution buffer whole while every kernel
 * group streams past it: when it does not fit beside one group of
 * weights, split the layer into bands of output rows, each with the
 * input rows it needs. Fills *@rows (output rows per band) and the banks.
 */
static int conv_plan(struct nvc_lower *L, const struct nvc_node *n,
		     const struct nvc_conv_shape *cs, uint32_t wsize, int *rows,
		     uint32_t *dbank, uint32_t *wbank)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);
	uint32_t total = L->t.cbuf->banks;
	uint32_t kpg = L->t.cbuf->atomic_k / L->bpe;
	/* The line's share of the buffer, in bytes of whole entries. */
	uint64_t line = (uint64_t)conv_eps(L, n, cs) * L->t.cbuf->width;
	uint64_t group = (uint64_t)(cs->k < (int)kpg ? cs->k : (int)kpg) *
			 cs->r * cs->s * cs->c * L->bpe;
	uint32_t wmin = nvc_banks(L, group);
	bool one = conv_plain(L, n, cs);
	int sy = one ? 1 : n->conv.stride[0];
	int ekh = (cs->r - 1) * (one ? 1 : n->conv.dilation[0]) + 1;
	uint32_t wfloor = nvc_wbank_floor(L);
	bool floored = wfloor > wmin;
	uint64_t fit;

	wmin = floored ? wfloor : wmin;

	if (wmin >= total)
		return nvc_fail(L, n, -EOPNOTSUPP,
				"one group of %u kernels (%u banks) does not fit the %u-bank convolution buffer",
				kpg, wmin, total);
	*rows = cs->ho;
	*dbank = nvc_banks(L, line * ti->h);
	if (*dbank > total - wmin) {
		/*
		 * Bands follow each other: a bank is left for every other band
		 * to take, so that no two in a row have the same data banks
		 * (lower_banks.c), where the rest still holds the kernel's rows.
		 */
		fit = (uint64_t)(total - wmin - 1) * L->t.bank_bytes / line;
		if (fit < (uint64_t)ekh)
			fit = (uint64_t)(total - wmin) *
			      L->t.bank_bytes / line;
		if (floored && (fit < (uint64_t)ekh || (one && cs->r > 1)))
			return nvc_fail(L, n, -EOPNOTSUPP,
					"%d input rows of %llu bytes do not fit beside the %u weight banks of the convolution before: weight banks never shrink from one convolution to the next (docs/compiler.md)",
					ekh, (unsigned long long)line, wmin);
		if (fit < (uint64_t)ekh || (one && cs->r > 1))
			return nvc_fail(L, n, -EOPNOTSUPP,
					"%d input rows of %llu bytes: the kernel's rows do not fit the convolution buffer",
					ekh, (unsigned long long)line);
		*rows = (int)((fit - ekh) / sy + 1);
		*dbank = nvc_banks(L, line * ((uint64_t)(*rows - 1) * sy + ekh));
	}
	*wbank = nvc_conv_wbank(L, *dbank, wsize, group);
	return 0;
}

static struct conv_band conv_band(const struct nvc_lower *L,
				  const struct nvc_node *n,
				  const struct nvc_conv_shape *cs, int oy0,
				  int rows)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);
	bool one = conv_plain(L, n, cs);
	int sy = one ? 1 : n->conv.stride[0], pt = one ? 0 : n->conv.pad[0];
	int ekh = (cs->r - 1) * (one ? 1 : n->conv.dilation[0]) + 1;
	struct conv_band b = { .oy0 = oy0 };
	int top, bottom;

	b.oh = cs->ho - oy0 < rows ? cs->ho - oy0 : rows;
	top = oy0 * sy - pt;
	bottom = (oy0 + b.oh - 1) * sy - pt + ekh;	/* one past */
	b.iy0 = top < 0 ? 0 : top;
	b.pt = top < 0 ? -top : 0;
	b.pb = bottom > ti->h ? bottom - ti->h : 0;
	b.ih = (bottom > ti->h ? ti->h : bottom) - b.iy0;
	return b;
}

/* Rows [@y0, @y0 + @h) of @c (its size: to the end of @c). */
static struct dla_data_cube cube_rows(struct dla_data_cube c, int y0, int h)
{
	c.offset += (uint32_t)y0 * c.line_stride;
	c.size -= (uint32_t)y0 * c.line_stride;
	c.height = (uint16_t)h;
	return c;
}

/* Channels [@c0, @c0 + @n) of @c (@c0 on an atom; its size: to the end). */
static struct dla_data_cube cube_channels(const struct nvc_lower *L,
					  struct dla_data_cube c, int c0, int n)
{
	uint32_t skip = (uint32_t)(c0 / (int)L->epa) * c.surf_stride;

	c.offset += skip;
	c.size -= skip;
	c.channel = (uint16_t)n;
	return c;
}

static void conv_op(struct nvc_lower *L, int op, const struct nvc_node *n,
		    const struct nvc_conv_shape *cs, uint32_t woff,
		    uint32_t wsize, const struct dla_data_cube *dst,
		    const struct conv_band *b, uint32_t dbank, uint32_t wbank)
{
	struct dla_conv_op_desc *p = &L->ops[op].op.conv_op;
	struct dla_conv_surface_desc *s = &L->ops[op].surf.conv_surface;
	const struct nvc_tensor *ti = nvc_t(L, cs->in);
	bool one = conv_plain(L, n, cs);

	*p = (struct dla_conv_op_desc){
		.entry_per_slice = (uint16_t)conv_eps(L, n, cs),
		.data_format = cs->image ? nvc_image_format(L->prec) : NVDLA_DATA_FORMAT_FEATURE,
		.fetch_grain = 1, .batch = 1, .data_bank = (uint8_t)dbank,
		.weight_bank = (uint8_t)wbank, .release = (uint16_t)b->ih,
		.input_width_csc = (uint16_t)ti->w,
		.input_height_csc = (uint16_t)b->ih,
		.input_channel_csc = (uint16_t)(cs->image ? NVC_IMAGE_COMPS :
						 conv_in_channels(L, cs)),
		.kernel_width_csc = (uint16_t)cs->s,
		.kernel_height_csc = (uint16_t)cs->r,
		.kernel_channel_csc = (uint16_t)cs->c,
		.input_width_cmac = (uint16_t)cs->wo,
		.input_height_cmac = (uint16_t)b->oh,
		.bytes_per_kernel = (uint32_t)cs->r * cs->s * cs->c * L->bpe,
		.conv_stride_x = (uint8_t)(one ? 1 : n->conv.stride[1]),
		.conv_stride_y = (uint8_t)(one ? 1 : n->conv.stride[0]),
		.pad_y_top = (uint8_t)b->pt,
		.pad_x_left = (uint8_t)(one ? 0 : n->conv.pad[1]),
		.pad_y_bottom = (uint8_t)b->pb,
		.pad_x_right = (uint8_t)(one ? 0 : n->conv.pad[3]),
		.dilation_x = (uint8_t)(one ? 1 : n->conv.dilation[1]),
		.dilation_y = (uint8_t)(one ? 1 : n->conv.dilation[0]),
		.in_precision = L->prec, .out_precision = L->prec,
		.in_cvt = { .scale = 1 },
		.out_cvt = { .scale = 1, .enable = 1 },
	};
	s->weight_data = nvc_const_cube(woff, wsize, cs->s, cs->r, cs->c);
	s->src_data = nvc_cube(L, cs->in);
	if (cs->slice)
		s->src_data = cube_channels(L, s->src_data, cs->c0, cs->c);
	s->src_data = cube_rows(s->src_data, b->iy0, b->ih);
	if (cs->image)
		s->src_data.channel = NVC_IMAGE_COMPS;
	s->dst_data = cube_rows(*dst, b->oy0, b->oh);
	s->dst_data.type = DLA_MEM_HW;
	s->dst_data.address = -1;
	s->dst_data.offset = 0;
}

static int conv_check(struct nvc_lower *L, const struct nvc_node *n)
{
	const struct nvc_conv_attr *a = &n->conv;
	/* made of a ConvTranspose by nvc_deconv_rewrite() */
	bool transposed = n->op == NVC_CONV && n->onnx_op &&
			  !strcmp(n->onnx_op, "ConvTranspose");
	int i;

	if (n->op == NVC_CONV_TRANSPOSE && !nvc_deconv_as_is(a))
		return nvc_fail(L, n, -EOPNOTSUPP,
				"transposed convolution with a kernel other than its stride, padding, groups or dilation: nvc_deconv_rewrite() makes it a zero insertion and a convolution first");
	if (a->group < 1 || nvc_t(L, n->inputs[0])->c % a->group ||
	    nvc_t(L, n->outputs[0])->c % a->group)
		return nvc_fail(L, n, -EINVAL, "%d groups do not divide the channels",
				a->group);
	for (i = 0; i < 4; i++)
		if (a->pad[i] < 0 || a->pad[i] > 31)
			return nvc_fail(L, n, -EOPNOTSUPP,
					"padding %d%s: the hardware pads 0 to 31",
					a->pad[i], transposed ?
					" (the transposed convolution's, made of stride 1: dilation x (kernel - 1) - its own padding)" :
					"");
	for (i = 0; i < 2; i++)
		if (a->stride[i] < 1 || a->stride[i] > 8 ||
		    a->dilation[i] < 1 || a->dilation[i] > 32)
			return nvc_fail(L, n, -EOPNOTSUPP,
					"stride %d or dilation %d beyond the hardware's 1-8 and 1-32",
					a->stride[i], a->dilation[i]);
	return 0;
}

static struct nvc_place cube_place(const struct dla_data_cube *c)
{
	return (struct nvc_place){ .slot = c->address, .offset = c->offset,
		.line = c->line_stride, .surf = c->surf_stride,
		.size = c->size };
}

/*
 * One band of the convolution and its SDP, the SDP programmed like
 * @proto's (or, for the first band, as @operand and @last say).
 */
static int conv_band_ops(struct nvc_lower *L, const struct nvc_node *n,
			 const struct nvc_conv_shape *cs, uint32_t woff,
			 uint32_t wsize, const struct dla_data_cube *dst,
			 const struct conv_band *b, uint32_t dbank,
			 uint32_t wbank, int *sdp)
{
	int conv = nvc_op_new(L, DLA_OP_CONV);
	struct dla_sdp_surface_desc *ss;
	struct nvc_place w;

	*sdp = conv < 0 ? conv : nvc_op_new(L, DLA_OP_SDP);
	if (*sdp < 0)
		return *sdp;
	conv_op(L, conv, n, cs, woff, wsize, dst, b, dbank, wbank);
	nvc_sdp_init(L, &L->ops[*sdp]);
	ss = &L->ops[*sdp].surf.sdp_surface;
	ss->src_data = L->ops[conv].surf.conv_surface.dst_data;
	ss->dst_data = cube_rows(*dst, b->oy0, b->oh);
	nvc_fuse(L, conv, *sdp);
	nvc_depend_tensor(L, cs->in, conv);
	/* Its SDP writes: after the reads of what was there before. */
	w = cube_place(&ss->dst_data);
	w.size = (uint32_t)(b->oh - 1) * w.line + ss->dst_data.width * L->t.atom +
		 (nvc_surfaces(L, ss->dst_data.channel) - 1) * w.surf;
	nvc_written_place(L, &w, *sdp);
	return 0;
}

static struct nvc_wino_layer conv_wino_layer(const struct nvc_lower *L,
					     const struct nvc_conv_shape *cs)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);

	return (struct nvc_wino_layer){ .k = cs->k, .c = cs->c, .w = ti->w,
		.h = ti->h, .wo = cs->wo, .ho = cs->ho };
}

/*
 * The convolution @cs (attributes of @n, int8 weight scales @ws) into
 * @dst and its SDP with the element-wise @operand (or NULL) and
 * activation @act, at output scale @s_out, in the bands of rows and with
 * the banks the split gave it (@pc): *@sdp is the last SDP's index.
 */
static int conv_emit_part(struct nvc_lower *L, const struct nvc_node *n,
			  const struct nvc_node *last,
			  const struct nvc_conv_shape *cs,
			  const struct nvc_lir_conv *pc, const float *ws,
			  const struct dla_data_cube *dst,
			  const struct nvc_operand *operand,
			  enum nvc_eltwise elt, float s_out, int *sdp)
{
	struct dla_sdp_op_desc proto = { 0 };
	struct conv_band b;
	struct nvc_wino_layer wl = conv_wino_layer(L, cs);
	uint32_t woff, wsize;
	int oy0, first = -1, ret;
	float s_c;

	if (cs->wino)
		ret = nvc_wino_weights(L, &wl, cs->w, &woff, &wsize);
	else
		ret = nvc_conv_weights(L, cs, ws, &woff, &wsize);
	for (oy0 = 0; !ret && oy0 < cs->ho; oy0 += pc->rows) {
		b = conv_band(L, n, cs, oy0, pc->rows);
		ret = conv_band_ops(L, n, cs, woff, wsize, dst, &b, pc->dbank,
				    pc->wbank, sdp);
		if (ret)
			break;
		if (cs->wino)
			nvc_wino_op(L, *sdp - 1, *sdp, n, &wl, woff, wsize);
		if (first < 0) {
			first = *sdp;
			ret = nvc_sdp_tail(L, last, &L->ops[*sdp], operand, elt,
					   &last->act, s_out, &s_c);
			if (!ret)
				ret = nvc_conv_x1(L, *sdp, cs, ws, s_c);
			if (cs->part)
				nvc_sdp_prelu_channels(&L->ops[*sdp], cs->k0,
						       cs->k);
			proto = L->ops[*sdp].op.sdp_op;
		} else {
			L->ops[*sdp].op.sdp_op = proto;
			L->ops[*sdp].surf.sdp_surface.x1_data =
				L->ops[first].surf.sdp_surface.x1_data;
			L->ops[*sdp].surf.sdp_surface.y_data =
				L->ops[first].surf.sdp_surface.y_data;
		}
		if (!ret && operand) {
			L->ops[*sdp].surf.sdp_surface.x2_data =
				cube_rows(operand->cube, b.oy0, b.oh);
			nvc_depend_place(L, &L->ops[*sdp].surf.sdp_surface.x2_data,
					 *sdp);
		} else if (!ret && first != *sdp) {
			L->ops[*sdp].surf.sdp_surface.x2_data =
				L->ops[first].surf.sdp_surface.x2_data;
		}
	}
	return ret;
}

/*
 * Kernels a part of the convolution takes: all of them, or, when their
 * weights would exceed a memory (NVC_MEM_MAX), as few equal parts as
 * keep each part's within one, in whole atoms of output channels and
 * whole groups of kernels (a part larger than a memory only when one
 * such unit is).
 */
static int conv_part_kernels(const struct nvc_lower *L,
			     const struct nvc_conv_shape *cs)
{
	uint64_t per = (uint64_t)cs->c * cs->r * cs->s * L->bpe;
	int kpg = (int)(L->t.cbuf->atomic_k / L->bpe), epa = (int)L->epa;
	int unit = kpg > epa ? kpg : epa;	/* both powers of two */
	int most, parts, k;

	if ((uint64_t)cs->k * per <= NVC_MEM_MAX)
		return cs->k;
	most = (int)(NVC_MEM_MAX / per) / unit * unit;
	if (most < unit)
		most = unit;
	parts = (cs->k + most - 1) / most;
	k = (cs->k + parts - 1) / parts;
	return (k + unit - 1) / unit * unit;
}

/*
 * The convolution @cs as conv_emit_part says, its kernels at scales @ws,
 * in the parts over consecutive ranges of output channels the split gave
 * it (@pc, @npc: more than one where its weights exceed a memory): each
 * part has its own weights, writes its channels of @dst and adds the
 * same channels of @operand, with the matching bias and scales.
 */
static int conv_emit(struct nvc_lower *L, const struct nvc_node *n,
		     const struct nvc_node *last,
		     const struct nvc_conv_shape *cs,
		     const struct nvc_lir_conv *pc, int npc, const float *ws,
		     const struct dla_data_cube *dst,
		     const struct nvc_operand *operand, enum nvc_eltwise elt,
		     float s_out, int *sdp)
{
	size_t per = (size_t)cs->c * cs->r * cs->s;
	struct nvc_conv_shape part = *cs;
	struct dla_data_cube pdst;
	struct nvc_operand pop;
	int i, k0, ret = 0;

	for (i = 0; !ret && i < npc; i++) {
		k0 = pc[i].k0;
		part.k = pc[i].k;
		part.part = part.k != cs->k;
		part.k0 = k0;
		part.w = cs->w + (size_t)k0 * per;
		part.bias = cs->bias + k0;
		pdst = part.part ? cube_channels(L, *dst, k0, part.k) : *dst;
		if (operand) {
			pop = *operand;
			if (part.part)
				pop.cube = cube_channels(L, pop.cube, k0, part.k);
		}
		ret = conv_emit_part(L, n, last, &part, &pc[i], ws + k0, &pdst,
				     operand ? &pop : NULL, elt, s_out, sdp);
	}
	return ret;
}

/*
 * Groups per block of a grouped convolution: the fewest whole groups
 * whose input and output channels both fill whole atoms (so that every
 * block starts on one), or all of them when no block is smaller.
 */
static int group_block(const struct nvc_lower *L, const struct nvc_node *n,
		       const struct nvc_conv_shape *cs)
{
	int g = n->conv.group, epa = (int)L->epa, b;
	int cg = nvc_t(L, cs->in)->c / g, kg = cs->k / g;

	if (g == 1 || cs->image || n->op != NVC_CONV ||
	    nvc_t(L, cs->in)->c != cs->c)
		return g;
	for (b = 1; b < g; b++)
		if ((b * cg) % epa == 0 && (b * kg) % epa == 0)
			return b;
	return g;
}

/*
 * A grouped convolution in the blocks of whole groups the split gave it
 * (@pc, @npc), as conv_emit says: each block reads its input channels,
 * writes its output channels of @dst and adds the same channels of
 * @operand.
 */
static int conv_emit_groups(struct nvc_lower *L, const struct nvc_node *n,
			    const struct nvc_node *last,
			    const struct nvc_conv_shape *cs,
			    const struct nvc_lir_conv *pc, int npc,
			    const float *ws, const struct dla_data_cube *dst,
			    const struct nvc_operand *operand,
			    enum nvc_eltwise elt, float s_out, int *sdp)
{
	struct nvc_conv_shape part = *cs;
	struct dla_data_cube pdst;
	struct nvc_operand pop;
	int i, ret = 0;

	for (i = 0; !ret && i < npc; i++) {
		part.k0 = pc[i].k0;
		part.k = pc[i].k;
		part.c0 = pc[i].c0;
		part.c = pc[i].c;
		part.part = true;
		part.slice = true;
		ret = conv_dense(L, n, &part);
		pdst = cube_channels(L, *dst, part.k0, part.k);
		if (operand) {
			pop = *operand;
			pop.cube = cube_channels(L, pop.cube, part.k0, part.k);
		}
		if (!ret)
			ret = conv_emit_part(L, n, last, &part, &pc[i],
					     ws + part.k0, &pdst,
					     operand ? &pop : NULL, elt, s_out,
					     sdp);
		free(part.w);
		free(part.bias);
	}
	return ret;
}

/* The hardware convolutions from @pc on over the same input channels. */
static int same_chunk(const struct nvc_lir_conv *pc, int npc)
{
	int i;

	for (i = 1; i < npc && pc[i].c0 == pc[0].c0; i++)
		;
	return i;
}

/*
 * A convolution in the chunks of input channels the split gave it (@pc,
 * @npc), each a convolution over its own surfaces of the input whose SDP
 * adds the partial sums of the chunks before (the operation's two
 * temporaries taking turns; int8: lower_psum.c): the first chunk adds
 * the bias and the element-wise @operand (an Add), the last applies the
 * activation and writes @dst.
 */
static int conv_emit_chunks(struct nvc_lower *L, const struct nvc_node *n,
			    const struct nvc_node *last,
			    const struct nvc_conv_shape *cs,
			    const struct nvc_lir_conv *pc, int npc,
			    const float *ws, const struct dla_data_cube *dst,
			    const struct nvc_operand *operand, float s_out,
			    int *sdp)
{
	struct nvc_node mid = *last;
	struct nvc_conv_shape part = *cs;
	struct dla_data_cube sum[2];
	struct nvc_operand prev;
	float s_sum = nvc_psum_scale(L, L->op->temp, s_out);
	int i, j, at, from, in_chunk, prev_sdp = -1, ret = 0;

	mid.act.type = NVC_ACT_NONE;
	for (i = 0; i < 2; i++)
		sum[i] = nvc_psum_cube(L, L->op->temp + i);
	part.slice = true;
	for (at = 0, i = 0; !ret && at < npc; at += in_chunk, i++) {
		bool end;

		in_chunk = same_chunk(pc + at, npc - at);
		end = at + in_chunk == npc;
		part.c0 = pc[at].c0;
		part.c = pc[at].c;
		ret = conv_dense(L, n, &part);
		if (!ret && i)
			memset(part.bias, 0, (size_t)part.k * sizeof(*part.bias));
		from = L->nops;
		if (!ret)
			ret = conv_emit(L, n, end ? last : &mid, &part, pc + at,
					in_chunk, ws, end ? dst : &sum[i % 2],
					i ? &prev : operand, NVC_ELT_ADD,
					end ? s_out : s_sum, sdp);
		if (!ret)
			nvc_psum_ops(L, L->op->temp, from, !end, i > 0);
		/* The partial sums are no tensor: their reader waits here. */
		for (j = from; !ret && prev_sdp >= 0 && j < L->nops; j++)
			nvc_depend(L, prev_sdp, j);
		prev = (struct nvc_operand){ .cube = sum[i % 2], .scale = s_sum };
		prev_sdp = *sdp;
		free(part.w);
		free(part.bias);
		part.w = NULL;
		part.bias = NULL;
	}
	return ret;
}

/* Partial sums over chunks of input channels: only an Add fused. */
static int conv_chunk_check(struct nvc_lower *L, const struct nvc_node *n,
			    const struct nvc_node *elt,
			    const struct nvc_conv_shape *cs)
{
	if (elt && elt->eltwise != NVC_ELT_ADD)
		return nvc_fail(L, n, -EOPNOTSUPP,
				"its kernels over %d input channels do not fit the convolution buffer, and split into chunks of the channels it cannot multiply by '%s'",
				cs->c, elt->name);
	return 0;
}

/*
 * The split for the convolution buffer, before the descriptors: each
 * hardware convolution of the operation being split (its kernels,
 * input channels, bands of rows and banks) appended to its list. The
 * banks of one depend on the weight banks of the one before (the floor),
 * so they are planned in the order they run.
 */
static int split_one(struct nvc_lower *L, const struct nvc_node *n,
		     const struct nvc_conv_shape *cs)
{
	struct nvc_lir_conv pc = { .k0 = cs->k0, .k = cs->k, .c0 = cs->c0,
				   .c = cs->c, .rows = cs->ho,
				   .copy = cs->copy };
	struct nvc_wino_layer wl;
	int ret = 0;

	if (cs->wino) {
		wl = conv_wino_layer(L, cs);
		nvc_wino_banks(L, &wl, &pc.dbank, &pc.wbank);
	} else {
		ret = conv_plan(L, n, cs, nvc_conv_wsize(L, cs), &pc.rows,
				&pc.dbank, &pc.wbank);
	}
	return ret ? ret : nvc_lir_conv_add(L->op, &pc);
}

/* @cs in parts over output channels where its weights exceed a memory. */
static int split_parts(struct nvc_lower *L, const struct nvc_node *n,
		       const struct nvc_conv_shape *cs)
{
	int step = conv_part_kernels(L, cs), ret = 0;
	struct nvc_conv_shape part = *cs;

	for (part.k0 = 0; !ret && part.k0 < cs->k; part.k0 += step) {
		part.k = cs->k - part.k0 < step ? cs->k - part.k0 : step;
		ret = split_one(L, n, &part);
	}
	return ret;
}

/*
 * Convolution @cs: in chunks of @cn input channels (0: not chunked), in
 * blocks of @blk groups, or whole, each in parts.
 */
static int conv_split(struct nvc_lower *L, const struct nvc_node *n,
		      const struct nvc_conv_shape *cs, int blk, int cn)
{
	int kg = cs->k / n->conv.group, cg = cs->c / n->conv.group, ret = 0;
	struct nvc_conv_shape part = *cs;

	if (n->op == NVC_CONV_TRANSPOSE && !L->t.hw->rubik)
		return nvc_deconv_split(L, n, cs, cs->out);
	if (cn) {
		part.slice = true;
		for (part.c0 = 0; !ret && part.c0 < cs->c; part.c0 += cn) {
			part.c = part.c0 + cn >= cs->c ? cs->c - part.c0 : cn;
			ret = split_parts(L, n, &part);
		}
		return ret;
	}
	if (blk == n->conv.group)
		return split_parts(L, n, cs);
	part.slice = true;
	for (part.k0 = 0; !ret && part.k0 < cs->k; part.k0 += blk * kg) {
		part.k = cs->k - part.k0 < blk * kg ? cs->k - part.k0 : blk * kg;
		part.c0 = part.k0 / kg * cg;
		part.c = part.k / kg * cg;
		ret = split_one(L, n, &part);
	}
	return ret;
}

/*
 * The convolution of @n (its SDP computing @last, itself or the fused
 * element-wise node) as the hardware sees it before the split: checked,
 * its kernel over the input as it is in memory, its output (a transposed
 * one's 1x1 half: the input's width and height).
 */
static int conv_prepare(struct nvc_lower *L, const struct nvc_node *n,
			const struct nvc_node *last, struct nvc_conv_shape *cs)
{
	int ret = conv_check(L, n);

	if (!ret)
		ret = conv_shape(L, n, cs);
	if (ret)
		return ret;
	cs->out = last->outputs[0];
	cs->wo = nvc_t(L, cs->out)->w;
	cs->ho = nvc_t(L, cs->out)->h;
	if (n->op == NVC_CONV_TRANSPOSE) {
		cs->wo = nvc_t(L, cs->in)->w;
		cs->ho = nvc_t(L, cs->in)->h;
	}
	return 0;
}

/*
 * Its temporaries: the two cubes of partial sums of a chunked
 * convolution (int8: lower_psum.c), the intermediate cube of a
 * transposed one with a RUBIK.
 */
static int conv_temps(struct nvc_lower *L, struct nvc_lir_op *op,
		      const struct nvc_conv_shape *cs)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);
	int i, t = 0;

	for (i = 0; op->cut == NVC_CUT_CHUNKS && i < 2 && t >= 0; i++)
		t = nvc_lir_temp_add(&L->ir, op, cs->wo, cs->ho, cs->k,
				     nvc_psum_prec(L, op->prec, cs),
				     L->t.atom);
	if (L->g->nodes[op->node].op == NVC_CONV_TRANSPOSE && L->t.hw->rubik)
		t = nvc_lir_temp_add(&L->ir, op, ti->w, ti->h, cs->k, op->prec,
				     L->t.atom);
	return t < 0 ? t : 0;
}

int nvc_conv_split(struct nvc_lower *L, struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	const struct nvc_node *elt = op->fused >= 0 ?
				     &L->g->nodes[op->fused] : NULL;
	struct nvc_conv_shape cs = { 0 };
	int blk, cn, ret;

	ret = conv_prepare(L, n, elt ? elt : n, &cs);
	if (ret)
		return ret;
	blk = group_block(L, n, &cs);
	cn = blk < n->conv.group ? cs.c : conv_chunk_channels(L, n, &cs);
	op->cut = cn < cs.c ? NVC_CUT_CHUNKS :
		  blk < n->conv.group ? NVC_CUT_GROUPS : NVC_CUT_PARTS;
	if (op->cut == NVC_CUT_CHUNKS)
		ret = conv_chunk_check(L, n, elt, &cs);
	if (ret)
		return ret;
	if (cs.image)
		conv_image_shape(&cs);
	if (op->cut != NVC_CUT_CHUNKS && !cs.image && L->o->conv_way &&
	    L->o->conv_way[op->node] == NVC_CONV_WINOGRAD) {
		struct nvc_wino_layer wl = conv_wino_layer(L, &cs);

		cs.wino = nvc_wino_able(L, n, &wl);
	}
	op->wino = cs.wino;
	if (cs.wino && L->o->origins)
		L->o->origins->winograd[op->node] = true;
	ret = conv_split(L, n, &cs, blk, op->cut == NVC_CUT_CHUNKS ? cn : 0);
	return ret ? ret : conv_temps(L, op, &cs);
}

/* Its dense weights, as the split cut it (blocks and chunks: their own). */
static int conv_weights_whole(struct nvc_lower *L, const struct nvc_node *n,
			      const struct nvc_lir_op *op,
			      struct nvc_conv_shape *cs)
{
	int ret = 0;

	if (op->cut == NVC_CUT_PARTS && n->op == NVC_CONV_TRANSPOSE)
		ret = nvc_deconv_dense(L, n, cs);
	else if (op->cut == NVC_CUT_PARTS)
		ret = conv_dense(L, n, cs);
	if (!ret && cs->image)
		ret = conv_image_extend(cs);
	return ret;
}

int nvc_lower_conv(struct nvc_lower *L, const struct nvc_lir_op *op)
{
	const struct nvc_graph *g = L->g;
	const struct nvc_node *n = &g->nodes[op->node];
	const struct nvc_node *elt = op->fused >= 0 ? &g->nodes[op->fused] :
				     NULL;
	const struct nvc_node *last = elt ? elt : n;
	const struct nvc_lir_conv *pc = op->convs;
	struct nvc_conv_shape cs = { 0 };
	struct dla_data_cube dst;
	struct nvc_operand operand;
	int sdp, other = -1, npc = op->num_convs, ret;

	ret = conv_prepare(L, n, last, &cs);
	if (!ret)
		ret = conv_weights_whole(L, n, op, &cs);
	if (ret)
		goto out;
	cs.wino = op->wino;
	if (n->op == NVC_CONV_TRANSPOSE && !L->t.hw->rubik) {
		ret = nvc_deconv_rows(L, n, last, &cs, pc, op->wscale, cs.out);
		goto out;
	}
	dst = nvc_cube(L, n->op == NVC_CONV_TRANSPOSE ? op->temp : cs.out);
	if (elt) {
		other = elt->inputs[0] == n->outputs[0] ? elt->inputs[1] :
			elt->inputs[0];
		operand = nvc_operand(L, other);
	}
	if (op->cut == NVC_CUT_CHUNKS)
		ret = conv_emit_chunks(L, n, last, &cs, pc, npc, op->wscale,
				       &dst, elt ? &operand : NULL,
				       L->ir.ts[cs.out].scale, &sdp);
	else if (op->cut == NVC_CUT_GROUPS)
		ret = conv_emit_groups(L, n, last, &cs, pc, npc, op->wscale,
				       &dst, elt ? &operand : NULL,
				       elt ? elt->eltwise : NVC_ELT_ADD,
				       L->ir.ts[cs.out].scale, &sdp);
	else
		ret = conv_emit(L, n, last, &cs, pc, npc, op->wscale, &dst,
				elt ? &operand : NULL,
				elt ? elt->eltwise : NVC_ELT_ADD,
				L->ir.ts[cs.out].scale, &sdp);
	if (ret)
		goto out;
	nvc_writer(L, cs.out, sdp);
	if (n->op == NVC_CONV_TRANSPOSE)
		ret = nvc_deconv_contract(L, n, sdp, &dst, cs.out);
out:
	free(cs.w);
	free(cs.bias);
	return ret;
}

/*
 * The 1x1 convolution that moves channels of @in into @k channels (the
 * selecting weights are the caller's): node @one, shape @cs.
 */
static void select_shape(struct nvc_lower *L, const struct nvc_node *n,
			 int in, int k, struct nvc_node *one,
			 struct nvc_conv_shape *cs)
{
	*one = *n;
	one->op = NVC_CONV;
	one->act.type = NVC_ACT_NONE;
	one->conv = (struct nvc_conv_attr){ .kh = 1, .kw = 1,
		.stride = { 1, 1 }, .dilation = { 1, 1 }, .group = 1,
		.weights = -1, .bias = -1 };
	*cs = (struct nvc_conv_shape){ .in = nvc_resolve(L, in), .k = k, .r = 1,
				   .s = 1 };
	cs->c = nvc_t(L, cs->in)->c;
	cs->wo = nvc_t(L, cs->in)->w;
	cs->ho = nvc_t(L, cs->in)->h;
}

int nvc_copy_split(struct nvc_lower *L, const struct nvc_node *n, int in,
		   int k, int copy)
{
	struct nvc_node one;
	struct nvc_conv_shape cs;

	select_shape(L, n, in, k, &one, &cs);
	cs.copy = copy;
	return split_parts(L, &one, &cs);
}

int nvc_conv_select(struct nvc_lower *L, const struct nvc_node *n, int in,
		    const int *map, int k, int copy, const float *ws,
		    const struct nvc_operand *prev, int prev_op,
		    const struct dla_data_cube *dst, float s_out)
{
	const struct nvc_lir_conv *pc;
	struct nvc_node one;
	struct nvc_conv_shape cs;
	int j, npc, sdp = -1, ret;

	select_shape(L, n, in, k, &one, &cs);
	cs.w = calloc((size_t)cs.k * cs.c, sizeof(float));
	cs.bias = calloc(cs.k, sizeof(float));
	ret = cs.w && cs.bias ? 0 : -ENOMEM;
	for (j = 0; !ret && j < k; j++)
		if (map[j] >= 0)
			cs.w[(size_t)j * cs.c + map[j]] = 1.0f;
	pc = nvc_lir_convs_of(L->op, copy, &npc);
	if (!ret)
		ret = conv_emit(L, &one, &one, &cs, pc, npc, ws, dst, prev,
				NVC_ELT_ADD, s_out, &sdp);
	if (!ret && prev)
		nvc_depend(L, prev_op, sdp);
	free(cs.w);
	free(cs.bias);
	return ret ? ret : sdp;
}
