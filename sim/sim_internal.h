/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* State of one hardware model instance, shared by the unit models. */
#ifndef __NVDLA_SIM_INTERNAL_H__
#define __NVDLA_SIM_INTERNAL_H__

#include <nvdla/regs.h>

#include "lut.h"
#include "sim_math.h"
#include <nvdla/sim.h>

#define SIM_BDMA_FIFO_DEPTH 20
#define SIM_BOUNCE_SIZE 4096
#define SIM_UNIT_REGS 128	/* every unit's registers lie in 512 bytes */
#define SIM_DONE_QUEUE 8
#define SIM_WCOMP_RANKS 2048	/* spans of a weight mask with a known rank */
#define SIM_ATOM_MAX 32		/* the widest configuration's memory atom */

/* CONV_MODE of the CDMA's and the CSC's D_MISC_CFG; Winograd is 1. */
#define CONV_MODE_DIRECT 0
/* DATAIN_FORMAT of their D_DATAIN_FORMAT: a feature cube; 1 is pixels. */
#define DATAIN_FEATURE 0

/* Precision codes of the *_PRECISION register fields. */
enum sim_precision {
	SIM_PREC_INT8,
	SIM_PREC_INT16,
	SIM_PREC_FP16,
	SIM_PREC_COUNT,
};

/* The default memory latency of the estimate, every configuration. */
#define SIM_PERF_LATENCY_NS 100

/* What the performance estimate knows of a configuration (config.c). */
struct sim_perf_config {
	u32 sdp_tput, sdp_ew_tput, pdp_tput, cdp_tput;	/* elements a cycle */
	u32 memif_latency;	/* cycles of latency its read path covers */
	struct nvdla_sim_perf_params defaults;
};

/* What differs between hardware configurations (config.c). */
struct sim_config {
	const char *name;
	const u32 *unit_base;	/* address map */
	bool bdma;		/* engines beyond the v2 core set */
	bool rubik;
	bool cvsram;		/* second memory interface */
	bool winograd;
	bool weight_compress;
	bool sdp_y;		/* the SDP's Y stage (hw_configs.h) */
	bool cdma_early;	/* the CDMA waits for its CSC (hw_configs.h) */
	u32 max_batch;		/* most D_BATCH_NUMBER + 1 */
	u32 precisions;		/* BIT(enum sim_precision) it computes in */
	u32 atom;		/* memory atom in bytes */
	struct nvdla_cbuf cbuf;	/* MAC array, convolution buffer (hw_configs.h) */
	u32 mem_width;		/* memory interface width in bits */
	u32 addr_low_mask;	/* bits an *_ADDR_LOW / stride register keeps */
	struct sim_perf_config perf;
};

const struct sim_config *sim_config_get(enum nvdla_sim_config_id id);
/* The configuration has unit @unit (enum nvdla_unit). */
bool sim_config_has_unit(const struct sim_config *config, int unit);
/* The configuration computes in @precision (a *_PRECISION field value). */
bool sim_precision_ok(const struct nvdla_sim *sim, u32 precision);

/* Registers of one unit; groups only where the unit has them. */
struct sim_unit {
	u32 single[SIM_UNIT_REGS];
	u32 group[2][SIM_UNIT_REGS];
	u8 producer;
	u8 consumer;
	bool op_en[2];
};

struct sim_bdma_transfer {
	u64 src, dst;
	u32 src_ram, dst_ram;	/* RAM_TYPE of each side */
	u32 line_bytes, lines, surfaces;
	u32 src_line, dst_line, src_surf, dst_surf;
	u8 group;		/* launch group, valid once launched */
	bool launched;
};

struct sim_bdma {
	u32 cfg[NVDLA_BDMA_CFG_STATUS / 4 + 1];	/* latched CFG_* registers */
	struct sim_bdma_transfer fifo[SIM_BDMA_FIFO_DEPTH];
	u8 head, count;		/* ring of queued transfers */
	bool busy[2];		/* launch group has transfers in flight */
	u32 stall[2][2];	/* estimated read, write stalls of each group */
};

/*
 * What the CDMA keeps of the layer before (cdma_nan.c): its fetch engine
 * (0 before the first layer), whether it kept its data or weights in the
 * buffer (SKIP_DATA_RLS, SKIP_WEIGHT_RLS) and its banks (D_BANK).
 */
struct sim_cdma_last {
	u32 engine;
	bool keep_data, keep_weights;
	u32 banks;
};

/*
 * The performance estimate's time line (perf.c): cycles on the estimated
 * clock, moved on by the host handling done interrupts; the operation
 * being estimated (@cur, while @open), the cycles before its first
 * result (@startup: its first fetches), those after its last fetch
 * (@tail: the compute that needs it) and those after its compute (@drain:
 * the convolution's last results on their way to the SDP); a
 * convolution's CSC time with its waits (@conv), @wait of them for
 * weights.
 */
struct sim_perf {
	struct nvdla_sim_perf_params params;
	u64 now;
	u64 free[NVDLA_SIM_ENGINES];	/* each engine is busy until */
	u64 done_at[32];		/* each GLB status bit was raised */
	u64 last_end;
	u64 startup, tail, drain, conv, wait;
	struct nvdla_sim_perf_op cur;
	bool open;
};

struct nvdla_sim {
	const struct sim_config *config;
	struct nvdla_sim_host host;
	u32 intr_mask, intr_status;
	bool irq_level;
	/*
	 * Done pulses not yet delivered: a layer's units finish one after
	 * another (CDMA data, weights, CACC, SDP), one per nvdla_sim_run().
	 */
	u32 done_queue[SIM_DONE_QUEUE];
	u8 done_head, done_count;
	u32 faults;
	u32 hazards;		/* layers the hardware could not run (cbuf.c) */
	struct nvdla_cbuf_verdict last_hazard;
	/*
	 * The CDMA's gated weight count (cbuf.c): the entries it holds that
	 * were released, and those of the last convolution it misses unless
	 * a CDMA is enabled before the host takes wt_missed_done (a CACC done
	 * bit). Only reset clears them.
	 */
	u64 wt_stale, wt_missed;
	u32 wt_missed_done;
	bool allow_hazards;	/* run them anyway */
	bool hang_on_hazards;	/* else hang on them, as the chip */
	bool hung;		/* did: nothing runs until init */
	bool no_values;		/* compute no element (estimates alone) */
	struct sim_bdma bdma;
	struct sim_unit units[NVDLA_UNIT_COUNT];
	struct sim_cdma_last cdma_last;
	bool cdma_ahead[2];	/* group's CDMA enabled before its CSC */
	/* the convolution ahead's units enabled before the group's CDMA */
	u8 ahead_ready[2];
	u8 macs_ready[2];	/* its CMACs and CACC enabled by its CSC and CDMA */
	struct sim_perf perf;
	struct sim_lut sdp_lut;
	struct sim_lut cdp_lut;
	u64 wcomp_rank[SIM_WCOMP_RANKS];
	u8 bounce[SIM_BOUNCE_SIZE];
	u64 slice_work;		/* steps since the host last had the CPU */
	bool stopped;		/* the host stopped the model (sim_slice) */
};

/* Basic steps between two calls of the host's yield (sim_slice). */
#define SIM_SLICE_WORK (1u << 16)

/*
 * An engine did @work more basic steps. Every SIM_SLICE_WORK steps the
 * host may run others, or stop the model: true once stopped, and the
 * engine then ends its operation at once, touching memory no more.
 */
bool sim_slice(struct nvdla_sim *sim, u64 work);

/*
 * The layer in the convolution units fits the convolution buffer (cbuf.c);
 * if not, it is counted, and runs only where the host allows it.
 */
bool sim_cbuf_ok(struct nvdla_sim *sim);
/*
 * A layer broke the rule in @v: counted; true where the host allows it to
 * run, else it ends as a fault, or where the chip would hang (@hangs) and
 * the host stands for the chip, hangs (cbuf.c).
 */
bool sim_hazard(struct nvdla_sim *sim, const struct nvdla_cbuf_verdict *v,
		bool hangs);
/* @unit of @group was enabled: note the order (cbuf.c). */
void sim_cbuf_enabled(struct nvdla_sim *sim, int unit, int group);
/* A convolution ends: what the CDMA's gated weight count may miss. */
void sim_cbuf_finish(struct nvdla_sim *sim);
/* Weight banks of the layer in the convolution units (D_BANK). */
u32 sim_cbuf_weight_banks(const struct nvdla_sim *sim);

/* Units of the convolution in @group enabled (conv.c). */
u8 sim_conv_enabled(const struct nvdla_sim *sim, int group);

/* Register groups (regfile.c). */
bool sim_unit_grouped(int unit);
void sim_cdma_flush(struct nvdla_sim *sim);
u32 sim_regfile_read(struct nvdla_sim *sim, int unit, u32 reg);
void sim_regfile_write(struct nvdla_sim *sim, int unit, u32 reg, u32 val);
/* The consumer group of @unit is enabled: the datapath may run it. */
bool sim_unit_ready(const struct nvdla_sim *sim, int unit);
/* The datapath finished the consumer group: clear OP_EN, swap groups. */
void sim_unit_finish(struct nvdla_sim *sim, int unit);
/* A register, or a field of it, of the consumer group. */
u32 sim_reg(const struct nvdla_sim *sim, int unit, u32 reg);
u32 sim_field(const struct nvdla_sim *sim, int unit, u32 reg, u32 mask,
	      u32 shift);
/* A status register the datapath writes into the consumer group. */
void sim_set_status(struct nvdla_sim *sim, int unit, u32 reg, u32 val);
/*
 * NaN and infinity elements of an fp16 cube in memory, whole atoms:
 * @surfaces x @h x @w atoms of @atom bytes at the given strides.
 */
struct sim_fp16_count {
	u32 nan, inf;
};

struct sim_fp16_count sim_fp16_cube_count(const u8 *base, u32 surfaces,
					  u32 h, u32 w, u32 line, u32 surf,
					  u32 atom);
/* Count @times elements of value @v into @n. */
void sim_fp16_count_value(struct sim_fp16_count *n, u16 v, u32 times);
/* A register below D_OP_ENABLE (one copy for both groups). */
u32 sim_single(const struct nvdla_sim *sim, int unit, u32 reg);

/*
 * The LUT configuration of the SDP or CDP: S_LUT_CFG, S_LUT_INFO (index
 * selects as raw 8-bit fields) and the four slope registers from @slopes.
 */
void sim_lut_cfg_read(const struct nvdla_sim *sim, int unit, u32 slopes,
		      struct sim_lut_cfg *c);

#define SIM_REG(sim, unit, reg) \
	sim_reg(sim, NVDLA_UNIT_##unit, NVDLA_##unit##_##reg)
#define SIM_FIELD(sim, unit, reg, field) \
	sim_field(sim, NVDLA_UNIT_##unit, NVDLA_##unit##_##reg, \
		  NVDLA_##unit##_##reg##_##field##_MASK, \
		  NVDLA_##unit##_##reg##_##field##_SHIFT)
/* A 64-bit address from its LOW/HIGH pair, as the configuration keeps it. */
#define SIM_ADDR(sim, unit, low, high) \
	((u64)SIM_REG(sim, unit, high) << 32 | \
	 (SIM_REG(sim, unit, low) & (sim)->config->addr_low_mask))
#define SIM_STRIDE(sim, unit, reg) \
	(SIM_REG(sim, unit, reg) & (sim)->config->addr_low_mask)

/* The operation's @work steps are within the host's bound. */
bool sim_work_ok(const struct nvdla_sim *sim, u64 work);

/* Memory of @len bytes at @addr through the host, or NULL. */
void *sim_map(struct nvdla_sim *sim, u64 addr, u64 len);

/*
 * The same on the memory interface a RAM_TYPE field selects: 1 the primary
 * (MCIF), 0 the second (CVIF), which only some configurations have; an
 * access to a missing one would stall the hardware, here it is a fault.
 */
#define SIM_RAM_MC 1u
void *sim_map_ram(struct nvdla_sim *sim, u32 ram, u64 addr, u64 len);
/* sim_map_ram with the RAM_TYPE field @field of register @reg of @unit. */
#define SIM_MAP(sim, unit, reg, field, addr, len) \
	sim_map_ram(sim, SIM_FIELD(sim, unit, reg, field), addr, len)
/* sim_map_ram for an output the engine writes (the host's map_write). */
void *sim_map_ram_out(struct nvdla_sim *sim, u32 ram, u64 addr, u64 len);
#define SIM_MAP_OUT(sim, unit, reg, field, addr, len) \
	sim_map_ram_out(sim, SIM_FIELD(sim, unit, reg, field), addr, len)

/* Image input as the CDMA delivers it (cdma_image.c). */
struct sim_image {
	const struct nvdla_pixel_layout *layout;	/* of the pixel format */
	const u8 *plane[2];
	u32 line[2];		/* line strides of the planes */
	u32 plane1_skip;	/* pixels the chroma plane's base is past */
	u32 width, channels, x_offset, pad_left, pad_right;
	s32 cdma_pad;		/* raw pad value of the left/right pixels */
	bool cvt, sign;		/* converter on; components signed */
	bool fp16;		/* the converter rounds to fp16 */
	bool flush;		/* fp16 pixels: a NaN is stored as +0 */
	s32 mean[4], scale;
	u32 truncate, out_bits;
	u32 post_ext;		/* kernel rows per CSC pass: 1, 2 or 4 */
};

/* Compressed weights (conv_compress.c). */
struct sim_wcomp {
	const u8 *mask, *packed;
	u32 mask_bytes;
	u64 span_words;		/* 64-bit mask words per rank entry */
	const u64 *rank;	/* set bits before each span */
};

/* What Winograd mode adds (winograd.c). */
struct sim_wino {
	u32 sx, sy;		/* stride folded into the channels */
	u32 w, h, surfaces;	/* the input before padding */
	u32 pad_left, pad_top;
	s32 cdma_pad;
	u32 pra_truncate;
};

/*
 * A layer's CACC outputs computed ahead, a block of output rows at a time,
 * by the user-space build (sim/user/: vector units, threads); the kernel
 * build computes output by output and never has one. @fill computes every
 * kernel of output rows [@y0, @y1) of the input @in into @val (int32, or
 * fp32 bits in fp16) and @sat (the CACC clipped it to int32).
 */
struct sim_conv;

struct sim_conv_cache {
	u32 w, h, k, block_rows;
	const u8 *in;		/* the input (batch) the ready blocks are of */
	u8 *ready;		/* per block of rows */
	u32 *val;		/* [h][w][k]: the SDP's order, kernels inner */
	u8 *sat;		/* [h][w][k] */
	void (*fill)(struct sim_conv_cache *cc, const struct sim_conv *cv,
		     u32 y0, u32 y1);
	void *priv;		/* the filler's decoded layer */
};

/* A direct convolution layer as the CSC sees it (conv.c). */
struct sim_conv {
	u32 bpe, lanes, atomic_c, kernels_per_group;
	u32 w, h, c, r, s, k;
	u32 stride_x, stride_y, dilation_x, dilation_y, pad_left, pad_top;
	s32 pad_value;
	u32 clip;
	bool fp16;
	/* the CDMA counts fp16 NaNs and infinities, and flushes NaNs */
	bool count_data, count_weights, flush_data, flush_weights;
	const u8 *in, *wt;
	u32 in_line, in_surf;
	const u8 *in_batch0;	/* input of batch 0; @in is the current one */
	u32 batches, batch_stride;
	bool is_image;
	struct sim_image image;
	bool compressed;
	struct sim_wcomp wcomp;
	bool winograd;
	struct sim_wino wino;
	u32 *sat_count;		/* CACC D_OUT_SATURATION, or NULL */
	struct sim_conv_cache *cache;	/* NULL: computed output by output */
};

#ifdef __KERNEL__
/* The kernel computes output by output: no vector registers, no threads. */
static inline void sim_conv_cache_open(struct sim_conv *cv, u32 w, u32 h)
{
	cv->cache = NULL;
}

static inline void sim_conv_cache_close(struct sim_conv *cv)
{
}
#else
/* Give @cv a cache of its @w x @h outputs if the host's CPU profits. */
void sim_conv_cache_open(struct sim_conv *cv, u32 w, u32 h);
void sim_conv_cache_close(struct sim_conv *cv);
#endif
/* Where output (k, x, y) is in @cc's arrays. */
static inline s64 sim_conv_cache_at(const struct sim_conv_cache *cc, u32 k,
				    u32 x, u32 y)
{
	return ((s64)y * cc->w + x) * cc->k + k;
}

/* Compute the rows of @cv's cache that hold output (k, x, y); its index. */
s64 sim_conv_cache_fill(const struct sim_conv *cv, u32 k, u32 x, u32 y);

/* Index of output (k, x, y) in @cv's cache, its rows computed; -1: none. */
static inline s64 sim_conv_cache_index(const struct sim_conv *cv, u32 k,
				       u32 x, u32 y)
{
	const struct sim_conv_cache *cc = cv->cache;

	if (!cc || x >= cc->w || y >= cc->h)
		return -1;
	if (cc->in == cv->in && cc->ready[y / cc->block_rows])
		return sim_conv_cache_at(cc, k, x, y);
	return sim_conv_cache_fill(cv, k, x, y);
}

/* The CACC output (int32) of kernel @k < cv->k at (@x, @y), computed. */
s64 sim_conv_compute(const struct sim_conv *cv, u32 k, u32 x, u32 y);

/* The CACC output (int32) of kernel @k at output (@x, @y). */
static inline s64 sim_conv_value(const struct sim_conv *cv, u32 k, u32 x,
				 u32 y)
{
	s64 i;

	if (k >= cv->k)
		return 0;	/* padding kernels of the last group */
	i = sim_conv_cache_index(cv, k, x, y);
	if (i < 0)
		return sim_conv_compute(cv, k, x, y);
	if (cv->cache->sat[i] && cv->sat_count)
		sim_count_add(cv->sat_count, 1);
	return (s32)cv->cache->val[i];
}

/* sim_conv_value of kernels [@k, @k + @n) at (@x, @y), into @out. */
static inline void sim_conv_values(const struct sim_conv *cv, u32 k, u32 n,
				   u32 x, u32 y, s32 *out)
{
	s64 at = k + n <= cv->k ? sim_conv_cache_index(cv, k, x, y) : -1;
	u32 i, sat = 0;

	if (at < 0) {
		for (i = 0; i < n; i++)
			out[i] = sim_conv_value(cv, k + i, x, y);
		return;
	}
	for (i = 0; i < n; i++) {
		out[i] = (s32)cv->cache->val[at + i];
		sat += cv->cache->sat[at + i] != 0;
	}
	if (cv->sat_count)
		sim_count_add(cv->sat_count, sat);
}

bool sim_conv_ready(const struct nvdla_sim *sim);
bool sim_conv_params(struct nvdla_sim *sim, struct sim_conv *cv);

/* Weight (k, c, r, s) of the layer; the CACC output of an exact sum. */
s32 sim_conv_weight(const struct sim_conv *cv, u32 k, u32 c, u32 r, u32 s);
/* The weight at layout index @index, compressed or not. */
s32 sim_conv_weight_at(const struct sim_conv *cv, u64 index);
/*
 * Where input channel @c of element (@ix, @iy) inside the cube lies: the
 * element's channels from @c to the end of @c's atom follow it.
 */
static inline const u8 *sim_conv_input_at(const struct sim_conv *cv, u32 c,
					  s32 ix, s32 iy)
{
	return cv->in + (c / cv->lanes) * cv->in_surf + iy * cv->in_line +
	       (ix * cv->lanes + c % cv->lanes) * cv->bpe;
}

/* Input channel @c at (@ix, @iy); the pad value outside the cube. */
s32 sim_conv_input(const struct sim_conv *cv, u32 c, s32 ix, s32 iy);
/* The CACC's int32 output of @acc, its saturations counted. */
s64 sim_cacc_out(const struct sim_conv *cv, s64 acc);
/* The CACC's 48-bit saturation and rounded truncation, before the int32 clip. */
s64 sim_cacc_round(const struct sim_conv *cv, s64 acc);

/* Batches (conv_batch.c): count, input extent, select batch @batch. */
bool sim_conv_batch_params(const struct nvdla_sim *sim, struct sim_conv *cv);
u64 sim_conv_batch_extent(const struct sim_conv *cv, u64 one);
void sim_conv_batch(struct sim_conv *cv, u32 batch);

bool sim_wcomp_params(struct nvdla_sim *sim, struct sim_conv *cv,
		      u64 elements);
s32 sim_wcomp_weight(const struct sim_wcomp *wc, u64 index, u32 bpe);
s64 sim_wcomp_value(const struct sim_conv *cv, u32 k, u32 x, u32 y);

#define SIM_WINO_TILE 4		/* input tile side */
#define SIM_WINO_OUT 2		/* output tile side */
#define SIM_WINO_BLOCK 4	/* channels per weight block and CMAC cell */

/* Row i of B^T: v[a] - v[b] (@sub) or v[a] + v[b], operands in that order. */
struct sim_wino_bt {
	u8 a, b;
	bool sub;
};

extern const struct sim_wino_bt sim_wino_bt[SIM_WINO_TILE];

bool sim_wino_params(struct nvdla_sim *sim, struct sim_conv *cv);
s64 sim_wino_value(const struct sim_conv *cv, u32 k, u32 x, u32 y);
/*
 * The elements of extended channel @c's 4x4 tile whose first output is
 * (@x0, @y0), padding included, position (y * 4 + x).
 */
void sim_wino_inputs(const struct sim_conv *cv, u32 c, u32 x0, u32 y0,
		     s64 d[SIM_WINO_TILE * SIM_WINO_TILE]);
/*
 * The CSC's transformed tile (B^T d B, truncated, saturated) of extended
 * channel @c whose first output is (@x0, @y0), position (y * 4 + x).
 */
void sim_wino_tile(const struct sim_conv *cv, u32 c, u32 x0, u32 y0,
		   s32 out[SIM_WINO_TILE * SIM_WINO_TILE]);
/* Layout index of transformed weight @pos of kernel @k, channel @c. */
u64 sim_wino_weight_index(const struct sim_conv *cv, u32 k, u32 c, u32 pos);
/* Output transform A^T: weight of tile row @r for output row @i. */
static inline s32 sim_wino_at(u32 i, u32 r)
{
	if (i == 0)
		return r == 3 ? 0 : 1;
	return r == 0 ? 0 : r == 1 ? 1 : -1;
}

/* A^T M A of the sixteen sums @m (position y * 4 + x), exact. */
void sim_wino_output(const s64 m[SIM_WINO_TILE * SIM_WINO_TILE],
		     s64 out[SIM_WINO_OUT][SIM_WINO_OUT]);
/* The fp16 CACC output (fp32 bits) in Winograd mode (winograd_fp16.c). */
u32 sim_wino_fp16_value(const struct sim_conv *cv, u32 k, u32 x, u32 y);

bool sim_image_params(struct nvdla_sim *sim, struct sim_conv *cv);
s64 sim_image_value(const struct sim_conv *cv, u32 k, u32 x, u32 y);
/* Element @e of the pre-extended line @iy; the pad value above and below. */
s32 sim_image_input(const struct sim_conv *cv, u32 e, s32 iy);
/* Weight (k, c, r) of an image layer, post-extension's order read through. */
s32 sim_image_weight(const struct sim_conv *cv, u32 k, u32 c, u32 r);
u32 sim_image_fp16_value(const struct sim_conv *cv, u32 k, u32 x, u32 y);
/* NaN and infinity components of the fp16 pixels the CDMA converts. */
struct sim_fp16_count sim_image_nan_count(const struct sim_conv *cv);
/* The CDMA input converter's 17-bit result: (x - mean) * scale >> truncate. */
s32 sim_image_cvt17(u32 raw, u32 in_bits, bool sign, s32 mean, s32 scale,
		    u32 truncate);
/*
 * The CDMA input converter on one component of @in_bits bits (signed if
 * @sign): (x - mean) * scale >> truncate, rounded, to @out_bits bits.
 */
s32 sim_image_convert(u32 raw, u32 in_bits, bool sign, s32 mean, s32 scale,
		      u32 truncate, u32 out_bits);
void sim_conv_finish(struct nvdla_sim *sim);
/* The CDMA's NaN handling of the layer (cdma_nan.c). */
void sim_cdma_nan_params(const struct nvdla_sim *sim, struct sim_conv *cv);
/* Count the layer's NaNs and infinities into the CDMA's status registers. */
bool sim_cdma_nan_status(struct nvdla_sim *sim, const struct sim_conv *cv);
/* OP_EN set on CDMA group @group: its counters read 0 until the layer ends. */
void sim_cdma_nan_clear(struct nvdla_sim *sim, int group);
/* The layer ends: remember what the next may reuse of it. */
void sim_cdma_remember(struct nvdla_sim *sim);
/* Offset, in elements, of weight (k, c, r, s) in the direct layout. */
u64 sim_conv_weight_index(const struct sim_conv *cv, u32 k, u32 c, u32 r,
			  u32 s);
/* The CACC output of an fp16 layer: an fp32 bit pattern (conv_fp16.c). */
u32 sim_conv_fp16_value(const struct sim_conv *cv, u32 k, u32 x, u32 y);

/* A data cube produced on the fly: the SDP's output streamed to the PDP. */
struct sim_stream {
	s32 (*value)(const void *ctx, u32 c, u32 x, u32 y);
	const void *ctx;
};

/* The PDP's consumer group is enabled and takes its input on the fly. */
bool sim_pdp_flying_ready(const struct nvdla_sim *sim);
/*
 * Pool @in (NULL: the producer failed, a fault) and finish the PDP group;
 * returns its done bit, for the caller to raise after its own.
 */
u32 sim_pdp_run_flying(struct nvdla_sim *sim, const struct sim_stream *in);

/* Engines: run the consumer group if every unit it needs is enabled. */
bool sim_pdp_run(struct nvdla_sim *sim);
bool sim_sdp_run(struct nvdla_sim *sim);
bool sim_cdp_run(struct nvdla_sim *sim);
bool sim_rubik_run(struct nvdla_sim *sim);

/* GLB: queue a done pulse of @bits; the next run delivers it. */
void sim_glb_done(struct nvdla_sim *sim, u32 bits);
/* Deliver the oldest queued pulse; true if more remain. */
bool sim_glb_deliver(struct nvdla_sim *sim);
/* Whether any of @bits is queued or set, not yet taken by the host. */
bool sim_glb_pending(const struct nvdla_sim *sim, u32 bits);
u32 sim_glb_read(struct nvdla_sim *sim, u32 reg);
void sim_glb_write(struct nvdla_sim *sim, u32 reg, u32 val);

u32 sim_bdma_read(struct nvdla_sim *sim, u32 reg);
void sim_bdma_write(struct nvdla_sim *sim, u32 reg, u32 val);
bool sim_bdma_run(struct nvdla_sim *sim);

/*
 * Copy @len bytes between device addresses on the memory interfaces
 * @dst_ram and @src_ram (RAM_TYPE values).
 */
int sim_dma_copy(struct nvdla_sim *sim, u32 dst_ram, u64 dst, u32 src_ram,
		 u64 src, u64 len);

#endif /* __NVDLA_SIM_INTERNAL_H__ */
