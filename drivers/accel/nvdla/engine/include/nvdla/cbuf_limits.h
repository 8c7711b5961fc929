/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * What a convolution asks of the convolution buffer, and the conditions
 * under which the hardware cannot run it: NVIDIA's C model refuses the
 * layer or waits forever for buffer space, or its RTL stops fetching
 * (nvdla/hw cmod/cdma, vmod/nvdla/cdma; docs/model.md). The firmware
 * checks them when a task is submitted, the hardware model when a layer
 * starts, compilers before they write a layer; all from this one header.
 * Three rules are of the order the units were enabled in, not of the
 * layer. Two only the model checks (NVDLA_CBUF_MAC_LATE,
 * NVDLA_CBUF_CDMA_AHEAD): the firmware enables the consumers first, and
 * the CDMA before the CSC only where the CDMA waits for it. The third,
 * NVDLA_CBUF_OVERTAKES (nv_full: a convolution's CDMA enabled before the
 * convolution ahead of it, in other banks), the firmware checks at
 * submission too: it enables a convolution's units together, when its
 * dependencies are met, so a task whose dependency graph lets one be
 * enabled before the one ahead is refused, naming it (graph.c).
 * The SDP's rules for 1x1 cubes (nvdla/sdp_layout.h) share the rules'
 * numbering and text, so that every refusal reads alike.
 */
#ifndef __NVDLA_CBUF_LIMITS_H__
#define __NVDLA_CBUF_LIMITS_H__

#include <linux/kernel.h>
#include <linux/types.h>

/**
 * struct nvdla_cbuf - a configuration's convolution buffer (hw_configs.h)
 * @atomic_c: channels one MAC pass takes (int8 elements of one kernel)
 * @atomic_k: bytes of kernels one MAC pass computes (kernels x bytes each)
 * @banks: banks of the buffer
 * @depth: entries of one bank
 * @width: bytes of one entry
 */
struct nvdla_cbuf {
	u32 atomic_c, atomic_k, banks, depth, width;
};

/* A convolution's units: CDMA, CSC, CMAC_A, CMAC_B and CACC. */
#define NVDLA_CBUF_CONV_UNITS 5

/* The rules, in the order they are checked. */
enum nvdla_cbuf_rule {
	NVDLA_CBUF_OK,
	NVDLA_CBUF_BANKS,
	NVDLA_CBUF_ENTRIES,
	NVDLA_CBUF_DATA,
	NVDLA_CBUF_KEPT_WEIGHTS,
	NVDLA_CBUF_KERNEL_GROUP,
	NVDLA_CBUF_MAC_LATE,
	NVDLA_CBUF_CDMA_AHEAD,
	NVDLA_CBUF_OVERTAKES,
	NVDLA_CBUF_STALE_WEIGHTS,
	/* nvdla/sdp_layout.h: one per stream, in enum nvdla_sdp_stream order */
	NVDLA_CBUF_SDP_PACKED_IN,
	NVDLA_CBUF_SDP_PACKED_BS,
	NVDLA_CBUF_SDP_PACKED_BN,
	NVDLA_CBUF_SDP_PACKED_EW,
	NVDLA_CBUF_SDP_PACKED_OUT,
	NVDLA_CBUF_RULES,
};

/**
 * struct nvdla_cbuf_layer - what one convolution asks of the buffer
 * @data_banks: data banks (D_BANK DATA_BANK + 1)
 * @weight_banks: weight banks (D_BANK WEIGHT_BANK + 1)
 * @entries: entries one input line takes (D_ENTRY_PER_SLICE + 1)
 * @line_entries: what a line of the feature cube takes
 *	(nvdla_cbuf_feature_entries()), 0 where not checked (images, Winograd)
 * @lines: input lines the CDMA keeps for the whole layer: height times
 *	batches for a feature cube or an image, 0 where not checked (Winograd)
 * @kernels: kernels of the layer (D_WEIGHT_KERNEL + 1)
 * @kernel_bytes: bytes of one kernel (D_BYTE_PER_KERNEL + 1)
 * @bpe: bytes of one element in the processing precision
 * @weight_bytes: bytes of all weights (D_WEIGHT_BYTES)
 * @keep_weights: the weights stay for the next layer (SKIP_WEIGHT_RLS)
 * @compressed: compressed weights, whose groups have no fixed size
 */
struct nvdla_cbuf_layer {
	u32 data_banks, weight_banks;
	u32 entries, line_entries, lines;
	u32 kernels, kernel_bytes, bpe;
	u32 weight_bytes;
	bool keep_weights, compressed;
};

/**
 * struct nvdla_cbuf_verdict - a broken rule and its numbers
 * @rule: the rule, NVDLA_CBUF_OK when the layer fits
 * @have: what the layer has (entries or banks: nvdla_cbuf_rule_unit())
 * @need: what it needs
 * @stale: NVDLA_CBUF_STALE_WEIGHTS: the stale count (entries), else 0
 */
struct nvdla_cbuf_verdict {
	enum nvdla_cbuf_rule rule;
	u64 have, need, stale;
};

/* A rule as messages name it, and the unit of its numbers. */
static inline const char *nvdla_cbuf_rule_name(enum nvdla_cbuf_rule rule)
{
	static const char *const names[NVDLA_CBUF_RULES] = {
		[NVDLA_CBUF_OK] = "fits",
		[NVDLA_CBUF_BANKS] =
			"data and weight banks beyond the convolution buffer",
		[NVDLA_CBUF_ENTRIES] =
			"CDMA D_ENTRY_PER_SLICE is not what a line of the input takes",
		[NVDLA_CBUF_DATA] =
			"CDMA insufficient cbuf space: the input does not fit its data banks",
		[NVDLA_CBUF_KEPT_WEIGHTS] =
			"weights kept for the next layer (SKIP_WEIGHT_RLS) do not fit the weight banks",
		[NVDLA_CBUF_KERNEL_GROUP] =
			"one kernel group does not fit the weight banks (the CDMA waits forever)",
		[NVDLA_CBUF_MAC_LATE] =
			"CMAC or CACC D_OP_ENABLE after both the CSC's and the CDMA's: the CSC feeds units not running (NVIDIA's C model stops)",
		[NVDLA_CBUF_CDMA_AHEAD] =
			"CDMA D_OP_ENABLE before the CSC's, in other banks than the layer before: the CSC forgets the kernels the CDMA fetched and waits for them forever",
		[NVDLA_CBUF_OVERTAKES] =
			"CDMA D_OP_ENABLE before the convolution ahead had its CDMA, CSC, CMACs and CACC enabled, in other banks: the CSC forgets the kernels and waits forever",
		[NVDLA_CBUF_STALE_WEIGHTS] =
			"the CDMA's gated weight count leaves too little room for the weights fetched with the input (the CDMA waits forever)",
		[NVDLA_CBUF_SDP_PACKED_IN] =
			"SDP_RDMA D_SRC_SURFACE_STRIDE of a 1x1 cube is not one atom (the RDMA reads it packed; NVIDIA's C models stop)",
		[NVDLA_CBUF_SDP_PACKED_BS] =
			"SDP_RDMA D_BS_SURFACE_STRIDE of a 1x1 cube is not one group of operands (BRDMA reads them packed; NVIDIA's C models stop)",
		[NVDLA_CBUF_SDP_PACKED_BN] =
			"SDP_RDMA D_BN_SURFACE_STRIDE of a 1x1 cube is not one group of operands (NRDMA reads them packed; NVIDIA's C models stop)",
		[NVDLA_CBUF_SDP_PACKED_EW] =
			"SDP_RDMA D_EW_SURFACE_STRIDE of a 1x1 cube is not one group of operands (ERDMA reads them packed; NVIDIA's C models stop)",
		[NVDLA_CBUF_SDP_PACKED_OUT] =
			"SDP D_DST_SURFACE_STRIDE of a 1x1 cube is not one atom (the WDMA writes it packed; NVIDIA's C models stop)",
	};

	return rule < NVDLA_CBUF_RULES ? names[rule] : "unknown rule";
}

static inline const char *nvdla_cbuf_rule_unit(enum nvdla_cbuf_rule rule)
{
	if (rule == NVDLA_CBUF_MAC_LATE)
		return "of CMAC_A, CMAC_B and CACC enabled";
	if (rule == NVDLA_CBUF_CDMA_AHEAD)
		return "kernels";
	if (rule == NVDLA_CBUF_OVERTAKES)
		return "of the one ahead's units enabled";
	if (rule >= NVDLA_CBUF_SDP_PACKED_IN)
		return "bytes";
	return rule == NVDLA_CBUF_BANKS ? "banks" : "entries";
}

/*
 * Room for any verdict's text (nvdla_cbuf_verdict_text()), its NUL
 * included: more than the longest rule name and unit with three 20-digit
 * numbers take (test_sim_conv checks each rule).
 */
#define NVDLA_CBUF_VERDICT_MAX 288

/*
 * @v as every message gives it, in @buf of @len bytes: the rule, what the
 * layer has and needs, and for NVDLA_CBUF_STALE_WEIGHTS alone the stale
 * count (no other rule has one). Returns @buf.
 */
static inline const char *
nvdla_cbuf_verdict_text(char *buf, size_t len,
			const struct nvdla_cbuf_verdict *v)
{
	int n = snprintf(buf, len, "%s: %llu %s, needs %llu",
			 nvdla_cbuf_rule_name(v->rule),
			 (unsigned long long)v->have,
			 nvdla_cbuf_rule_unit(v->rule),
			 (unsigned long long)v->need);

	if (v->rule == NVDLA_CBUF_STALE_WEIGHTS && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " (stale count %llu)",
			 (unsigned long long)v->stale);
	return buf;
}

/* In 32 bits: no 64-bit division in 32-bit kernels. */
static inline u32 nvdla_cbuf_div_up(u32 n, u32 d)
{
	return (n + d - 1) / d;
}

/*
 * Entries one line @width pixels wide of a feature cube takes, whose
 * pixels are @bytes of channels in atoms of @atom bytes: whole entries of
 * atoms, then the rest of the pixel's atoms, which share an entry by two
 * when they fill half of one and by four when a quarter (NVIDIA's C model
 * requires exactly this in D_ENTRY_PER_SLICE).
 */
static inline u32 nvdla_cbuf_feature_entries(const struct nvdla_cbuf *cb,
					     u32 atom, u32 width, u32 bytes)
{
	u32 per = cb->width / atom, atoms = nvdla_cbuf_div_up(bytes, atom);
	u32 rest = atoms % per, entries = atoms / per * width;

	if (rest > per / 2)
		entries += width;
	else if (rest && rest == per / 2)
		entries += nvdla_cbuf_div_up(width, 2);
	else if (rest && rest == per / 4)
		entries += nvdla_cbuf_div_up(width, 4);
	return entries;
}

/* Kernels of the first kernel group: those the CSC waits for first. */
static inline u32 nvdla_cbuf_group_kernels(const struct nvdla_cbuf *cb,
					   const struct nvdla_cbuf_layer *l)
{
	u32 per_group = cb->atomic_k / l->bpe;

	return l->kernels < per_group ? l->kernels : per_group;
}

/* Entries of one kernel group: the unit the CSC uses and then releases. */
static inline u32 nvdla_cbuf_group_entries(const struct nvdla_cbuf *cb,
					   const struct nvdla_cbuf_layer *l)
{
	return nvdla_cbuf_div_up(nvdla_cbuf_group_kernels(cb, l) *
				 l->kernel_bytes, cb->width);
}

static inline bool nvdla_cbuf_broken(struct nvdla_cbuf_verdict *v,
				     enum nvdla_cbuf_rule rule, u64 have,
				     u64 need)
{
	*v = (struct nvdla_cbuf_verdict){ rule, have, need, 0 };
	return need > have;
}

static inline bool nvdla_cbuf_differs(struct nvdla_cbuf_verdict *v,
				      enum nvdla_cbuf_rule rule, u64 have,
				      u64 need)
{
	*v = (struct nvdla_cbuf_verdict){ rule, have, need, 0 };
	return have != need;
}

/*
 * Check @l against @cb; the first rule it breaks is in *@v (rule
 * NVDLA_CBUF_OK if none). Returns whether the hardware can run it.
 *
 * The CDMA keeps the whole input for the layer and plans it line by
 * line, each in the entries the C model computes from the input's shape;
 * with too few data entries the C model refuses ("insufficient cbuf
 * space") or waits. Weights stream through their banks a kernel group at
 * a time, so one group must fit, and all of them when they stay for the
 * next layer. Where nv_small's RTL stops in chains of convolutions, its
 * clock gating is the cause, not a rule of the buffer (docs/model.md).
 */
static inline bool nvdla_cbuf_check(const struct nvdla_cbuf *cb,
				    const struct nvdla_cbuf_layer *l,
				    struct nvdla_cbuf_verdict *v)
{
	u64 weight_entries = (u64)l->weight_banks * cb->depth;

	if (nvdla_cbuf_broken(v, NVDLA_CBUF_BANKS, cb->banks,
			      (u64)l->data_banks + l->weight_banks) ||
	    (l->line_entries &&
	     nvdla_cbuf_differs(v, NVDLA_CBUF_ENTRIES, l->entries,
				l->line_entries)) ||
	    nvdla_cbuf_broken(v, NVDLA_CBUF_DATA,
			      (u64)l->data_banks * cb->depth,
			      (u64)l->lines * l->entries) ||
	    (l->keep_weights &&
	     nvdla_cbuf_broken(v, NVDLA_CBUF_KEPT_WEIGHTS, weight_entries,
			       nvdla_cbuf_div_up(l->weight_bytes, cb->width))) ||
	    (!l->compressed &&
	     nvdla_cbuf_broken(v, NVDLA_CBUF_KERNEL_GROUP, weight_entries,
			       nvdla_cbuf_group_entries(cb, l))))
		return false;
	*v = (struct nvdla_cbuf_verdict){ NVDLA_CBUF_OK, 0, 0, 0 };
	return true;
}

/*
 * The v2 designs' CDMA (hw_configs.h cdma_early) counts the weight
 * entries in its banks on a clock that runs only while one of its
 * register groups is enabled (D_OP_ENABLE, also pending). A
 * convolution's kernel groups released after its fetch ended, with no
 * next convolution's CDMA enabled yet, stay counted until reset
 * (docs/model.md). The count after such a convolution is at most what
 * it had plus all its weights, and at most its weight banks' entries,
 * below which alone the CDMA takes weight data (unless it was already
 * above them: then it took none).
 */
static inline u64 nvdla_cbuf_weight_entries(const struct nvdla_cbuf *cb,
					    const struct nvdla_cbuf_layer *l)
{
	return nvdla_cbuf_div_up(l->weight_bytes, cb->width);
}

static inline u64 nvdla_cbuf_stale_after(const struct nvdla_cbuf *cb,
					 const struct nvdla_cbuf_layer *l,
					 u64 stale)
{
	u64 count = stale + nvdla_cbuf_weight_entries(cb, l);
	u64 banks = (u64)l->weight_banks * cb->depth;

	if (count > banks)
		count = banks;
	return count > stale ? count : stale;
}

/*
 * Whether the CDMA can fetch @l's weights with @stale entries counted.
 * It requests weights while its banks have room by its other counts,
 * which see every release, but takes the data only while the gated
 * count is below its banks' entries: the room is those less @stale. A
 * weight response it does not take holds the input's behind it, and the
 * CSC releases a kernel group only once it has the whole input and that
 * group. Reads of the input and of the weights take turns: what it
 * requests before the input is in, about as many entries as the input
 * (at most its weights, and its banks' entries), and at least one group
 * must fit the room. With nothing stale its requests never outrun it.
 * *@v says the room, that need and the stale count when they do not fit.
 */
static inline bool nvdla_cbuf_stale_check(const struct nvdla_cbuf *cb,
					  const struct nvdla_cbuf_layer *l,
					  u64 stale,
					  struct nvdla_cbuf_verdict *v)
{
	u64 banks = (u64)l->weight_banks * cb->depth;
	u64 room = banks > stale ? banks - stale : 0;
	u64 input = (u64)l->lines * l->entries;
	u64 need = nvdla_cbuf_weight_entries(cb, l);
	u64 group = l->compressed ? 0 : nvdla_cbuf_group_entries(cb, l);

	if (input < need)
		need = input;
	if (need < group)
		need = group;
	if (need > banks)
		need = banks;
	if (need <= room) {
		*v = (struct nvdla_cbuf_verdict){ NVDLA_CBUF_OK, 0, 0, 0 };
		return true;
	}
	*v = (struct nvdla_cbuf_verdict){ NVDLA_CBUF_STALE_WEIGHTS, room,
					  need, stale };
	return false;
}

#endif
