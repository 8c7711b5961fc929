// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The executor's windowed kernels: convolution (groups, dilation) and its
 * transpose, max and average pooling (ceil mode windows clipped to the
 * padded input, count_include_pad), LRN across channels as ONNX
 * defines it, and bilinear resizing (ONNX Resize, mode linear).
 */
#include <math.h>
#include <stdlib.h>

#include "emu.h"
#include "exec.h"

/* The outputs o in [*lo, *hi) whose tap o * stride + off lies in [0, size). */
static void tap_range(int out, int stride, int off, int size, int *lo, int *hi)
{
	*lo = off >= 0 ? 0 : (-off + stride - 1) / stride;
	*hi = size - off <= 0 ? 0 : (size - off + stride - 1) / stride;
	*hi = *hi < out ? *hi : out;
	*lo = *lo < *hi ? *lo : *hi;
}

/* What both convolutions read of their node besides its attributes. */
struct conv_io {
	const struct nvc_tensor *in, *out;
	const float *w, *b;	/* weights; bias or NULL */
	int cg, kg;		/* input and output channels per group */
	long ohw;		/* output plane */
};

static struct conv_io conv_io(const struct nvc_graph *g,
			      const struct nvc_node *nd)
{
	const struct nvc_conv_attr *a = &nd->conv;
	struct conv_io io = {
		.in = &g->tensors[nd->inputs[0]],
		.out = &g->tensors[nd->outputs[0]],
		.w = g->tensors[a->weights].data,
		.b = a->bias >= 0 ? g->tensors[a->bias].data : NULL,
	};

	io.cg = io.in->c / a->group;
	io.kg = io.out->c / a->group;
	io.ohw = (long)io.out->h * io.out->w;
	return io;
}

/*
 * One output plane at a time in doubles: each weight scales a strided
 * run of input rows, so the inner loop is over x.
 */
int nvc_exec_conv_ref(const struct nvc_graph *g, const struct nvc_node *nd,
		      const float *x, float *y)
{
	const struct nvc_conv_attr *a = &nd->conv;
	const struct conv_io io = conv_io(g, nd);
	double *acc = malloc(io.ohw * sizeof(*acc));
	long i;
	int k, c, oy, ox, ky, kx, ylo, yhi, xlo, xhi;

	if (!acc)
		return -1;
	for (k = 0; k < io.out->c; k++) {
		int c0 = k / io.kg * io.cg;

		for (i = 0; i < io.ohw; i++)
			acc[i] = io.b ? io.b[k] : 0;
		for (c = 0; c < io.cg; c++) {
			const float *xc = x + (long)(c0 + c) * io.in->h * io.in->w;
			const float *wc = io.w + ((long)k * io.cg + c) *
					  a->kh * a->kw;

			for (ky = 0; ky < a->kh; ky++) {
				int yoff = ky * a->dilation[0] - a->pad[0];

				tap_range(io.out->h, a->stride[0], yoff, io.in->h,
					  &ylo, &yhi);
				for (kx = 0; kx < a->kw; kx++) {
					int xoff = kx * a->dilation[1] - a->pad[1];
					double wv = wc[ky * a->kw + kx];

					tap_range(io.out->w, a->stride[1], xoff, io.in->w,
						  &xlo, &xhi);
					for (oy = ylo; oy < yhi; oy++) {
						long iy = oy * a->stride[0] + yoff;
						const float *row = xc + iy * io.in->w + xoff;
						double *ar = acc + (long)oy * io.out->w;
						int sx = a->stride[1];

						for (ox = xlo; ox < xhi; ox++)
							ar[ox] += wv * row[(long)ox * sx];
					}
				}
			}
		}
		for (i = 0; i < io.ohw; i++)
			y[k * io.ohw + i] = acc[i];
	}
	free(acc);
	return 0;
}

void nvc_exec_conv_transpose(const struct nvc_graph *g,
			     const struct nvc_node *nd, const float *x,
			     float *y)
{
	const struct nvc_conv_attr *a = &nd->conv;
	const struct conv_io io = conv_io(g, nd);
	long i;
	int c, j, iy, ix, ky, kx;

	for (c = 0; c < io.out->c; c++)
		for (i = 0; i < io.ohw; i++)
			y[c * io.ohw + i] = io.b ? io.b[c] : 0;
	for (c = 0; c < io.in->c; c++) {
		float *yg = y + (long)(c / io.cg) * io.kg * io.ohw;

		for (iy = 0; iy < io.in->h; iy++) {
			for (ix = 0; ix < io.in->w; ix++) {
				float v = x[((long)c * io.in->h + iy) * io.in->w + ix];

				for (j = 0; j < io.kg; j++) {
					const float *wj = io.w + ((long)c * io.kg + j) *
							  a->kh * a->kw;
					float *yj = yg + j * io.ohw;

					for (ky = 0; ky < a->kh; ky++) {
						int oy = iy * a->stride[0] - a->pad[0] +
							 ky * a->dilation[0];

						if (oy < 0 || oy >= io.out->h)
							continue;
						for (kx = 0; kx < a->kw; kx++) {
							int ox = ix * a->stride[1] - a->pad[1] +
								 kx * a->dilation[1];

							if (ox >= 0 && ox < io.out->w)
								yj[(long)oy * io.out->w + ox] +=
									v * wj[ky * a->kw + kx];
						}
					}
				}
			}
		}
	}
}

/* One window [start, end) on an axis of @size with head pad @pad. */
static void window(int o, int stride, int k, int pad, int tail, int size,
		   int *s, int *e, int *span)
{
	int start = o * stride - pad;
	int end = start + k < size + tail ? start + k : size + tail;

	*span = end - start;
	*s = start > 0 ? start : 0;
	*e = end < size ? end : size;
}

void nvc_exec_pool(const struct nvc_graph *g, const struct nvc_node *nd,
		   const float *x, float *y)
{
	const struct nvc_pool_attr *p = &nd->pool;
	const struct nvc_tensor *in = &g->tensors[nd->inputs[0]];
	const struct nvc_tensor *out = &g->tensors[nd->outputs[0]];
	int c, oy, ox, iy, ix, ys, ye, xs, xe, hspan, wspan;

	for (c = 0; c < out->c; c++) {
		const float *xc = x + (long)c * in->h * in->w;

		for (oy = 0; oy < out->h; oy++) {
			window(oy, p->stride[0], p->kh, p->pad[0], p->pad[2],
			       in->h, &ys, &ye, &hspan);
			for (ox = 0; ox < out->w; ox++) {
				double sum = 0;
				float max = -INFINITY;

				window(ox, p->stride[1], p->kw, p->pad[1],
				       p->pad[3], in->w, &xs, &xe, &wspan);
				for (iy = ys; iy < ye; iy++) {
					for (ix = xs; ix < xe; ix++) {
						float v = xc[(long)iy * in->w + ix];

						sum += v;
						max = v > max ? v : max;
					}
				}
				y[((long)c * out->h + oy) * out->w + ox] =
					p->type == NVC_POOL_MAX ? max :
					sum / (p->count_include_pad ?
					       (long)hspan * wspan :
					       (long)(ye - ys) * (xe - xs));
			}
		}
	}
}

void nvc_exec_lrn(const struct nvc_graph *g, const struct nvc_node *nd,
		  const float *x, float *y)
{
	const struct nvc_lrn_attr *a = &nd->lrn;
	const struct nvc_tensor *t = &g->tensors[nd->outputs[0]];
	long hw = (long)t->h * t->w, i;
	int c, j, lo = (a->size - 1) / 2, hi = a->size / 2;

	for (c = 0; c < t->c; c++) {
		for (i = 0; i < hw; i++) {
			double sum = 0;

			for (j = c - lo; j <= c + hi; j++)
				if (j >= 0 && j < t->c)
					sum += (double)x[j * hw + i] * x[j * hw + i];
			y[c * hw + i] = x[c * hw + i] /
				pow(a->bias + a->alpha / a->size * sum, a->beta);
		}
	}
}

/*
 * Where output pixel @o of @m samples an input of @n pixels by step @s,
 * clamped.
 */
static double resize_at(int coord, int o, int n, int m, double s)
{
	double x;

	switch (coord) {
	case EMU_COORD_ALIGN_CORNERS:
		x = m > 1 ? (double)o * (n - 1) / (m - 1) : 0;
		break;
	case EMU_COORD_ASYMMETRIC:
		x = o * s;
		break;
	case EMU_COORD_PYTORCH_HALF_PIXEL:
		x = m > 1 ? (o + 0.5) * s - 0.5 : 0;
		break;
	default:
		x = (o + 0.5) * s - 0.5;
		break;
	}
	return fmin(fmax(x, 0), n - 1);
}

void nvc_exec_resize(const struct nvc_tensor *ti, const struct nvc_tensor *t,
		     int coord, const float *step, const float *x, float *y)
{
	int c, h, w, x0, y0, x1, y1;
	double fx, fy, sy, sx;
	const float *p;

	for (c = 0; c < t->c; c++) {
		p = x + (long)c * ti->h * ti->w;
		for (h = 0; h < t->h; h++) {
			sy = resize_at(coord, h, ti->h, t->h, step[0]);
			y0 = (int)sy;
			y1 = y0 + 1 < ti->h ? y0 + 1 : y0;
			fy = sy - y0;
			for (w = 0; w < t->w; w++) {
				sx = resize_at(coord, w, ti->w, t->w, step[1]);
				x0 = (int)sx;
				x1 = x0 + 1 < ti->w ? x0 + 1 : x0;
				fx = sx - x0;
				*y++ = (float)((p[y0 * ti->w + x0] * (1 - fx) +
						p[y0 * ti->w + x1] * fx) * (1 - fy) +
					       (p[y1 * ti->w + x0] * (1 - fx) +
						p[y1 * ti->w + x1] * fx) * fy);
			}
		}
	}
}
