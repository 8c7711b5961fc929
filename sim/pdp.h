/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A PDP layer's configuration, and its integer pooling of a whole output
 * atom from memory: pdp.c compiles it for every host, sim/user/ once more
 * for a vector unit. The window's rows and columns inside the cube are
 * found once per output, so that the loops over the lanes carry no
 * branches; the sums are exact in 32 bits (at most 16 x 16 elements of
 * 16 bits and 19-bit padding values times 16).
 */
#ifndef __NVDLA_SIM_PDP_H__
#define __NVDLA_SIM_PDP_H__

#include "sim_internal.h"
#include "sim_math.h"

enum pdp_method { PDP_AVERAGE, PDP_MAX, PDP_MIN };

#define PDP_PAD_VALUES 7
#define PDP_PAD_VALUE_BITS 19
#define PDP_FP17_BITS 17
#define PDP_RECIP_SHIFT 16
#define PDP_FP16 2

struct pdp_params;
/* The outputs of every lane of surface @s at (@ox, @oy), into @out. */
typedef void pdp_lanes_fn(const struct pdp_params *p, u32 s, u32 ox, u32 oy,
			  s32 *out);

#if defined(__KERNEL__) || !defined(SIM_AVX2)
/*
 * The kernel runs the plain C pooling (no vector registers), and so do
 * user-space builds for targets without a vector path.
 */
static inline pdp_lanes_fn *sim_pdp_vector(void)
{
	return NULL;
}
#else
/* The user-space build's vector pooling for the next layer, or NULL. */
pdp_lanes_fn *sim_pdp_vector(void);
#endif

struct pdp_params {
	u32 method, bpe, lanes, atom;
	bool fp16, nan_to_zero;
	u32 w, h, ow, oh, surfaces;
	u32 kw, kh, sw, sh, pl, pt;
	s32 pad[PDP_PAD_VALUES + 1];	/* pad value times n, n = 1..7 */
	u32 recip_w, recip_h;
	const u8 *in;
	const struct sim_stream *stream;	/* flying input, or NULL */
	u32 in_line, in_surf;
	u8 *out;
	u32 out_line, out_surf;
	pdp_lanes_fn *lanes_fn;	/* integer pooling from memory: plain or vector */
};

static inline s32 pdp_pad(const struct pdp_params *p, u32 n)
{
	return n <= PDP_PAD_VALUES ? p->pad[n] : 0;
}

/* Atom (@x, @y) of surface @s, its lanes widened into @v. */
static inline void pdp_load_atom(const struct pdp_params *p, u32 s, u32 x,
				 u32 y, s32 *v)
{
	const u8 *at = p->in + s * p->in_surf + y * p->in_line + x * p->atom;
	const u32 n = p->lanes;
	u32 i;

	if (p->bpe == 1)
		for (i = 0; i < n; i++)
			v[i] = (s8)at[i];
	else
		for (i = 0; i < n; i++)
			v[i] = (s16)(at[2 * i] | at[2 * i + 1] << 8);
}

/* [@lo, @hi): the window's places @k0 + i, i < @k, inside [0, @n). */
static inline void pdp_inside(s32 k0, u32 k, u32 n, u32 *lo, u32 *hi)
{
	s32 first = k0 < 0 ? -k0 : 0;
	s32 end = k0 + (s32)k > (s32)n ? (s32)n - k0 : (s32)k;

	*lo = first;
	*hi = end > first ? end : first;
}

/*
 * Every lane's pooling of one output element: max and min over the real
 * elements (0 if the window holds none); the average adds each real row's
 * padding value for its padded columns and, times the kernel width, the
 * one for the padded rows, then scales by the reciprocals.
 */
static inline void pdp_lanes(const struct pdp_params *p, u32 s, u32 ox,
			     u32 oy, s32 *out)
{
	const s32 x0 = (s32)(ox * p->sw) - (s32)p->pl;
	const s32 y0 = (s32)(oy * p->sh) - (s32)p->pt;
	const u32 n = p->lanes, method = p->method;
	u32 kx0, kx1, ky0, ky1, kx, ky, i;
	s32 v[SIM_ATOM_MAX];
	bool first = true;
	s64 sum;

	pdp_inside(x0, p->kw, p->w, &kx0, &kx1);
	pdp_inside(y0, p->kh, p->h, &ky0, &ky1);
	for (i = 0; i < n; i++)
		out[i] = 0;
	for (ky = ky0; ky < ky1; ky++) {
		for (kx = kx0; kx < kx1; kx++) {
			pdp_load_atom(p, s, x0 + kx, y0 + ky, v);
			if (method == PDP_AVERAGE || first)
				for (i = 0; i < n; i++)
					out[i] += v[i];
			else if (method == PDP_MAX)
				for (i = 0; i < n; i++)
					out[i] = v[i] > out[i] ? v[i] : out[i];
			else
				for (i = 0; i < n; i++)
					out[i] = v[i] < out[i] ? v[i] : out[i];
			first = false;
		}
	}
	if (method != PDP_AVERAGE)
		return;
	for (i = 0; i < n; i++) {
		sum = out[i] + (s64)(ky1 - ky0) * pdp_pad(p, p->kw - (kx1 - kx0)) +
		      (s64)pdp_pad(p, p->kh - (ky1 - ky0)) * p->kw;
		sum = sim_rha_shift(sum * p->recip_w, PDP_RECIP_SHIFT);
		out[i] = sim_rha_shift(sum * p->recip_h, PDP_RECIP_SHIFT);
	}
}

#endif /* __NVDLA_SIM_PDP_H__ */
