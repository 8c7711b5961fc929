/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * int8 calibration: the activation range of every tensor over a
 * directory of images or .npy arrays run through the float executor (calib.c), by one
 * of three statistics of the magnitudes (calib_stats.c).
 */
#ifndef __NVDLA_COMPILER_CALIB_H__
#define __NVDLA_COMPILER_CALIB_H__

#include <stdint.h>

#include "compiler.h"

#define NVC_CALIB_BINS 2048		/* histogram of |x| over [0, max |x|] */
#define NVC_CALIB_QUANT_BINS 128	/* int8 magnitudes */

enum nvc_calib_method { NVC_CALIB_MINMAX, NVC_CALIB_PERCENTILE,
			NVC_CALIB_ENTROPY };

/* How image pixels p (gray, or B, G, R) become input values: (p - mean) / normalize. */
struct nvc_pixel_map {
	float mean[3];
	float normalize;
};

struct nvc_calib_options {
	enum nvc_calib_method method;
	double percentile;		/* PERCENTILE: of |x|, e.g. 99.99 */
	struct nvc_pixel_map pixels;
	/* Where nvc_calibrate() says it left files out (NULL: nowhere). */
	char *note;
	size_t note_len;
};

/*
 * The threshold on |x| below which @pct percent of the @bins-bin
 * histogram @hist over [0, @amax] lies (the upper edge of its bin).
 */
double nvc_calib_percentile(const uint64_t *hist, int bins, double amax,
			    double pct);

/*
 * The threshold on |x| that loses least information when the magnitudes
 * are quantised to NVC_CALIB_QUANT_BINS levels: the clipping point (a
 * bin edge from NVC_CALIB_QUANT_BINS bins up) minimising the KL
 * divergence between the clipped histogram (outliers in its last bin)
 * and its quantised form, as TensorRT's entropy calibration. The first
 * bin counts as its neighbour (a ReLU's zeros would otherwise decide);
 * with fewer values than bins the whole range is kept.
 */
double nvc_calib_entropy(const uint64_t *hist, int bins, double amax);

/*
 * Image @path as the values of graph input @t (C x H x W, gray for one
 * channel, B, G, R for three) into @out.
 */
int nvc_image_input(const char *path, const struct nvc_tensor *t,
		    const struct nvc_pixel_map *m, float *out, char *err,
		    size_t errlen);

/*
 * The .npy array @path (float32, float16, uint8 or int8, C order, of
 * @t's shape with or without batch 1) as @t's values, as they are, into
 * @out (the runtime's reader, umd/io/npy.c).
 */
int nvc_npy_read(const char *path, const struct nvc_tensor *t, float *out,
		 char *err, size_t errlen);

/*
 * Run every image (.pgm .ppm .pnm .png .jpg .jpeg) or every .npy array
 * of directory @dir through @g and set each activation tensor's
 * calibrated range. Of a directory holding both kinds, the images, with
 * a note in @o->note.
 */
int nvc_calibrate(struct nvc_graph *g, const char *dir,
		  const struct nvc_calib_options *o, char *err, size_t errlen);

/*
 * Run every image of directory @dir (as nvc_calibrate takes them) through
 * @g, calling @fn with every tensor's values after each; a non-zero
 * return of @fn (a negative errno, its message in @err) stops the run.
 */
int nvc_calib_each(struct nvc_graph *g, const char *dir,
		   const struct nvc_calib_options *o,
		   int (*fn)(void *ctx, float *const *values), void *ctx,
		   char *err, size_t errlen);

/*
 * calib_error.c: whether node @n's int8 error is measured (a
 * convolution: the layers mixed precision can keep in fp16).
 */
bool nvc_layer_measured(const struct nvc_node *n);

/*
 * Each measured node's int8 error over the inputs of @dir (as
 * nvc_calibrate takes them; @g calibrated): its output from its float
 * input with the back end's int8 weights, rounded to its int8 scale,
 * against the float one, as a signal-to-noise ratio in dB into
 * @snr[node] (INFINITY: no error; NAN: not measured).
 */
int nvc_layer_errors(struct nvc_graph *g, const char *dir,
		     const struct nvc_calib_options *o, double *snr,
		     char *err, size_t errlen);

/* @percent of @g's measured nodes, rounded up. */
int nvc_mixed_count(const struct nvc_graph *g, double percent);

/* The @n measured nodes of lowest @snr into @fp16 (per node; ties: first). */
void nvc_mixed_choose(const struct nvc_graph *g, const double *snr, int n,
		      bool *fp16);

#endif /* __NVDLA_COMPILER_CALIB_H__ */
