// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_detect_decode(): the heads of a .yolo file decoded into scored
 * boxes, then one greedy non-maximum suppression across all heads. The
 * computation follows tools/models/detect_ref.py, which
 * tests/unit/compiler/test_detect.sh compares it with.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "detect.h"
#include "message.h"
#include "runtime_internal.h"

struct box {
	double x0, y0, x1, y1, score;
	unsigned int cls;
	size_t order;		/* decoding order: ties keep it */
};

/* A head's output and the input's size, as one decoding reads them. */
struct head_view {
	const struct detect_head *head;
	const struct nvdla_detect_output *out;
	unsigned int classes;
	int32_t width, height;
};

static double sigmoid(double v)
{
	return 1.0 / (1.0 + exp(-v));
}

static double iou(const struct box *a, const struct box *b)
{
	double w = fmin(a->x1, b->x1) - fmax(a->x0, b->x0);
	double h = fmin(a->y1, b->y1) - fmax(a->y0, b->y0);
	double inter = w * h;

	if (w <= 0 || h <= 0)
		return 0;
	return inter / ((a->x1 - a->x0) * (a->y1 - a->y0) +
			(b->x1 - b->x0) * (b->y1 - b->y0) - inter);
}

/* Best score first; equal scores in decoding order. */
static int by_score(const void *pa, const void *pb)
{
	const struct box *a = pa, *b = pb;

	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* The box of anchor @a at cell (@gx, @gy) of @v: its best class, score. */
static void decode_cell(const struct head_view *v, unsigned int a, int gx,
			int gy, struct box *b)
{
	size_t plane = (size_t)v->out->w * v->out->h, base;
	const float *t = v->out->values;
	double best, sum = 0, cx, cy, w, h, s = v->head->stride;
	unsigned int k;

	base = (size_t)a * (5 + v->classes) * plane +
	       (size_t)gy * v->out->w + gx;
#define T(k) ((double)t[base + (size_t)(k) * plane])
	b->cls = 0;
	for (k = 1; k < v->classes; k++)
		if (T(5 + k) > T(5 + b->cls))
			b->cls = k;
	best = T(5 + b->cls);
	for (k = 0; k < v->classes; k++)
		sum += exp(T(5 + k) - best);
	b->score = sigmoid(T(4)) / sum;
	cx = (gx + sigmoid(T(0))) * s;
	cy = (gy + sigmoid(T(1))) * s;
	w = v->head->anchor[a][0] * exp(T(2));
	h = v->head->anchor[a][1] * exp(T(3));
#undef T
	b->x0 = fmax(cx - w / 2, 0);
	b->y0 = fmax(cy - h / 2, 0);
	b->x1 = fmin(cx + w / 2, v->width);
	b->y1 = fmin(cy + h / 2, v->height);
}

/* Whether @v's output is the head it describes; a message otherwise. */
static int check_head(const struct head_view *v, char *err, size_t errlen)
{
	const struct detect_head *h = v->head;
	const struct nvdla_detect_output *o = v->out;
	unsigned int need = h->anchors * (5 + v->classes);

	if (!o->values || o->c != (int32_t)need)
		return nvdla_message(err, errlen, -EINVAL,
				     "output %u has %d channels, the head described has %u anchors x (5 + %u classes) = %u",
				     h->output, o->c, h->anchors, v->classes,
				     need);
	if ((int64_t)o->w * h->stride != v->width ||
	    (int64_t)o->h * h->stride != v->height)
		return nvdla_message(err, errlen, -EINVAL,
				     "output %u's %dx%d grid at stride %u does not cover the %dx%d input",
				     h->output, o->w, o->h, h->stride, v->width,
				     v->height);
	return 0;
}

/* The boxes of @v scoring at least @threshold appended to @b at *@count. */
static void decode_head(const struct head_view *v, double threshold,
			struct box *b, size_t *count, size_t *order)
{
	unsigned int a;
	int gx, gy;

	for (a = 0; a < v->head->anchors; a++)
		for (gy = 0; gy < v->out->h; gy++)
			for (gx = 0; gx < v->out->w; gx++) {
				decode_cell(v, a, gx, gy, &b[*count]);
				b[*count].order = (*order)++;
				*count += b[*count].score >= threshold;
			}
}

/* Greedy suppression on @b (sorted): the count kept at its front. */
static size_t suppress(struct box *b, size_t n, double nms)
{
	size_t i, k, kept = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < kept; k++)
			if (b[k].cls == b[i].cls && iou(&b[k], &b[i]) > nms)
				break;
		if (k == kept)
			b[kept++] = b[i];
	}
	return kept;
}

/* The views of every head of @y; how many boxes they may give. */
static int view_heads(const struct nvdla_yolo *y,
		      const struct nvdla_detect_output *outputs,
		      unsigned int num_outputs, int32_t width, int32_t height,
		      struct head_view *v, size_t *cells, char *err,
		      size_t errlen)
{
	unsigned int i;
	int ret;

	*cells = 0;
	for (i = 0; i < y->heads; i++) {
		if (y->head[i].output >= num_outputs)
			return nvdla_message(err, errlen, -EINVAL,
					     "a head on output %u, of a network of %u outputs",
					     y->head[i].output, num_outputs);
		v[i] = (struct head_view){ &y->head[i],
					   &outputs[y->head[i].output],
					   y->classes, width, height };
		ret = check_head(&v[i], err, errlen);
		if (ret)
			return ret;
		*cells += (size_t)v[i].out->w * v[i].out->h * y->head[i].anchors;
	}
	return 0;
}

NVDLA_EXPORT int nvdla_detect_decode(const struct nvdla_yolo *yolo,
				     const struct nvdla_detect_output *outputs,
				     unsigned int num_outputs, int32_t width,
				     int32_t height, float threshold, float nms,
				     struct nvdla_detect_box *boxes,
				     size_t max_boxes, char *err, size_t errlen)
{
	struct head_view v[NVDLA_DETECT_MAX_HEADS];
	size_t cells, count = 0, order = 0, i;
	struct box *b;
	int ret;

	if (!(threshold >= 0 && threshold <= 1 && nms >= 0 && nms <= 1))
		return nvdla_message(err, errlen, -EINVAL,
				     "the score threshold (%g) and the IoU of the suppression (%g) are numbers from 0 to 1",
				     threshold, nms);
	ret = view_heads(yolo, outputs, num_outputs, width, height, v, &cells,
			 err, errlen);
	if (ret)
		return ret;
	b = malloc(cells * sizeof(*b));
	if (!b)
		return nvdla_message(err, errlen, -ENOMEM,
				     "no memory for %zu boxes", cells);
	for (i = 0; i < yolo->heads; i++)
		decode_head(&v[i], threshold, b, &count, &order);
	qsort(b, count, sizeof(*b), by_score);
	count = suppress(b, count, nms);
	for (i = 0; boxes && i < count && i < max_boxes; i++)
		boxes[i] = (struct nvdla_detect_box){
			(float)b[i].x0, (float)b[i].y0, (float)b[i].x1,
			(float)b[i].y1, (float)b[i].score, b[i].cls };
	free(b);
	return (int)count;
}
