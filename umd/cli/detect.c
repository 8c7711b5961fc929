// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_runtime --detect: the head description, the decoding of a YOLO
 * head into scored boxes, and non-maximum suppression. The computation
 * follows tools/models/detect_ref.py, which tests/unit/compiler/test_detect.sh
 * compares it with.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"

struct box {
	double x0, y0, x1, y1, score;
	unsigned int cls;
	size_t order;		/* decoding order: ties keep it */
};

/* One line's words (after '#' nothing counts) into @word; their count. */
static int split_words(char *line, char *word[4])
{
	char *save, *w;
	int n = 0;

	line[strcspn(line, "#\n")] = '\0';
	for (w = strtok_r(line, " \t\r", &save); w;
	     w = strtok_r(NULL, " \t\r", &save))
		if (n++ < 4)
			word[n - 1] = w;
	return n;
}

/* A whole number from 1 to @max, or a positive finite number (@max 0). */
static int parse_positive(const char *s, double max, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end == s || *end || !isfinite(*v) || *v <= 0 ||
	       (max && (*v > max || *v != floor(*v))) ? -1 : 0;
}

/* One line of a .yolo file into @head; a message for @where otherwise. */
static int parse_line(char *line, const char *where, bool *magic,
		      struct cli_yolo_head *head)
{
	char *w[4];
	int n = split_words(line, w);
	double v[2];

	if (!n)
		return 0;
	if (!*magic) {
		*magic = n == 2 && !strcmp(w[0], "yolo") && !strcmp(w[1], "1");
		if (*magic)
			return 0;
		fprintf(stderr, "nvdla_runtime: %s: not a YOLO head description: the first line is not 'yolo 1'\n",
			where);
	} else if (!strcmp(w[0], "classes")) {
		if (n == 2 && !head->classes &&
		    !parse_positive(w[1], CLI_DETECT_MAX_CLASSES, v)) {
			head->classes = (unsigned int)v[0];
			return 0;
		}
		fprintf(stderr, head->classes ?
			"nvdla_runtime: %s: a second 'classes' line\n" :
			"nvdla_runtime: %s: 'classes' takes one whole number from 1 to %d\n",
			where, CLI_DETECT_MAX_CLASSES);
	} else if (!strcmp(w[0], "anchor")) {
		if (n == 3 && head->anchors < CLI_DETECT_MAX_ANCHORS &&
		    !parse_positive(w[1], 0, &v[0]) &&
		    !parse_positive(w[2], 0, &v[1])) {
			memcpy(head->anchor[head->anchors++], v, sizeof(v));
			return 0;
		}
		fprintf(stderr, head->anchors < CLI_DETECT_MAX_ANCHORS ?
			"nvdla_runtime: %s: 'anchor' takes a width and a height in pixels, positive numbers\n" :
			"nvdla_runtime: %s: more than %d anchors\n",
			where, CLI_DETECT_MAX_ANCHORS);
	} else {
		fprintf(stderr, "nvdla_runtime: %s: unknown line '%s' (yolo, classes or anchor)\n",
			where, w[0]);
	}
	return -EINVAL;
}

int cli_yolo_head_read(const char *path, struct cli_yolo_head *head)
{
	char line[256], where[4200];
	bool magic = false;
	unsigned int n = 0;
	int ret = 0;
	FILE *f = fopen(path, "r");

	memset(head, 0, sizeof(*head));
	if (!f) {
		fprintf(stderr, "nvdla_runtime: --detect: %s: %s\n", path,
			strerror(errno));
		return -errno;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		snprintf(where, sizeof(where), "%s:%u", path, ++n);
		if (!strchr(line, '\n') && !feof(f)) {
			fprintf(stderr, "nvdla_runtime: %s: line longer than %zu bytes\n",
				where, sizeof(line) - 2);
			ret = -EINVAL;
		} else {
			ret = parse_line(line, where, &magic, head);
		}
	}
	fclose(f);
	if (!ret && (!magic || !head->classes || !head->anchors)) {
		fprintf(stderr, "nvdla_runtime: %s: %s\n", path,
			!magic ? "not a YOLO head description: no 'yolo 1' line" :
			!head->classes ? "no 'classes' line" : "no 'anchor' line");
		ret = -EINVAL;
	}
	return ret;
}

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

/*
 * The box of anchor @a at cell (@gx, @gy) of the head @v (C x @gh x @gw),
 * for an image of @iw x @ih pixels: its best class and score.
 */
static void decode_cell(const struct cli_yolo_head *head, const float *v,
			int gw, int gh, int iw, int ih, unsigned int a, int gx,
			int gy, struct box *b)
{
	size_t plane = (size_t)gw * gh, base;
	double best, sum = 0, cx, cy, w, h;
	unsigned int k;

	base = (size_t)a * (5 + head->classes) * plane + (size_t)gy * gw + gx;
#define T(k) ((double)v[base + (size_t)(k) * plane])
	b->cls = 0;
	for (k = 1; k < head->classes; k++)
		if (T(5 + k) > T(5 + b->cls))
			b->cls = k;
	best = T(5 + b->cls);
	for (k = 0; k < head->classes; k++)
		sum += exp(T(5 + k) - best);
	b->score = sigmoid(T(4)) / sum;
	cx = (gx + sigmoid(T(0))) * iw / gw;
	cy = (gy + sigmoid(T(1))) * ih / gh;
	w = head->anchor[a][0] * exp(T(2));
	h = head->anchor[a][1] * exp(T(3));
#undef T
	b->x0 = fmax(cx - w / 2, 0);
	b->y0 = fmax(cy - h / 2, 0);
	b->x1 = fmin(cx + w / 2, iw);
	b->y1 = fmin(cy + h / 2, ih);
}

/* Whether output 0 (@out) is a head @head decodes for input 0 (@in). */
static int check_shape(const struct cli_yolo_head *head,
		       const struct nvdla_tensor_desc *in,
		       const struct nvdla_tensor_desc *out)
{
	unsigned int need = head->anchors * (5 + head->classes);

	if (out->c != (int32_t)need) {
		fprintf(stderr, "nvdla_runtime: --detect: output 0 has %d channels, the head described has %u anchors x (5 + %u classes) = %u\n",
			out->c, head->anchors, head->classes, need);
		return -EINVAL;
	}
	if (out->w <= 0 || out->h <= 0 || in->w % out->w || in->h % out->h) {
		fprintf(stderr, "nvdla_runtime: --detect: the %dx%d input is not a whole number of cells of output 0's %dx%d grid\n",
			in->w, in->h, out->w, out->h);
		return -EINVAL;
	}
	return 0;
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

int cli_detect(struct nvdla_network *net, const struct cli_yolo_head *head,
	       double threshold, double nms)
{
	struct nvdla_tensor_desc in, out;
	size_t n, cells, count = 0, i;
	struct box *b;
	float *v;
	int ret, gx, gy;
	unsigned int a;

	ret = nvdla_network_input_desc(net, 0, &in);
	if (!ret)
		ret = nvdla_network_output_desc(net, 0, &out);
	if (!ret)
		ret = check_shape(head, &in, &out);
	if (ret)
		return ret;
	cells = (size_t)out.w * out.h;
	n = cells * out.c;
	v = malloc(n * sizeof(*v));
	b = malloc(cells * head->anchors * sizeof(*b));
	ret = !v || !b ? -ENOMEM : nvdla_network_output_values(net, 0, v, n);
	for (a = 0; !ret && a < head->anchors; a++)
		for (gy = 0; gy < out.h; gy++)
			for (gx = 0; gx < out.w; gx++) {
				decode_cell(head, v, out.w, out.h, in.w, in.h,
					    a, gx, gy, &b[count]);
				b[count].order = count;
				count += b[count].score >= threshold;
			}
	if (!ret) {
		qsort(b, count, sizeof(*b), by_score);
		count = suppress(b, count, nms);
		for (i = 0; i < count; i++)
			printf("box %.2f %.2f %.2f %.2f %u %.4f\n", b[i].x0,
			       b[i].y0, b[i].x1, b[i].y1, b[i].cls,
			       b[i].score);
	}
	free(b);
	free(v);
	return ret;
}
