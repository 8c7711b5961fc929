// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The executor's convolution as a blocked matrix product, per group:
 * weights (output channels x taps) times the input unrolled into taps x
 * output pixels (im2col), a block of pixels and of taps at a time, over
 * threads that take blocks of pixels in turn. Each output is its bias
 * plus the products w * x added in double in tap order (input channel,
 * kernel row, kernel column), the order of nvc_exec_conv_ref(): the same
 * values on every CPU, vector width and thread count. Taps that fall in
 * the padding add 0.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"

#define MR 4		/* output channels of the micro-kernel (its rows) */
#define NR 8		/* output pixels of the micro-kernel: two v4d */
#define NB (8 * NR)	/* output pixels a thread takes at a time */
#define KC 256		/* taps packed at a time */

static int jobs_setting;	/* 0: one thread per online CPU */

void nvc_exec_set_jobs(int n)
{
	jobs_setting = n;
}

static int jobs(void)
{
	long n = jobs_setting ? jobs_setting : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > NVC_JOBS_MAX ? NVC_JOBS_MAX : n;
}

struct gemm {
	const struct nvc_graph *g;
	const struct nvc_node *nd;
	const float *x;
	float *y;
	double *w;		/* per group: [mp][k][MR], zero rows past kg */
	int cg, kg, mp, k;	/* channels per group, MR panels, taps */
	long ohw, blocks;	/* output plane; its NB blocks over all groups */
	long next;		/* the next block to take */
	int err;
};

static struct gemm gemm_of(const struct nvc_graph *g, const struct nvc_node *nd,
			   const float *x, float *y)
{
	const struct nvc_conv_attr *a = &nd->conv;
	const struct nvc_tensor *in = &g->tensors[nd->inputs[0]];
	const struct nvc_tensor *out = &g->tensors[nd->outputs[0]];
	struct gemm m = { .g = g, .nd = nd, .x = x, .y = y };

	m.cg = in->c / a->group;
	m.kg = out->c / a->group;
	m.mp = (m.kg + MR - 1) / MR;
	m.k = m.cg * a->kh * a->kw;
	m.ohw = (long)out->h * out->w;
	m.blocks = (m.ohw + NB - 1) / NB * a->group;
	return m;
}

/* The weights in double, as the micro-kernel reads them. */
static int pack_weights(struct gemm *m)
{
	const struct nvc_conv_attr *a = &m->nd->conv;
	const float *w = m->g->tensors[a->weights].data;
	long panel = (long)m->k * MR, n = panel * m->mp * a->group;
	int gr, o, t;

	m->w = calloc(n, sizeof(*m->w));
	if (!m->w)
		return -1;
	for (gr = 0; gr < a->group; gr++)
		for (o = 0; o < m->kg; o++) {
			double *p = m->w + (gr * m->mp + o / MR) * panel + o % MR;
			const float *src = w + ((long)gr * m->kg + o) * m->k;

			for (t = 0; t < m->k; t++)
				p[(long)t * MR] = src[t];
		}
	return 0;
}

/*
 * Taps [@t0, @t0 + @kc) of output pixels [@p0, @p0 + NB) of group @gr's
 * input into @b: [NB / NR][kc][NR], 0 for padding and pixels past the
 * plane. @oy and @ox: each pixel's first input row and column (tap 0),
 * a row far outside for pixels past the plane.
 */
static void pack_input(const struct gemm *m, int gr, int t0, int kc,
		       const int *oy, const int *ox, double *b)
{
	const struct nvc_conv_attr *a = &m->nd->conv;
	const struct nvc_tensor *in = &m->g->tensors[m->nd->inputs[0]];
	int t, j, jp;

	for (t = 0; t < kc; t++) {
		int tap = t0 + t, kx = tap % a->kw, ky = tap / a->kw % a->kh;
		int c = gr * m->cg + tap / (a->kw * a->kh);
		const float *xc = m->x + (long)c * in->h * in->w;
		int dy = ky * a->dilation[0], dx = kx * a->dilation[1];

		for (jp = 0; jp < NB / NR; jp++) {
			double *d = b + ((long)jp * kc + t) * NR;

			for (j = 0; j < NR; j++) {
				int iy = oy[jp * NR + j] + dy, ix = ox[jp * NR + j] + dx;

				d[j] = (unsigned)iy < (unsigned)in->h &&
				       (unsigned)ix < (unsigned)in->w ?
				       xc[(long)iy * in->w + ix] : 0;
			}
		}
	}
}

/* Four doubles, one AVX2 register (two SSE2 or NEON ones, or scalars). */
typedef double v4d __attribute__((vector_size(32)));

/*
 * c[MR][NR] (rows @ldc apart) += a[kc][MR] times b[kc][NR], one tap after
 * the other, the tile in registers. On x86-64 built twice, for AVX2 and
 * for the baseline, and chosen at load: the vector width changes the
 * speed, not the sums (each product of two floats is exact in double,
 * so a fused multiply-add gives the same bits).
 */
#if defined(__x86_64__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
static void kernel(int kc, const double *a, const double *b, double *c,
		   long ldc)
{
	v4d t[MR][2], b0, b1;
	int i, k;

	/* Copies, not casts: c and b need not be 32-byte aligned. */
	for (i = 0; i < MR; i++)
		memcpy(t[i], c + i * ldc, sizeof(t[i]));
	for (k = 0; k < kc; k++, a += MR, b += NR) {
		memcpy(&b0, b, sizeof(b0));
		memcpy(&b1, b + 4, sizeof(b1));
		t[0][0] += a[0] * b0;
		t[0][1] += a[0] * b1;
		t[1][0] += a[1] * b0;
		t[1][1] += a[1] * b1;
		t[2][0] += a[2] * b0;
		t[2][1] += a[2] * b1;
		t[3][0] += a[3] * b0;
		t[3][1] += a[3] * b1;
	}
	for (i = 0; i < MR; i++)
		memcpy(c + i * ldc, t[i], sizeof(t[i]));
}

/* Output block @blk (a group's NB pixels), with buffers @b and @acc. */
static void run_block(const struct gemm *m, long blk, double *b, double *acc)
{
	const struct nvc_conv_attr *a = &m->nd->conv;
	const float *bias = a->bias >= 0 ? m->g->tensors[a->bias].data : NULL;
	long per = (m->ohw + NB - 1) / NB, p0 = blk % per * NB;
	const struct nvc_tensor *out = &m->g->tensors[m->nd->outputs[0]];
	int gr = blk / per, o, j, t0, kc, ip, jp, oy[NB], ox[NB];
	const double *w = m->w + (long)gr * m->mp * m->k * MR;

	for (o = 0; o < m->mp * MR; o++)
		for (j = 0; j < NB; j++)
			acc[o * NB + j] = bias && o < m->kg ? bias[gr * m->kg + o] : 0;
	for (j = 0; j < NB; j++) {
		long p = p0 + j;

		oy[j] = p < m->ohw ? p / out->w * a->stride[0] - a->pad[0] : INT_MIN / 2;
		ox[j] = p % out->w * a->stride[1] - a->pad[1];
	}
	for (t0 = 0; t0 < m->k; t0 += KC) {
		kc = m->k - t0 < KC ? m->k - t0 : KC;
		pack_input(m, gr, t0, kc, oy, ox, b);
		for (ip = 0; ip < m->mp; ip++)
			for (jp = 0; jp < NB / NR; jp++)
				kernel(kc, w + ((long)ip * m->k + t0) * MR,
				       b + (long)jp * kc * NR,
				       acc + (long)ip * MR * NB + jp * NR, NB);
	}
	for (o = 0; o < m->kg; o++)
		for (j = 0; j < NB && p0 + j < m->ohw; j++)
			m->y[((long)gr * m->kg + o) * m->ohw + p0 + j] =
				acc[o * NB + j];
}

static void *worker(void *arg)
{
	struct gemm *m = arg;
	double *b = malloc((long)KC * NB * sizeof(*b));
	double *acc = malloc((long)m->mp * MR * NB * sizeof(*acc));
	long blk;

	if (!b || !acc)
		__atomic_store_n(&m->err, 1, __ATOMIC_RELAXED);
	while (b && acc &&
	       (blk = __atomic_fetch_add(&m->next, 1, __ATOMIC_RELAXED)) <
	       m->blocks)
		run_block(m, blk, b, acc);
	free(b);
	free(acc);
	return NULL;
}

int nvc_exec_conv(const struct nvc_graph *g, const struct nvc_node *nd,
		  const float *x, float *y)
{
	struct gemm m = gemm_of(g, nd, x, y);
	pthread_t th[NVC_JOBS_MAX];
	int n = jobs(), started = 0, i;

	if (n > m.blocks)
		n = m.blocks;
	if (pack_weights(&m))
		return -1;
	while (started < n - 1 &&
	       !pthread_create(&th[started], NULL, worker, &m))
		started++;
	worker(&m);	/* this thread too: the work is done if none started */
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(m.w);
	return m.err ? -1 : 0;
}
