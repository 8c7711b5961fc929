/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Post-training tools for int8 (docs/compiler.md, "int8 quality"):
 * cross-layer equalization of the float weights (pass_equalize.c), bias
 * correction from calibration data (pass_bias.c), and the int8 weight
 * quantisation both they and the back end use (quant_weights.c).
 */
#ifndef __NVDLA_COMPILER_QUALITY_H__
#define __NVDLA_COMPILER_QUALITY_H__

#include <stddef.h>

#include "calib.h"

/*
 * A convolution's largest weight scale over its smallest: a kernel whose
 * scale would be smaller gets the largest / NVC_WEIGHT_RATIO. A near-dead
 * channel (|w| ~ 1e-38) would otherwise make its multiplier and its bias
 * in accumulator units huge, push the shifts shared by all channels to
 * their limits and round the other channels' biases to 0.
 */
#define NVC_WEIGHT_RATIO 64.0f

/* Each of @k kernels' largest |weight| (@per weights each, from @w) in @ws. */
void nvc_weight_absmax(const float *w, int k, size_t per, float *ws);

/*
 * The int8 scales of @k kernels from their largest |weight| in @ws, in
 * place: max |w| / 127, at least the largest / NVC_WEIGHT_RATIO; all 1
 * when every weight is 0.
 */
void nvc_weight_scales(float *ws, int k);

/* Weight @v as the int8 code of scale @s (rounded, within +-127). */
signed char nvc_weight_code(float v, float s);

/*
 * The int8 scale of activation tensor @t: the symmetric one of its
 * calibrated range, max |x| / 127 (1/127 for a range of 0).
 */
float nvc_act_scale(const struct nvc_tensor *t);

enum nvc_equalize { NVC_EQ_NONE, NVC_EQ_EXACT, NVC_EQ_RELU6 };

/*
 * Cross-layer equalization: for each convolution whose output only one
 * other convolution reads, through no activation, ReLU, LeakyRelu or
 * PRelu and maybe a pooling (positive scaling commutes with them), scale
 * each channel so that its weight range in the first equals that in the
 * second; repeated over the chains until the scales settle. The float
 * network computes the same. NVC_EQ_RELU6 also equalizes through
 * Clip(0, M) (ReLU6), which becomes a ReLU there: that changes the float
 * network wherever a value exceeded M. With @dir (calibration images
 * mapped by @o), each channel's largest |value| over them replaces the
 * first convolution's weight range, in one pass. Returns the number of
 * pairs equalized, or a negative errno with a message.
 */
int nvc_equalize(struct nvc_graph *g, enum nvc_equalize mode,
		 const char *dir, const struct nvc_calib_options *o, char *err,
		 size_t errlen);

/*
 * Bias correction: for each convolution, the mean over the images of
 * @dir and over the output plane of what its int8 weights add to each
 * output channel (the convolution of its float input with the weights'
 * rounding error) is subtracted from its bias. Returns 0 or a negative
 * errno with a message.
 */
int nvc_bias_correct(struct nvc_graph *g, const char *dir,
		     const struct nvc_calib_options *o, char *err,
		     size_t errlen);

#endif /* __NVDLA_COMPILER_QUALITY_H__ */
