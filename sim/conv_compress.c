// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Compressed weights (D_WEIGHT_FORMAT = COMPRESSED): the weight mask (WMB)
 * has one bit per weight of the uncompressed direct-convolution layout,
 * least significant bit first, and the weight surface holds only the
 * weights whose bit is set, packed in the same order. The CSC expands both
 * streams kernel group after kernel group without realigning them, so a
 * weight's place in the packed surface is the number of set mask bits
 * before its own. WGS (bytes per kernel group) only paces the CDMA's
 * fetches and changes no value.
 *
 * The model keeps the count of set bits before every span of the mask in
 * the instance (sim->wcomp_rank), so that any weight is found with a few
 * word popcounts.
 */
#include "sim_internal.h"

/* Mask bits 64 * @word on (the mask is whole 128-byte blocks). */
static u64 wcomp_word(const struct sim_wcomp *wc, u64 word)
{
	const u8 *p = wc->mask + word * 8;
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static u32 wcomp_popcount(u64 v)
{
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (v * 0x0101010101010101ull) >> 56;
}

/* Set mask bits before bit @bit. */
static u64 wcomp_rank(const struct sim_wcomp *wc, u64 bit)
{
	u64 span = bit / 64 / wc->span_words, word = span * wc->span_words;
	u64 rank = wc->rank[span];

	for (; word < bit / 64; word++)
		rank += wcomp_popcount(wcomp_word(wc, word));
	if (bit % 64)
		rank += wcomp_popcount(wcomp_word(wc, bit / 64) &
				       ((1ull << (bit % 64)) - 1));
	return rank;
}

static bool wcomp_bit(const struct sim_wcomp *wc, u64 bit)
{
	return wc->mask[bit / 8] >> (bit % 8) & 1;
}

/* The weight at index @index of the uncompressed layout. */
s32 sim_wcomp_weight(const struct sim_wcomp *wc, u64 index, u32 bpe)
{
	const u8 *p;

	if (!wcomp_bit(wc, index))
		return 0;
	p = wc->packed + wcomp_rank(wc, index) * bpe;
	return bpe == 1 ? (s8)p[0] : (s16)(p[0] | p[1] << 8);
}

/*
 * A compressed layer's output, weight by weight: the packed surface has no
 * runs to take whole.
 */
s64 sim_wcomp_value(const struct sim_conv *cv, u32 k, u32 x, u32 y)
{
	s64 acc = 0;
	u32 r, s, c;

	for (r = 0; r < cv->r; r++) {
		s32 iy = (s32)(y * cv->stride_y + r * cv->dilation_y) -
			 (s32)cv->pad_top;

		for (s = 0; s < cv->s; s++) {
			s32 ix = (s32)(x * cv->stride_x + s * cv->dilation_x) -
				 (s32)cv->pad_left;

			for (c = 0; c < cv->c; c++)
				acc += (s64)sim_conv_input(cv, c, ix, iy) *
				       sim_conv_weight(cv, k, c, r, s);
		}
	}
	return sim_cacc_out(cv, acc);
}

/*
 * Map the mask and the packed weights of @elements weights and index the
 * mask; false if the configuration has no compression, the two units
 * disagree, or the surfaces are shorter than the mask asks for.
 */
bool sim_wcomp_params(struct nvdla_sim *sim, struct sim_conv *cv,
		      u64 elements)
{
	struct sim_wcomp *wc = &cv->wcomp;
	u64 words = (elements + 63) / 64, w, rank = 0;
	u32 weight_bytes = SIM_REG(sim, CDMA, D_WEIGHT_BYTES) &
			   NVDLA_CDMA_D_WEIGHT_BYTES_WEIGHT_BYTES_MASK;

	if (!sim->config->weight_compress ||
	    !SIM_FIELD(sim, CSC, D_WEIGHT_FORMAT, WEIGHT_FORMAT))
		return false;
	wc->mask_bytes = SIM_REG(sim, CDMA, D_WMB_BYTES) &
			 NVDLA_CDMA_D_WMB_BYTES_WMB_BYTES_MASK;
	if (wc->mask_bytes < (elements + 7) / 8)
		return false;
	/* The mask comes through the weights' memory interface. */
	wc->mask = SIM_MAP(sim, CDMA, D_WEIGHT_RAM_TYPE, WEIGHT_RAM_TYPE,
			   SIM_ADDR(sim, CDMA, D_WMB_ADDR_LOW, D_WMB_ADDR_HIGH),
			   wc->mask_bytes);
	wc->packed = SIM_MAP(sim, CDMA, D_WEIGHT_RAM_TYPE, WEIGHT_RAM_TYPE,
			     SIM_ADDR(sim, CDMA, D_WEIGHT_ADDR_LOW,
				      D_WEIGHT_ADDR_HIGH), weight_bytes);
	if (!wc->mask || !wc->packed)
		return false;
	wc->span_words = (words + SIM_WCOMP_RANKS - 1) / SIM_WCOMP_RANKS;
	if (!wc->span_words)
		wc->span_words = 1;
	wc->rank = sim->wcomp_rank;
	for (w = 0; w < words; w++) {
		if (w % wc->span_words == 0)
			sim->wcomp_rank[w / wc->span_words] = rank;
		rank += wcomp_popcount(wcomp_word(wc, w) &
				       (w == words - 1 && elements % 64 ?
					(1ull << (elements % 64)) - 1 : ~0ull));
	}
	return rank * cv->bpe <= weight_bytes;
}
