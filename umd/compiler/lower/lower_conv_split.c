// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The split of a convolution for the convolution buffer, before the
 * descriptors: each hardware convolution of the operation being split
 * (a block of whole groups, a chunk of input channels, a part of the
 * output channels; its bands of rows and its data and weight banks,
 * struct nvc_lir_conv) appended to its list. The banks of one depend on
 * the weight banks of the one before (the floor), so lower_split.c runs
 * it in the order the operations run.
 */
#include <errno.h>

#include "lower_internal.h"

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
 * no fewer than the last convolution's where the data leaves room (a
 * precaution from recorded LeNets that stopped on nv_small's RTL, whose
 * cause was the gated weight count: docs/compiler.md).
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
	uint64_t line = (uint64_t)nvc_conv_eps(L, n, cs) * L->t.cbuf->width;
	uint32_t wmin = nvc_banks(L, (uint64_t)(cs->k < (int)kpg ? cs->k : (int)kpg) *
				 cs->r * cs->s * cs->c * L->bpe);
	bool one = nvc_conv_plain(L, n, cs);
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
	uint64_t line = (uint64_t)nvc_conv_eps(L, n, cs) * L->t.cbuf->width;
	uint64_t group = (uint64_t)(cs->k < (int)kpg ? cs->k : (int)kpg) *
			 cs->r * cs->s * cs->c * L->bpe;
	uint32_t wmin = nvc_banks(L, group);
	bool one = nvc_conv_plain(L, n, cs);
	int sy = one ? 1 : n->conv.stride[0];
	int ekh = (cs->r - 1) * (one ? 1 : n->conv.dilation[0]) + 1;
	uint32_t wfloor = nvc_wbank_floor(L);
	uint64_t fit;

	/*
	 * The floor is a precaution, not a rule of the hardware: where it
	 * leaves the kernel's rows no room, the weight banks shrink.
	 */
	if (wfloor > wmin && wfloor < total &&
	    (uint64_t)(total - wfloor) * L->t.bank_bytes / line >= (uint64_t)ekh &&
	    !(one && cs->r > 1 && nvc_banks(L, line * ti->h) > total - wfloor))
		wmin = wfloor;

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

/* Hardware convolution @cs appended to the operation being split. */
static int split_one(struct nvc_lower *L, const struct nvc_node *n,
		     const struct nvc_conv_shape *cs)
{
	struct nvc_lir_conv pc = { .k0 = cs->k0, .k = cs->k, .c0 = cs->c0,
				   .c = cs->c, .rows = cs->ho,
				   .copy = cs->copy };
	struct nvc_wino_layer wl;
	int ret = 0;

	if (cs->wino) {
		wl = nvc_conv_wino_layer(L, cs);
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
 * Its temporaries: the two cubes of partial sums of a chunked one (int8:
 * lower_psum.c).
 */
static int conv_temps(struct nvc_lower *L, struct nvc_lir_op *op,
		      const struct nvc_conv_shape *cs)
{
	int i, t = 0;

	for (i = 0; op->cut == NVC_CUT_CHUNKS && i < 2 && t >= 0; i++)
		t = nvc_lir_temp_add(&L->ir, op, cs->wo, cs->ho, cs->k,
				     nvc_psum_prec(L, op->prec, cs),
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

	ret = nvc_conv_prepare(L, n, elt ? elt : n, &cs);
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
		nvc_conv_image_shape(&cs);
	if (op->cut != NVC_CUT_CHUNKS && !cs.image && L->o->conv_way &&
	    L->o->conv_way[op->node] == NVC_CONV_WINOGRAD) {
		struct nvc_wino_layer wl = nvc_conv_wino_layer(L, &cs);

		cs.wino = nvc_wino_able(L, n, &wl);
	}
	op->wino = cs.wino;
	if (cs.wino && L->o->origins)
		L->o->origins->winograd[op->node] = true;
	ret = conv_split(L, n, &cs, blk, op->cut == NVC_CUT_CHUNKS ? cn : 0);
	return ret ? ret : conv_temps(L, op, &cs);
}

int nvc_copy_split(struct nvc_lower *L, const struct nvc_node *n, int in,
		   int k, int copy)
{
	struct nvc_node one;
	struct nvc_conv_shape cs;

	nvc_conv_select_shape(L, n, in, k, &one, &cs);
	cs.copy = copy;
	return split_parts(L, &one, &cs);
}
