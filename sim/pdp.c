// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * PDP, planar pooling: max, min or average over a KW x KH window moving
 * with stride SW x SH over a data cube read by PDP_RDMA. Max and min look
 * at real elements only; the average adds the programmed padding values
 * and scales by the reciprocal kernel width and height registers (0.16
 * fixed point, rounded half away from zero, kept to the output's width
 * without saturation). fp16 compares with NVDLA's float rules and averages
 * in fp17 (fp.h), the padding values fp17 too. Whole atoms are computed,
 * padding lanes included.
 */
#include "fp.h"
#include "pdp.h"
#include "perf.h"

static s32 pdp_load(const struct pdp_params *p, const u8 *at)
{
	u16 h;

	/* One byte per int8 element: at[1] may be past the surface's end. */
	if (p->bpe == 1)
		return (s8)at[0];
	h = at[0] | at[1] << 8;
	if (p->fp16)	/* bit patterns; NaN_TO_ZERO applies to memory input */
		return p->nan_to_zero && sim_fp_is_nan(h, &sim_fp16) ? 0 : h;
	return (s16)h;
}

/* Whether @v replaces @best as the maximum (or minimum) so far. */
static bool pdp_better(const struct pdp_params *p, s32 v, s32 best)
{
	bool max = p->method == PDP_MAX;

	if (p->fp16)
		return sim_fp_cmp(best, v, max, &sim_fp16) != (u32)best;
	return max ? v > best : v < best;
}

static void pdp_store(const struct pdp_params *p, u8 *at, s64 v)
{
	at[0] = v;
	if (p->bpe == 2)
		at[1] = v >> 8;
}

static s32 pdp_element(const struct pdp_params *p, u32 s, u32 lane, u32 x,
		       u32 y)
{
	return p->stream ?
	       p->stream->value(p->stream->ctx, s * p->lanes + lane, x, y) :
	       pdp_load(p, p->in + s * p->in_surf + y * p->in_line +
			x * p->atom + lane * p->bpe);
}

/*
 * Padding elements the fp16 average adds after real element @i of a line
 * of @n (rows or columns), @j the element's place in a window of @k: at
 * the window's last element when it began before the line, all of its
 * padding then if it also runs past the end (the line's last element);
 * at the line's last element when only the end is padded; else none.
 */
static u32 pdp_fp16_pad_count(u32 i, u32 j, u32 k, u32 n)
{
	if (i + 1 < k && (j + 1 == k || (i + 1 == n && i < j)))
		return k - (i + 1);
	if (i + k - j > n && i + 1 == n)
		return k - (j + 1);
	return 0;
}

/* The line so far plus the fp17 padding value for @count elements. */
static u32 pdp_fp16_add_pad(const struct pdp_params *p, u32 line, u32 count,
			    u32 scale)
{
	if (!count)
		return line;
	return sim_fp_add(line, scale ? sim_fp_mul((u32)pdp_pad(p, count),
						   scale, &sim_fp17) :
			  (u32)pdp_pad(p, count), &sim_fp17);
}

/* One row of the window: its real elements left to right, in fp17. */
static u32 pdp_fp16_row(const struct pdp_params *p, u32 s, u32 lane, s32 x0,
			u32 y)
{
	u32 x = x0 < 0 ? 0 : (u32)x0, first = x, line = 0, v;

	for (; x < p->w && (s32)x < x0 + (s32)p->kw; x++) {
		v = sim_fp16_to_fp17(pdp_element(p, s, lane, x, y));
		line = x == first ? v : sim_fp_add(line, v, &sim_fp17);
		line = pdp_fp16_add_pad(p, line,
					pdp_fp16_pad_count(x, (u32)((s32)x - x0),
							   p->kw, p->w), 0);
	}
	return line;
}

/*
 * fp16 average, in fp17 as NVIDIA's C model does it: each row's real
 * elements left to right, after the element pdp_fp16_pad_count() names
 * the padding value for its padded columns (the register read as fp17);
 * the row sums top to bottom (the new row first), after the row it names
 * the padding value for its padded rows times the kernel width (8.0 for
 * a kernel 8 wide as in the RTL, where the C model's table ends at 7.0);
 * then the reciprocals of the kernel width and height.
 */
static u16 pdp_fp16_average(const struct pdp_params *p, u32 s, u32 lane,
			    s32 x0, s32 y0)
{
	u32 y = y0 < 0 ? 0 : (u32)y0, first = y, total = 0, line;
	u32 kw = sim_fp16_to_fp17(sim_int_to_fp16((s32)p->kw));

	for (; y < p->h && (s32)y < y0 + (s32)p->kh; y++) {
		line = pdp_fp16_row(p, s, lane, x0, y);
		total = y == first ? line : sim_fp_add(line, total, &sim_fp17);
		total = pdp_fp16_add_pad(p, total,
					 pdp_fp16_pad_count(y, (u32)((s32)y - y0),
							    p->kh, p->h), kw);
	}
	total = sim_fp_mul(total, p->recip_w, &sim_fp17);
	return sim_fp17_to_fp16(sim_fp_mul(total, p->recip_h, &sim_fp17));
}

/* Pooling of one lane of one output element. */
static s64 pdp_window(const struct pdp_params *p, u32 s, u32 lane, u32 ox,
		      u32 oy)
{
	s32 x0 = (s32)(ox * p->sw) - (s32)p->pl;
	s32 y0 = (s32)(oy * p->sh) - (s32)p->pt;
	u32 kx, ky, pad_rows = 0;
	s64 sum = 0, best = 0;
	bool seen = false;

	if (p->fp16 && p->method == PDP_AVERAGE)
		return pdp_fp16_average(p, s, lane, x0, y0);

	for (ky = 0; ky < p->kh; ky++) {
		s32 y = y0 + (s32)ky;
		u32 pad_cols = 0;

		if (y < 0 || y >= (s32)p->h) {
			pad_rows++;
			continue;
		}
		for (kx = 0; kx < p->kw; kx++) {
			s32 x = x0 + (s32)kx;
			s32 v;

			if (x < 0 || x >= (s32)p->w) {
				pad_cols++;
				continue;
			}
			v = pdp_element(p, s, lane, x, y);
			sum += v;
			if (!seen || pdp_better(p, v, best))
				best = v;
			seen = true;
		}
		sum += pdp_pad(p, pad_cols);
	}
	if (p->method != PDP_AVERAGE)
		return best;
	sum += (s64)pdp_pad(p, pad_rows) * p->kw;
	sum = sim_rha_shift(sum * p->recip_w, PDP_RECIP_SHIFT);
	return sim_rha_shift(sum * p->recip_h, PDP_RECIP_SHIFT);
}

static void pdp_lanes_plain(const struct pdp_params *p, u32 s, u32 ox,
			    u32 oy, s32 *out)
{
	pdp_lanes(p, s, ox, oy, out);
}

/* An output element's lanes: integers from memory a whole atom at once. */
static void pdp_atom(const struct pdp_params *p, u32 s, u32 ox, u32 oy,
		     s32 *v)
{
	u32 lane;

	if (!p->fp16 && !p->stream) {
		p->lanes_fn(p, s, ox, oy, v);
		return;
	}
	for (lane = 0; lane < p->lanes; lane++)
		v[lane] = pdp_window(p, s, lane, ox, oy);
}

static void pdp_compute(struct nvdla_sim *sim, const struct pdp_params *p)
{
	s32 v[SIM_ATOM_MAX];
	u32 s, ox, oy, lane;
	u8 *o;

	for (s = 0; s < p->surfaces; s++)
		for (oy = 0; oy < p->oh; oy++)
			for (ox = 0; ox < p->ow; ox++) {
				if (sim_slice(sim, (u64)p->lanes * p->kw * p->kh))
					return;
				pdp_atom(p, s, ox, oy, v);
				o = p->out + s * p->out_surf + oy * p->out_line +
				    ox * p->atom;
				if (p->bpe == 1)
					for (lane = 0; lane < p->lanes; lane++)
						o[lane] = v[lane];
				else
					for (lane = 0; lane < p->lanes; lane++)
						pdp_store(p, o + 2 * lane, v[lane]);
			}
}

static u64 pdp_extent(const struct pdp_params *p, u32 w, u32 h, u32 line,
		      u32 surf)
{
	return (u64)(p->surfaces - 1) * surf + (u64)(h - 1) * line +
	       (u64)w * p->atom;
}

/* A padding value register: a signed integer, or in fp16 an fp17 value. */
static s32 pdp_pad_value(const struct pdp_params *p, u32 reg)
{
	if (p->fp16)
		return reg & (BIT(PDP_FP17_BITS) - 1);
	return sim_sext(reg, PDP_PAD_VALUE_BITS);
}

/*
 * Read the registers and map the cubes; false for a combination the model
 * cannot run or memory the host does not map (both faults).
 */
static bool pdp_params(struct nvdla_sim *sim, struct pdp_params *p,
		       const struct sim_stream *stream)
{
	u32 precision = SIM_FIELD(sim, PDP, D_DATA_FORMAT, INPUT_DATA);
	u32 c = SIM_FIELD(sim, PDP, D_DATA_CUBE_IN_CHANNEL, CUBE_IN_CHANNEL) + 1;
	u32 reg;
	int n;

	p->method = SIM_FIELD(sim, PDP, D_OPERATION_MODE_CFG, POOLING_METHOD);
	p->fp16 = precision == PDP_FP16;
	if (precision > PDP_FP16)
		return false;
	p->nan_to_zero = !stream &&
			 SIM_FIELD(sim, PDP, D_NAN_FLUSH_TO_ZERO, NAN_TO_ZERO);
	p->bpe = p->fp16 ? 2 : precision + 1;
	p->atom = sim->config->atom;
	p->lanes = p->atom / p->bpe;
	p->surfaces = (c + p->lanes - 1) / p->lanes;
	p->w = SIM_FIELD(sim, PDP, D_DATA_CUBE_IN_WIDTH, CUBE_IN_WIDTH) + 1;
	p->h = SIM_FIELD(sim, PDP, D_DATA_CUBE_IN_HEIGHT, CUBE_IN_HEIGHT) + 1;
	p->ow = SIM_FIELD(sim, PDP, D_DATA_CUBE_OUT_WIDTH, CUBE_OUT_WIDTH) + 1;
	p->oh = SIM_FIELD(sim, PDP, D_DATA_CUBE_OUT_HEIGHT, CUBE_OUT_HEIGHT) + 1;
	p->kw = SIM_FIELD(sim, PDP, D_POOLING_KERNEL_CFG, KERNEL_WIDTH) + 1;
	p->kh = SIM_FIELD(sim, PDP, D_POOLING_KERNEL_CFG, KERNEL_HEIGHT) + 1;
	p->sw = SIM_FIELD(sim, PDP, D_POOLING_KERNEL_CFG, KERNEL_STRIDE_WIDTH) + 1;
	p->sh = SIM_FIELD(sim, PDP, D_POOLING_KERNEL_CFG, KERNEL_STRIDE_HEIGHT) + 1;
	p->pl = SIM_FIELD(sim, PDP, D_POOLING_PADDING_CFG, PAD_LEFT);
	p->pt = SIM_FIELD(sim, PDP, D_POOLING_PADDING_CFG, PAD_TOP);
	p->recip_w = SIM_FIELD(sim, PDP, D_RECIP_KERNEL_WIDTH, RECIP_KERNEL_WIDTH);
	p->recip_h = SIM_FIELD(sim, PDP, D_RECIP_KERNEL_HEIGHT,
			       RECIP_KERNEL_HEIGHT);
	p->pad[0] = 0;
	for (n = 1; n <= PDP_PAD_VALUES; n++) {
		reg = NVDLA_PDP_D_POOLING_PADDING_VALUE_1_CFG + 4 * (n - 1);
		p->pad[n] = pdp_pad_value(p, sim_reg(sim, NVDLA_UNIT_PDP, reg));
	}
	if (p->method > PDP_MIN ||
	    !sim_work_ok(sim, (u64)p->surfaces * p->lanes * p->ow * p->oh *
			 p->kw * p->kh))
		return false;

	p->in_line = SIM_STRIDE(sim, PDP_RDMA, D_SRC_LINE_STRIDE);
	p->in_surf = SIM_STRIDE(sim, PDP_RDMA, D_SRC_SURFACE_STRIDE);
	p->out_line = SIM_STRIDE(sim, PDP, D_DST_LINE_STRIDE);
	p->out_surf = SIM_STRIDE(sim, PDP, D_DST_SURFACE_STRIDE);
	p->stream = stream;
	p->lanes_fn = sim_pdp_vector();
	if (!p->lanes_fn)
		p->lanes_fn = pdp_lanes_plain;
	p->in = stream ? NULL :
		SIM_MAP(sim, PDP_RDMA, D_SRC_RAM_CFG, SRC_RAM_TYPE,
			SIM_ADDR(sim, PDP_RDMA, D_SRC_BASE_ADDR_LOW,
				 D_SRC_BASE_ADDR_HIGH),
			pdp_extent(p, p->w, p->h, p->in_line, p->in_surf));
	p->out = SIM_MAP_OUT(sim, PDP, D_DST_RAM_CFG, DST_RAM_TYPE,
			     SIM_ADDR(sim, PDP, D_DST_BASE_ADDR_LOW,
				      D_DST_BASE_ADDR_HIGH),
			     pdp_extent(p, p->ow, p->oh, p->out_line, p->out_surf));
	return (stream || p->in) && p->out;
}

/* fp16: NaN and infinite inputs read from memory, NaN outputs. */
static void pdp_fp16_status(struct nvdla_sim *sim, const struct pdp_params *p)
{
	struct sim_fp16_count n = { 0, 0 };

	if (p->in)
		n = sim_fp16_cube_count(p->in, p->surfaces, p->h, p->w,
					p->in_line, p->in_surf, p->atom);
	sim_set_status(sim, NVDLA_UNIT_PDP, NVDLA_PDP_D_NAN_INPUT_NUM, n.nan);
	sim_set_status(sim, NVDLA_UNIT_PDP, NVDLA_PDP_D_INF_INPUT_NUM, n.inf);
	n = sim_fp16_cube_count(p->out, p->surfaces, p->oh, p->ow,
				p->out_line, p->out_surf, p->atom);
	sim_set_status(sim, NVDLA_UNIT_PDP, NVDLA_PDP_D_NAN_OUTPUT_NUM, n.nan);
}

/* Pool and count; false if the program cannot run (a fault). */
static bool pdp_run(struct nvdla_sim *sim, const struct sim_stream *in)
{
	struct pdp_params p;

	if (!pdp_params(sim, &p, in))
		return false;
	sim_perf_pdp(sim, &p);
	if (sim->no_values)
		return true;
	pdp_compute(sim, &p);
	if (p.fp16)
		pdp_fp16_status(sim, &p);
	return true;
}

/* FLYING_MODE is 1 for memory input (OFF_FLYING), 0 for the SDP stream. */
static bool pdp_flying(const struct nvdla_sim *sim)
{
	return !SIM_FIELD(sim, PDP, D_OPERATION_MODE_CFG, FLYING_MODE);
}

/* Finish the PDP's group; its done bit. */
static u32 pdp_finish(struct nvdla_sim *sim, u8 group)
{
	sim_unit_finish(sim, NVDLA_UNIT_PDP);
	return group ? NVDLA_GLB_S_INTR_STATUS_PDP_DONE_STATUS1_MASK :
		       NVDLA_GLB_S_INTR_STATUS_PDP_DONE_STATUS0_MASK;
}

bool sim_pdp_flying_ready(const struct nvdla_sim *sim)
{
	return sim_unit_ready(sim, NVDLA_UNIT_PDP) && pdp_flying(sim);
}

u32 sim_pdp_run_flying(struct nvdla_sim *sim, const struct sim_stream *in)
{
	u8 group = sim->units[NVDLA_UNIT_PDP].consumer;

	if (!in || !pdp_run(sim, in))
		sim->faults++;
	return pdp_finish(sim, group);
}

/* Offline pooling: the flying kind runs as part of an SDP layer. */
bool sim_pdp_run(struct nvdla_sim *sim)
{
	u8 group;

	if (!sim_unit_ready(sim, NVDLA_UNIT_PDP) || pdp_flying(sim) ||
	    !sim_unit_ready(sim, NVDLA_UNIT_PDP_RDMA))
		return false;

	group = sim->units[NVDLA_UNIT_PDP].consumer;
	if (!pdp_run(sim, NULL))
		sim->faults++;
	sim_perf_end(sim);
	sim_unit_finish(sim, NVDLA_UNIT_PDP_RDMA);
	sim_glb_done(sim, pdp_finish(sim, group));
	return true;
}
