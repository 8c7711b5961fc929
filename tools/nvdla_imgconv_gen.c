// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_imgconv_gen: random image-input convolution layers on nv_full as
 * register traces (input.txn, the trace-player format that nvdla_trace and
 * NVIDIA's C model harness both play), to compare the model with the C
 * model byte for byte. Each layer: pixels of a random format (fp16 or
 * integer, converter on or off where the hardware allows it), a kernel
 * pre-extended over its pixels, random padding, strides, pad values,
 * post-extension of 1, 2 or 4 rows where the kernel rows fit, K kernels
 * over one or more kernel groups, streamed into an SDP that only converts
 * (fp16 out, or int8 through its output shifter) and writes to memory.
 * The expected output (output.dat) is written as zeros: the C model's dump
 * replaces it before the model plays the trace (docs/model.md).
 *
 *     nvdla_imgconv_gen [--fp16 | --int8] [--format CODE] SEED COUNT DIR
 *
 * --format keeps the layers to one pixel format (enum nvdla_pixel_format).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <nvdla/pixel_formats.h>
#include <nvdla/regs.h>

#define PIXEL_ADDR 0x80000000u
#define CHROMA_ADDR 0x80800000u
#define WEIGHT_ADDR 0x81000000u
#define OUTPUT_ADDR 0x82000000u
#define ATOM 32u
#define CBUF_ENTRY 128u
#define CBUF_BANKS 16u
#define CBUF_BANK_ENTRIES 256u
#define MAC_LANES 64u		/* nv_full: elements the CMAC takes per pass */
#define GLB_INTR_STATUS 0x00c
#define INTERRUPTS 4		/* CDMA data, CDMA weights, CACC, SDP */

enum { PREC_INT8, PREC_INT16, PREC_FP16 };

static const uint32_t unit_base[NVDLA_UNIT_COUNT] = NVDLA_UNIT_BASES_NV_FULL;

#define FIELD(unit, reg, f, v) \
	(((uint32_t)(v) << NVDLA_##unit##_##reg##_##f##_SHIFT) & \
	 NVDLA_##unit##_##reg##_##f##_MASK)

struct layer {
	const struct nvdla_pixel_layout *fmt;
	uint32_t code;
	uint32_t proc, in;		/* PREC_* */
	bool cvt, sign, mean_on, flush;
	uint32_t w, h, s, r, c, k;	/* c = s * comps, the pre-extended kernel */
	uint32_t sx, sy, pl, pr, pt, pb, ext;
	uint32_t wo, ho, line, line_uv, eps;
	uint32_t pad_value, scale, offset, truncate, mean[4];
	uint32_t clip, sdp_shift;
};

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return n ? (uint32_t)(rng_state >> 33) % n : 0;
}

static uint32_t rnd_range(uint32_t lo, uint32_t hi)
{
	return lo + rnd(hi - lo + 1);
}

/* A finite fp16 of magnitude about 2^-4 .. 2^3, either sign. */
static uint16_t rnd_fp16(void)
{
	return (uint16_t)(rnd(2) << 15 | rnd_range(11, 18) << 10 | rnd(1024));
}

static uint32_t bpe_of(uint32_t prec)
{
	return prec == PREC_INT8 ? 1 : 2;
}

static int only_format = -1;	/* --format */

static void pick_format(struct layer *l)
{
	do {
		l->code = rnd(NVDLA_PIXEL_FORMAT_COUNT);
		l->fmt = nvdla_pixel_layout(l->code);
	} while ((l->fmt->fp16 && l->proc != PREC_FP16) ||
		 (only_format >= 0 && l->code != (uint32_t)only_format));
}

/* Bytes per pixel of the chroma plane; 0 for one plane. */
static uint32_t chroma_bpp(const struct layer *l)
{
	return l->fmt->planes == 2 ? l->fmt->bpp[1] : 0;
}

/*
 * Post-extension the hardware takes for this kernel: rows of at most
 * MAC_LANES / ext elements, the CSC's pixel step (RTL: the pixel stride
 * times ext) within MAC_LANES, and the compiler's rule that ext - 1 further
 * output pixels and the kernel fit one atomic C.
 */
static bool ext_fits(const struct layer *l, uint32_t ext)
{
	uint32_t step = l->fmt->comps * l->sx;

	return l->c <= MAC_LANES / ext && step * ext <= MAC_LANES &&
	       step * (ext - 1) + l->c <= MAC_LANES;
}

static bool layer_geometry(struct layer *l)
{
	uint32_t bpe = bpe_of(l->proc), want, ext_choices[3], n = 0, e;

	l->s = rnd_range(1, l->fmt->comps == 1 ? 11 : 7);
	l->c = l->s * l->fmt->comps;
	if (l->c > MAC_LANES)
		return false;
	l->r = rnd_range(1, 8);
	l->sx = rnd_range(1, 4);
	l->sy = rnd_range(1, 4);
	l->w = rnd_range(1, 40);
	l->h = rnd_range(1, 24);
	l->pl = rnd(l->s);
	l->pr = rnd(l->s);
	l->pt = rnd(l->r);
	l->pb = rnd(l->r);
	if (l->pl + l->w + l->pr < l->s || l->pt + l->h + l->pb < l->r)
		return false;
	l->wo = (l->pl + l->w + l->pr - l->s) / l->sx + 1;
	l->ho = (l->pt + l->h + l->pb - l->r) / l->sy + 1;
	for (e = 1; e <= 4; e *= 2)
		if (e == 1 || ext_fits(l, e))
			ext_choices[n++] = e;
	l->ext = ext_choices[rnd(n)];
	l->k = rnd_range(1, 40);
	l->line = (l->w * l->fmt->bpp[0] + ATOM - 1) / ATOM * ATOM +
		  rnd(3) * ATOM;
	l->line_uv = (l->w * chroma_bpp(l) + ATOM - 1) / ATOM * ATOM +
		     rnd(2) * ATOM;
	want = (l->pl + l->w + l->pr) * l->fmt->comps * bpe;
	l->eps = (want + CBUF_ENTRY - 1) / CBUF_ENTRY;
	return l->eps * l->h <= (CBUF_BANKS - 2) * CBUF_BANK_ENTRIES;
}

/* A random layer the hardware can run; false to draw again. */
static bool layer_draw(struct layer *l, uint32_t proc)
{
	uint32_t i;

	memset(l, 0, sizeof(*l));
	l->proc = proc;
	pick_format(l);
	if (l->fmt->fp16) {
		l->in = PREC_FP16;
		l->cvt = rnd(2);
		l->flush = rnd(2);
	} else {
		l->in = l->fmt->bits == 8 ? PREC_INT8 : PREC_INT16;
		/* Without the converter only pixels of the processing width. */
		l->cvt = bpe_of(l->in) != bpe_of(proc) || l->in != proc ||
			 rnd(4) != 0;
		if (proc == PREC_FP16)
			l->cvt = true;
	}
	l->sign = rnd(4) == 0;
	l->mean_on = rnd(2);
	for (i = 0; i < 4; i++)
		l->mean[i] = l->fmt->bits == 8 ? rnd(256) : rnd(65536);
	l->offset = l->fmt->bits == 8 ? rnd(256) : rnd(65536);
	l->scale = rnd_range(1, l->fmt->bits == 8 ? 8 : 4);
	l->truncate = rnd(l->fmt->bits == 8 ? 3 : 10);
	l->pad_value = proc == PREC_FP16 ? rnd_fp16() : rnd(256);
	l->clip = proc == PREC_FP16 ? 0 : rnd(4);
	l->sdp_shift = rnd_range(6, 14);
	return layer_geometry(l);
}

static FILE *txn;

static void reg(enum nvdla_unit unit, uint32_t off, uint32_t val)
{
	fprintf(txn, "write_reg 0x%08x 0x%x\n",
		0xffff0000u | (unit_base[unit] + off) >> 2, val);
}

#define CDMA(r, v) reg(NVDLA_UNIT_CDMA, NVDLA_CDMA_##r, v)
#define CSC(r, v) reg(NVDLA_UNIT_CSC, NVDLA_CSC_##r, v)
#define CACC(r, v) reg(NVDLA_UNIT_CACC, NVDLA_CACC_##r, v)
#define SDP(r, v) reg(NVDLA_UNIT_SDP, NVDLA_SDP_##r, v)
#define SDPR(r, v) reg(NVDLA_UNIT_SDP_RDMA, NVDLA_SDP_RDMA_##r, v)

static uint32_t weight_bytes(const struct layer *l)
{
	uint32_t n = l->k * l->r * l->c * bpe_of(l->proc);

	return (n + CBUF_ENTRY - 1) / CBUF_ENTRY * CBUF_ENTRY;
}

static uint32_t out_surfaces(const struct layer *l)
{
	return (l->k * bpe_of(l->proc) + ATOM - 1) / ATOM;
}

static void program_cdma(const struct layer *l)
{
	uint32_t wb = weight_bytes(l);
	uint32_t dbanks = (l->eps * l->h + CBUF_BANK_ENTRIES - 1) /
			  CBUF_BANK_ENTRIES;
	uint32_t wbanks = (wb / CBUF_ENTRY + CBUF_BANK_ENTRIES - 1) /
			  CBUF_BANK_ENTRIES;
	uint32_t bank = FIELD(CDMA, D_BANK, DATA_BANK, dbanks - 1) |
			FIELD(CDMA, D_BANK, WEIGHT_BANK, wbanks - 1);

	CDMA(D_MISC_CFG, FIELD(CDMA, D_MISC_CFG, IN_PRECISION, l->in) |
			 FIELD(CDMA, D_MISC_CFG, PROC_PRECISION, l->proc));
	CDMA(D_DATAIN_FORMAT,
	     FIELD(CDMA, D_DATAIN_FORMAT, DATAIN_FORMAT, 1) |
	     FIELD(CDMA, D_DATAIN_FORMAT, PIXEL_FORMAT, l->code) |
	     FIELD(CDMA, D_DATAIN_FORMAT, PIXEL_SIGN_OVERRIDE, l->sign));
	CDMA(D_DATAIN_SIZE_0, (l->h - 1) << 16 | (l->w - 1));
	CDMA(D_DATAIN_SIZE_1, l->fmt->comps - 1);
	CDMA(D_DATAIN_SIZE_EXT_0, (l->h - 1) << 16 | (l->w - 1));
	CDMA(D_PIXEL_OFFSET, 0);
	CDMA(D_DAIN_RAM_TYPE, 1);
	CDMA(D_DAIN_ADDR_HIGH_0, 0);
	CDMA(D_DAIN_ADDR_LOW_0, PIXEL_ADDR);
	CDMA(D_DAIN_ADDR_HIGH_1, 0);
	CDMA(D_DAIN_ADDR_LOW_1, CHROMA_ADDR);
	CDMA(D_LINE_STRIDE, l->line);
	CDMA(D_LINE_UV_STRIDE, l->line_uv);
	CDMA(D_SURF_STRIDE, 0);
	CDMA(D_DAIN_MAP, 0);
	CDMA(D_BATCH_NUMBER, 0);
	CDMA(D_BATCH_STRIDE, 0);
	CDMA(D_ENTRY_PER_SLICE, l->eps - 1);
	CDMA(D_FETCH_GRAIN, 0);
	CDMA(D_WEIGHT_FORMAT, 0);
	CDMA(D_WEIGHT_SIZE_0, l->r * l->c * bpe_of(l->proc) - 1);
	CDMA(D_WEIGHT_SIZE_1, l->k - 1);
	CDMA(D_WEIGHT_RAM_TYPE, 1);
	CDMA(D_WEIGHT_ADDR_HIGH, 0);
	CDMA(D_WEIGHT_ADDR_LOW, WEIGHT_ADDR);
	CDMA(D_WEIGHT_BYTES, wb);
	CDMA(D_MEAN_FORMAT, l->mean_on);
	CDMA(D_MEAN_GLOBAL_0, l->mean[1] << 16 | l->mean[0]);
	CDMA(D_MEAN_GLOBAL_1, l->mean[3] << 16 | l->mean[2]);
	CDMA(D_CVT_CFG, FIELD(CDMA, D_CVT_CFG, CVT_EN, l->cvt) |
			FIELD(CDMA, D_CVT_CFG, CVT_TRUNCATE, l->truncate));
	CDMA(D_CVT_OFFSET, l->offset);
	CDMA(D_CVT_SCALE, l->scale);
	CDMA(D_CONV_STRIDE, (l->sy - 1) << 16 | (l->sx - 1));
	CDMA(D_ZERO_PADDING, l->pb << 24 | l->pt << 16 | l->pr << 8 | l->pl);
	CDMA(D_ZERO_PADDING_VALUE, l->pad_value);
	CDMA(D_BANK, bank);
	CDMA(D_NAN_FLUSH_TO_ZERO, l->flush);
	CSC(D_BANK, bank);
}

static void program_csc(const struct layer *l)
{
	uint32_t misc = FIELD(CDMA, D_MISC_CFG, IN_PRECISION, l->proc) |
			FIELD(CDMA, D_MISC_CFG, PROC_PRECISION, l->proc);

	CSC(D_MISC_CFG, misc);
	CSC(D_DATAIN_FORMAT, 1);
	CSC(D_DATAIN_SIZE_EXT_0, (l->h - 1) << 16 | (l->w - 1));
	CSC(D_DATAIN_SIZE_EXT_1, l->fmt->comps - 1);
	CSC(D_BATCH_NUMBER, 0);
	CSC(D_POST_Y_EXTENSION, l->ext == 4 ? 2 : l->ext == 2 ? 1 : 0);
	CSC(D_ENTRY_PER_SLICE, l->eps - 1);
	CSC(D_WEIGHT_FORMAT, 0);
	CSC(D_WEIGHT_SIZE_EXT_0, (l->r - 1) << 16);
	CSC(D_WEIGHT_SIZE_EXT_1, (l->k - 1) << 16 | (l->c - 1));
	CSC(D_WEIGHT_BYTES, weight_bytes(l));
	CSC(D_WMB_BYTES, 0);
	CSC(D_DATAOUT_SIZE_0, (l->ho - 1) << 16 | (l->wo - 1));
	CSC(D_DATAOUT_SIZE_1, l->k - 1);
	CSC(D_ATOMICS, l->wo * l->ho - 1);
	CSC(D_RELEASE, l->h - 1);
	CSC(D_CONV_STRIDE_EXT, (l->sy - 1) << 16 | (l->sx - 1));
	CSC(D_DILATION_EXT, 0);
	CSC(D_ZERO_PADDING, l->pt << 16 | l->pl);
	CSC(D_ZERO_PADDING_VALUE, l->pad_value);
	CSC(D_PRA_CFG, 0);
}

static void program_cacc_sdp(const struct layer *l)
{
	uint32_t misc = FIELD(CACC, D_MISC_CFG, PROC_PRECISION, l->proc);
	uint32_t line = l->wo * ATOM, surf = line * l->ho;
	uint32_t bypass = FIELD(SDP, D_DP_BS_CFG, BS_BYPASS, 1) |
			  FIELD(SDP, D_DP_BS_CFG, BS_ALU_BYPASS, 1) |
			  FIELD(SDP, D_DP_BS_CFG, BS_MUL_BYPASS, 1) |
			  FIELD(SDP, D_DP_BS_CFG, BS_RELU_BYPASS, 1);

	reg(NVDLA_UNIT_CMAC_A, NVDLA_CMAC_A_D_MISC_CFG, misc);
	reg(NVDLA_UNIT_CMAC_B, NVDLA_CMAC_B_D_MISC_CFG, misc);
	CACC(D_MISC_CFG, misc);
	CACC(D_DATAOUT_SIZE_0, (l->ho - 1) << 16 | (l->wo - 1));
	CACC(D_DATAOUT_SIZE_1, l->k - 1);
	CACC(D_DATAOUT_ADDR, OUTPUT_ADDR);
	CACC(D_BATCH_NUMBER, 0);
	CACC(D_LINE_STRIDE, line);
	CACC(D_SURF_STRIDE, surf);
	CACC(D_DATAOUT_MAP, 0);
	CACC(D_CLIP_CFG, l->clip);
	SDPR(D_FEATURE_MODE_CFG,
	     FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, FLYING_MODE, 1) |
	     FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, IN_PRECISION, l->proc) |
	     FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, PROC_PRECISION, l->proc) |
	     FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, OUT_PRECISION, l->proc));
	SDPR(D_BRDMA_CFG, 1);
	SDPR(D_NRDMA_CFG, 1);
	SDPR(D_ERDMA_CFG, 1);
	SDP(D_DATA_CUBE_WIDTH, l->wo - 1);
	SDP(D_DATA_CUBE_HEIGHT, l->ho - 1);
	SDP(D_DATA_CUBE_CHANNEL, l->k - 1);
	SDP(D_DST_BASE_ADDR_HIGH, 0);
	SDP(D_DST_BASE_ADDR_LOW, OUTPUT_ADDR);
	SDP(D_DST_LINE_STRIDE, line);
	SDP(D_DST_SURFACE_STRIDE, surf);
	SDP(D_DP_BS_CFG, bypass);
	SDP(D_DP_BN_CFG, bypass);
	SDP(D_DP_EW_CFG, bypass);
	SDP(D_FEATURE_MODE_CFG, 1);	/* flying, output to memory */
	SDP(D_DST_DMA_CFG, 1);
	SDP(D_DST_BATCH_STRIDE, 0);
	SDP(D_DATA_FORMAT, l->proc << 2 | l->proc);
	SDP(D_CVT_OFFSET, 0);
	SDP(D_CVT_SCALE, 1);
	SDP(D_CVT_SHIFT, l->proc == PREC_FP16 ? 0 : l->sdp_shift);
}

static void enable_and_wait(void)
{
	int i;

	SDP(D_OP_ENABLE, 1);
	CACC(D_OP_ENABLE, 1);
	reg(NVDLA_UNIT_CMAC_A, NVDLA_CMAC_A_D_OP_ENABLE, 1);
	reg(NVDLA_UNIT_CMAC_B, NVDLA_CMAC_B_D_OP_ENABLE, 1);
	CSC(D_OP_ENABLE, 1);
	CDMA(D_OP_ENABLE, 1);
	for (i = 0; i < INTERRUPTS; i++) {
		fprintf(txn, "wait\n");
		reg(NVDLA_UNIT_GLB, GLB_INTR_STATUS, 0xffffffffu);
	}
}

/* @n bytes as a data file; random ones, fp16 values if @fp16, else zeros. */
static int write_dat(const char *dir, const char *name, uint32_t n,
		     bool random, bool fp16)
{
	char path[4200];
	uint32_t i;
	uint16_t v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	for (i = 0; i < n; i++) {
		if (fp16 && !(i & 1))
			v = rnd_fp16();
		fprintf(f, "0x%02x%s", !random ? 0 : fp16 ? (v >> (i & 1) * 8) & 0xff :
			rnd(256), i % 32 == 31 || i + 1 == n ? "\n" : " ");
	}
	return fclose(f) ? -errno : 0;
}

static void describe(FILE *f, const struct layer *l)
{
	fprintf(f, "# %s format %u in %u, %ux%u, kernel %ux%u (C %u) x %u, stride %ux%u, pad l%u r%u t%u b%u, post-extension %u, cvt %u sign %u mean %u\n",
		l->proc == PREC_FP16 ? "fp16" : "int8", l->code, l->in,
		l->w, l->h, l->s, l->r, l->c, l->k, l->sx, l->sy, l->pl,
		l->pr, l->pt, l->pb, l->ext, l->cvt, l->sign, l->mean_on);
}

static int layer_write(const char *dir, const struct layer *l)
{
	uint32_t pixels = l->h * l->line, chroma = l->h * l->line_uv;
	uint32_t out = out_surfaces(l) * l->wo * l->ho * ATOM;
	bool fp16_pixels = l->fmt->fp16;
	char path[4200];
	int ret;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/input.txn", dir);
	txn = fopen(path, "w");
	if (!txn)
		return -errno;
	describe(txn, l);
	fprintf(txn, "load_mem 0x%x 0x%x pixels.dat\n", PIXEL_ADDR, pixels);
	if (chroma_bpp(l))
		fprintf(txn, "load_mem 0x%x 0x%x chroma.dat\n", CHROMA_ADDR,
			chroma);
	fprintf(txn, "load_mem 0x%x 0x%x weights.dat\n", WEIGHT_ADDR,
		weight_bytes(l));
	program_cdma(l);
	program_csc(l);
	program_cacc_sdp(l);
	enable_and_wait();
	fprintf(txn, "dump_mem 0x%x 0x%x output.dat\n", OUTPUT_ADDR, out);
	if (fclose(txn))
		return -errno;
	ret = write_dat(dir, "pixels.dat", pixels, true, fp16_pixels);
	if (!ret && chroma_bpp(l))
		ret = write_dat(dir, "chroma.dat", chroma, true, false);
	if (!ret)
		ret = write_dat(dir, "weights.dat", weight_bytes(l), true,
				l->proc == PREC_FP16);
	if (!ret)
		ret = write_dat(dir, "output.dat", out, false, false);
	return ret;
}

int main(int argc, char **argv)
{
	uint32_t proc = PREC_FP16, i, count;
	struct layer l;
	char dir[4000];
	int arg = 1, ret;

	if (argc > arg && (!strcmp(argv[arg], "--fp16") ||
			   !strcmp(argv[arg], "--int8"))) {
		proc = strcmp(argv[arg], "--fp16") ? PREC_INT8 : PREC_FP16;
		arg++;
	}
	if (argc > arg + 1 && !strcmp(argv[arg], "--format")) {
		only_format = atoi(argv[arg + 1]);
		arg += 2;
	}
	if (argc - arg != 3 || only_format >= NVDLA_PIXEL_FORMAT_COUNT ||
	    (only_format >= 0 && proc != PREC_FP16 &&
	     nvdla_pixel_layout(only_format)->fp16)) {
		fprintf(stderr, "usage: %s [--fp16 | --int8] [--format CODE] SEED COUNT DIR\n",
			argv[0]);
		return 2;
	}
	rng_state = strtoull(argv[arg], NULL, 0) * 2 + 1;
	count = strtoul(argv[arg + 1], NULL, 0);
	if (mkdir(argv[arg + 2], 0755) && errno != EEXIST) {
		perror(argv[arg + 2]);
		return 1;
	}
	for (i = 0; i < count; i++) {
		while (!layer_draw(&l, proc))
			;
		snprintf(dir, sizeof(dir), "%s/img_%s_%s_%04u", argv[arg + 2],
			 proc == PREC_FP16 ? "fp16" : "int8", argv[arg], i);
		ret = layer_write(dir, &l);
		if (ret) {
			fprintf(stderr, "%s: %s\n", dir, strerror(-ret));
			return 1;
		}
	}
	return 0;
}
