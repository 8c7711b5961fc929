// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * int8 weights: one scale per kernel; activations: one a tensor. The back
 * end quantises with these, and bias correction and the per-layer errors
 * (calib_error.c) measure the error of exactly these codes.
 */
#include <math.h>

#include "quality.h"

void nvc_weight_absmax(const float *w, int k, size_t per, float *ws)
{
	size_t i;
	int j;

	for (j = 0; j < k; j++) {
		ws[j] = 0;
		for (i = 0; i < per; i++)
			ws[j] = fmaxf(ws[j], fabsf(w[j * per + i]));
	}
}

void nvc_weight_scales(float *ws, int k)
{
	float top = 0;
	int i;

	for (i = 0; i < k; i++) {
		ws[i] /= 127.0f;
		top = fmaxf(top, ws[i]);
	}
	for (i = 0; i < k; i++) {
		if (top == 0)
			ws[i] = 1.0f;
		else if (ws[i] < top / NVC_WEIGHT_RATIO)
			ws[i] = top / NVC_WEIGHT_RATIO;
	}
}

signed char nvc_weight_code(float v, float s)
{
	return (signed char)fmaxf(fminf(rintf(v / s), 127), -127);
}

float nvc_act_scale(const struct nvc_tensor *t)
{
	float m = fmaxf(fabsf(t->min), fabsf(t->max));

	return m > 0 ? m / 127.0f : 1.0f / 127.0f;
}
