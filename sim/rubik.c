// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * RUBIK moves data without arithmetic, in 32-byte atoms:
 * contract (the reshaping half of a deconvolution: sx*sy groups of input
 * surfaces become an sx-by-sy interleave of output pixels), split (feature
 * cube to one plane per channel) and merge (planes to a feature cube).
 */
#include "perf.h"

enum { RUBIK_CONTRACT, RUBIK_SPLIT, RUBIK_MERGE, RUBIK_MODE_COUNT };

struct rubik_params {
	u32 mode, bpe, atom, lanes;
	u32 w, h, c, out_c, sx, sy;
	u64 in_addr, out_addr;
	u32 in_ram, out_ram;	/* RAM_TYPE of each side */
	u32 in_line, in_surf, in_planar;
	u32 out_line, out_surf, out_planar, contract_line;
};

#define RBK_STRIDE(sim, reg) SIM_STRIDE(sim, RBK, reg)

static void rubik_read(struct nvdla_sim *sim, struct rubik_params *p)
{
	p->mode = SIM_FIELD(sim, RBK, D_MISC_CFG, RUBIK_MODE);
	p->bpe = SIM_FIELD(sim, RBK, D_MISC_CFG, IN_PRECISION) ? 2 : 1;
	p->atom = sim->config->atom;
	p->lanes = p->atom / p->bpe;
	p->w = SIM_FIELD(sim, RBK, D_DATAIN_SIZE_0, DATAIN_WIDTH) + 1;
	p->h = SIM_FIELD(sim, RBK, D_DATAIN_SIZE_0, DATAIN_HEIGHT) + 1;
	p->c = SIM_FIELD(sim, RBK, D_DATAIN_SIZE_1, DATAIN_CHANNEL) + 1;
	p->out_c = SIM_FIELD(sim, RBK, D_DATAOUT_SIZE_1, DATAOUT_CHANNEL) + 1;
	p->sx = SIM_FIELD(sim, RBK, D_DECONV_STRIDE, DECONV_X_STRIDE) + 1;
	p->sy = SIM_FIELD(sim, RBK, D_DECONV_STRIDE, DECONV_Y_STRIDE) + 1;
	p->in_addr = SIM_ADDR(sim, RBK, D_DAIN_ADDR_LOW, D_DAIN_ADDR_HIGH);
	p->out_addr = SIM_ADDR(sim, RBK, D_DAOUT_ADDR_LOW, D_DAOUT_ADDR_HIGH);
	p->in_ram = SIM_FIELD(sim, RBK, D_DAIN_RAM_TYPE, DATAIN_RAM_TYPE);
	p->out_ram = SIM_FIELD(sim, RBK, D_DAOUT_RAM_TYPE, DATAOUT_RAM_TYPE);
	p->in_line = RBK_STRIDE(sim, D_DAIN_LINE_STRIDE);
	p->in_surf = RBK_STRIDE(sim, D_DAIN_SURF_STRIDE);
	p->in_planar = RBK_STRIDE(sim, D_DAIN_PLANAR_STRIDE);
	p->out_line = RBK_STRIDE(sim, D_DAOUT_LINE_STRIDE);
	p->out_surf = RBK_STRIDE(sim, D_DAOUT_SURF_STRIDE);
	p->out_planar = RBK_STRIDE(sim, D_DAOUT_PLANAR_STRIDE);
	p->contract_line = RBK_STRIDE(sim, D_CONTRACT_STRIDE_1);
}

static u32 div_up(u32 a, u32 b)
{
	return (a + b - 1) / b;
}

/* Extent of a feature cube of @surfaces surfaces, @w x @h. */
static u64 cube_extent(const struct rubik_params *p, u32 surfaces, u32 w,
		       u32 h, u32 line, u32 surf)
{
	return (u64)(surfaces - 1) * surf + (u64)(h - 1) * line + (u64)w * p->atom;
}

/* Extent of @c planes of @h lines of @w elements, written in atoms. */
static u64 plane_extent(const struct rubik_params *p, u32 c, u32 w, u32 h,
			u32 line, u32 planar)
{
	return (u64)(c - 1) * planar + (u64)(h - 1) * line +
	       (u64)div_up(w * p->bpe, p->atom) * p->atom;
}

static bool rubik_contract(struct nvdla_sim *sim, const struct rubik_params *p)
{
	u32 n_so = div_up(p->out_c, p->lanes), w, h, i, j, so;
	u8 *in, *out;

	in = sim_map_ram(sim, p->in_ram, p->in_addr,
			 cube_extent(p, p->sx * p->sy * n_so, p->w, p->h,
				     p->in_line, p->in_surf));
	out = sim_map_ram_out(sim, p->out_ram, p->out_addr,
			      (u64)(p->h - 1) * p->contract_line +
			      (u64)(p->sy - 1) * p->out_line +
			      (u64)(n_so - 1) * p->out_surf +
			      (u64)p->w * p->sx * p->atom);
	if (!in || !out)
		return false;
	for (h = 0; h < p->h; h++) {
		if (sim_slice(sim, (u64)p->sy * p->w * p->sx * n_so))
			return true;
		for (j = 0; j < p->sy; j++)
			for (w = 0; w < p->w; w++)
				for (i = 0; i < p->sx; i++)
					for (so = 0; so < n_so; so++)
						memcpy(out + (u64)h * p->contract_line +
						       j * p->out_line +
						       (u64)so * p->out_surf +
						       (u64)(w * p->sx + i) * p->atom,
						       in + ((u64)(j * p->sx + i) * n_so + so) *
						       p->in_surf + (u64)h * p->in_line +
						       (u64)w * p->atom, p->atom);
	}
	return true;
}

static bool rubik_split(struct nvdla_sim *sim, const struct rubik_params *p)
{
	u32 surfaces = div_up(p->c, p->lanes), line = div_up(p->w * p->bpe,
							     p->atom) * p->atom;
	u32 c, x, y;
	u8 *in, *out;

	in = sim_map_ram(sim, p->in_ram, p->in_addr,
			 cube_extent(p, surfaces, p->w, p->h, p->in_line,
				     p->in_surf));
	out = sim_map_ram_out(sim, p->out_ram, p->out_addr,
			      plane_extent(p, p->c, p->w, p->h, p->out_line,
					   p->out_planar));
	if (!in || !out)
		return false;
	for (c = 0; c < p->c; c++) {
		if (sim_slice(sim, (u64)p->h * p->w))
			return true;
		for (y = 0; y < p->h; y++) {
			u8 *row = out + (u64)c * p->out_planar + (u64)y * p->out_line;

			memset(row, 0, line);	/* the tail atom is zero-filled */
			for (x = 0; x < p->w; x++)
				memcpy(row + x * p->bpe,
				       in + (u64)(c / p->lanes) * p->in_surf +
				       (u64)y * p->in_line + (u64)x * p->atom +
				       (c % p->lanes) * p->bpe, p->bpe);
		}
	}
	return true;
}

static bool rubik_merge(struct nvdla_sim *sim, const struct rubik_params *p)
{
	u32 surfaces = div_up(p->c, p->lanes), s, x, y, lane;
	u8 *in, *out;

	in = sim_map_ram(sim, p->in_ram, p->in_addr,
			 plane_extent(p, p->c, p->w, p->h, p->in_line,
				      p->in_planar));
	out = sim_map_ram_out(sim, p->out_ram, p->out_addr,
			      cube_extent(p, surfaces, p->w, p->h, p->out_line,
					  p->out_surf));
	if (!in || !out)
		return false;
	for (s = 0; s < surfaces; s++) {
		for (y = 0; y < p->h; y++) {
			if (sim_slice(sim, (u64)p->w * p->lanes))
				return true;
			for (x = 0; x < p->w; x++) {
				u8 *atom = out + (u64)s * p->out_surf +
					   (u64)y * p->out_line + (u64)x * p->atom;

				for (lane = 0; lane < p->lanes; lane++) {
					u32 c = s * p->lanes + lane;
					u8 *dst = atom + lane * p->bpe;

					if (c < p->c)
						memcpy(dst, in + (u64)c * p->in_planar +
						       (u64)y * p->in_line +
						       (u64)x * p->bpe, p->bpe);
					else
						memset(dst, 0, p->bpe);
				}
			}
		}
	}
	return true;
}

bool sim_rubik_run(struct nvdla_sim *sim)
{
	struct rubik_params p;
	bool ok;
	u8 group;

	if (!sim_unit_ready(sim, NVDLA_UNIT_RBK))
		return false;
	group = sim->units[NVDLA_UNIT_RBK].consumer;
	rubik_read(sim, &p);
	ok = sim_work_ok(sim, (u64)p.w * p.h * p.c * p.sx * p.sy);
	switch (ok ? p.mode : RUBIK_MODE_COUNT) {
	case RUBIK_CONTRACT:
		ok = rubik_contract(sim, &p);
		break;
	case RUBIK_SPLIT:
		ok = rubik_split(sim, &p);
		break;
	case RUBIK_MERGE:
		ok = rubik_merge(sim, &p);
		break;
	default:
		ok = false;
		break;
	}
	if (ok)
		sim_perf_rubik(sim, (u64)p.w * p.h * p.atom *
				    div_up(p.c * p.bpe, p.atom));
	else
		sim->faults++;
	sim_perf_end(sim);
	sim_unit_finish(sim, NVDLA_UNIT_RBK);
	sim_glb_done(sim, group ? NVDLA_GLB_S_INTR_STATUS_RUBIK_DONE_STATUS1_MASK :
			   NVDLA_GLB_S_INTR_STATUS_RUBIK_DONE_STATUS0_MASK);
	return true;
}
