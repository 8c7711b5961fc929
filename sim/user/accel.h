/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The user-space build's acceleration of the hardware model: layer caches
 * filled by vector kernels on a pool of threads. The kernel module never
 * builds this directory (Kbuild takes only the files of sim itself).
 */
#ifndef __NVDLA_SIM_ACCEL_H__
#define __NVDLA_SIM_ACCEL_H__

#include "../cdp.h"
#include "../conv_fp16.h"
#include "../pdp.h"
#include "../sdp.h"
#include "../sim_internal.h"

/*
 * Vector path for the next layer: NVDLA_SIM_SIMD=off forces plain C,
 * anything else the best the CPU has among those built for the target
 * (SIM_AVX2: the Makefile builds the *_avx2.c files, x86-64 only;
 * SIM_NEON: the *_neon.c files, AArch64 only).
 */
enum sim_simd {
	SIM_SIMD_OFF,
#ifdef SIM_AVX2
	SIM_SIMD_AVX2,
#endif
#ifdef SIM_NEON
	SIM_SIMD_NEON,
#endif
};

enum sim_simd sim_simd(void);

/*
 * Threads a layer is split over: NVDLA_SIM_THREADS (default the online
 * CPUs), read as each job starts; 1 in a forked child.
 */
u32 sim_threads(void);

/*
 * Run @fn(@ctx, i, n) for every i < n, each part on one of sim_threads()
 * threads (the caller's among them; n a few times their number), and
 * return when all have; on the caller's thread alone (n = 1) while
 * another caller has the pool.
 */
void sim_threads_run(void (*fn)(void *ctx, u32 i, u32 n), void *ctx);

#define SIM_DENSE_MAX_ELEMS (1ull << 26)	/* 128 MB an array */

/*
 * A direct or image integer layer decoded into dense int16 arrays: output
 * (k, x, y) is the sum over taps t of the @cp-element dot product of
 * in + y * ystep + x * xstep + toff[t] with wt + (k * taps + t) * cp.
 * Channels past the layer's are 0 in the weights. A Winograd layer's
 * arrays are of tiles (sim_dense_wino_tiles).
 */
struct sim_dense {
	s16 *in, *wt;
	u64 *toff;
	u64 in_len, line, xstep, ystep;	/* in elements */
	u32 c, cp, taps;	/* channels, and rounded up to the vectors */
	u32 rows;		/* of the padded input, each @line long */
	bool narrow;		/* int8: an int32 sum is exact */
	/* fp16: CMAC blocks of @block channels; each block's first NaN */
	u32 block, blocks;
	u32 ext;		/* kernel rows per CMAC pass (post-extension) */
	u32 *wnan, *dnan;	/* [k][taps][blocks], [position][blocks] */
#ifdef SIM_AVX2
	/*
	 * AVX2 groups: each block's non-zero weights, decoded, and their
	 * count, [blocks][taps][k] (post-extension: [passes][k]): the order
	 * in which the groups read them
	 */
	struct sim_fp16_wdec *wdec;
	u8 *wcount;
	u32 wkernels;
#endif
	bool decoded;		/* @in holds the input of batch @batch_in */
	const u8 *batch_in;
};

/*
 * A tile of up to SIM_DENSE_KT kernels by SIM_DENSE_XT outputs: @w[i] the
 * kernels' weights, @d[j] the outputs' first data element; @out[i][j].
 */
#define SIM_DENSE_KT 4
#define SIM_DENSE_XT 3
typedef void sim_dense_tile_fn(const s16 *const *w, const s16 *const *d,
			       const struct sim_dense *dl,
			       s64 out[SIM_DENSE_KT][SIM_DENSE_XT]);

/* Room for @cv as a dense layer; false if it is not one or too large. */
bool sim_dense_open(struct sim_dense *dl, const struct sim_conv *cv, u32 w,
		    u32 h);
/* Decode the weights of kernels [@k0, @k1). */
void sim_dense_weights(struct sim_dense *dl, const struct sim_conv *cv,
		       u32 k0, u32 k1);
void sim_dense_close(struct sim_dense *dl);
/*
 * Winograd (integer): the transformed weights of kernels [@k0, @k1), a
 * tap per tile position; row @row of transformed input tiles, each tile's
 * positions one after another (@xstep a tile).
 */
void sim_dense_wino_weights(struct sim_dense *dl, const struct sim_conv *cv,
			    u32 k0, u32 k1);
void sim_dense_wino_row(struct sim_dense *dl, const struct sim_conv *cv,
			u32 row);
/*
 * The 2x2 outputs @out[i][j] of kernels @w[i] at input tiles @d[j]
 * (their CACC sums) through @tile, position by position.
 */
void sim_dense_wino_tiles(const struct sim_dense *dl, sim_dense_tile_fn *tile,
			  const s16 *const *w, const s16 *const *d,
			  s64 out[SIM_DENSE_KT][SIM_DENSE_XT][SIM_WINO_OUT][SIM_WINO_OUT]);
/*
 * Winograd, fp16: room for @cv's arrays (false if it is not such a layer
 * or too large), the weights of kernels [@k0, @k1) and row @row of
 * transformed input tiles, both in blocks of the CMAC's lanes (position
 * major, 4 channels minor), @xstep a tile or a kernel; the fp32 CACC
 * outputs @out[i][j] of kernel @k at tile (@tx, @ty).
 */
bool sim_dense_wino_fp16_open(struct sim_dense *dl, const struct sim_conv *cv,
			      u32 w, u32 h);
void sim_dense_wino_fp16_weights(struct sim_dense *dl,
				 const struct sim_conv *cv, u32 k0, u32 k1);
void sim_dense_wino_fp16_row(struct sim_dense *dl, const struct sim_conv *cv,
			     u32 row);
typedef void sim_wino_fp16_block_fn(const u16 *d, const u16 *w,
				    struct sim_fp_psum p[SIM_WINO_OUT][SIM_WINO_OUT]);
void sim_dense_wino_fp16_outputs(const struct sim_dense *dl,
				 sim_wino_fp16_block_fn *block, u32 k, u32 tx,
				 u32 ty, u32 out[SIM_WINO_OUT][SIM_WINO_OUT]);
/* Decode rows [@row0, @row1) of @cv's current input (batch), padded. */
void sim_dense_input(struct sim_dense *dl, const struct sim_conv *cv,
		     u32 row0, u32 row1);
/* The tile function of the vector path @simd for @dl. */
sim_dense_tile_fn *sim_dense_tile(const struct sim_dense *dl,
				  enum sim_simd simd);

/* The CMAC partial sum of @n channels of data @d and weights @w, no NaN. */
typedef void sim_fp16_block_fn(const u16 *d, const u16 *w, u32 n,
			       struct sim_fp_psum *p);
/* Room for @cv as a dense fp16 direct layer; false if it is not one. */
bool sim_dense_fp16_open(struct sim_dense *dl, const struct sim_conv *cv,
			 u32 w, u32 h);
/* The first NaN of every weight block of kernels [@k0, @k1). */
void sim_dense_fp16_weights(struct sim_dense *dl, const struct sim_conv *cv,
			    u32 k0, u32 k1);
/* The first NaN of every data block of input rows [@row0, @row1). */
void sim_dense_fp16_input(struct sim_dense *dl, u32 row0, u32 row1);
/*
 * The fp32 CACC outputs of kernel @k at outputs (x, @y), x < @w, through
 * @block, into out[x * stride]: every block and tap in the CSC's order.
 */
void sim_dense_fp16_row(const struct sim_dense *dl, sim_fp16_block_fn *block,
			u32 k, u32 y, u32 w, u32 *out, u32 stride);
sim_fp16_block_fn sim_fp16_block_c;
/* Whether @n fp16 values hold a NaN. */
bool sim_dense_fp16_nan(const u16 *p, u32 n);

#ifdef SIM_NEON
/* The integer dense tiles on Advanced SIMD. */
sim_dense_tile_fn sim_dense_tile_neon, sim_dense_tile16_neon;
#endif

#ifdef SIM_AVX2
/* sim_wino_fp16_block on AVX2, for blocks without a NaN. */
sim_wino_fp16_block_fn sim_wino_fp16_block_avx2;
sim_dense_tile_fn sim_dense_tile_avx2, sim_dense_tile16_avx2;
sim_fp16_block_fn sim_fp16_block_avx2;
/* The AVX2 path's table of Booth digits; false if it could not be built. */
bool sim_dense_fp16_group_ready(void);
/* A non-zero weight of a block as the AVX2 groups take it: 8 bytes. */
struct sim_fp16_wdec {
	s16 smant;	/* CMAC mantissa with the weight's sign */
	u16 group;	/* group exponent */
	u16 key;	/* its Booth digits' entry */
	u8 ch;		/* channel in the block */
	u8 negative;
};
/* Room for the decoded weights of @k kernels of @dl; false if none. */
bool sim_dense_fp16_wdec_open(struct sim_dense *dl, u32 k);
/* Decode the weights of kernels [@k0, @k1) (after sim_dense_fp16_weights). */
void sim_dense_fp16_wdec(struct sim_dense *dl, u32 k0, u32 k1);
/*
 * The partial sums @p[x] of one block of @n channels (no NaN) at
 * SIM_FP16_GROUP_X outputs of data @d[x] and weights @w, as the AVX2
 * groups compute them (for tests); false if out of memory.
 */
bool sim_fp16_group_block_avx2(const u16 *const *d, const u16 *w, u32 n,
			       struct sim_fp_psum *p);
/*
 * Accumulate the CMAC's partial sums of kernels [@k0, @k1) at outputs
 * [@o0, @o0 + @no) (@no <= SIM_FP16_GROUP_X; output o at (o % @w, o / @w))
 * into @acc, kernel by kernel SIM_FP16_GROUP_X accumulators, in the CSC's
 * order, on AVX2.
 */
#define SIM_FP16_GROUP_X 16
void sim_dense_fp16_group_avx2(const struct sim_dense *dl, u32 w, u64 o0,
			       u32 no, u32 k0, u32 k1, struct sim_fp_acc *acc);

/* The SDP's, PDP's and CDP's integer paths on AVX2. */
sdp_run_fn sim_sdp_run_avx2, sim_sdp_fp16_run_avx2;
/* Whether sim_sdp_fp16_run_avx2 runs the layer @p's stages. */
bool sim_sdp_fp16_avx2_fits(const struct sdp_params *p);
pdp_lanes_fn sim_pdp_lanes_avx2;
cdp_atom_fn sim_cdp_atom_avx2;
#endif /* SIM_AVX2 */

#endif /* __NVDLA_SIM_ACCEL_H__ */
