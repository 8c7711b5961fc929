// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The calibration statistics on a histogram of magnitudes: a percentile,
 * and the entropy (KL divergence) threshold search.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

double nvc_calib_percentile(const uint64_t *hist, int bins, double amax,
			    double pct)
{
	double total = 0, sum = 0;
	int i;

	for (i = 0; i < bins; i++)
		total += hist[i];
	for (i = 0; i < bins; i++) {
		sum += hist[i];
		if (sum >= total * pct / 100)
			break;
	}
	return i < bins ? amax * (i + 1) / bins : amax;
}

/*
 * Normalise @p (@n values) to a distribution and move a little mass to
 * its empty bins so that the divergence stays finite. Returns 0 if @p
 * has no mass.
 */
static int smooth(double *p, int n)
{
	const double eps = 1e-4;
	double sum = 0, eps1;
	int i, zeros = 0;

	for (i = 0; i < n; i++) {
		sum += p[i];
		zeros += p[i] == 0;
	}
	if (sum == 0 || zeros == n)
		return 0;
	eps1 = eps * zeros / (n - zeros);
	for (i = 0; i < n; i++) {
		p[i] = p[i] ? p[i] / sum - eps1 : eps;
		if (p[i] <= 0)
			p[i] = eps * eps;	/* a bin far below the others */
	}
	return 1;
}

/* KL(P || Q) for clipping at bin @n of @hist. */
static double divergence(const uint64_t *hist, int bins, int n, double *p,
			 double *q)
{
	double outliers = 0, kl = 0;
	int j, k;

	for (k = 0; k < n; k++)
		p[k] = hist[k];
	for (k = n; k < bins; k++)
		outliers += hist[k];
	p[n - 1] += outliers;
	/* Q: the unclipped bins merged into the int8 levels, spread back
	 * over the bins that had mass. */
	for (j = 0; j < NVC_CALIB_QUANT_BINS; j++) {
		int start = j * (n / NVC_CALIB_QUANT_BINS);
		int stop = j == NVC_CALIB_QUANT_BINS - 1 ? n :
			   start + n / NVC_CALIB_QUANT_BINS;
		double sum = 0;
		int nonzero = 0;

		for (k = start; k < stop; k++) {
			sum += hist[k];
			nonzero += hist[k] != 0;
		}
		for (k = start; k < stop; k++)
			q[k] = hist[k] && nonzero ? sum / nonzero : 0;
	}
	if (!smooth(p, n) || !smooth(q, n))
		return INFINITY;
	for (k = 0; k < n; k++)
		kl += p[k] * log(p[k] / q[k]);
	return kl;
}

double nvc_calib_entropy(const uint64_t *hist, int bins, double amax)
{
	double *p = malloc(bins * sizeof(*p)), *q = malloc(bins * sizeof(*q));
	uint64_t *h = malloc(bins * sizeof(*h));
	double best = INFINITY, total = 0;
	int n, at = bins;

	for (n = 0; n < bins; n++)
		total += hist[n];
	/* Fewer values than bins make no distribution: keep the range. */
	if (!p || !q || !h || bins < NVC_CALIB_QUANT_BINS || total < bins) {
		free(p);
		free(q);
		free(h);
		return amax;
	}
	/*
	 * The first bin holds the exact zeros of a ReLU's output: given the
	 * count of its neighbour, they do not decide the threshold.
	 */
	memcpy(h, hist, bins * sizeof(*h));
	h[0] = h[1];
	for (n = NVC_CALIB_QUANT_BINS; n <= bins; n++) {
		double kl = divergence(h, bins, n, p, q);

		if (kl < best) {
			best = kl;
			at = n;
		}
	}
	free(p);
	free(q);
	free(h);
	return amax * at / bins;
}
